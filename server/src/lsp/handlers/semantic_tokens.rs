//! Semantic tokens: piece letters, squares, marks, move numbers, glyphs,
//! comments and tags (`ide::highlight`, kept per section), for the whole
//! document, a range of it, or as a delta from the client's last answer:
//! a keystroke in a big database costs the sections that changed, not
//! the document.

use std::ops::Range;
use std::sync::Arc;

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensDelta, SemanticTokensEdit,
    SemanticTokensLegend, SemanticTokensRangeResult,
};

use chess_ls_engine::ide::cancel::Token;
use chess_ls_engine::ide::document::{Document, Section};
use chess_ls_engine::ide::highlight::{Highlight, LineToken, kept_tokens, section_tokens};
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

/// One section's tokens and where the section starts.
#[derive(Clone, Debug)]
pub struct Block {
    tokens: Arc<Vec<LineToken>>,
    line: u32,
    column: u32,
}

impl Block {
    /// The absolute line and column of a token of the block.
    fn place(&self, t: &LineToken) -> (u32, u32) {
        (self.line + t.line, if t.line == 0 { self.column + t.column } else { t.column })
    }
}

/// An answer the client holds, for the next `full/delta`. Cloned out of
/// the document's slot by every delta request: the blocks are shared, not
/// copied (a database has a block per game).
#[derive(Clone, Debug)]
pub struct Previous {
    pub id: String,
    blocks: Arc<Vec<Block>>,
}

