//! Folds (an editor's folding ranges): games, tag sections, variations and
//! comments that span several lines; a game's fold, closed, shows its
//! players, event and result. Each section's folds are kept as lines from
//! its first line (`outline::line_folds`), so an answer costs a sum per
//! section and the folds it gives, whatever was edited. A client may say
//! how many it keeps (VS Code keeps 5,000); a database with more gets its
//! games' folds first (then the first of them up to the limit), rather
//! than an answer of megabytes the client would cut anyway.

use super::cancel::Token;
use super::document::Document;
pub use super::outline::Fold;
use super::outline::line_folds;

/// A fold, in lines of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoldRange {
    pub start_line: u32,
    /// The last line it covers.
    pub end_line: u32,
    pub kind: Fold,
    /// What a closed game's fold shows: its players, event and result.
    pub collapsed_text: Option<String>,
}

/// The folds of a document, at most `limit` of them.
pub fn folds(doc: &Document, limit: Option<usize>, token: &Token) -> Vec<FoldRange> {
    let total: usize = doc.sections.iter().map(|s| s.outline.folds.len()).sum();
    let games_only = limit.is_some_and(|limit| total > limit);
    let limit = limit.unwrap_or(usize::MAX);
    let mut out = Vec::new();
    for (k, (section, line)) in doc.sections.iter().zip(doc.section_lines()).enumerate() {
        if k % 256 == 0 {
            token.check();
        }
        if section.outline.folds.is_empty() {
            continue;
        }
        for fold in line_folds(doc, section).iter() {
            if out.len() >= limit {
                return out;
            }
            if games_only && fold.kind != Fold::Game {
                continue;
            }
            out.push(FoldRange {
                start_line: line as u32 + fold.start,
                end_line: line as u32 + fold.end,
                kind: fold.kind,
                collapsed_text: fold
                    .symbol
                    .and_then(|i| section.outline.symbols.get(i as usize))
                    .map(|g| g.name.clone())
                    .filter(|name| !name.is_empty()),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Options;
    use crate::ide::document::ByteChange;
    use crate::ide::line_index::Unit;

    /// The folds as the rope places them, fold by fold (what the answer was
    /// before the sections kept their folds as lines).
    fn by_the_rope(doc: &Document) -> Vec<(u32, u32, Fold)> {
        let mut out = Vec::new();
        for section in &doc.sections {
            for (span, fold) in &section.outline.folds {
                let (start_line, _) = doc.position(section.start + span.start, Unit::Utf16);
                let (mut end_line, end_column) = doc.position(section.start + span.end, Unit::Utf16);
                if end_column == 0 && end_line > start_line {
                    end_line -= 1;
                }
                if end_line > start_line {
                    out.push((start_line as u32, end_line as u32, *fold));
                }
            }
        }
        out
    }

    #[test]
    fn folds_kept_across_random_edits_are_where_the_rope_says() {
        const SNIPPETS: &[&str] = &[
            "",
            "\n",
            "\r\n",
            "\r",
            "{",
            "}",
            "{x\ny}",
            "(",
            ")",
            "(1... c5\n2. d4)",
            "[Event \"x\"]\n",
            "*\n\n",
            "é",
        ];
        let mut next = crate::test_support::below(0x7777_1234_abcd_0001);
        let game = |i: usize| {
            format!("[Event \"{i}\"]\n[Site \"s\"]\r\n\n1. e4 {{a\ncomment}} e5\n(1... c5\n2. Nf3)\n2. Nf3 *\n\n")
        };
        let mut doc = Document::open((0..10).map(game).collect(), 1, &Options::default());
        let never = Token::never();
        for _ in 0..200 {
            let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 8);
            let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
            doc.apply_changes(vec![change], doc.version + 1, &Options::default());
            let got: Vec<(u32, u32, Fold)> =
                folds(&doc, None, &never).iter().map(|r| (r.start_line, r.end_line, r.kind)).collect();
            assert_eq!(got, by_the_rope(&doc), "{:?}", doc.text);
            // With a limit below the count: games' folds only, in order.
            let limited = folds(&doc, Some(3), &never);
            assert!(limited.len() <= 3);
            if got.len() > 3 {
                assert!(limited.iter().all(|f| f.kind == Fold::Game), "{limited:?}");
            }
        }
    }

    #[test]
    fn a_closed_game_shows_its_players() {
        let text = "[White \"Anna\"]\n[Black \"Boris\"]\n\n1. e4 e5\n2. Nf3 *\n";
        let doc = Document::open(text.to_owned(), 1, &Options::default());
        let game = folds(&doc, None, &Token::never()).into_iter().find(|f| f.kind == Fold::Game).unwrap();
        assert_eq!((game.start_line, game.end_line), (0, 4));
        assert!(game.collapsed_text.as_deref().is_some_and(|t| t.starts_with("Anna - Boris")), "{game:?}");
    }
}
