//! Document symbols: the engine's outline (`ide::symbols`: a manuscript's
//! headings with the games told under each, a database's games, grouped by
//! event or by the hundred when they are many) as LSP symbols.

use tower_lsp_server::ls_types::{DocumentSymbol, DocumentSymbolResponse, Position, Range, SymbolKind};

use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::symbols::{self, Symbol};

fn range(r: symbols::Range) -> Range {
    let position = |p: symbols::Position| Position { line: p.line, character: p.character };
    Range { start: position(r.start), end: position(r.end) }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbol(s: Symbol) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: match s.kind {
            symbols::SymbolKind::Game => SymbolKind::MODULE,
            symbols::SymbolKind::Heading => SymbolKind::STRING,
            symbols::SymbolKind::Group => SymbolKind::NAMESPACE,
        },
        tags: None,
        deprecated: None,
        range: range(s.range),
        selection_range: range(s.selection_range),
        children: s.children.map(|children| children.into_iter().map(symbol).collect()),
    }
}

pub fn symbols(snap: &Snapshot, unit: Unit) -> Option<DocumentSymbolResponse> {
    Some(DocumentSymbolResponse::Nested(snap.symbols(unit).into_iter().map(symbol).collect()))
}