/// The blocks of the sections that meet `span` (every section for the
/// whole document). A section's place costs a sum (its line) and, only
/// when it does not start a line, a look-up of its column; its tokens are
/// kept with it, and those not kept yet (the first answer for a document)
/// are computed on every core.
fn blocks(doc: &Document, span: Range<usize>, unit: Unit, token: &Token) -> Vec<Block> {
    use rayon::prelude::*;
    let first = doc.sections.partition_point(|s| s.start + s.len < span.start);
    let count = doc.sections[first..].iter().take_while(|s| s.start <= span.end).count();
    let sections = &doc.sections[first..first + count];
    let missing: Vec<&Section> = sections.iter().filter(|s| kept_tokens(s, unit).is_none()).collect();
    if missing.len() > 1 {
        missing.par_iter().for_each(|section| {
            token.check();
            section_tokens(doc, section, unit);
        });
    }
    sections
        .iter()
        .zip(doc.section_lines().skip(first))
        .enumerate()
        .map(|(k, (section, line))| {
            if k % 256 == 0 {
                token.check();
            }
            let (line, column) = doc.section_position(section, line, unit);
            Block { tokens: section_tokens(doc, section, unit), line: line as u32, column: column as u32 }
        })
        .collect()
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
pub fn full(doc: &Document, unit: Unit, token: &Token, id: String) -> (SemanticTokens, Previous) {
    let blocks = blocks(doc, whole(doc), unit, token);
    let mut data = Vec::new();
    encode(&blocks, &mut (0, 0), &mut data);
    (SemanticTokens { result_id: Some(id.clone()), data }, Previous { id, blocks: Arc::new(blocks) })
}

/// The edits from a previous answer to the document's tokens now: the
/// sections that did not change (same kept highlights, same start, or all
/// moved by the same lines at the end) are not encoded again, so a
/// keystroke costs what changed plus a pass over the sections.
pub fn delta(
    doc: &Document,
    unit: Unit,
    token: &Token,
    previous: &Previous,
    id: String,
) -> (SemanticTokensDelta, Previous) {
    let new = blocks(doc, whole(doc), unit, token);
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

/// Above this many bytes of text, a client that asks for the tokens of the
/// lines it shows (`semanticTokens/range`) gets only those: its requests
/// for the whole document are refused ([`ask_by_range`]).
///
/// Not for the server's sake (a keystroke's delta costs it a few
/// milliseconds whatever the size) but for the editor's: VS Code keeps a
/// whole document's tokens as one array that it copies and converts again
/// on every delta, and a 10 MB database has about 3 million tokens (a
/// first answer of 60 MB of JSON). Measured in the real VS Code (the
/// editors' end-to-end suite): with whole-document tokens a keystroke in a
/// 10 MB file showed its squiggle after 1.6 to 7 s, the extension host
/// stalled behind the tokens; by range, the visible lines cost what a
/// small file's do. VS Code asks again by range on every change and
/// scroll, and colours only the lines around the viewport, which is all
/// it shows.
pub const WHOLE_DOCUMENT_MAX: usize = 512 * 1024;

/// Whether a client is refused `doc`'s whole-document tokens and served
/// by range only: it asks by range and the document is over
/// [`WHOLE_DOCUMENT_MAX`]. A client that cannot ask by range gets the
/// tokens of the document's start (and deltas of them), whatever its size.
pub fn by_range_only(doc: &Document, client_asks_by_range: bool) -> bool {
    client_asks_by_range && doc.text.len() > WHOLE_DOCUMENT_MAX
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

/// The most text whose tokens one answer holds: a whole-document answer
/// covers the sections that meet the document's first [`WHOLE_DOCUMENT_MAX`]
/// bytes, and a range answer those that meet as many bytes from the
/// range's start. An editor shows some kilobytes; a client that cannot ask
/// by range got every token of a 100 MB document (7.9 GB and 50 s), and a
/// range over a whole document cost the same.
fn bounded(span: Range<usize>) -> Range<usize> {
    span.start..span.end.min(span.start.saturating_add(WHOLE_DOCUMENT_MAX))
}

/// What a whole-document answer covers ([`bounded`]).
fn whole(doc: &Document) -> Range<usize> {
    bounded(0..doc.text.len())
}

/// Tokens of the sections that meet a range (what an editor shows), up
/// to a bound ([`bounded`]).
pub fn range(doc: &Document, span: Range<usize>, unit: Unit, token: &Token) -> Option<SemanticTokensRangeResult> {
    let span = bounded(span);
    let mut data = Vec::new();
    encode(&blocks(doc, span, unit, token), &mut (0, 0), &mut data);
    Some(SemanticTokensRangeResult::Tokens(SemanticTokens { result_id: None, data }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess_ls_engine::analysis::Options;
    use chess_ls_engine::ide::document::ByteChange;

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
        let never = Token::never();
        let (tokens, mut previous) = full(&doc, Unit::Utf16, &never, "1".to_owned());
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
            let (d, next) = delta(&doc, Unit::Utf16, &never, &previous, format!("{}", k + 2));
            data = apply(data, &d);
            let (fresh, _) =
                full(&Document::open(doc.text.clone(), 1, &Options::default()), Unit::Utf16, &never, "x".into());
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
        let never = Token::never();
        for kind in [chess_ls_engine::ide::document::Kind::Pgn, chess_ls_engine::ide::document::Kind::Markdown] {
            let games: String = (0..8).map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Кf3 {{c}} Nc6 *\n\n")).collect();
            let text = if kind == chess_ls_engine::ide::document::Kind::Pgn {
                games
            } else {
                format!("# B\n\n```pgn\n{games}```\n")
            };
            let mut doc = Document::open_as(kind, text, 1, &Options::default());
            let (tokens, mut previous) = full(&doc, Unit::Utf16, &never, "0".to_owned());
            let mut data = tokens.data;
            for k in 0..120 {
                let std::ops::Range { start, end } =
                    chess_ls_engine::test_support::random_span(&mut next, &doc.text, 6);
                let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
                doc.apply_changes(vec![change], doc.version + 1, &Options::default());
                let (d, next_previous) = delta(&doc, Unit::Utf16, &never, &previous, k.to_string());
                data = apply(data, &d);
                let fresh = Document::open_as(kind, doc.text.clone(), 1, &Options::default());
                assert_eq!(
                    data,
                    full(&fresh, Unit::Utf16, &never, "x".into()).0.data,
                    "{kind:?} after edit {k}: {:?}",
                    doc.text
                );
                previous = next_previous;
            }
        }
    }
}
