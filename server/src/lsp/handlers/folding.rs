//! Folding ranges: the engine's folds (`ide::folds`: games, tag sections,
//! variations and comments that span several lines, a closed game showing
//! its players, event and result, at most as many as the client keeps) as
//! LSP folding ranges.

use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind};

use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::folds::Fold;

/// The folds, at most `limit` (the client's `rangeLimit`: VS Code keeps
/// 5,000).
pub fn ranges(snap: &Snapshot, limit: Option<usize>) -> Option<Vec<FoldingRange>> {
    let folds = snap.folds(limit);
    Some(
        folds
            .into_iter()
            .map(|fold| FoldingRange {
                start_line: fold.start_line,
                start_character: None,
                end_line: fold.end_line,
                end_character: None,
                kind: Some(match fold.kind {
                    Fold::Comment => FoldingRangeKind::Comment,
                    Fold::Headers => FoldingRangeKind::Imports,
                    Fold::Game | Fold::Variation => FoldingRangeKind::Region,
                }),
                collapsed_text: fold.collapsed_text,
            })
            .collect(),
    )
}
