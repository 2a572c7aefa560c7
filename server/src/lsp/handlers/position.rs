//! `chess-ls/positionAt`, a request of our own: the position after the move
//! at the cursor (or the last move before it), for an editor's board view,
//! and the language of the game there, for its status bar.
//!
//! Params are `TextDocumentPositionParams`; the result is [`PositionInfo`]
//! (camelCase JSON), or null when the document is not open or no game
//! starts at or before the cursor.

use serde::Serialize;
use shakmaty::{CastlingMode, Color, Position};
use tower_lsp_server::ls_types::{Position as LspPosition, Range};

use crate::analysis::LanguageSource;
use crate::analysis::board::{self, Pieces};
use crate::analysis::languages::{Language, MoveStyle, render_move};
use crate::ide::document::Document;
use crate::line_index::Unit;
use crate::lsp::config::{BoardStyle, Settings};
use crate::lsp::convert;

/// What an editor shows for the cursor's position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionInfo {
    /// The game's language code (`ru`, `figurine`, ...).
    pub language: String,
    /// Its English name (`Russian`).
    pub language_name: String,
    /// How it was decided: `chosen` (setting), `letters`, `replay` or
    /// `undecided`.
    pub language_source: &'static str,
    /// The position, or null when the game cannot be replayed (an unknown
    /// variant, an illegal FEN).
    pub fen: Option<String>,
    /// The position as a text diagram (the hover's board).
    pub board: Option<String>,
    /// "White to move", "Black to move, in check", "checkmate: ...".
    pub status: Option<String>,
    /// The move that led to the position; null at a line's start.
    #[serde(rename = "move")]
    pub last_move: Option<MoveInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveInfo {
    /// `7.` or `7...`.
    pub number: String,
    /// The move in the game's language (`Кbd2`).
    pub san: String,
    /// The move in English SAN (`Nbd2`).
    pub english: String,
    /// The move in UCI (`b1d2`; castling as the king's move, `e1g1`).
    pub uci: String,
    /// Where it is written.
    pub range: Range,
}

pub fn position_at(doc: &Document, position: LspPosition, unit: Unit, settings: &Settings) -> Option<PositionInfo> {
    let offset = convert::offset(doc, position, unit);
    let (section, range) = doc.game_before(offset)?;
    let local = offset - section.start;
    let tree = section.tree(doc);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let game_node = root.children(&mut cursor).find(|n| n.byte_range() == range)?;
    let trace = doc.trace_game(section, game_node, &settings.options);
    let report = section.games.iter().find(|g| g.span.start == range.start);
    let language = report.map(|r| r.language).or(trace.language).unwrap_or(Language::En);
    let mut info = PositionInfo {
        language: language.code().to_owned(),
        language_name: language.name().to_owned(),
        language_source: match report.map(|r| r.language_source) {
            Some(LanguageSource::Chosen) => "chosen",
            Some(LanguageSource::Letters) => "letters",
            Some(LanguageSource::Replay) => "replay",
            Some(LanguageSource::Undecided) | None => "undecided",
        },
        ..PositionInfo::default()
    };
    // The innermost line (main line or variation) around the cursor; a
    // cursor after the game's end stays in its main line.
    let local = local.min(range.end);
    let Some((line_index, line)) = trace
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.span.start <= local && local <= l.span.end)
        .min_by_key(|(_, l)| l.span.end - l.span.start)
    else {
        return Some(info);
    };
    // The move under the cursor, else the last one before it.
    let last = trace.moves.iter().rfind(|m| m.line == line_index && m.span.start <= local);
    let pos = last.map_or(&line.start, |m| &m.after);
    info.fen = Some(board::fen(pos));
    let sections = match settings.board_style {
        BoardStyle::Figurines => Pieces::Figurines,
        BoardStyle::Letters => Pieces::Letters,
    };
    info.board = Some(board::diagram(pos, sections));
    info.status = Some(board::status(pos));
    info.last_move = last.map(|m| {
        let number = m.before.fullmoves();
        MoveInfo {
            number: if m.before.turn() == Color::White { format!("{number}.") } else { format!("{number}...") },
            san: render_move(&m.before, &m.played, &MoveStyle::for_language(language)),
            english: render_move(&m.before, &m.played, &MoveStyle::default()),
            uci: m.played.to_uci(CastlingMode::Standard).to_string(),
            range: convert::range(doc, &(section.start + m.span.start..section.start + m.span.end), unit),
        }
    });
    Some(info)
}
