//! Highlights: what each token of the notation is (a piece letter, a
//! square, a move number, a comment, ...), from the syntax tree, with its
//! place as a line and column in the client's unit.
//!
//! Each section's highlights are computed once and kept with the section
//! (an edit builds new sections only where it changed), with lines counted
//! from the section's first line and, on that line, columns from the
//! section's start: so a section that only moves keeps its highlights, and
//! the language server can answer `semanticTokens/full/delta` and `range`
//! by what changed, whatever the document's size.

use std::ops::Range;
use std::sync::Arc;

use tree_sitter::Node;

use super::cancel::Token;

use super::document::lines::Walker;
use super::document::{Document, Kept, Section};
use super::line_index::Unit;

// The class of each node kind, generated from the grammar's highlights.scm.
mod classes;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Highlight {
    Piece,
    /// A square, file or rank.
    Square,
    /// A capture sign, dash, promotion sign, check mark.
    Operator,
    MoveNumber,
    /// A glyph, NAG, annotation, en-passant mark.
    Glyph,
    Comment,
    TagName,
    TagValue,
    /// Castling, a result, a draw offer, a null move.
    Keyword,
    /// The labels of a position description (`White:`, `пп.`).
    Label,
}

impl Highlight {
    pub const ALL: [Highlight; 10] = [
        Highlight::Piece,
        Highlight::Square,
        Highlight::Operator,
        Highlight::MoveNumber,
        Highlight::Glyph,
        Highlight::Comment,
        Highlight::TagName,
        Highlight::TagValue,
        Highlight::Keyword,
        Highlight::Label,
    ];
}

/// A highlighted token on one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineToken {
    /// From the section's first line.
    pub line: u32,
    /// From the line's start; on the section's first line, from the
    /// section's start.
    pub column: u32,
    pub length: u32,
    pub kind: Highlight,
}

/// A section's highlights in the unit they were counted in, kept with it
/// (shared by the document's copies).
pub type KeptTokens = Kept<(Unit, Arc<Vec<LineToken>>)>;

/// The highlights of a section, in order; a multi-line token (a comment)
/// is one token per line, as clients without multi-line support need.
pub fn section_tokens(doc: &Document, section: &Section, unit: Unit) -> Arc<Vec<LineToken>> {
    if let Some(tokens) = kept_tokens(section, unit) {
        return tokens;
    }
    let tokens = Arc::new(compute(doc, section, unit));
    // Another request may have kept them first: the same tokens.
    section.highlights.set((unit, tokens.clone()));
    tokens
}

/// The highlights of a section if they are kept already.
pub fn kept_tokens(section: &Section, unit: Unit) -> Option<Arc<Vec<LineToken>>> {
    section.highlights.get().filter(|(kept, _)| *kept == unit).map(|(_, tokens)| tokens.clone())
}

/// One section's highlights and where the section starts: the line, and
/// the column on it (0 when the section starts a line).
#[derive(Clone, Debug)]
pub struct HighlightBlock {
    pub tokens: Arc<Vec<LineToken>>,
    pub line: u32,
    pub column: u32,
}

impl HighlightBlock {
    /// The absolute line and column of a token of the block.
    pub fn place(&self, t: &LineToken) -> (u32, u32) {
        (self.line + t.line, if t.line == 0 { self.column + t.column } else { t.column })
    }
}

/// Above this many bytes of text, a client that asks for the highlights of
/// the lines it shows gets only those: its requests for the whole document
/// are refused ([`by_range_only`]).
///
/// Not for the engine's sake (a keystroke's delta costs a few milliseconds
/// whatever the size) but for the editor's: VS Code keeps a whole
/// document's tokens as one array that it copies and converts again on
/// every delta, and a 10 MB database has about 3 million tokens (a first
/// answer of 60 MB of JSON). Measured in the real VS Code (the editors'
/// end-to-end suite): with whole-document tokens a keystroke in a 10 MB
/// file showed its squiggle after 1.6 to 7 s, the extension host stalled
/// behind the tokens; by range, the visible lines cost what a small file's
/// do. VS Code asks again by range on every change and scroll, and colours
/// only the lines around the viewport, which is all it shows.
pub const WHOLE_DOCUMENT_MAX: usize = 512 * 1024;

/// Whether a client is refused `doc`'s whole-document highlights and
/// served by range only: it asks by range and the document is over
/// [`WHOLE_DOCUMENT_MAX`]. A client that cannot ask by range gets the
/// highlights of the document's start, whatever its size.
pub fn by_range_only(doc: &Document, client_asks_by_range: bool) -> bool {
    client_asks_by_range && doc.text.len() > WHOLE_DOCUMENT_MAX
}

