//! Hover: the board after a move (with its SAN in the game's language and
//! in English, the side to move and the FEN); on a move that is wrong as
//! written, its findings, the board it was tried in and the reading the
//! check went on with, labelled a guess; what the Laws of Chess say of the
//! position after a move (a repetition, the moves without a capture or
//! pawn move, an end by rule); the meaning of a glyph, NAG or tag, and the
//! board of a position description.

use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};
use tree_sitter::Node;

use shakmaty::Chess;

use crate::lsp::config::Settings;
use crate::lsp::convert;
use chess_ls_engine::analysis::board;
use chess_ls_engine::analysis::glossary;
use chess_ls_engine::analysis::languages::{Language, MoveStyle, render_move};
use chess_ls_engine::analysis::laws::Standing;
use chess_ls_engine::analysis::{Diagnostic, Severity};
use chess_ls_engine::ide::document::{Document, Section};
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::position::game_at;
use chess_ls_engine::syntax;

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
        "result" => match chess_ls_engine::analysis::tags::normalize_result(text).unwrap_or("*") {
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
    let span = node.byte_range();
    // The move as written, without its number (`Кd2` of `7. Кd2`).
    let from = node.child_by_field_name("number").map_or(span.start, |n| n.end_byte());
    let written = section.text(doc)[from..span.end].trim_start();
    let findings: Vec<&Diagnostic> = at
        .report
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| d.span.start < span.end && span.start < d.span.end)
        .collect();
    let language = at.trace.language.unwrap_or(Language::En);
    let Some(traced) = at.move_written_at(&span) else {
        // Not replayed: an illegal move no reading saves. Its board is the
        // one it was tried in, after the move before it in its line.
        if !findings.iter().any(|d| d.severity == Severity::Error) {
            return None;
        }
        let line = at.line()?;
        let before = at
            .trace
            .moves
            .iter()
            .rfind(|m| m.line == line && m.span.end <= span.start)
            .map_or(&at.trace.lines[line].start, |m| &m.after);
        return Some(tried_hover(written, &findings, before, settings, None));
    };
    let own = render_move(&traced.before, &traced.played, &MoveStyle::for_language(language));
    let english = render_move(&traced.before, &traced.played, &MoveStyle::default());
    if traced.guessed {
        // The written move is illegal or undecided: show what was written,
        // why it is wrong, and the board it was tried on; the reading the
        // check went on with comes last, labelled as the guess it is.
        let in_english = if language != Language::En { format!(" (English SAN **{english}**)") } else { String::new() };
        let guess = format!(
            "*A guess:* the check went on as if **{own}**{in_english} was played; after it, FEN `{}`",
            board::fen(&traced.after)
        );
        return Some(tried_hover(written, &findings, &traced.before, settings, Some(guess)));
    }
    let mut out = format!("**{own}**");
    if language != Language::En {
        out.push_str(&format!(" ({}) · English SAN **{english}**", language.name()));
    }
    out.push_str(&format!(" · {}\n\n", board::status(&traced.after)));
    out.push_str("```text\n");
    out.push_str(&board::diagram(&traced.after, settings.pieces()));
    out.push_str("\n```\n\n");
    out.push_str(&format!("FEN: `{}`", board::fen(&traced.after)));
    if let Some(standing) = &traced.standing {
        out.push_str(&laws_hover(standing));
    }
    Some(out)
}

/// What the Laws of Chess say of the position after a move: how often it
/// has stood and after which moves, the moves made without a capture or
/// pawn move, and the end it makes.
fn laws_hover(standing: &Standing) -> String {
    let mut out = String::from("\n\n**Laws of Chess**");
    if standing.occurrences >= 2 {
        let earlier: Vec<String> = standing.earlier.iter().map(|e| escape(e)).collect();
        out.push_str(&format!(
            "\n\n- This position stands for the {} time (before: after {}).",
            ordinal(standing.occurrences),
            earlier.join(", ")
        ));
        if standing.occurrences >= 3 {
            out.push_str(" A draw by threefold repetition can be claimed (Article 9.2).");
        }
    }
    if standing.halfmoves >= 100 {
        out.push_str(&format!(
            "\n\n- {} moves by each player without a capture or a pawn move (halfmove clock {}): a draw can be claimed (Article 9.3).",
            standing.halfmoves / 2,
            standing.halfmoves
        ));
    }
    if let Some(ending) = standing.ending {
        out.push_str(&format!(
            "\n\n- The game ends here: {} (Article {}), **{}**.",
            ending.describe(),
            ending.article(),
            ending.result()
        ));
    }
    out
}

fn ordinal(n: usize) -> String {
    match n {
        2 => "second".to_owned(),
        3 => "third".to_owned(),
        4 => "fourth".to_owned(),
        5 => "fifth".to_owned(),
        n => format!("{n}th"),
    }
}

/// The hover of a move that is wrong as written: the move, the findings
/// on it, the board it was tried in, and the reading the check went on
/// with, if any.
fn tried_hover(
    written: &str,
    findings: &[&Diagnostic],
    before: &Chess,
    settings: &Settings,
    guess: Option<String>,
) -> String {
    let mut out = format!("**{}** as written", escape(written));
    if findings.is_empty() {
        out.push_str(" is illegal or ambiguous");
    }
    for d in findings {
        out.push_str(&format!("\n\n{} ({}): {}", d.severity.as_str(), d.code.as_str(), escape(&d.message)));
    }
    out.push_str(&format!("\n\nThe position it was tried in · {}\n\n", board::status(before)));
    out.push_str("```text\n");
    out.push_str(&board::diagram(before, settings.pieces()));
    out.push_str("\n```\n\n");
    out.push_str(&format!("FEN: `{}`", board::fen(before)));
    if let Some(guess) = guess {
        out.push_str("\n\n");
        out.push_str(&guess);
    }
    out
}

/// Plain text (a written move, a message) made safe in Markdown: its
/// emphasis and code characters shown as they are.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
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
    match chess_ls_engine::analysis::setup_from_descriptions(&descriptions, language) {
        Ok(pos) => Some(format!(
            "Position\n\n```text\n{}\n```\n\nFEN: `{}`",
            board::diagram(&pos, settings.pieces()),
            board::fen(&pos)
        )),
        Err(d) => Some(format!("This position is not legal: {}", d.message)),
    }
}
