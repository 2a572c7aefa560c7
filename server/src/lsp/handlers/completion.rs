//! Completion: the engine's legal moves at the cursor
//! (`ide::completion`), converted to completion items in its order.

use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, CompletionTextEdit, Position as LspPosition, TextEdit,
};

use crate::lsp::convert;
use chess_ls_engine::analysis::languages::Language;
use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::line_index::Unit;

pub fn complete(snap: &Snapshot, position: LspPosition, unit: Unit) -> Option<CompletionResponse> {
    let doc = snap.document();
    let offset = convert::offset(doc, position, unit);
    let found = snap.completions(offset)?;
    let range = convert::range(doc, &found.span, unit);
    let items = found
        .items
        .into_iter()
        .enumerate()
        .map(|(i, item)| CompletionItem {
            label: item.san.clone(),
            kind: Some(CompletionItemKind::VALUE),
            detail: Some(if found.language == Language::En {
                item.long
            } else {
                format!("{} · {}", item.english, item.long)
            }),
            filter_text: Some(item.san),
            // The editors sort by this text: the engine's order, not the
            // alphabet.
            sort_text: Some(format!("{i:03}")),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text: item.insert })),
            ..CompletionItem::default()
        })
        .collect();
    Some(CompletionResponse::Array(items))
}
