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
use crate::analysis::board;
use crate::analysis::languages::{MoveStyle, render_move};
use crate::ide::document::Document;
use crate::ide::line_index::Unit;
use crate::ide::position::game_at;
use crate::lsp::config::Settings;
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
    /// The move as written is illegal or ambiguous: this is the reading
    /// the check went on with.
    pub guessed: bool,
}

/// The game's text is move numbers only (`18.`, `18...`), as for the outline.
fn is_bare_number(doc: &Document, section_start: usize, span: &std::ops::Range<usize>) -> bool {
    crate::ide::outline::is_bare_move_number(&doc.text[section_start + span.start..section_start + span.end])
}

pub fn position_at(doc: &Document, position: LspPosition, unit: Unit, settings: &Settings) -> Option<PositionInfo> {
    let offset = convert::offset(doc, position, unit);
    let mut at = game_at(doc, offset, &settings.options)?;
    // A move number with no move (`18.` typed after a game's result) is no
    // game: the status and the board show the game before it.
    while at.trace.moves.is_empty() && is_bare_number(doc, at.section.start, &at.span) {
        let before = (at.section.start + at.span.start).checked_sub(1)?;
        at = game_at(doc, before, &settings.options)?;
    }
    let language = at.language();
    let mut info = PositionInfo {
        language: language.code().to_owned(),
        language_name: language.name().to_owned(),
        language_source: match at.report.map(|r| r.language_source) {
            Some(LanguageSource::Chosen) => "chosen",
            Some(LanguageSource::Letters) => "letters",
            Some(LanguageSource::Replay) => "replay",
            Some(LanguageSource::Undecided) | None => "undecided",
        },
        ..PositionInfo::default()
    };
    let Some(pos) = at.position() else { return Some(info) };
    info.fen = Some(board::fen(pos));
    info.board = Some(board::diagram(pos, settings.pieces()));
    info.status = Some(board::status(pos));
    let start = at.section.start;
    info.last_move = at.move_at().map(|m| {
        let number = m.before.fullmoves();
        MoveInfo {
            number: if m.before.turn() == Color::White { format!("{number}.") } else { format!("{number}...") },
            san: render_move(&m.before, &m.played, &MoveStyle::for_language(language)),
            english: render_move(&m.before, &m.played, &MoveStyle::default()),
            uci: m.played.to_uci(CastlingMode::Standard).to_string(),
            range: convert::range(doc, &(start + m.span.start..start + m.span.end), unit),
            guessed: m.guessed,
        }
    });
    Some(info)
}
