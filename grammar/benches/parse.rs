//! Parse speed of the grammar on ~10 MB of generated PGN: a full parse, and
//! the incremental reparse after a one-character edit that an editor makes
//! on every keystroke.
//!
//! Run with `cargo bench -p tree-sitter-chess`. The text comes from the
//! deterministic generator in `games/`, so the figures need no corpus and
//! are comparable from run to run.

use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use tree_sitter::{InputEdit, Parser, Point, Tree};

mod games;

const SIZE: usize = 10_000_000;

static ENGLISH: LazyLock<String> = LazyLock::new(|| games::pgn(&games::ENGLISH, SIZE, 1));
static RUSSIAN: LazyLock<String> = LazyLock::new(|| games::pgn(&games::RUSSIAN, SIZE, 2));

fn main() {
    divan::main();
}

fn parser() -> Parser {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_chess::LANGUAGE.into()).expect("the chess grammar loads");
    parser
}

fn text(language: &str) -> &'static str {
    match language {
        "en" => &ENGLISH,
        _ => &RUSSIAN,
    }
}

/// A whole file parsed from scratch, as when an editor opens it.
#[divan::bench(args = ["en", "ru"], sample_count = 10, sample_size = 1)]
fn full_parse(bencher: Bencher, language: &str) {
    let text = text(language);
    let mut parser = parser();
    bencher.counter(BytesCount::of_str(text)).bench_local(|| {
        let tree = parser.parse(text, None).expect("parse");
        assert!(!tree.root_node().has_error());
        tree
    });
}

/// One keystroke in the middle of the file: a square's file letter changes
/// (`f3` becomes `d3`). Editing the old tree and building the inputs happen
/// outside the measurement; only the reparse is timed.
#[divan::bench(args = ["en", "ru"], sample_count = 100, sample_size = 1)]
fn reparse_after_one_character_edit(bencher: Bencher, language: &str) {
    let text = text(language);
    let mut parser = parser();
    let tree = parser.parse(text, None).expect("parse");
    let (edited, edit) = edit_a_square_in_the_middle(text);
    let mut edited_tree = tree.clone();
    edited_tree.edit(&edit);
    bencher.with_inputs(|| edited_tree.clone()).bench_local_values(|old_tree: Tree| {
        let new_tree = parser.parse(&edited, Some(&old_tree)).expect("reparse");
        (old_tree, new_tree)
    });
    let new_tree = parser.parse(&edited, Some(&edited_tree)).expect("reparse");
    assert!(!new_tree.root_node().has_error());
    assert_eq!(new_tree.root_node().child_count(), tree.root_node().child_count());
}

/// Replaces the file letter of the first square `f3` after the middle of
/// the text with `d`, so that the text keeps its length and still parses.
fn edit_a_square_in_the_middle(text: &str) -> (String, InputEdit) {
    let middle = text.len() / 2;
    let start = middle + text[middle..].find("f3").expect("the generated text has a move to f3");
    let mut edited = String::with_capacity(text.len());
    edited.push_str(&text[..start]);
    edited.push('d');
    edited.push_str(&text[start + 1..]);
    let position = point(text, start);
    let end = Point::new(position.row, position.column + 1);
    let edit = InputEdit {
        start_byte: start,
        old_end_byte: start + 1,
        new_end_byte: start + 1,
        start_position: position,
        old_end_position: end,
        new_end_position: end,
    };
    (edited, edit)
}

/// The row and byte column of a byte offset, as tree-sitter counts them.
fn point(text: &str, offset: usize) -> Point {
    let before = &text[..offset];
    let row = before.matches('\n').count();
    let column = offset - before.rfind('\n').map_or(0, |newline| newline + 1);
    Point::new(row, column)
}
