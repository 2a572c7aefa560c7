//! Document formatting (`ide::format` lays the text out): the edits, none
//! when it is formatted already or cannot be formatted safely; and what was
//! left as it is and why (in a manuscript, the runs in the prose), for the
//! server to tell the user.

use tower_lsp_server::ls_types::TextEdit;

use crate::lsp::convert;
use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::line_index::Unit;

/// Formats at `width` columns (`0`: lines never wrapped), the
/// `formatWidth` setting: the edits, and a note on what was left alone.
pub fn format(snap: &Snapshot, unit: Unit, width: usize) -> (Option<Vec<TextEdit>>, Option<String>) {
    let doc = snap.document();
    let formatted = snap.format(width);
    if formatted.edits.is_empty() && formatted.note.is_some() {
        return (None, formatted.note);
    }
    let edits = formatted
        .edits
        .into_iter()
        .map(|(range, new_text)| TextEdit { range: convert::range(doc, &range, unit), new_text })
        .collect();
    (Some(edits), formatted.note)
}
