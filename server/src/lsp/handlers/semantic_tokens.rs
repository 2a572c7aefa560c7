//! Semantic tokens: the engine's highlights (`ide::highlight`: piece
//! letters, squares, marks, move numbers, glyphs, comments and tags, kept
//! per section and given section by section), encoded for the whole
//! document, a range of it, or as a delta from the client's last answer:
//! a keystroke in a big database costs the sections that changed, not
//! the document.

use std::ops::Range;
use std::sync::Arc;

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensDelta, SemanticTokensEdit,
    SemanticTokensLegend, SemanticTokensRangeResult,
};

use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::document::Document;
pub use chess_ls_engine::ide::highlight::WHOLE_DOCUMENT_MAX;
use chess_ls_engine::ide::highlight::{Highlight, HighlightBlock as Block, LineToken};
use chess_ls_engine::ide::line_index::Unit;

fn types() -> [SemanticTokenType; 10] {
    [
        SemanticTokenType::TYPE,         // 0 piece letter
        SemanticTokenType::VARIABLE,     // 1 square, file, rank
        SemanticTokenType::OPERATOR,     // 2 capture sign, dash, promotion sign, check mark
        SemanticTokenType::NUMBER,       // 3 move number
        SemanticTokenType::MACRO,        // 4 glyph, NAG, annotation, en passant
        SemanticTokenType::COMMENT,      // 5 comment
        SemanticTokenType::PROPERTY,     // 6 tag name
        SemanticTokenType::STRING,       // 7 tag value
        SemanticTokenType::KEYWORD,      // 8 castling, result, draw offer, null move
        SemanticTokenType::new("label"), // 9 position description labels
    ]
}

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend { token_types: types().to_vec(), token_modifiers: vec![SemanticTokenModifier::READONLY] }
}

/// The legend's index of a highlight.
fn token_type(kind: Highlight) -> u32 {
    Highlight::ALL.iter().position(|&h| h == kind).unwrap_or(0) as u32
}

/// An answer the client holds, for the next `full/delta`. Cloned out of
/// the document's slot by every delta request: the blocks are shared, not
/// copied (a database has a block per game).
#[derive(Clone, Debug)]
pub struct Previous {
    pub id: String,
    blocks: Arc<Vec<Block>>,
}

/// Encodes blocks after the token at `last` (LSP's relative encoding).
fn encode(blocks: &[Block], last: &mut (u32, u32), out: &mut Vec<SemanticToken>) {
    for block in blocks {
        for t in block.tokens.iter() {
            out.push(relative(block.place(t), t, last));
        }
    }
}

fn relative((line, column): (u32, u32), t: &LineToken, last: &mut (u32, u32)) -> SemanticToken {
    let delta_line = line - last.0;
    let delta_start = if delta_line == 0 { column - last.1 } else { column };
    *last = (line, column);
    SemanticToken {
        delta_line,
        delta_start,
        length: t.length,
        token_type: token_type(t.kind),
        token_modifiers_bitset: 0,
    }
}

/// The place of the last token of `blocks`, or the document's start.
fn last_place(blocks: &[Block]) -> (u32, u32) {
    blocks.iter().rev().find_map(|b| b.tokens.last().map(|t| b.place(t))).unwrap_or((0, 0))
}

/// The whole document's tokens, and what to keep for a later delta.
pub fn full(snap: &Snapshot, unit: Unit, id: String) -> (SemanticTokens, Previous) {
    let blocks = snap.highlights(None, unit);
    let mut data = Vec::new();
    encode(&blocks, &mut (0, 0), &mut data);
    (SemanticTokens { result_id: Some(id.clone()), data }, Previous { id, blocks: Arc::new(blocks) })
}

