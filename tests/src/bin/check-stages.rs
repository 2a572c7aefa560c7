//! Times the stages of `chess-ls --check` on one thread, to see where the
//! time goes: reading, splitting into pieces, tree-sitter parsing, lowering
//! to `GameSyntax`, analysis (language inference and replay), and dropping
//! the trees.
//!
//! ```text
//! check-stages [--piece-kb N] FILE.pgn
//! ```
//!
//! It does what `cli::check` does for one file on one thread (the same
//! piece size by default), with a clock around each stage. The clock is the
//! thread's CPU time (`/proc/thread-self/schedstat`, in nanoseconds) where
//! Linux has it, so that other processes on a shared machine do not count;
//! elsewhere it is the wall clock. Run it in release
//! (`cargo run --release -p chess-ls-tests --bin check-stages`).

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The CPU time of this thread, or the wall time since the first call.
fn now() -> Duration {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let cpu = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()));
    match cpu {
        Some(ns) => Duration::from_nanos(ns),
        None => EPOCH.get_or_init(Instant::now).elapsed(),
    }
}

use chess_ls::analysis::{self, Options};
use chess_ls::syntax;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut piece_kb = 32;
    let mut path = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--piece-kb" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => piece_kb = n,
                None => return usage("--piece-kb needs a number"),
            },
            _ if path.is_none() && !arg.starts_with('-') => path = Some(arg),
            _ => return usage(&format!("unexpected `{arg}`")),
        }
    }
    let Some(path) = path else { return usage("the file is missing") };

    let start = now();
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("check-stages: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let read = now() - start;

    let start = now();
    let pieces = syntax::split::split_at_games(&text, piece_kb * 1024);
    let split = now() - start;

    let options = Options::default();
    let mut parser = syntax::parser();
    let (mut parse, mut lower, mut analyse, mut drop) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let (mut games, mut diagnostics) = (0, 0);
    for range in &pieces {
        let piece = &text[range.clone()];
        let start = now();
        let tree = syntax::parse_with(&mut parser, piece, None);
        parse += now() - start;

        let start = now();
        let lowered = syntax::lower(&tree, piece);
        lower += now() - start;

        let start = now();
        for game in &lowered {
            diagnostics += analysis::analyze_game(game, piece, &options).diagnostics.len();
        }
        games += lowered.len();
        analyse += now() - start;

        let start = now();
        std::mem::drop(lowered);
        std::mem::drop(tree);
        drop += now() - start;
    }

    let total = read + split + parse + lower + analyse + drop;
    let mb = text.len() as f64 / 1e6;
    // This tool reports on stdout (the lint against printing guards the
    // language server, whose stdout is the protocol).
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{path}: {mb:.1} MB, {} pieces of {piece_kb} KB, {games} games, {diagnostics} diagnostics",
        pieces.len()
    );
    for (stage, time) in [
        ("read", read),
        ("split", split),
        ("parse (tree-sitter)", parse),
        ("lower", lower),
        ("analyse", analyse),
        ("drop trees and games", drop),
        ("total", total),
    ] {
        let share = 100.0 * time.as_secs_f64() / total.as_secs_f64();
        let _ =
            writeln!(out, "{stage:22} {:8.3} s {share:5.1} % {:8.1} MB/s", time.as_secs_f64(), mb / time.as_secs_f64());
    }
    ExitCode::SUCCESS
}

fn usage(message: &str) -> ExitCode {
    eprintln!("check-stages: {message}\nusage: check-stages [--piece-kb N] FILE.pgn");
    ExitCode::from(2)
}
