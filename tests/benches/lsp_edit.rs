//! Keystroke-to-diagnostics latency of the language server's document
//! model on generated documents of 1 MB and 10 MB (thousands of games), the
//! time of a full open, and the memory a document takes.
//!
//! `cargo bench -p chess-ls-tests --bench lsp_edit`
//!
//! One "keystroke" is a one-character edit inside a random game (a move's
//! square changed and, on the next keystroke, changed back), applied with
//! `Document::apply_changes` (rope, tree edit, incremental reparse, re-analysis
//! of the touched game) followed by the conversion of every diagnostic of
//! the document to LSP, which is what `publishDiagnostics` sends.

// A benchmark's figures are its output.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::ide::document::{ByteChange, Document};
use chess_ls::ide::line_index::Unit;
use chess_ls::lsp::handlers::diagnostics;
use chess_ls_tests::generate::{RenderOptions, SplitMix64, corpus};

/// Counts live heap bytes, so that the memory figure is what the document
/// holds, not what the allocator kept from the open's temporary work.
struct Counting;

static LIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[allow(unsafe_code)]
unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        LIVE.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live_bytes() -> usize {
    LIVE.load(std::sync::atomic::Ordering::Relaxed)
}

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn run(label: &str, target_bytes: usize, language: Language) {
    let style = MoveStyle::for_language(language);
    let mut text = String::new();
    let mut seed = 1;
    while text.len() < target_bytes {
        text.push_str(&corpus(seed, 500, &style, &RenderOptions::default()));
        text.push('\n');
        seed += 1;
    }
    let options = Options::default();
    let uri: tower_lsp_server::ls_types::Uri = "file:///bench.pgn".parse().expect("uri");
    let text_len = text.len();
    let before = rss_kib();
    let live_before = live_bytes() - text_len;
    let start = Instant::now();
    let mut doc = Document::open(text, 1, &options);
    let open = start.elapsed();
    let after = rss_kib();
    let live = live_bytes() - live_before;
    let games = doc.game_count();
    let mb = doc.text.len() as f64 / 1e6;

    // Edit positions: the first letter of a square of a move in a random
    // game, found by scanning for "e4"-like text after a move number.
    let mut rng = SplitMix64::new(7);
    let mut latencies = Vec::new();
    let mut version = 1;
    for _ in 0..300 {
        let at = loop {
            let i = rng.below(doc.text.len() - 10);
            let bytes = doc.text.as_bytes();
            if bytes[i] == b'.'
                && bytes[i + 1] == b' '
                && bytes[i + 2].is_ascii_lowercase()
                && bytes[i + 3].is_ascii_digit()
            {
                break i + 3;
            }
        };
        let original = doc.text[at..at + 1].to_owned();
        let changed = if original == "4" { "5" } else { "4" };
        for replacement in [changed, original.as_str()] {
            version += 1;
            let t = Instant::now();
            doc.apply_changes(
                vec![ByteChange { range: Some(at..at + 1), text: replacement.to_owned() }],
                version,
                &options,
            );
            let published = diagnostics::collect(&doc, &uri, Unit::Utf16);
            latencies.push(t.elapsed());
            std::hint::black_box(published);
        }
    }
    latencies.sort();
    let rss = match (before, after) {
        (Some(b), Some(a)) => format!("{:.0} MB", a.saturating_sub(b) as f64 / 1024.0),
        _ => "n/a".to_owned(),
    };
    let memory = format!(
        "{:.1} MB live heap ({:.1}x the text; RSS grew {rss})",
        live as f64 / 1e6,
        live as f64 / text_len as f64
    );
    println!(
        "{label}: {mb:.1} MB, {games} games | open {:.0} ms | edit->diagnostics p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} edits) | memory {memory}",
        open.as_secs_f64() * 1e3,
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().expect("edits").as_secs_f64() * 1e3,
        latencies.len(),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then
    // only check that it runs, on a small text.
    if !std::env::args().any(|a| a == "--bench") {
        run("smoke", 100_000, Language::En);
        return;
    }
    run("1 MB English", 1_000_000, Language::En);
    run("10 MB English", 10_000_000, Language::En);
    run("10 MB Russian", 10_000_000, Language::Ru);
}
