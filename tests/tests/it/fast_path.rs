//! The checker's fast syntax path (`syntax::fast`) must give exactly what
//! the tree-sitter path gives whenever it does not give up: over generated
//! games in every language and style, and over every piece of the real
//! corpus. It must also not give up on ordinary files, or it is no faster.

use std::path::{Path, PathBuf};

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::syntax::{self, fast::lower_fast, split};
use chess_ls_tests::generate::{RenderOptions, corpus};
use proptest::prelude::*;

fn tree_sitter_lowered(text: &str) -> Vec<syntax::GameSyntax<'_>> {
    let tree = syntax::parse(text, None);
    syntax::lower(&tree, text)
}

fn styles() -> impl Strategy<Value = (MoveStyle, RenderOptions)> {
    (
        0..Language::ALL.len(),
        prop::sample::select(vec![Some("x"), Some("х"), Some(":"), None]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                language,
                capture_sign,
                check_marks,
                long,
                castling_zeros,
                promotion_equals,
                figurine_black,
                (headers, wrap, space),
            )| {
                let style = MoveStyle {
                    language: Language::ALL[language],
                    capture_sign,
                    check_marks,
                    long,
                    castling_zeros,
                    promotion_equals,
                    figurine_black,
                };
                let options =
                    RenderOptions { headers, wrap_column: wrap.then_some(80), space_after_move_number: space };
                (style, options)
            },
        )
}

proptest! {
    #![proptest_config(crate::proptest_config(200))]

    #[test]
    fn fast_path_equals_tree_sitter_on_generated_games(seed in 0u64..10_000, (style, options) in styles()) {
        let text = corpus(seed, 3, &style, &options);
        for piece in split::split_at_games(&text, 0) {
            let piece = &text[piece];
            if let Some(fast) = lower_fast(piece) {
                prop_assert_eq!(fast, tree_sitter_lowered(piece));
            }
        }
    }
}

#[test]
fn plain_english_and_russian_files_take_the_fast_path() {
    for language in [Language::En, Language::Ru, Language::De, Language::Figurine] {
        let text = corpus(7, 50, &MoveStyle::for_language(language), &RenderOptions::default());
        let pieces = split::split_at_games(&text, 0);
        let fast = pieces.iter().filter(|r| lower_fast(&text[(*r).clone()]).is_some()).count();
        assert_eq!(fast, pieces.len(), "{language:?}: every piece of plain generated games is read by the fast path");
    }
}

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

#[test]
fn fast_path_equals_tree_sitter_on_the_real_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if !root.is_dir() {
        eprintln!("note: {} is absent; the corpus part of the fast-path test is skipped", root.display());
        return;
    }
    let mut files = Vec::new();
    pgn_files(&root, &mut files);
    files.sort();
    let (mut pieces, mut fast) = (0, 0);
    for file in files {
        let bytes = std::fs::read(&file).expect("readable");
        let text = String::from_utf8_lossy(&bytes);
        for range in split::split_at_games(&text, 0) {
            let piece = &text[range];
            pieces += 1;
            if let Some(games) = lower_fast(piece) {
                fast += 1;
                assert_eq!(games, tree_sitter_lowered(piece), "{}: {piece:?}", file.display());
            }
        }
    }
    eprintln!("fast path read {fast} of {pieces} corpus pieces");
    assert!(fast * 2 > pieces, "the fast path should read most real pieces ({fast} of {pieces})");
}