/// The edits from a previous answer to the document's tokens now: the
/// sections that did not change (same kept highlights, same start, or all
/// moved by the same lines at the end) are not encoded again, so a
/// keystroke costs what changed plus a pass over the sections.
pub fn delta(snap: &Snapshot, unit: Unit, previous: &Previous, id: String) -> (SemanticTokensDelta, Previous) {
    let new = snap.highlights(None, unit);
    let old: &[Block] = &previous.blocks;
    let same = |a: &Block, b: &Block| Arc::ptr_eq(&a.tokens, &b.tokens) && a.column == b.column;
    let mut p = 0;
    while p < old.len() && p < new.len() && same(&old[p], &new[p]) && old[p].line == new[p].line {
        p += 1;
    }
    // From the end: sections that only moved, all by the same lines.
    let shift = match (old.last(), new.last()) {
        (Some(a), Some(b)) => i64::from(b.line) - i64::from(a.line),
        _ => 0,
    };
    let mut q = 0;
    while q < old.len() - p && q < new.len() - p {
        let (a, b) = (&old[old.len() - 1 - q], &new[new.len() - 1 - q]);
        if !(same(a, b) && i64::from(b.line) - i64::from(a.line) == shift) {
            break;
        }
        q += 1;
    }
    let count = |bs: &[Block]| bs.iter().map(|b| b.tokens.len()).sum::<usize>();
    let (old_mid, new_mid) = (&old[p..old.len() - q], &new[p..new.len() - q]);
    let mut data = Vec::new();
    let mut last = last_place(&new[..p]);
    encode(new_mid, &mut last, &mut data);
    // The first token after the change is relative to the last one before
    // it, which may have moved: it is written again.
    let mut deleted = count(old_mid);
    if let Some((block, t)) = new[new.len() - q..].iter().find_map(|b| b.tokens.first().map(|t| (b, t))) {
        data.push(relative(block.place(t), t, &mut last));
        deleted += 1;
    }
    let edits = if deleted == 0 && data.is_empty() {
        Vec::new()
    } else {
        vec![SemanticTokensEdit {
            start: (count(&old[..p]) * 5) as u32,
            delete_count: (deleted * 5) as u32,
            data: Some(data),
        }]
    };
    (SemanticTokensDelta { result_id: Some(id.clone()), edits }, Previous { id, blocks: Arc::new(new) })
}

/// Whether a client is refused `doc`'s whole-document tokens and served
/// by range only: it asks by range and the document is over
/// [`WHOLE_DOCUMENT_MAX`]. A client that cannot ask by range gets the
/// tokens of the document's start (and deltas of them), whatever its size.
pub fn by_range_only(doc: &Document, client_asks_by_range: bool) -> bool {
    chess_ls_engine::ide::highlight::by_range_only(doc, client_asks_by_range)
}

/// LSP's `ServerCancelled`.
const SERVER_CANCELLED: i64 = -32802;

/// The answer to a whole-document request of a document served by range:
/// `ServerCancelled` without data, which VS Code's client takes as a
/// cancellation (no error shown, no retry until the next change) and
/// which leaves the document without whole-document tokens, so that its
/// viewport is asked for by range. (An empty or null answer would not:
/// VS Code then takes the document's tokens as complete, and empty.)
pub fn ask_by_range() -> tower_lsp_server::jsonrpc::Error {
    tower_lsp_server::jsonrpc::Error {
        code: tower_lsp_server::jsonrpc::ErrorCode::ServerError(SERVER_CANCELLED),
        message: "a document this large is served by range (semanticTokens/range)".into(),
        data: None,
    }
}

