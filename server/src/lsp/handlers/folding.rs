//! Folding ranges: games, tag sections, variations and comments that span
//! several lines.

use tower_lsp_server::ls_types::{FoldingRange, FoldingRangeKind};
use tree_sitter::Node;

use crate::line_index::Unit;
use crate::lsp::document::Document;

pub fn ranges(doc: &Document, unit: Unit) -> Option<Vec<FoldingRange>> {
    let mut out = Vec::new();
    for piece in &doc.pieces {
        visit(doc, piece.start, piece.tree.root_node(), unit, &mut out);
    }
    Some(out)
}

fn visit(doc: &Document, base: usize, node: Node<'_>, unit: Unit, out: &mut Vec<FoldingRange>) {
    let kind = node.kind();
    if matches!(kind, "game" | "headers" | "variation" | "comment") {
        let (start_line, _) = doc.position(base + node.start_byte(), unit);
        let (mut end_line, end_column) = doc.position(base + node.end_byte(), unit);
        if end_column == 0 && end_line > start_line {
            end_line -= 1;
        }
        if end_line > start_line {
            out.push(FoldingRange {
                start_line: start_line as u32,
                start_character: None,
                end_line: end_line as u32,
                end_character: None,
                kind: Some(match kind {
                    "comment" => FoldingRangeKind::Comment,
                    "headers" => FoldingRangeKind::Imports,
                    _ => FoldingRangeKind::Region,
                }),
                collapsed_text: None,
            });
        }
    }
    // Moves and tags never hold anything foldable.
    if matches!(kind, "source_file" | "game" | "movetext" | "variation") {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            visit(doc, base, child, unit, out);
        }
    }
}
