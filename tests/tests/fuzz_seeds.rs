//! The fuzz seeds (`fuzz/seeds/`), replayed in the normal test suite with
//! the checks of their fuzz targets, so that an input a fuzzer once broke
//! the code with (kept there as `regression-*`) stays fixed without
//! cargo-fuzz. See RELIABILITY.md.

use std::path::PathBuf;

use chess_ls::analysis::{self, Options};
use chess_ls::lsp::document::{ByteChange, Document, Kind};
use chess_ls::syntax;

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds").join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&path).expect("a seed"))
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

#[test]
fn analysis_seeds() {
    for (name, data) in seeds("analysis") {
        let Some((_, rest)) = data.split_first() else { continue };
        let text = String::from_utf8_lossy(rest);
        let tree = syntax::parse(&text, None);
        let games = syntax::lower(&tree, &text);
        for game in &games {
            analysis::analyze_game(game, &text, &Options::default());
        }
        if let Some(fast) = syntax::fast::lower_fast(&text) {
            assert_eq!(fast, games, "{name}: the fast path and the grammar disagree");
        }
    }
}

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The input format of the `document_edits` target: flags, the text, then
/// edits after 0xFF bytes (two bytes of position, one of length, the text).
#[test]
fn document_edits_seeds() {
    for (name, data) in seeds("document_edits") {
        let Some((&flags, rest)) = data.split_first() else { continue };
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
        assert_eq!(doc.text, expected, "{name}");
        let fresh = Document::open_as(kind, expected, 0, &options);
        let pieces = |d: &Document| d.pieces.iter().map(|p| (p.start, p.len, p.outline.clone())).collect::<Vec<_>>();
        assert_eq!(pieces(&doc), pieces(&fresh), "{name}");
        assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>(), "{name}");
    }
}
