//! Folding ranges: games, tag sections, variations and comments that span
//! several lines; a game's fold, closed, shows its players, event and
//! result (`collapsedText`). Each section's folds are kept as lines from its first
//! line (`ide::outline::line_folds`), so an answer costs a sum per section
//! and the folds it sends, whatever was edited. A client may say how many
//! it keeps (`rangeLimit`: VS Code keeps 5,000); a database with more gets
//! its games' folds first (then the first of them up to the limit), rather
//! than an answer of megabytes the client would cut anyway.

use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind};

use chess_ls_engine::ide::cancel::Token;
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::outline::{Fold, line_folds};

pub fn ranges(doc: &Document, _unit: Unit, token: &Token, limit: Option<usize>) -> Option<Vec<FoldingRange>> {
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
                return Some(out);
            }
            if games_only && fold.kind != Fold::Game {
                continue;
            }
            out.push(FoldingRange {
                start_line: line as u32 + fold.start,
                start_character: None,
                end_line: line as u32 + fold.end,
                end_character: None,
                kind: Some(match fold.kind {
                    Fold::Comment => FoldingRangeKind::Comment,
                    Fold::Headers => FoldingRangeKind::Imports,
                    Fold::Game | Fold::Variation => FoldingRangeKind::Region,
                }),
                // A closed game shows its players, event and result.
                collapsed_text: fold
                    .symbol
                    .and_then(|i| section.outline.symbols.get(i as usize))
                    .map(|g| g.name.clone())
                    .filter(|name| !name.is_empty()),
            });
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess_ls_engine::analysis::Options;
    use chess_ls_engine::ide::document::ByteChange;

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
        let mut next = chess_ls_engine::test_support::below(0x7777_1234_abcd_0001);
        let game = |i: usize| {
            format!("[Event \"{i}\"]\n[Site \"s\"]\r\n\n1. e4 {{a\ncomment}} e5\n(1... c5\n2. Nf3)\n2. Nf3 *\n\n")
        };
        let mut doc = Document::open((0..10).map(game).collect(), 1, &Options::default());
        let never = Token::never();
        for _ in 0..200 {
            let std::ops::Range { start, end } = chess_ls_engine::test_support::random_span(&mut next, &doc.text, 8);
            let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
            doc.apply_changes(vec![change], doc.version + 1, &Options::default());
            let got: Vec<(u32, u32, Fold)> = ranges(&doc, Unit::Utf16, &never, None)
                .unwrap()
                .iter()
                .map(|r| {
                    let kind = match r.kind.clone() {
                        Some(FoldingRangeKind::Comment) => Fold::Comment,
                        Some(FoldingRangeKind::Imports) => Fold::Headers,
                        _ => Fold::Game,
                    };
                    (r.start_line, r.end_line, kind)
                })
                .collect();
            let want: Vec<(u32, u32, Fold)> = by_the_rope(&doc)
                .into_iter()
                .map(|(a, b, f)| (a, b, if f == Fold::Variation { Fold::Game } else { f }))
                .collect();
            assert_eq!(got, want, "{:?}", doc.text);
            // With a limit below the count: games' folds only, in order.
            let limited = ranges(&doc, Unit::Utf16, &never, Some(3)).unwrap();
            assert!(limited.len() <= 3);
        }
    }
}
