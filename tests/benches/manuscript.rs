//! Manuscripts: the time to check a generated 500-page book (about 1 MB of
//! prose with games in it, `chess_ls_tests::manuscript`) as `--check` does,
//! and in the language server the time to open it and the latency from a
//! keystroke (in a run of moves, or in the prose) to the diagnostics.
//!
//! `cargo bench -p chess-ls-tests --bench manuscript`

// A benchmark's figures are its output.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::Language;
use chess_ls::ide::document::{ByteChange, Document, Kind};
use chess_ls::ide::line_index::Unit;
use chess_ls::lsp::handlers::diagnostics;
use chess_ls::syntax::manuscript::Format;
use chess_ls_tests::check_manuscript as check_text;
use chess_ls_tests::generate::SplitMix64;
use chess_ls_tests::manuscript::{Layout, book};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Keystrokes at random places among those `pick` accepts (one character
/// changed, then changed back), each timed up to the diagnostics ready to
/// publish.
fn keystrokes(
    doc: &mut Document,
    n: usize,
    pick: impl Fn(&str, usize) -> Option<(usize, &'static str)>,
) -> Vec<Duration> {
    let options = Options::default();
    let uri: tower_lsp_server::ls_types::Uri = "file:///book.txt".parse().expect("uri");
    let places: Vec<(usize, (usize, &'static str))> = (8..doc.text.len() - 3)
        .filter(|&i| doc.text.is_char_boundary(i))
        .filter_map(|i| pick(&doc.text, i).map(|c| (i, c)))
        .collect();
    assert!(!places.is_empty(), "places to type at");
    let mut rng = SplitMix64::new(11);
    let mut latencies = Vec::new();
    let mut version = 1;
    for _ in 0..n {
        let (at, (len, changed)) = places[rng.below(places.len())];
        let original = doc.text[at..at + len].to_owned();
        for replacement in [changed, original.as_str()] {
            version += 1;
            let t = Instant::now();
            doc.apply_changes(
                vec![ByteChange { range: Some(at..at + len), text: replacement.to_owned() }],
                version,
                &options,
            );
            let published = diagnostics::collect(doc, &uri, Unit::Utf16);
            latencies.push(t.elapsed());
            std::hint::black_box(published);
        }
    }
    latencies.sort();
    latencies
}

fn run(language: Language, layout: Layout, size: usize, edits: usize) {
    let generated = book(1, size, language, layout);
    let text = generated.text;
    let format = match layout {
        Layout::Text => Format::Text,
        Layout::Markdown => Format::Markdown,
        Layout::Latex => Format::Latex,
    };
    let kind = match layout {
        Layout::Text => Kind::Text,
        Layout::Markdown => Kind::Markdown,
        Layout::Latex => Kind::Latex,
    };
    let options = Options::default();
    let t = Instant::now();
    let scanned = chess_ls::syntax::manuscript::scan(&text, format);
    let scan = t.elapsed();
    std::hint::black_box(scanned);
    let t = Instant::now();
    let (games, found) = check_text(&text, format, &options);
    let check = t.elapsed();
    assert!(found.is_empty(), "the generated book checks clean: {:?}", &found[..found.len().min(3)]);
    let t = Instant::now();
    let mut doc = Document::open_as(kind, text.clone(), 1, &options);
    let open = t.elapsed();
    // The rank of a move's square right after a move number (`12. Nf3`,
    // `12. e4`): the run changes, and the runs that go on from it.
    let in_run = keystrokes(&mut doc, edits, |text, i| {
        let b = text.as_bytes();
        let numbered = b[i - 8..i].windows(2).any(|w| w == b". ");
        (numbered && b[i].is_ascii_digit() && (b'a'..=b'h').contains(&b[i - 1]) && b[i + 1] == b' ')
            .then_some((1, if b[i] == b'4' { "5" } else { "4" }))
    });
    // In the prose: a letter inside a word (Latin or Cyrillic).
    let in_prose = keystrokes(&mut doc, edits, |text, i| {
        let mut chars = text[i..].chars();
        let (c, next) = (chars.next()?, chars.next()?);
        let before = text[..i].chars().next_back()?;
        let letter = |c: char| c.is_ascii_lowercase() || ('а'..='я').contains(&c);
        (letter(before) && letter(c) && letter(next)).then(|| {
            let replacement = match (c.is_ascii(), c) {
                (true, 'z') => "y",
                (true, _) => "z",
                (false, 'ж') => "з",
                (false, _) => "ж",
            };
            (c.len_utf8(), replacement)
        })
    });
    println!(
        "{} {:?}, {:.2} MB, {} chapters, {games} games (runs of notation) | scan {:.1} ms | check {:.0} ms | open {:.0} ms | keystroke in a run p50 {:.2} ms, p99 {:.2} ms | in prose p50 {:.2} ms, p99 {:.2} ms",
        language.name(),
        layout,
        text.len() as f64 / 1e6,
        generated.games,
        ms(scan),
        ms(check),
        ms(open),
        ms(percentile(&in_run, 0.5)),
        ms(percentile(&in_run, 0.99)),
        ms(percentile(&in_prose, 0.5)),
        ms(percentile(&in_prose, 0.99)),
    );
}

fn main() {
    // For a profiler: the reading of a manuscript alone, many times.
    if std::env::var_os("SCAN_ONLY").is_some() {
        let text = book(1, 1_000_000, Language::En, Layout::Text).text;
        for _ in 0..100 {
            std::hint::black_box(chess_ls::syntax::manuscript::scan(&text, Format::Text));
        }
        return;
    }
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then
    // only check that it runs, on a small text.
    if !std::env::args().any(|a| a == "--bench") {
        run(Language::En, Layout::Text, 50_000, 5);
        return;
    }
    let edits = std::env::var("EDITS").ok().and_then(|e| e.parse().ok()).unwrap_or(50);
    run(Language::En, Layout::Text, 1_000_000, edits);
    run(Language::Ru, Layout::Markdown, 1_000_000, edits);
    run(Language::De, Layout::Latex, 1_000_000, edits);
}
