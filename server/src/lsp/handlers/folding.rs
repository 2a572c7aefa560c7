//! Folding ranges: games, tag sections, variations and comments that span
//! several lines. A client may say how many it keeps (`rangeLimit`: VS
//! Code keeps 5,000); a database with more gets its games' folds first
//! (then the first of them up to the limit), rather than an answer of
//! megabytes the client would cut anyway.

use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind};

use crate::ide::cancel::Token;
use crate::ide::document::Document;
use crate::ide::line_index::Unit;
use crate::ide::outline::Fold;

pub fn ranges(doc: &Document, unit: Unit, token: &Token, limit: Option<usize>) -> Option<Vec<FoldingRange>> {
    let total: usize = doc.sections.iter().map(|s| s.outline.folds.len()).sum();
    let games_only = limit.is_some_and(|limit| total > limit);
    let limit = limit.unwrap_or(usize::MAX);
    let mut out = Vec::new();
    for section in &doc.sections {
        token.check();
        for (span, fold) in &section.outline.folds {
            if out.len() >= limit {
                return Some(out);
            }
            if games_only && *fold != Fold::Game {
                continue;
            }
            let (start_line, _) = doc.position(section.start + span.start, unit);
            let (mut end_line, end_column) = doc.position(section.start + span.end, unit);
            if end_column == 0 && end_line > start_line {
                end_line -= 1;
            }
            if end_line <= start_line {
                continue;
            }
            out.push(FoldingRange {
                start_line: start_line as u32,
                start_character: None,
                end_line: end_line as u32,
                end_character: None,
                kind: Some(match fold {
                    Fold::Comment => FoldingRangeKind::Comment,
                    Fold::Headers => FoldingRangeKind::Imports,
                    Fold::Game | Fold::Variation => FoldingRangeKind::Region,
                }),
                collapsed_text: None,
            });
        }
    }
    Some(out)
}
