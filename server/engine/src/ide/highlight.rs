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

use std::sync::Arc;

use tree_sitter::Node;

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
