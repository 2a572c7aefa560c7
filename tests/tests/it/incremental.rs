//! Property: any sequence of edits applied incrementally to an open document
//! leaves exactly the diagnostics (and text) of opening the final text
//! fresh. This is what lets the server re-analyse only the touched games.

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::ide::document::Document;
use chess_ls_tests::edits::{apply, edits};
use chess_ls_tests::generate::{RenderOptions, corpus};
use proptest::prelude::*;

/// Snippets an editor session types: moves in several languages, numbers,
/// brackets of every kind, tags, junk, line ends, Cyrillic and astral text.
const SNIPPETS: &[&str] = &[
    "",
    " ",
    "\n",
    "\r\n",
    "Nf3",
    "Кf3",
    "♘f3",
    "e4",
    "exd5",
    "O-O",
    "0-0-0",
    "+",
    "#",
    "x",
    "12.",
    "3...",
    "{",
    "}",
    "{ comment }",
    "(",
    ")",
    "(1... e5)",
    "[Event \"x\"]\n",
    "[",
    "]",
    "\"",
    "1-0",
    "*",
    "$1",
    "!?",
    "Крe2",
    "е5",
    "l",
    "З",
    "😀",
    "%",
    ";",
    "junk",
    "Белые: Крс1, Фf2; пп. a3.",
    "=Q",
    "e.p.",
];

fn texts() -> impl Strategy<Value = String> {
    (0u64..1000, 1usize..4, any::<bool>()).prop_map(|(seed, games, russian)| {
        let language = if russian { Language::Ru } else { Language::En };
        corpus(seed, games, &MoveStyle::for_language(language), &RenderOptions::default())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn incremental_equals_fresh(text in texts(), edits in edits(SNIPPETS, 1..25), batch in any::<bool>()) {
        let options = Options::default();
        let mut doc = Document::open(text.clone(), 0, &options);
        let mut expected = text;
        let mut pending = Vec::new();
        let mut cursor = 0;
        for (version, edit) in edits.iter().enumerate() {
            let change = apply(&mut expected, edit, &mut cursor);
            if batch {
                // Several changes in one notification, each relative to the
                // text after the previous one.
                pending.push(change);
            } else {
                doc.apply_changes(vec![change], version as i32 + 1, &options);
            }
        }
        if batch {
            doc.apply_changes(pending, edits.len() as i32, &options);
        }
        prop_assert_eq!(&doc.text, &expected);
        prop_assert_eq!(doc.rope.to_string(), expected.clone());
        let fresh = Document::open(expected, 0, &options);
        let starts = |d: &Document| d.sections.iter().map(|p| p.start).collect::<Vec<_>>();
        prop_assert_eq!(starts(&doc), starts(&fresh));
        // Edited pieces are outlined from their trees, fresh ones by the fast
        // path: the two must agree.
        let outlines = |d: &Document| d.sections.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
        prop_assert_eq!(outlines(&doc), outlines(&fresh));
        let incremental: Vec<_> = doc.diagnostics().collect();
        let from_scratch: Vec<_> = fresh.diagnostics().collect();
        prop_assert_eq!(incremental, from_scratch);
    }
}