/// The most text whose highlights one answer holds: a whole-document answer
/// covers the sections that meet the document's first [`WHOLE_DOCUMENT_MAX`]
/// bytes, and a range answer those that meet as many bytes from the
/// range's start. An editor shows some kilobytes; a client that cannot ask
/// by range got every token of a 100 MB document (7.9 GB and 50 s), and a
/// range over a whole document cost the same.
fn bounded(span: Range<usize>) -> Range<usize> {
    span.start..span.end.min(span.start.saturating_add(WHOLE_DOCUMENT_MAX))
}

/// The highlights of the sections that meet `span` (`None`: the whole
/// document), up to a bound ([`bounded`]), section by section. A section's
/// place costs a sum (its line) and, only when it does not start a line, a
/// look-up of its column; its highlights are kept with it, and those not
/// kept yet (the first answer for a document) are computed on every core.
pub fn highlights(doc: &Document, span: Option<Range<usize>>, unit: Unit, token: &Token) -> Vec<HighlightBlock> {
    use rayon::prelude::*;
    let span = bounded(span.unwrap_or(0..doc.text.len()));
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
            HighlightBlock { tokens: section_tokens(doc, section, unit), line: line as u32, column: column as u32 }
        })
        .collect()
}

fn compute(doc: &Document, section: &Section, unit: Unit) -> Vec<LineToken> {
    let tree = section.tree(doc);
    let root = tree.root_node();
    // Positions from the section's own text, walked forward (tokens come
    // in order): no look-up in the document's rope per token.
    let mut walker = Walker::new(&doc.text, section.start, unit);
    let mut out = Vec::new();
    let mut push = |node: Node<'_>, kind: Highlight| {
        let span = section.start + node.start_byte()..section.start + node.end_byte();
        // The parser's text: in Markdown, prose inside a token's span (a
        // comment left open across blocks) is blank and gives no token.
        let text = &doc.source()[span.clone()];
        let mut start = span.start;
        for piece in text.split_inclusive('\n') {
            let content = piece.trim_end_matches(['\n', '\r']);
            if !content.trim().is_empty() {
                let (line, column) = walker.to(start);
                let (_, end_column) = walker.to(start + content.len());
                out.push(LineToken {
                    line: line as u32,
                    column: column as u32,
                    length: end_column.saturating_sub(column) as u32,
                    kind,
                });
            }
            start += piece.len();
        }
    };
    // Walked with a cursor, not recursively: variations may nest 100,000
    // deep.
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let descend = match classes::of(node.kind()) {
            Some(kind) => {
                push(node, kind);
                false
            }
            None => true,
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Options;

    /// Each token's place, as its block gives it, is where the rope puts
    /// the token's text; a range gives the blocks of the sections it
    /// meets, and a whole document's answer stops after its first
    /// [`WHOLE_DOCUMENT_MAX`] bytes.
    #[test]
    fn blocks_place_their_tokens_where_the_rope_does() {
        let game = |i: usize| format!("[Event \"{i}\"]\n\n1. e4 {{a\ncomment}} e5 2. Кf3 Nc6 3. Bb5 *\n\n");
        let text: String = (0..40).map(game).collect();
        let doc = Document::open(text.clone(), 1, &Options::default());
        let never = Token::never();
        let all = highlights(&doc, None, Unit::Utf16, &never);
        assert_eq!(all.len(), doc.sections.len());
        let first_move = |block: &HighlightBlock| {
            let t = block.tokens.iter().find(|t| t.kind == Highlight::Piece).unwrap();
            block.place(t)
        };
        for (block, section) in all.iter().zip(&doc.sections) {
            let at = section.start + text[section.start..].find('К').unwrap();
            let (line, column) = doc.position(at, Unit::Utf16);
            assert_eq!(first_move(block), (line as u32, column as u32));
        }
        // The sections that meet a range in the middle, only.
        let middle = doc.sections[20].start + 5;
        let some = highlights(&doc, Some(middle..middle + 10), Unit::Utf16, &never);
        assert_eq!(some.len(), 1);
        assert_eq!(first_move(&some[0]), first_move(&all[20]));
        // A document over the bound: the sections of its first bytes.
        let big: String = (0..(2 * WHOLE_DOCUMENT_MAX / game(0).len())).map(game).collect();
        let doc = Document::open(big, 1, &Options::default());
        let bounded = highlights(&doc, None, Unit::Utf16, &never);
        assert!(bounded.len() < doc.sections.len() * 2 / 3, "{} of {}", bounded.len(), doc.sections.len());
        assert!(by_range_only(&doc, true) && !by_range_only(&doc, false));
    }
}
