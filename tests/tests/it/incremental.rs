//! Property: any sequence of edits applied incrementally to an open document
//! leaves exactly the diagnostics (and text) of opening the final text
//! fresh. This is what lets the server re-analyse only the touched games.

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::ide::document::ByteChange;
use chess_ls::ide::document::Document;
use chess_ls_tests::edits::{Edit, apply, edits};
use chess_ls_tests::generate::{RenderOptions, corpus};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

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

/// Applies `edits` to `text` in an open document (one notification each,
/// or all in one when `batch`) and checks that it ends as a fresh open of
/// the final text: the text, the sections, their outlines and diagnostics.
fn edited_equals_fresh(text: String, edits: &[Edit], batch: bool) -> Result<(), TestCaseError> {
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
    Ok(())
}

proptest! {
    #![proptest_config(crate::proptest_config(64))]

    #[test]
    fn incremental_equals_fresh(text in texts(), edits in edits(SNIPPETS, 1..25), batch in any::<bool>()) {
        edited_equals_fresh(text, &edits, batch)?;
    }
}

/// A case proptest found (also in ../proptest-regressions/incremental.txt):
/// ` 25. ` replaced by `{ comment }` glued `Ra7{ comment }Bc6`. The edited
/// piece, read by the grammar, took it for one move across the comment
/// (`Ra7xBc6`, illegal), the fresh open, read by the fast path, for two.
#[test]
fn a_comment_glued_between_moves_ends_the_move() {
    let text = corpus(984, 3, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    assert!(text.contains("24. Ne3 Ra7 25. Bc6 Nfd7"), "the generator changed: find a new seed");
    let edits = [
        Edit { at: 0.0, near: false, len: 16, snippet: "+" },
        Edit { at: 0.0, near: false, len: 0, snippet: "" },
        Edit { at: 0.831061054794438, near: false, len: 5, snippet: "{ comment }" },
    ];
    edited_equals_fresh(text, &edits, false).unwrap();
}

/// A comment typed at every place of a game, glued to what is before and
/// after it or not, and deleted again: the edited document always reads as
/// a fresh one (moves end at the comment, whichever path reads them).
#[test]
fn a_comment_typed_anywhere_reads_as_fresh() {
    let options = Options::default();
    let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43. Re6 1/2-1/2\n";
    for snippet in ["{c}", "{ comment }", " {c}", "{c} "] {
        for at in 14..text.len() {
            let mut doc = Document::open(text.to_owned(), 0, &options);
            let change = ByteChange { range: Some(at..at), text: snippet.to_owned() };
            doc.apply_changes(vec![change], 1, &options);
            let typed = format!("{}{snippet}{}", &text[..at], &text[at..]);
            assert_eq!(doc.text, typed);
            let fresh = Document::open(typed.clone(), 0, &options);
            let incremental: Vec<_> = doc.diagnostics().collect();
            let from_scratch: Vec<_> = fresh.diagnostics().collect();
            assert_eq!(incremental, from_scratch, "{snippet:?} typed at {at}: {typed:?}");
            let outlines = |d: &Document| d.sections.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
            assert_eq!(outlines(&doc), outlines(&fresh), "{snippet:?} typed at {at}");
            // And deleted again: the document reads as the original.
            let change = ByteChange { range: Some(at..at + snippet.len()), text: String::new() };
            doc.apply_changes(vec![change], 2, &options);
            let original = Document::open(text.to_owned(), 0, &options);
            assert_eq!(
                doc.diagnostics().collect::<Vec<_>>(),
                original.diagnostics().collect::<Vec<_>>(),
                "{snippet:?} deleted at {at}"
            );
        }
    }
}

/// A `%` escapes its line only in the first column, which a token cannot
/// see: a line break typed or deleted just before a `%`, and a `%` typed
/// anywhere, must read as a fresh open (the edited tree may keep an escape
/// whose line start was just taken away, or miss one just made).
#[test]
fn a_percent_sign_and_a_line_break_typed_anywhere_read_as_fresh() {
    let options = Options::default();
    let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6\n% an escape line 3. Ke3\n3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 %7. Ke3\n7. Bb3 d6 *\n";
    for snippet in ["%", "\n", "\n%", "% ", "x"] {
        for at in 14..text.len() {
            let typed = format!("{}{snippet}{}", &text[..at], &text[at..]);
            let mut doc = Document::open(text.to_owned(), 0, &options);
            doc.apply_changes(vec![ByteChange { range: Some(at..at), text: snippet.to_owned() }], 1, &options);
            let fresh = Document::open(typed.clone(), 0, &options);
            assert_eq!(
                doc.diagnostics().collect::<Vec<_>>(),
                fresh.diagnostics().collect::<Vec<_>>(),
                "{snippet:?} typed at {at}: {typed:?}"
            );
        }
    }
    // Each character deleted, the line breaks before a `%` among them.
    for at in 14..text.len() {
        let mut doc = Document::open(text.to_owned(), 0, &options);
        doc.apply_changes(vec![ByteChange { range: Some(at..at + 1), text: String::new() }], 1, &options);
        let cut = format!("{}{}", &text[..at], &text[at + 1..]);
        let fresh = Document::open(cut.clone(), 0, &options);
        assert_eq!(
            doc.diagnostics().collect::<Vec<_>>(),
            fresh.diagnostics().collect::<Vec<_>>(),
            "deleted at {at}: {cut:?}"
        );
    }
}
