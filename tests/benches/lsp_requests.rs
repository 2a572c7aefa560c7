//! Requests an editor sends, timed over stdio against the real `chess-ls`
//! binary (release build): the Source Action menu (code actions asked for
//! by kind `source`, as VS Code's menu does), the resolve of the action
//! picked (translate the document), "fix all", and a quick-fix at the
//! cursor, on generated documents of 2,000 games (about 240 KB) and of
//! 20,000 games.
//!
//! `cargo bench -p chess-ls-tests --bench lsp_requests` (`QUICK=1` for one
//! size and few rounds, as the test command runs it).

// A benchmark's figures are its output.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls_tests::generate::{RenderOptions, corpus};
use chess_ls_tests::lsp_client::Client;
use serde_json::{Value, json};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// Times `rounds` runs of a request; returns p50, p99 and the answer's size.
fn time(client: &mut Client, rounds: usize, method: &str, params: &Value) -> (Duration, Duration, usize) {
    let mut times = Vec::with_capacity(rounds);
    let mut size = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        let answer = client.request(method, params.clone());
        times.push(t.elapsed());
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        size = answer.to_string().len();
    }
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.99), size)
}

fn main() {
    let quick = std::env::var_os("QUICK").is_some();
    let sizes: &[usize] = if quick { &[2_000] } else { &[2_000, 20_000] };
    let rounds = if quick { 5 } else { 50 };
    println!("| document | request | p50 | p99 | answer |");
    println!("|---|---|---|---|---|");
    for &games in sizes {
        let text = corpus(42, games, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
        let uri = "file:///bench/requests.pgn";
        let mut client = Client::start();
        // A client that resolves code actions, as VS Code does.
        client.call(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": {"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}},
            }),
        );
        client.notify("initialized", json!({}));
        client.open(uri, &text);
        client.diagnostics(uri, 1);
        let label = format!("{:.0} KB, {games} games", text.len() as f64 / 1024.0);
        let middle = text.lines().count() as u32 / 2;
        let at = json!({"start": {"line": middle, "character": 4}, "end": {"line": middle, "character": 4}});
        let source_menu =
            json!({"textDocument": {"uri": uri}, "range": at, "context": {"diagnostics": [], "only": ["source"]}});
        let (p50, p99, size) = time(&mut client, rounds, "textDocument/codeAction", &source_menu);
        println!("| {label} | Source Action menu (only: source) | {} | {} | {size} B |", ms(p50), ms(p99));
        let cursor = json!({"textDocument": {"uri": uri}, "range": at, "context": {"diagnostics": []}});
        let (p50, p99, size) = time(&mut client, rounds, "textDocument/codeAction", &cursor);
        println!("| {label} | code actions at the cursor | {} | {} | {size} B |", ms(p50), ms(p99));
        let menu = client.call("textDocument/codeAction", source_menu);
        let translate = menu
            .as_array()
            .expect("actions")
            .iter()
            .find(|a| a["kind"] == "source.chess-ls.translate.en")
            .expect("translate to English is offered")
            .clone();
        let (p50, p99, size) = time(&mut client, rounds.min(10), "codeAction/resolve", &translate);
        println!("| {label} | resolve: translate the document to English | {} | {} | {size} B |", ms(p50), ms(p99));
        client.shutdown();
    }
}
