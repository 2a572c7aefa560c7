//! Publishes the analysis of every game of a document.

use tower_lsp_server::ls_types::{Diagnostic, Uri};

use crate::ide::document::Document;
use crate::ide::line_index::Unit;
use crate::lsp::convert;

pub fn collect(doc: &Document, uri: &Uri, unit: Unit) -> Vec<Diagnostic> {
    doc.diagnostics().map(|d| convert::diagnostic(doc, uri, &d, unit)).collect()
}
