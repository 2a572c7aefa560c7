//! Property: edits of a manuscript (plain text, Markdown, LaTeX) applied to
//! an open document leave exactly what a fresh open of the final text has:
//! the same blanked text, pieces, outlines and diagnostics. The language
//! server reads a manuscript again only around an edit and keeps the
//! pieces away from it (`Manuscript::rescan`, `Chain::same_outlook`); the
//! edits here type notation, prose, paragraph breaks, the punctuation that
//! lets a run or a position description go on across a break, fences,
//! comments and LaTeX's braces, backslashes and `%`, near each other and
//! far apart, into generated books.

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::Language;
use chess_ls::ide::document::{ByteChange, Document, Kind};
use chess_ls::syntax::manuscript::TYPED_SNIPPETS;
use chess_ls_tests::edits::{apply, edits, floor};
use chess_ls_tests::manuscript::{Layout, book};
use proptest::prelude::*;

fn same_as_fresh(doc: &Document, kind: Kind) -> Result<(), TestCaseError> {
    let fresh = Document::open_as(kind, doc.text.clone(), 0, &Options::default());
    prop_assert_eq!(doc.source(), fresh.source());
    let pieces = |d: &Document| d.sections.iter().map(|p| (p.start, p.len, p.outline.clone())).collect::<Vec<_>>();
    prop_assert_eq!(pieces(doc), pieces(&fresh));
    prop_assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>());
    Ok(())
}

proptest! {
    #![proptest_config(crate::proptest_config(48))]

    #[test]
    fn manuscript_edits_equal_a_fresh_open(
        seed in 0u64..1000,
        layout in prop::sample::select(vec![Layout::Text, Layout::Markdown, Layout::Latex]),
        russian in any::<bool>(),
        edits in edits(TYPED_SNIPPETS, 1..12),
    ) {
        let language = if russian { Language::Ru } else { Language::En };
        let kind = match layout {
            Layout::Text => Kind::Text,
            Layout::Markdown => Kind::Markdown,
            Layout::Latex => Kind::Latex,
        };
        let text = book(seed, 2500, language, layout).text;
        let options = Options::default();
        let mut doc = Document::open_as(kind, text.clone(), 0, &options);
        let mut expected = text;
        let mut cursor = 0;
        for (version, edit) in edits.iter().enumerate() {
            let change = apply(&mut expected, edit, &mut cursor);
            doc.apply_changes(vec![change], version as i32 + 1, &options);
            prop_assert_eq!(&doc.text, &expected);
            same_as_fresh(&doc, kind)?;
        }
    }
}

/// Typing in the prose of a book analyses nothing again; typing in a run
/// analyses that run and the runs that go on from it, not the book.
#[test]
fn keystrokes_in_a_book_analyse_what_they_change() {
    let options = Options::default();
    for (layout, kind) in [(Layout::Text, Kind::Text), (Layout::Markdown, Kind::Markdown), (Layout::Latex, Kind::Latex)]
    {
        let text = book(3, 60_000, Language::En, layout).text;
        let mut doc = Document::open_as(kind, text, 0, &options);
        let pieces = doc.sections.len();
        let at = doc.text.len() / 2 + doc.text[doc.text.len() / 2..].find("White is slightly").expect("prose") + 1;
        for (version, letter) in ["o", "h"].into_iter().enumerate() {
            let change = ByteChange { range: Some(at..at + 1), text: letter.to_owned() };
            doc.apply_changes(vec![change], version as i32 + 1, &options);
            assert_eq!(doc.last_reanalysed, 0, "{layout:?}");
        }
        let at = doc.text.len() / 3 + doc.text[doc.text.len() / 3..].find(". e4 ").expect("a move") + 3;
        doc.apply_changes(vec![ByteChange { range: Some(at..at + 2), text: "e5".to_owned() }], 9, &options);
        assert!(doc.last_reanalysed >= 1 && doc.last_reanalysed < pieces / 4, "{layout:?}: {}", doc.last_reanalysed);
        let fresh = Document::open_as(kind, doc.text.clone(), 0, &options);
        assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>());
    }
}

/// In a book long enough that the plans of later games look at only part
/// of the games before them (in several languages: a run that two
/// languages read differently leaves both readings), edits of moves (which change how the runs
/// after them start) and of the prose, each compared with a fresh open.
#[test]
fn edits_in_a_long_book_equal_a_fresh_open() {
    let options = Options::default();
    let layouts = [(Layout::Text, Kind::Text), (Layout::Markdown, Kind::Markdown), (Layout::Latex, Kind::Latex)];
    for seed in 0..6u64 {
        let (layout, kind) = layouts[seed as usize % 3];
        // English, then languages whose letters other languages read too.
        let language =
            [Language::En, Language::Ru, Language::Uk, Language::De, Language::Fr, Language::En][seed as usize];
        let text = book(seed + 5, 40_000, language, layout).text;
        let mut doc = Document::open_as(kind, text, 0, &options);
        let mut state = seed;
        for version in 1..=12 {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let from = floor(&doc.text, (state >> 33) as usize % doc.text.len());
            // A move's rank, or a letter of the prose, changed.
            let rank = doc.text[from..].find(|c: char| matches!(c, '3'..='6')).map(|k| from + k);
            let (at, replacement) = match rank {
                Some(at) if version % 3 != 0 => (at, if &doc.text[at..at + 1] == "4" { "5" } else { "4" }),
                _ => (from + doc.text[from..].find(' ').unwrap_or(0), "x"),
            };
            let end = if replacement == "x" { at } else { at + 1 };
            doc.apply_changes(
                vec![ByteChange { range: Some(at..end), text: replacement.to_owned() }],
                version,
                &options,
            );
            let fresh = Document::open_as(kind, doc.text.clone(), 0, &options);
            assert_eq!(doc.source(), fresh.source(), "{layout:?} edit {version}");
            let pieces =
                |d: &Document| d.sections.iter().map(|p| (p.start, p.len, p.outline.clone())).collect::<Vec<_>>();
            assert_eq!(pieces(&doc), pieces(&fresh), "{layout:?} edit {version}");
            assert_eq!(
                doc.diagnostics().collect::<Vec<_>>(),
                fresh.diagnostics().collect::<Vec<_>>(),
                "{layout:?} edit {version}"
            );
        }
    }
}

/// Whether a run stands in brackets is read from the text around it, which
/// an edit may change alone: taking a bracket away and typing it back
/// leaves what a fresh open has, each time.
#[test]
fn a_bracket_typed_or_taken_away_around_a_run_is_seen() {
    let text = crate::manuscripts::ASIDE;
    let options = Options::default();
    let mut doc = Document::open_as(Kind::Text, text.to_owned(), 0, &options);
    let at = text.find("(for").expect("the aside's bracket");
    let edits = [(at..at + 1, ""), (at..at, "("), (at + 1..at + 1, ")"), (at + 1..at + 2, "")];
    for (version, (range, insert)) in edits.into_iter().enumerate() {
        doc.apply_changes(
            vec![ByteChange { range: Some(range), text: insert.to_owned() }],
            version as i32 + 1,
            &options,
        );
        same_as_fresh(&doc, Kind::Text).unwrap();
    }
    assert_eq!(doc.text, text);
    assert_eq!(doc.diagnostics().count(), 0);
}
