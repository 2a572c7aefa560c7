//! Document symbols: one per game, "White - Black, Event, Result"; in a
//! database of more than [`GROUP_ABOVE`] games, one per hundred games
//! ("Games 101-200", from its first game to its last): an outline of
//! thousands of entries is not readable in an editor, and costs seconds
//! to send on every change.

use tower_lsp_server::ls_types::{DocumentSymbol, DocumentSymbolResponse, SymbolKind};

use crate::ide::cancel::Token;
use crate::ide::document::Document;
use crate::ide::line_index::Unit;
use crate::lsp::convert;

/// Above this many games, the outline groups them by [`GROUP`].
pub const GROUP_ABOVE: usize = 1000;
const GROUP: usize = 100;

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
pub fn symbols(doc: &Document, unit: Unit, token: &Token) -> Option<DocumentSymbolResponse> {
    let games: usize = doc.sections.iter().map(|s| s.outline.symbols.len()).sum();
    if games > GROUP_ABOVE {
        return Some(DocumentSymbolResponse::Nested(groups(doc, unit, token, games)));
    }
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

/// The outline of a big database: one symbol per hundred games.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn groups(doc: &Document, unit: Unit, token: &Token, games: usize) -> Vec<DocumentSymbol> {
    let mut out = Vec::with_capacity(games.div_ceil(GROUP));
    let mut number = 0;
    // (first number, first game's span and name, last game's span and name)
    let mut group: Option<(usize, std::ops::Range<usize>, std::ops::Range<usize>, String)> = None;
    let mut finish =
        |group: (usize, std::ops::Range<usize>, std::ops::Range<usize>, String), last: usize, end: usize| {
            let (first, span, selection, name) = group;
            out.push(DocumentSymbol {
                name: format!("Games {first}-{last}"),
                detail: Some(name),
                kind: SymbolKind::NAMESPACE,
                tags: None,
                deprecated: None,
                range: convert::range(doc, &(span.start..end), unit),
                selection_range: convert::range(doc, &selection, unit),
                children: None,
            });
        };
    let mut last_end = 0;
    for section in &doc.sections {
        token.check();
        for symbol in &section.outline.symbols {
            number += 1;
            let span = symbol.span.start + section.start..symbol.span.end + section.start;
            if (number - 1) % GROUP == 0 {
                if let Some(done) = group.take() {
                    finish(done, number - 1, last_end);
                }
                let selection = symbol.selection.start + section.start..symbol.selection.end + section.start;
                let name = if symbol.name.is_empty() { format!("Game {number}") } else { symbol.name.clone() };
                group = Some((number, span.clone(), selection, name));
            }
            last_end = span.end;
        }
    }
    if let Some(done) = group.take() {
        finish(done, number, last_end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Options;

    fn names(response: DocumentSymbolResponse) -> Vec<String> {
        match response {
            DocumentSymbolResponse::Nested(symbols) => symbols.into_iter().map(|s| s.name).collect(),
            DocumentSymbolResponse::Flat(_) => unreachable!("nested"),
        }
    }

    #[test]
    fn a_big_database_is_outlined_by_hundreds() {
        let game = |i: usize| format!("[White \"W{i}\"]\n[Black \"B{i}\"]\n\n1. e4 e5 *\n\n");
        let small: String = (1..=GROUP_ABOVE).map(game).collect();
        let doc = Document::open(small, 1, &Options::default());
        let listed = names(symbols(&doc, Unit::Utf16, &Token::never()).unwrap());
        assert_eq!(listed.len(), GROUP_ABOVE);
        assert_eq!(listed[0], "W1 - B1, *");
        let big: String = (1..=GROUP_ABOVE + 50).map(game).collect();
        let doc = Document::open(big, 1, &Options::default());
        let listed = names(symbols(&doc, Unit::Utf16, &Token::never()).unwrap());
        assert_eq!(listed.len(), 11);
        assert_eq!((listed[0].as_str(), listed[10].as_str()), ("Games 1-100", "Games 1001-1050"));
    }
}
