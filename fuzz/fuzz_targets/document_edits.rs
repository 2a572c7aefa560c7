//! The incremental path of the language server: a text and a sequence of
//! edits applied to a `Document` one by one (or in one notification) must
//! end with what a fresh open of the final text has: the same text, pieces,
//! outlines and diagnostics. Then formatting: a document the grammar reads
//! without error is formatted, and the layout keeps every non-blank
//! character in order (`format_text` gives up rather than lose one, so a
//! `None` there is a layout bug).
//!
//! Input: a flags byte (bit 0: Markdown, else bit 2: plain text, else bit 3:
//! LaTeX, else PGN; bit 1: all edits in one change notification), the text, then edits, each after a 0xFF byte (never in
//! UTF-8): two bytes of position (a fraction of the text's length), one of
//! length, then the text inserted.

#![no_main]

use chess_ls::analysis::Options;
use chess_ls::lsp::document::{ByteChange, Document, Kind};
use chess_ls::lsp::handlers::formatting::format_text;
use chess_ls::syntax;
use libfuzzer_sys::fuzz_target;

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    let kind = match flags & 0b1101 {
        0 => Kind::Pgn,
        f if f & 1 != 0 => Kind::Markdown,
        f if f & 4 != 0 => Kind::Text,
        _ => Kind::Latex,
    };
    let batch = flags & 2 != 0;
    let mut parts = rest.split(|&b| b == 0xFF);
    let text = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let options = Options::default();
    let mut doc = Document::open_as(kind, text.clone(), 0, &options);
    let mut expected = text;
    let mut pending = Vec::new();
    for (version, part) in parts.enumerate().take(64) {
        let (head, inserted) = part.split_at(part.len().min(3));
        let mut head = head.to_vec();
        head.resize(3, 0);
        let at = u16::from_le_bytes([head[0], head[1]]) as usize * expected.len() / usize::from(u16::MAX);
        let start = floor(&expected, at);
        let end = floor(&expected, start + usize::from(head[2] % 64)).max(start);
        let inserted = String::from_utf8_lossy(inserted).into_owned();
        expected.replace_range(start..end, &inserted);
        let change = ByteChange { range: Some(start..end), text: inserted };
        if batch {
            pending.push(change);
        } else {
            doc.apply_changes(vec![change], version as i32 + 1, &options);
        }
    }
    if batch {
        doc.apply_changes(pending, 1, &options);
    }
    assert_eq!(doc.text, expected);
    assert_eq!(doc.rope.to_string(), expected);
    let fresh = Document::open_as(kind, expected.clone(), 0, &options);
    let pieces = |d: &Document| d.pieces.iter().map(|p| (p.start, p.len)).collect::<Vec<_>>();
    assert_eq!(pieces(&doc), pieces(&fresh));
    let outlines = |d: &Document| d.pieces.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
    assert_eq!(outlines(&doc), outlines(&fresh));
    assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>());

    if kind == Kind::Pgn {
        let readable = doc.pieces.iter().all(|p| {
            let tree = p.tree(&doc);
            !tree.root_node().has_error() && syntax::variation_depth(tree.root_node()) <= syntax::MAX_VARIATION_DEPTH
        });
        match format_text(&doc) {
            Some(formatted) => {
                let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                assert_eq!(squeeze(&formatted), squeeze(&expected));
            }
            None => assert!(!readable, "formatting gave up on a readable document: {expected:?}"),
        }
    }
});
