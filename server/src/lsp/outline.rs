//! What the editor's outline and folding need from a piece, computed once
//! when the piece is parsed, so that those requests cost nothing and the
//! piece's tree need not be kept.

use std::ops::Range;

use tree_sitter::{Node, Tree};

use crate::syntax::GameSyntax;

/// The kind of a folding range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    Game,
    Headers,
    Variation,
    Comment,
}

/// One game in the outline: "White - Black, Event, Result".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSymbol {
    pub name: String,
    pub date: Option<String>,
    pub span: Range<usize>,
    pub selection: Range<usize>,
}

/// A piece's folds and symbols, spans relative to the piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub folds: Vec<(Range<usize>, Fold)>,
    pub symbols: Vec<GameSymbol>,
}

pub fn outline(tree: &Tree, games: &[GameSyntax<'_>], source: &str) -> Outline {
    let mut out = Outline::default();
    folds(tree.root_node(), source, &mut out.folds);
    for game in games {
        let tag = |name: &str| game.tag(name).map(|t| t.unescaped_value()).filter(|v| !v.is_empty() && v != "?");
        let mut name = match (tag("White"), tag("Black")) {
            (Some(w), Some(b)) => format!("{w} - {b}"),
            (Some(w), None) => w,
            (None, Some(b)) => b,
            (None, None) => String::new(),
        };
        let mut push = |part: String| {
            if !name.is_empty() {
                name.push_str(", ");
            }
            name.push_str(&part);
        };
        if let Some(event) = tag("Event") {
            push(event);
        }
        if let Some(result) = tag("Result").or_else(|| game.result.as_ref().map(|r| r.text.to_owned())) {
            push(result);
        }
        let selection = game.tags.first().map_or(game.span.clone(), |t| t.span.clone());
        out.symbols.push(GameSymbol { name, date: tag("Date"), span: game.span.clone(), selection });
    }
    out
}

fn folds(node: Node<'_>, source: &str, out: &mut Vec<(Range<usize>, Fold)>) {
    let kind = match node.kind() {
        "game" => Some(Fold::Game),
        "headers" => Some(Fold::Headers),
        "variation" => Some(Fold::Variation),
        "comment" => Some(Fold::Comment),
        _ => None,
    };
    if let Some(kind) = kind
        && source[node.byte_range()].trim_end().contains('\n')
    {
        out.push((node.byte_range(), kind));
    }
    // Moves and tags never hold anything foldable; comments are extras and
    // may stand under any of these.
    if matches!(node.kind(), "source_file" | "game" | "movetext" | "variation" | "headers" | "move") {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            folds(child, source, out);
        }
    }
}
