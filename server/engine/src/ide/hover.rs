//! What a hover shows, as plain data: the move under the cursor with the
//! board after it (or, wrong as written, the board it was tried in, its
//! findings and the guess the check went on with), the meaning of a glyph,
//! NAG, tag or result, and the board of a position description. The front
//! ends render it (the language server as Markdown).

use std::ops::Range;

use shakmaty::Chess;
use tree_sitter::Node;

use super::document::{Document, Section};
use super::position::{WrongMove, game_at};
use crate::analysis::languages::{Language, MoveStyle, render_move};
use crate::analysis::laws::Standing;
use crate::analysis::{Options, glossary, tags};
use crate::syntax;
use crate::syntax::kinds;

/// What is under the cursor, and where it is written.
#[derive(Clone, Debug)]
pub struct Hover {
    /// Where it stands in the document (in a manuscript, where it is
    /// written: `6. К f3` was read as `6. Кf3`).
    pub span: Range<usize>,
    pub what: Hovered,
}

/// The kinds of things a hover explains.
#[derive(Clone, Debug)]
pub enum Hovered {
    /// A move played as written: in the game's language and in English
    /// SAN, and the position after it.
    /// What the Laws of Chess say of the position after it, where there is
    /// something to say (a repetition, a long run without a capture or pawn
    /// move, an end by rule).
    Move {
        own: String,
        english: String,
        language: Language,
        after: Chess,
        standing: Option<Box<Standing>>,
    },
    /// A move wrong as written (illegal, ambiguous, undecided): as
    /// written, and where and how it was tried.
    Wrong {
        written: String,
        language: Language,
        wrong: Box<WrongMove>,
    },
    /// A glyph or annotation sign (`!?`, `=`, `+-`), a NAG (`$14`) or a tag
    /// name, with its meaning (for a NAG or tag without one, what it is:
    /// one this tool does not know, one outside the standard).
    Glyph {
        text: String,
        meaning: &'static str,
    },
    Nag {
        text: String,
        meaning: &'static str,
    },
    Tag {
        name: String,
        meaning: &'static str,
    },
    /// A result and what it says.
    Result {
        meaning: &'static str,
    },
    /// A position description (`White: Kg1, ...`): the position, or why it
    /// is not a legal one.
    Position(Result<Chess, String>),
}

/// What the hover at `offset` explains, if anything.
pub fn hover(doc: &Document, offset: usize, options: &Options) -> Option<Hover> {
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
            kinds::MOVE
            | kinds::NAG
            | kinds::GLYPH
            | kinds::DRAW_OFFER
            | kinds::TAG
            | kinds::POSITION_DESCRIPTION
            | kinds::RESULT
            | kinds::ANNOTATION => {
                break;
            }
            _ if steps < 8 => {
                node = node.parent()?;
                steps += 1;
            }
            _ => return None,
        }
    }
    let text = &source[node.byte_range()];
    let what = match node.kind() {
        kinds::MOVE => move_hover(doc, section, node, options)?,
        kinds::ANNOTATION | kinds::GLYPH | kinds::DRAW_OFFER => {
            Hovered::Glyph { text: text.to_owned(), meaning: glossary::glyph(text)? }
        }
        kinds::NAG => {
            let number: u32 = text.trim_start_matches('$').parse().ok()?;
            Hovered::Nag {
                text: text.to_owned(),
                meaning: glossary::nag(number).unwrap_or("a NAG this tool does not know"),
            }
        }
        kinds::TAG => {
            let name = &source[node.child_by_field_name(kinds::field::NAME)?.byte_range()];
            Hovered::Tag {
                name: name.to_owned(),
                meaning: glossary::tag(name).unwrap_or("a tag outside the PGN standard"),
            }
        }
        kinds::RESULT => Hovered::Result {
            meaning: match tags::normalize_result(text).unwrap_or("*") {
                "1-0" => "White won",
                "0-1" => "Black won",
                "*" => "result unknown or game unfinished",
                _ => "a draw",
            },
        },
        kinds::POSITION_DESCRIPTION => description(source, node, options)?,
        _ => return None,
    };
    let span = doc.to_original(&(section.start + node.start_byte()..section.start + node.end_byte()));
    Some(Hover { span, what })
}

fn move_hover(doc: &Document, section: &Section, node: Node<'_>, options: &Options) -> Option<Hovered> {
    let span = node.byte_range();
    // The move as written, without its number (`Кd2` of `7. Кd2`).
    let from = node.child_by_field_name(kinds::field::NUMBER).map_or(span.start, |n| n.end_byte());
    let after_number = &section.text(doc)[from..span.end];
    let written = after_number.trim_start();
    let at = game_at(doc, section.start + from + (after_number.len() - written.len()), options)?;
    if let Some(wrong) = at.wrong_move() {
        return Some(Hovered::Wrong { written: written.to_owned(), language: at.language(), wrong: Box::new(wrong) });
    }
    let traced = at.move_written_at(&span)?;
    let language = at.trace.language.unwrap_or(Language::En);
    Some(Hovered::Move {
        own: render_move(&traced.before, &traced.played, &MoveStyle::for_language(language)),
        english: render_move(&traced.before, &traced.played, &MoveStyle::default()),
        language,
        after: traced.after.clone(),
        standing: traced.standing.clone(),
    })
}

fn description(source: &str, node: Node<'_>, options: &Options) -> Option<Hovered> {
    // A description may be split into White's and Black's parts: take the
    // run of descriptions this one belongs to.
    let mut first = node;
    while let Some(prev) = first.prev_named_sibling().filter(|n| n.kind() == kinds::POSITION_DESCRIPTION) {
        first = prev;
    }
    let mut nodes = vec![first];
    while let Some(next) =
        nodes.last().and_then(|n| n.next_named_sibling()).filter(|n| n.kind() == kinds::POSITION_DESCRIPTION)
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
    let language = options.language.unwrap_or(Language::Ru);
    Some(Hovered::Position(crate::analysis::setup_from_descriptions(&descriptions, language).map_err(|d| d.message)))
}
