//! Folding ranges: games, tag sections, variations and comments that span
//! several lines. Each section's folds are kept as lines from its first
//! line (`ide::outline::line_folds`), so an answer costs a sum per section
//! and the folds it sends, whatever was edited. A client may say how many
//! it keeps (`rangeLimit`: VS Code keeps 5,000); a database with more gets
//! its games' folds first (then the first of them up to the limit), rather
//! than an answer of megabytes the client would cut anyway.

use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind};

use crate::ide::cancel::Token;
use crate::ide::document::Document;
use crate::ide::line_index::Unit;
use crate::ide::outline::{Fold, line_folds};

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
                collapsed_text: None,
            });
        }
    }
    Some(out)
}
