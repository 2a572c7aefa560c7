//! Hover: the engine's answer (`ide::hover`) rendered as Markdown: the
//! board after a move (with its SAN in the game's language and in English,
//! the side to move and the FEN); on a move that is wrong as written, its
//! findings, the board it was tried in and the reading the check went on
//! with, labelled a guess; what the Laws of Chess say of the position
//! after a move (a repetition, the moves without a capture or pawn move,
//! an end by rule); the meaning of a glyph, NAG or tag, and the board of a
//! position description.

use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use crate::lsp::config::Settings;
use crate::lsp::convert;
use chess_ls_engine::analysis::board;
use chess_ls_engine::analysis::languages::Language;
use chess_ls_engine::analysis::laws::Standing;
use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::hover::Hovered;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::position::WrongMove;

pub fn hover(snap: &Snapshot, position: Position, unit: Unit, settings: &Settings) -> Option<Hover> {
    let doc = snap.document();
    let offset = convert::offset(doc, position, unit);
    let found = snap.hover(offset)?;
    let markdown = match &found.what {
        Hovered::Move { own, english, language, after, standing } => {
            let mut out = format!("**{own}**");
            if *language != Language::En {
                out.push_str(&format!(" ({}) · English SAN **{english}**", language.name()));
            }
            out.push_str(&format!(" · {}\n\n", board::status(after)));
            out.push_str("```text\n");
            out.push_str(&board::diagram(after, settings.pieces()));
            out.push_str("\n```\n\n");
            out.push_str(&format!("FEN: `{}`", board::fen(after)));
            if let Some(standing) = standing {
                out.push_str(&laws_hover(standing));
            }
            out
        }
        Hovered::Wrong { written, language, wrong } => tried_hover(written, wrong, *language, settings),
        Hovered::Glyph { text, meaning } => format!("`{text}`: {meaning}"),
        Hovered::Nag { text, meaning } => format!("`{text}`: {meaning}"),
        Hovered::Tag { name, meaning } => format!("**{name}**: {meaning}"),
        Hovered::Result { meaning } => (*meaning).to_owned(),
        Hovered::Position(Ok(pos)) => format!(
            "Position\n\n```text\n{}\n```\n\nFEN: `{}`",
            board::diagram(pos, settings.pieces()),
            board::fen(pos)
        ),
        Hovered::Position(Err(why)) => format!("This position is not legal: {why}"),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: markdown }),
        range: Some(convert::range(doc, &found.span, unit)),
    })
}

/// What the Laws of Chess say of the position after a move
/// (`Standing::notes`), as a list.
fn laws_hover(standing: &Standing) -> String {
    let mut out = String::from("\n\n**Laws of Chess**");
    for note in standing.notes() {
        out.push_str(&format!("\n\n- {}", escape(&note)));
    }
    out
}

/// The hover of a move that is wrong as written: the move, the findings
/// on it, the board it was tried in with its FEN (the one board and the one
/// FEN of the hover), and the reading the check went on with, labelled the
/// guess it is, if it went on.
fn tried_hover(written: &str, wrong: &WrongMove, language: Language, settings: &Settings) -> String {
    let mut out = format!("**{}** as written", escape(written));
    if wrong.findings.is_empty() {
        out.push_str(" is illegal or ambiguous");
    }
    for d in &wrong.findings {
        out.push_str(&format!("\n\n{} ({}): {}", d.severity.as_str(), d.code.as_str(), escape(&d.message)));
    }
    let before = &wrong.before;
    out.push_str(&format!("\n\nThe position it was tried in · {}\n\n", board::status(before)));
    out.push_str("```text\n");
    out.push_str(&board::diagram(before, settings.pieces()));
    out.push_str("\n```\n\n");
    out.push_str(&format!("FEN: `{}`", board::fen(before)));
    if let Some(guess) = &wrong.guess {
        let in_english =
            if language != Language::En { format!(" (English SAN **{}**)", guess.english) } else { String::new() };
        // Named, not drawn: the hover has one board and one FEN, the
        // position the move was tried in.
        out.push_str(&format!("\n\n*A guess:* the check went on as if **{}**{in_english} was played.", guess.own));
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
