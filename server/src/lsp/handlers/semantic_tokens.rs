//! Semantic tokens: piece letters, squares, marks, move numbers, glyphs,
//! comments and tags, from the syntax tree (no analysis needed).

use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensRangeResult, SemanticTokensResult,
};
use tree_sitter::Node;

use crate::ide::cancel::Token;
use crate::ide::document::Document;
use crate::ide::line_index::Unit;

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

fn token_type(kind: &str) -> Option<u32> {
    Some(match kind {
        "piece" => 0,
        "square" | "file" | "rank" => 1,
        "capture" | "dash" | "promotion_sign" | "check" | "drop" => 2,
        "move_number" => 3,
        "glyph" | "nag" | "annotation" | "en_passant" => 4,
        "comment" | "line_comment" | "escape" => 5,
        "tag_name" => 6,
        "tag_value" => 7,
        "castling" | "result" | "draw_offer" | "null_move" => 8,
        "side" | "pawns_label" => 9,
        _ => return None,
    })
}

pub fn full(doc: &Document, unit: Unit, token: &Token) -> Option<SemanticTokensResult> {
    Some(SemanticTokensResult::Tokens(tokens(doc, 0..doc.text.len(), unit, token)))
}

/// Tokens of the pieces that meet a range (what an editor shows).
pub fn range(
    doc: &Document,
    span: std::ops::Range<usize>,
    unit: Unit,
    token: &Token,
) -> Option<SemanticTokensRangeResult> {
    Some(SemanticTokensRangeResult::Tokens(tokens(doc, span, unit, token)))
}

fn tokens(doc: &Document, span: std::ops::Range<usize>, unit: Unit, token: &Token) -> SemanticTokens {
    let mut tokens = Vec::new();
    let mut last = (0usize, 0usize);
    for section in doc.sections.iter().filter(|p| p.start <= span.end && p.start + p.len >= span.start) {
        token.check();
        let tree = section.tree(doc);
        visit(doc, section.start, tree.root_node(), unit, &mut last, &mut tokens);
    }
    SemanticTokens { result_id: None, data: tokens }
}

/// The tokens under `root` in document order, walked with a cursor (not
/// recursively: variations may nest 100,000 deep).
fn visit(
    doc: &Document,
    base: usize,
    root: Node<'_>,
    unit: Unit,
    last: &mut (usize, usize),
    out: &mut Vec<SemanticToken>,
) {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let descend = match token_type(node.kind()) {
            Some(kind) => {
                push(doc, base + node.start_byte()..base + node.end_byte(), kind, unit, last, out);
                false
            }
            None => true,
        };
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// Pushes a token, split at line ends (a multi-line comment becomes one
/// token per line, as clients without multiline support need).
fn push(
    doc: &Document,
    span: std::ops::Range<usize>,
    kind: u32,
    unit: Unit,
    last: &mut (usize, usize),
    out: &mut Vec<SemanticToken>,
) {
    // The parser's text: in Markdown, prose inside a token's span (a comment
    // left open across blocks) is blank and gives no token.
    let text = &doc.source()[span.clone()];
    let mut start = span.start;
    for piece in text.split_inclusive('\n') {
        let content = piece.trim_end_matches(['\n', '\r']);
        if !content.trim().is_empty() {
            let (line, column) = doc.position(start, unit);
            let (_, end_column) = doc.position(start + content.len(), unit);
            let delta_line = line - last.0;
            let delta_start = if delta_line == 0 { column - last.1 } else { column };
            out.push(SemanticToken {
                delta_line: delta_line as u32,
                delta_start: delta_start as u32,
                length: (end_column - column) as u32,
                token_type: kind,
                token_modifiers_bitset: 0,
            });
            *last = (line, column);
        }
        start += piece.len();
    }
}
