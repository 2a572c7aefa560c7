//! Requests an editor sends, timed over stdio against the real `chess-ls`
//! binary (release build): the Source Action menu (code actions asked for
//! by kind `source`, as VS Code's menu does), the resolve of the action
//! picked (translate the document), and code actions at the cursor, on
//! generated Russian documents of about 1 MB (900 games), 2.3 MB (2,000
//! games) and 11 MB (9,600 games).
//!
//! Then typing: a keystroke every 60 ms at a random game (a move's square
//! changed, and back on the next keystroke), each followed at once by what
//! VS Code sends after a change: `semanticTokens/full/delta`,
//! `documentSymbol`, `foldingRange`, code actions at the cursor and a
//! hover; the figures are the time from the keystroke to the published
//! diagnostics and to each answer.
//!
//! After the typing, a settings change that changes every game's analysis,
//! with a hover sent right after it: how long the hover waits, and how long
//! until the new analysis is published. First of all, bare games (no tags)
//! on one line: the time to open them, the server's peak memory, and a
//! keystroke's diagnostics.
//!
//! `cargo bench -p chess-ls-tests --bench lsp_requests` (`QUICK=1` for one
//! size and few rounds, `TYPING_ONLY=1` for the keystrokes alone, as for a
//! profiler attached to the server, `ONE_LINE_ONLY=1` for the bare games on
//! one line alone; the test command's `cargo test --benches` runs a small
//! smoke document).

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

