//! Publishes the analysis of every game of a document.

use tower_lsp_server::ls_types::{Diagnostic, Uri};

use crate::lsp::convert;
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::settings::Filter;

/// The diagnostics of a document as the project's settings have them
/// (`ignore`, `select`, severities: `ide::settings::Filter`).
pub fn collect(doc: &Document, uri: &Uri, unit: Unit, filter: &Filter) -> Vec<Diagnostic> {
    doc.diagnostics()
        .filter(|d| filter.keeps(d.code))
        .map(|mut d| {
            d.severity = filter.severity(d.code, d.severity);
            convert::diagnostic(doc, uri, &d, unit)
        })
        .collect()
}
