//! Nothing the user wrote is lost.
//!
//! - Formatting (`textDocument/formatting`): over random documents with
//!   comments (one-line and multi-line, with odd characters), `;` comments,
//!   `%` escapes, variations, NAGs and irregular blanks, the layout keeps
//!   every non-blank character in order, every comment and escape byte for
//!   byte, the same games with the same findings, and formatting twice
//!   changes nothing more.
//! - Writing files (`--fix`, `--translate --write`): a run killed at any
//!   moment leaves each file either as it was or completely rewritten, never
//!   in between (the text is written to a temporary file that is renamed
//!   over the original).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::ide::document::Document;
use chess_ls::ide::format::format_text;
use chess_ls::syntax;
use chess_ls_tests::generate::{RenderOptions, SplitMix64, corpus, random_game, render_game};
use proptest::prelude::*;

/// Odd things people and exporters put in comments.
const COMMENT_TEXTS: &[&str] = &[
    "good move",
    "a\nmulti-line\n  comment",
    "tab\there",
    "😀 emoji and ♘ figurine",
    "right\u{200F}to\u{200E}left marks",
    "no\u{00A0}break\u{2003}em space",
    "zero\u{200B}width",
    "[%clk 0:03:12]",
    "(not a variation) and ; not a line comment",
    "\r\nCRLF inside\r\n",
    "",
    "  padded  ",
];

/// A random document: games whose moves are followed, here and there, by
/// comments, variations, NAGs, line comments and odd blanks.
fn document(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::new();
    for g in 0..1 + rng.below(3) {
        let style = MoveStyle::for_language(if rng.below(2) == 0 { Language::En } else { Language::Ru });
        let moves = random_game(seed * 7 + g as u64, 10 + rng.below(40));
        let opts = RenderOptions { headers: rng.below(3) != 0, ..RenderOptions::default() };
        let game = render_game(&moves, &style, &opts);
        let mut text = String::new();
        let mut at = 0;
        for m in &game.moves {
            text.push_str(&game.text[at..m.byte_range.end]);
            at = m.byte_range.end;
            match rng.below(14) {
                0 => text.push_str(&format!(" {{{}}}", COMMENT_TEXTS[rng.below(COMMENT_TEXTS.len())])),
                1 => text.push_str(&format!(" ${}", rng.below(140))),
                2 => text.push_str(&format!(" ({})", m.san)),
                3 => text.push_str(&format!(" ({} {{{}}})", m.san, COMMENT_TEXTS[rng.below(COMMENT_TEXTS.len())])),
                4 => text.push_str(" ; a line comment\n"),
                5 => text.push_str(&format!(" ({} ; comment in a variation\n)", m.san)),
                6 => text.push_str("\n% an escape line\n"),
                7 => text.push_str(["  ", "\t", "\n", "\r\n", "\n\n"][rng.below(5)]),
                8 => text.push_str(&format!(" ({} ({}))", m.san, m.san)),
                _ => {}
            }
        }
        text.push_str(&game.text[at..]);
        out.push_str(&text);
        out.push_str(["\n\n", "\n", "\r\n\r\n"][rng.below(3)]);
    }
    out
}

