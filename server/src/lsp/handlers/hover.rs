//! Hover: the board after a move (with its SAN in the game's language and
//! in English, the side to move and the FEN), the meaning of a glyph, NAG or
//! tag, and the board of a position description.

use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};
use tree_sitter::Node;

use crate::analysis::board;
use crate::analysis::glossary;
use crate::analysis::languages::{Language, MoveStyle, render_move};
use crate::ide::document::{Document, Section};
use crate::ide::line_index::Unit;
use crate::ide::position::game_at;
use crate::lsp::config::Settings;
use crate::lsp::convert;
use crate::syntax;

pub fn hover(doc: &Document, position: Position, unit: Unit, settings: &Settings) -> Option<Hover> {
    let offset = convert::offset(doc, position, unit);
    let section = doc.section_at(offset);
    let source = section.text(doc);
    let local = offset - section.start;
    let tree = section.tree(doc);
    let root = tree.root_node();
    let leaf = root.descendant_for_byte_range(local, local)?;
    let mut node = leaf;
    // Walk up to the node a hover is about: a few levels at most above a
    // token. The walk is bounded because tree-sitter finds a parent from
    // the root down: walking up 100,000 nested variations step by step
    // would take quadratic time.
    let mut steps = 0;
    loop {
        match node.kind() {
            "move" | "nag" | "glyph" | "draw_offer" | "tag" | "position_description" | "result" => break,
            "annotation" => break,
            _ if steps < 8 => {
                node = node.parent()?;
                steps += 1;
            }
            _ => return None,
        }
    }
    let text = &source[node.byte_range()];
    let markdown = match node.kind() {
        "move" => move_hover(doc, section, node, settings)?,
        "annotation" | "glyph" | "draw_offer" => {
            let meaning = glossary::glyph(text)?;
            format!("`{text}`: {meaning}")
        }
        "nag" => {
            let number: u32 = text.trim_start_matches('$').parse().ok()?;
            format!("`{text}`: {}", glossary::nag(number).unwrap_or("a NAG this tool does not know"))
        }
        "tag" => {
            let name = node.child_by_field_name("name")?;
            let name = &source[name.byte_range()];
            format!("**{name}**: {}", glossary::tag(name).unwrap_or("a tag outside the PGN standard"))
        }
        "result" => match crate::analysis::tags::normalize_result(text).unwrap_or("*") {
            "1-0" => "White won".to_owned(),
            "0-1" => "Black won".to_owned(),
            "*" => "result unknown or game unfinished".to_owned(),
            _ => "a draw".to_owned(),
        },
        "position_description" => description_hover(source, node, settings)?,
        _ => return None,
    };
    // In a manuscript, the range is where the node stands in the text
    // (`6. К f3` was read as `6. Кf3`).
    let span = doc.to_original(&(section.start + node.start_byte()..section.start + node.end_byte()));
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: markdown }),
        range: Some(convert::range(doc, &span, unit)),
    })
}

fn move_hover(doc: &Document, section: &Section, node: Node<'_>, settings: &Settings) -> Option<String> {
    let at = game_at(doc, section.start + node.start_byte(), &settings.options)?;
    let traced = at.move_written_at(&node.byte_range())?;
    let language = at.trace.language.unwrap_or(Language::En);
    let own = render_move(&traced.before, &traced.played, &MoveStyle::for_language(language));
    let english = render_move(&traced.before, &traced.played, &MoveStyle::default());
    let mut out = format!("**{own}**");
    if language != Language::En {
        out.push_str(&format!(" ({}) · English SAN **{english}**", language.name()));
    }
    if traced.guessed {
        // The written move is illegal or undecided: this is the reading the
        // check went on with, not what was written.
        out.push_str(" · *a guess: the move as written is illegal or ambiguous*");
    }
    out.push_str(&format!(" · {}\n\n", board::status(&traced.after)));
    out.push_str("```text\n");
    out.push_str(&board::diagram(&traced.after, settings.pieces()));
    out.push_str("\n```\n\n");
    out.push_str(&format!("FEN: `{}`", board::fen(&traced.after)));
    Some(out)
}

fn description_hover(source: &str, node: Node<'_>, settings: &Settings) -> Option<String> {
    // A description may be split into White's and Black's parts: take the
    // run of descriptions this one belongs to.
    let mut first = node;
    while let Some(prev) = first.prev_named_sibling().filter(|n| n.kind() == "position_description") {
        first = prev;
    }
    let mut nodes = vec![first];
    while let Some(next) =
        nodes.last().and_then(|n| n.next_named_sibling()).filter(|n| n.kind() == "position_description")
    {
        nodes.push(next);
    }
    let mut text = String::new();
    for n in &nodes {
        text.push_str(&source[n.byte_range()]);
        text.push('\n');
    }
    let tree = syntax::parse(&text, None);
    let games = syntax::lower(&tree, &text);
    let descriptions: Vec<_> = games
        .first()?
        .mainline
        .items
        .iter()
        .filter_map(|i| if let syntax::Item::PositionDescription(d) = i { Some(d) } else { None })
        .collect();
    if descriptions.is_empty() {
        return None;
    }
    let language = settings.options.language.unwrap_or(Language::Ru);
    match crate::analysis::setup_from_descriptions(&descriptions, language) {
        Ok(pos) => Some(format!(
            "Position\n\n```text\n{}\n```\n\nFEN: `{}`",
            board::diagram(&pos, settings.pieces()),
            board::fen(&pos)
        )),
        Err(d) => Some(format!("This position is not legal: {}", d.message)),
    }
}
