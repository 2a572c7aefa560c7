//! Publishes the analysis of every game of a document.

use tower_lsp_server::ls_types::{Diagnostic, Uri};

use crate::lsp::convert;
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::line_index::Unit;

/// The diagnostics of a document, converted: the document gives them as
/// the project's settings report them (`ignore`, `select`, severities).
pub fn collect(doc: &Document, uri: &Uri, unit: Unit) -> Vec<Diagnostic> {
    doc.diagnostics().map(|d| convert::diagnostic(doc, uri, &d, unit)).collect()
}
