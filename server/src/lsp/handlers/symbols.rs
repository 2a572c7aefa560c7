//! Document symbols: one per game, "White - Black, Event, Result".

use tower_lsp_server::ls_types::{DocumentSymbol, DocumentSymbolResponse, SymbolKind};

use crate::ide::cancel::Token;
use crate::ide::document::Document;
use crate::ide::line_index::Unit;
use crate::lsp::convert;

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
pub fn symbols(doc: &Document, unit: Unit, token: &Token) -> Option<DocumentSymbolResponse> {
    let mut number = 0;
    let mut out = Vec::new();
    for section in &doc.sections {
        token.check();
        for symbol in &section.outline.symbols {
            number += 1;
            let shift = |s: &std::ops::Range<usize>| s.start + section.start..s.end + section.start;
            let name = if symbol.name.is_empty() { format!("Game {number}") } else { symbol.name.clone() };
            out.push(DocumentSymbol {
                name,
                detail: symbol.date.clone(),
                kind: SymbolKind::MODULE,
                tags: None,
                deprecated: None,
                range: convert::range(doc, &shift(&symbol.span), unit),
                selection_range: convert::range(doc, &shift(&symbol.selection), unit),
                children: None,
            });
        }
    }
    Some(DocumentSymbolResponse::Nested(out))
}
