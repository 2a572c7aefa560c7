//! Document symbols: one per game, "White - Black, Event, Result".

use tower_lsp_server::ls_types::{DocumentSymbol, DocumentSymbolResponse, SymbolKind};

use crate::line_index::Unit;
use crate::lsp::convert;
use crate::lsp::document::Document;
use crate::syntax;

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
pub fn symbols(doc: &Document, unit: Unit) -> Option<DocumentSymbolResponse> {
    let symbols = doc
        .pieces
        .iter()
        .flat_map(|piece| syntax::lower(&piece.tree, piece.text(doc)).into_iter().map(move |g| (piece.start, g)))
        .enumerate()
        .map(|(i, (base, game))| {
            let shift = |s: &std::ops::Range<usize>| s.start + base..s.end + base;
            let tag = |name: &str| game.tag(name).map(|t| t.unescaped_value()).filter(|v| !v.is_empty() && v != "?");
            let players = match (tag("White"), tag("Black")) {
                (Some(w), Some(b)) => format!("{w} - {b}"),
                (Some(w), None) => w,
                (None, Some(b)) => b,
                (None, None) => format!("Game {}", i + 1),
            };
            let mut name = players;
            if let Some(event) = tag("Event") {
                name.push_str(&format!(", {event}"));
            }
            let result = tag("Result").or_else(|| game.result.as_ref().map(|r| r.text.to_owned()));
            if let Some(result) = result {
                name.push_str(&format!(", {result}"));
            }
            let range = convert::range(doc, &shift(&game.span), unit);
            let selection = game.tags.first().map_or(range, |t| convert::range(doc, &shift(&t.span), unit));
            DocumentSymbol {
                name,
                detail: tag("Date"),
                kind: SymbolKind::MODULE,
                tags: None,
                deprecated: None,
                range,
                selection_range: selection,
                children: None,
            }
        })
        .collect();
    Some(DocumentSymbolResponse::Nested(symbols))
}