/// The texts of the comments, line comments and escapes, in order.
fn comments(text: &str) -> Vec<String> {
    let tree = syntax::parse(text, None);
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if matches!(node.kind(), "comment" | "line_comment" | "escape") {
            out.push(text[node.byte_range()].trim_end().to_owned());
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// What the analysis finds, without positions: each code with the text it
/// is about.
fn findings(text: &str) -> Vec<(String, String)> {
    let doc = Document::open(text.to_owned(), 1, &Options::default());
    doc.diagnostics().map(|d| (d.code.as_str().to_owned(), text[d.span.clone()].split_whitespace().collect())).collect()
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn formatting_keeps_every_character_and_comment(seed in 0u64..1_000_000) {
        let text = document(seed);
        let doc = Document::open(text.clone(), 1, &Options::default());
        let readable = doc.sections.iter().all(|p| !p.tree(&doc).root_node().has_error());
        prop_assume!(readable);
        let formatted = format_text(&doc);
        // `format_text` gives up rather than lose a character; on a
        // document the grammar reads, it must not need to.
        prop_assert!(formatted.is_some(), "formatting gave up on {:?}", text);
        let formatted = formatted.unwrap();
        prop_assert_eq!(squeeze(&formatted), squeeze(&text));
        prop_assert_eq!(comments(&formatted), comments(&text), "a comment changed in {:?}", formatted);
        prop_assert_eq!(findings(&formatted), findings(&text), "the games changed: {:?}", formatted);
        let again = format_text(&Document::open(formatted.clone(), 1, &Options::default()));
        prop_assert_eq!(again.as_deref(), Some(formatted.as_str()), "formatting twice changed more");
    }
}

#[test]
fn a_line_comment_in_a_variation_stays_a_line_comment() {
    let text = "1. e4 e5 (1... c5 ; the Sicilian\n2. Nf3) 2. Nf3 {a\nlong comment} Nc6 *\n";
    let doc = Document::open(text.to_owned(), 1, &Options::default());
    let formatted = format_text(&doc).expect("formats");
    assert_eq!(comments(&formatted), comments(text), "{formatted:?}");
    assert_eq!(findings(&formatted), findings(text), "{formatted:?}");
}

/// A copy of `text` in a fresh directory, for one interrupted run.
fn fresh_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("writable");
    path
}

/// Runs `chess-ls ARGS FILE` to the end, once, for what a complete run
/// writes; then again and again killed after a growing delay, checking each
/// time that the file is the original or the complete result, and that no
/// half-written file took its place.
fn interrupted_runs_leave_whole_files(args: &[&str], original: &[u8], name: &str) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("interrupted-{name}"));
    let binary = chess_ls_tests::binary::chess_ls();
    let path = fresh_file(&root, name, original);
    let output = Command::new(&binary).args(args).arg(&path).stdout(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.code().is_some_and(|c| c <= 1), "{args:?}: {:?} {stderr}", output.status);
    let complete = std::fs::read(&path).unwrap();
    assert_ne!(complete, original, "{args:?} changed nothing, so the test would prove nothing");

    let mut rng = SplitMix64::new(7);
    let mut outcomes = [0usize; 2];
    let started = Instant::now();
    // Delays from 0 to about the time of a whole run, densest early.
    let full = {
        let path = fresh_file(&root, name, original);
        let t = Instant::now();
        Command::new(&binary).args(args).arg(&path).stdout(Stdio::null()).stderr(Stdio::null()).status().unwrap();
        t.elapsed()
    };
    for round in 0..24 {
        let path = fresh_file(&root, name, original);
        let mut child =
            Command::new(&binary).args(args).arg(&path).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        let micros = full.as_micros() as usize * (round % 12 + 1) / 12;
        std::thread::sleep(Duration::from_micros((micros + rng.below(2000)) as u64));
        let _ = child.kill(); // SIGKILL: no destructor, no cleanup
        let _ = child.wait();
        let now = std::fs::read(&path).expect("the file is still there");
        if now == original {
            outcomes[0] += 1;
        } else if now == complete {
            outcomes[1] += 1;
        } else {
            panic!("{args:?} killed after {micros} µs left a file of {} bytes that is neither", now.len());
        }
        // A temporary file may be left beside it (a killed process cannot
        // clean up), but never under the file's own name.
        for entry in std::fs::read_dir(&root).unwrap() {
            let entry = entry.unwrap().file_name().into_string().unwrap();
            assert!(entry == name || (entry.starts_with('.') && entry.ends_with(".tmp")), "left behind: {entry}");
        }
        if started.elapsed() > Duration::from_secs(30) {
            break;
        }
    }
    eprintln!("{args:?}: {} runs killed before the rename, {} after", outcomes[0], outcomes[1]);
}

/// Some 400 KB of Russian games with a few safe mistakes (look-alike Latin
/// letters for Cyrillic ones), so that `--fix` has work to write.
fn damaged_russian() -> Vec<u8> {
    let text = corpus(3, 1000, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    text.replacen("Кf3", "Kf3", 50).into_bytes()
}

#[test]
fn an_interrupted_fix_leaves_the_file_whole() {
    interrupted_runs_leave_whole_files(&["--fix"], &damaged_russian(), "games.pgn");
}

#[test]
fn an_interrupted_translation_leaves_the_file_whole() {
    let text = corpus(5, 1000, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    interrupted_runs_leave_whole_files(&["--translate", "ru", "--write"], text.as_bytes(), "english.pgn");
}
