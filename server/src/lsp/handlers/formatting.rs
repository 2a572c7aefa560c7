//! Document formatting (`ide::format` lays the text out): one edit that
//! replaces the whole text, or none when it is formatted already or cannot
//! be formatted safely.

use tower_lsp_server::ls_types::TextEdit;

use crate::lsp::convert;
use chess_ls_engine::ide::cancel::Token;
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::format::format_cancellable;
use chess_ls_engine::ide::line_index::Unit;

/// Formats at `width` columns (`0`: lines never wrapped), the
/// `formatWidth` setting.
pub fn format(doc: &Document, unit: Unit, width: usize, token: &Token) -> Option<Vec<TextEdit>> {
    let formatted = format_cancellable(doc, width, token)?;
    if formatted == doc.text {
        return Some(Vec::new());
    }
    Some(vec![TextEdit { range: convert::range(doc, &(0..doc.text.len()), unit), new_text: formatted }])
}