/// Types `keystrokes` edits 60 ms apart into the open document, each with
/// VS Code's requests after a change; prints the latencies.
fn typing(client: &mut Client, uri: &str, text: &str, label: &str, keystrokes: usize, only_folding: bool) {
    let mut rng = chess_ls_tests::generate::SplitMix64::new(9);
    let lines: Vec<&str> = text.lines().collect();
    // Lines of moves, with a square to type over (its rank).
    let typable: Vec<(u32, u32)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("1. "))
        .filter_map(|(i, l)| {
            let at = l.char_indices().find(|&(k, c)| k > 3 && ('1'..='8').contains(&c))?.0;
            Some((i as u32, l[..at].chars().count() as u32))
        })
        .collect();
    let mut result_id: Option<String> = None;
    let first = client.call("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    if let Some(id) = first["resultId"].as_str() {
        result_id = Some(id.to_owned());
    }
    let mut waits: std::collections::BTreeMap<&str, Vec<Duration>> = Default::default();
    let mut version = 1;
    let mut pending: Option<(u32, u32, String)> = None;
    for _ in 0..keystrokes {
        let started = Instant::now();
        // Type a new rank, or put the old one back.
        let (line, character, new) = match pending.take() {
            Some((line, character, old)) => (line, character, old),
            None => {
                let (line, character) = typable[rng.below(typable.len())];
                let old = lines[line as usize].chars().nth(character as usize).unwrap().to_string();
                pending = Some((line, character, old));
                (line, character, "5".to_owned())
            }
        };
        version += 1;
        let range =
            json!({"start": {"line": line, "character": character}, "end": {"line": line, "character": character + 1}});
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": range, "text": new}]}),
        );
        let at = json!({"line": line, "character": character});
        // The lines on screen around the cursor.
        let visible = json!({"start": {"line": line.saturating_sub(25), "character": 0}, "end": {"line": line + 25, "character": 0}});
        let folding =
            (client.send_request("textDocument/foldingRange", json!({"textDocument": {"uri": uri}})), "foldingRange");
        let mut asked: Vec<(i64, &str)> = if only_folding {
            vec![folding]
        } else {
            vec![folding,
            (
                client.send_request(
                    "textDocument/semanticTokens/range",
                    json!({"textDocument": {"uri": uri}, "range": visible}),
                ),
                "semanticTokens/range",
            ),
            (
                client.send_request(
                    "textDocument/semanticTokens/full/delta",
                    json!({"textDocument": {"uri": uri}, "previousResultId": result_id.clone().unwrap_or_default()}),
                ),
                "semanticTokens/full/delta",
            ),
            (client.send_request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}})), "documentSymbol"),
            (
                client.send_request(
                    "textDocument/codeAction",
                    json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at}, "context": {"diagnostics": []}}),
                ),
                "codeAction",
            ),
            (
                client.send_request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": at})),
                "hover",
            ),
            (
                client.send_request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": at})),
                "completion",
            ),
        ]
        };
        let mut published = false;
        while !asked.is_empty() || !published {
            let Some(message) = client.next_message() else { panic!("the server stopped answering") };
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["version"] == version {
                waits.entry("diagnostics published").or_default().push(started.elapsed());
                published = true;
            } else if let Some(k) =
                asked.iter().position(|(id, _)| message["id"] == *id && message.get("method").is_none())
            {
                let (_, name) = asked.remove(k);
                waits.entry(name).or_default().push(started.elapsed());
                if name.starts_with("semanticTokens")
                    && let Some(id) = message["result"]["resultId"].as_str()
                {
                    result_id = Some(id.to_owned());
                }
            }
        }
        let spent = started.elapsed();
        if spent < Duration::from_millis(60) {
            std::thread::sleep(Duration::from_millis(60) - spent);
        }
    }
    for (name, mut times) in waits {
        times.sort();
        println!(
            "| {label} | keystroke -> {name} | {} | {} | {} keystrokes |",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
            times.len()
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` (the test
    // command, a debug build) does not: then a smoke run of a small document.
    let smoke = !std::env::args().any(|a| a == "--bench");
    let quick = smoke || std::env::var_os("QUICK").is_some();
    // `SIZES=900,9600` picks the documents (in games).
    let chosen: Option<Vec<usize>> =
        std::env::var("SIZES").ok().map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let sizes: &[usize] = if smoke {
        &[60]
    } else if let Some(chosen) = &chosen {
        chosen
    } else if quick {
        &[900]
    } else {
        &[900, 2_000, 9_600]
    };
    let keystrokes = if smoke {
        5
    } else if quick {
        20
    } else {
        300
    };
    let rounds = if quick { 5 } else { 50 };
    // Built before anything is timed (the first client would build it).
    chess_ls_tests::binary::chess_ls();
    println!("| document | request | p50 | p99 | answer |");
    println!("|---|---|---|---|---|");
    // As many bare games as the biggest document has games.
    one_line(sizes.iter().copied().max().unwrap_or(60), keystrokes.min(100));
    if std::env::var_os("ONE_LINE_ONLY").is_some() {
        return;
    }
    for &games in sizes {
        let text = corpus(42, games, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
        let uri = "file:///bench/requests.pgn";
        // A client that resolves code actions and keeps 5,000 folding
        // ranges, as VS Code does.
        let mut client = start(
            uri,
            &text,
            json!({"textDocument": {
                "codeAction": {"resolveSupport": {"properties": ["edit"]}},
                "foldingRange": {"rangeLimit": 5000},
            }}),
        );
        let label = format!("{:.0} KB, {games} games", text.len() as f64 / 1024.0);
        if std::env::var_os("TYPING_ONLY").is_some() {
            // The keystrokes alone (for a profiler attached to the server).
            typing(&mut client, uri, &text, &label, keystrokes, false);
            client.shutdown();
            continue;
        }
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
        typing(&mut client, uri, &text, &label, keystrokes, false);
        settings_change(&mut client, uri, &label, if quick { 3 } else { 10 });
        client.shutdown();
        // Folding ranges for a client that sets no limit: every fold.
        let mut client = start(uri, &text, json!({}));
        typing(&mut client, uri, &text, &format!("{label}, no rangeLimit"), keystrokes / 3 + 1, true);
        client.shutdown();
    }
}

/// A settings change that changes every game's analysis (missing check
/// marks reported, then not), with a hover sent right after it: the time
/// the hover waits, and the time until the new analysis is published.
fn settings_change(client: &mut Client, uri: &str, label: &str, rounds: usize) {
    let middle = json!({"line": 3, "character": 4});
    let mut hovers = Vec::new();
    let mut republished = Vec::new();
    for round in 0..rounds {
        let started = Instant::now();
        client.notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"chess-ls": {"reportMissingCheckMarks": round % 2 == 0}}}),
        );
        let hover =
            client.send_request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": middle}));
        let (mut answered, mut published) = (false, false);
        while !answered || !published {
            let Some(message) = client.next_message() else { panic!("the server stopped answering") };
            if message["id"] == hover && message.get("method").is_none() {
                hovers.push(started.elapsed());
                answered = true;
            } else if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                republished.push(started.elapsed());
                published = true;
            }
        }
    }
    for (name, mut times) in [("hover right after it", hovers), ("its diagnostics published", republished)] {
        times.sort();
        println!(
            "| {label} | settings change -> {name} | {} | {} | {} changes |",
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
            times.len()
        );
    }
}

/// Bare games (no tags) on one line, as some exports and pastes are: the
/// time to open it (to its diagnostics), the server's peak memory, and a
/// keystroke's diagnostics (a rank typed over and back, 60 ms apart).
fn one_line(games: usize, keystrokes: usize) {
    let bare = RenderOptions { headers: false, wrap_column: None, ..RenderOptions::default() };
    let text = corpus(43, games, &MoveStyle::for_language(Language::En), &bare).replace('\n', " ");
    let uri = "file:///bench/one-line.pgn";
    let label = format!("{:.0} KB of bare games on one line", text.len() as f64 / 1024.0);
    let started = Instant::now();
    let mut client = start(uri, &text, json!({}));
    let opened = started.elapsed();
    let peak = std::fs::read_to_string(format!("/proc/{}/status", client.pid()))
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_owned())
        })
        .and_then(|kb| kb.parse::<f64>().ok())
        .unwrap_or(0.0);
    println!("| {label} | open -> diagnostics published | {} | | peak {:.0} MB |", ms(opened), peak / 1024.0);
    let mut rng = chess_ls_tests::generate::SplitMix64::new(11);
    // The characters (the line's columns) of the ranks of squares.
    let chars: Vec<char> = text.chars().collect();
    let ranks: Vec<u32> = (1..chars.len())
        .filter(|&k| ('1'..='8').contains(&chars[k]) && ('a'..='h').contains(&chars[k - 1]))
        .map(|k| k as u32)
        .collect();
    let mut times = Vec::new();
    let mut version = 1;
    let mut pending: Option<(u32, String)> = None;
    for _ in 0..keystrokes {
        let (character, new) = match pending.take() {
            Some(back) => back,
            None => {
                let at = ranks[rng.below(ranks.len())];
                let old = chars[at as usize].to_string();
                pending = Some((at, old));
                (at, "5".to_owned())
            }
        };
        version += 1;
        let started = Instant::now();
        let range =
            json!({"start": {"line": 0, "character": character}, "end": {"line": 0, "character": character + 1}});
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": range, "text": new}]}),
        );
        client.diagnostics(uri, version);
        times.push(started.elapsed());
        let spent = started.elapsed();
        if spent < Duration::from_millis(60) {
            std::thread::sleep(Duration::from_millis(60) - spent);
        }
    }
    times.sort();
    println!(
        "| {label} | keystroke -> diagnostics published | {} | {} | {} keystrokes |",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.99)),
        times.len()
    );
    client.shutdown();
}

/// Starts the server, initializes it with the client's `capabilities` and
/// opens `text` (waiting for its diagnostics).
fn start(uri: &str, text: &str, capabilities: Value) -> Client {
    let mut client = Client::start();
    client.call("initialize", json!({"processId": null, "rootUri": null, "capabilities": capabilities}));
    client.notify("initialized", json!({}));
    client.open(uri, text);
    client.diagnostics(uri, 1);
    client
}