/// Tokens of the sections that meet a range (what an editor shows), up
/// to a bound (`ide::highlight::WHOLE_DOCUMENT_MAX` bytes).
pub fn range(snap: &Snapshot, span: Range<usize>, unit: Unit) -> Option<SemanticTokensRangeResult> {
    let mut data = Vec::new();
    encode(&snap.highlights(Some(span), unit), &mut (0, 0), &mut data);
    Some(SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess_ls_engine::analysis::Options;
    use chess_ls_engine::ide::cancel::Token;
    use chess_ls_engine::ide::document::ByteChange;

    fn snap(doc: &Document) -> Snapshot {
        Snapshot::new(Arc::new(doc.clone()), Token::never())
    }

    /// Applies a delta to the data it was computed against.
    fn apply(mut data: Vec<SemanticToken>, delta: &SemanticTokensDelta) -> Vec<SemanticToken> {
        for edit in delta.edits.iter().rev() {
            let (start, count) = (edit.start as usize / 5, edit.delete_count as usize / 5);
            data.splice(start..start + count, edit.data.clone().unwrap_or_default());
        }
        data
    }

    #[test]
    fn deltas_rebuild_the_full_answer_after_every_edit() {
        let games: Vec<String> =
            (0..30).map(|i| format!("[Event \"{i}\"]\n\n1. e4 {{a comment}} e5 2. Кf3 Nc6 3. Bb5 *\n\n")).collect();
        let mut doc = Document::open(games.concat(), 1, &Options::default());
        let (tokens, mut previous) = full(&snap(&doc), Unit::Utf16, "1".to_owned());
        let mut data = tokens.data;
        let edits: [(&str, &str); 6] = [
            ("Кf3", "Кf5"),
            ("e5", "e5\n(1... c5)\n"),
            ("[Event \"7\"]", ""),
            ("Bb5", "♗b5 ; x"),
            ("2.", "\n\n\n2."),
            ("*", "1-0"),
        ];
        for (k, (find, replace)) in edits.iter().enumerate() {
            let at = doc.text.match_indices(find).nth(k * 3 % 20).map_or(0, |(i, _)| i);
            let change = ByteChange { range: Some(at..at + find.len()), text: (*replace).to_owned() };
            doc.apply_changes(vec![change], doc.version + 1, &Options::default());
            let (d, next) = delta(&snap(&doc), Unit::Utf16, &previous, format!("{}", k + 2));
            data = apply(data, &d);
            let (fresh, _) =
                full(&snap(&Document::open(doc.text.clone(), 1, &Options::default())), Unit::Utf16, "x".into());
            assert_eq!(data, fresh.data, "after edit {k}");
            assert!(d.edits.iter().all(|e| e.data.as_ref().is_some_and(|d| d.len() < 40)), "small edits: {d:?}");
            previous = next;
        }
    }

    #[test]
    fn deltas_follow_random_edits() {
        const SNIPPETS: &[&str] =
            &["", " ", "\n", "\r\n", "Nf3", "Кf3", "{", "}", "(", ")", "[Event \"x\"]\n", "*", "; c\n", "12.", "е"];
        let mut next = chess_ls_engine::test_support::below(0x2545_f491_4f6c_dd1d);
        for kind in [chess_ls_engine::ide::document::Kind::Pgn, chess_ls_engine::ide::document::Kind::Markdown] {
            let games: String = (0..8).map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Кf3 {{c}} Nc6 *\n\n")).collect();
            let text = if kind == chess_ls_engine::ide::document::Kind::Pgn {
                games
            } else {
                format!("# B\n\n```pgn\n{games}```\n")
            };
            let mut doc = Document::open_as(kind, text, 1, &Options::default());
            let (tokens, mut previous) = full(&snap(&doc), Unit::Utf16, "0".to_owned());
            let mut data = tokens.data;
            for k in 0..120 {
                let std::ops::Range { start, end } =
                    chess_ls_engine::test_support::random_span(&mut next, &doc.text, 6);
                let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
                doc.apply_changes(vec![change], doc.version + 1, &Options::default());
                let (d, next_previous) = delta(&snap(&doc), Unit::Utf16, &previous, k.to_string());
                data = apply(data, &d);
                let fresh = Document::open_as(kind, doc.text.clone(), 1, &Options::default());
                assert_eq!(
                    data,
                    full(&snap(&fresh), Unit::Utf16, "x".into()).0.data,
                    "{kind:?} after edit {k}: {:?}",
                    doc.text
                );
                previous = next_previous;
            }
        }
    }
}
