//! Grammar and analysis on arbitrary bytes: the text (UTF-8, lossily) is
//! parsed, lowered and replayed, traced as hovers trace it, and read as
//! a manuscript (text, Markdown, LaTeX); whenever the fast path reads it, its games must equal the
//! grammar's. The first byte picks the options (a language or inference,
//! the optional marks), so every language's reading is exercised.

#![no_main]

use chess_ls::analysis::{self, Language, Options};
use chess_ls::syntax;
use chess_ls::syntax::manuscript::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let text = &*text;
    let language = Language::ALL.get(usize::from(choice >> 2)).copied();
    let options = Options { language, report_missing_check: choice & 1 != 0, report_missing_capture: choice & 2 != 0 };

    let tree = syntax::parse(text, None);
    let games = syntax::lower(&tree, text);
    for game in &games {
        let report = analysis::analyze_game(game, text, &options);
        for d in &report.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?} is outside the text");
            assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end), "{d:?}");
            for fix in &d.fixes {
                for edit in &fix.edits {
                    assert!(edit.span.end <= text.len() && text.is_char_boundary(edit.span.start), "{fix:?}");
                }
            }
        }
        analysis::trace_game(game, text, &options);
    }
    if let Some(fast) = syntax::fast::lower_fast(text) {
        assert_eq!(fast, games, "the fast path and the grammar read {text:?} differently");
    }

    // Every piece parses on its own, by either path.
    let mut parser = syntax::parser();
    let starts = syntax::split::piece_starts(text);
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let piece = &text[start..end];
        syntax::lower_piece(&mut parser, piece, |game| {
            analysis::analyze_game(&game, piece, &options);
        });
    }

    // Manuscripts (plain text, Markdown, LaTeX): the blanked text keeps
    // every offset.
    for format in [Format::Text, Format::Markdown, Format::Latex] {
        let manuscript = syntax::manuscript::scan(text, format);
        assert_eq!(manuscript.blanked.len(), text.len(), "{format:?}");
    }
});
