//! `chess-ls/positionAt`, a request of our own: the position after the move
//! at the cursor (or the last move before it), for an editor's board view,
//! and the language of the game there, for its status bar.
//!
//! Params are `TextDocumentPositionParams`; the result is [`PositionInfo`]
//! (camelCase JSON), or null when the document is not open or no game
//! starts at or before the cursor.

use serde::Serialize;
use tower_lsp_server::ls_types::{Position as LspPosition, Range};

use crate::lsp::config::Settings;
use crate::lsp::convert;
use chess_ls_engine::analysis::LanguageSource;
use chess_ls_engine::analysis::board;
use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::line_index::Unit;

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
    /// On a move that is wrong as written (an error on it): the position it
    /// was tried in, its findings and the reading the check went on with,
    /// for a board view to show first (the position above is the guess's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tried: Option<Tried>,
}

/// A move wrong as written, and where it was tried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tried {
    /// The move as written (`Кd2`).
    pub written: String,
    /// The position it was tried in: FEN, text diagram, side to move.
    pub fen: String,
    pub board: String,
    pub status: String,
    /// The messages of the findings on it.
    pub findings: Vec<String>,
    /// The reading the check went on with, in the game's language, if it
    /// went on (`Кbd2`): `move` is then that reading.
    pub guess: Option<String>,
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

pub fn position_at(snap: &Snapshot, position: LspPosition, unit: Unit, settings: &Settings) -> Option<PositionInfo> {
    let doc = snap.document();
    let offset = convert::offset(doc, position, unit);
    let at = snap.board_at(offset)?;
    let pieces = settings.pieces();
    Some(PositionInfo {
        language: at.language.code().to_owned(),
        language_name: at.language.name().to_owned(),
        language_source: match at.language_source {
            Some(LanguageSource::Chosen) => "chosen",
            Some(LanguageSource::Letters) => "letters",
            Some(LanguageSource::Replay) => "replay",
            Some(LanguageSource::Undecided) | None => "undecided",
        },
        fen: at.position.as_ref().map(board::fen),
        board: at.position.as_ref().map(|p| board::diagram(p, pieces)),
        status: at.position.as_ref().map(board::status),
        last_move: at.last_move.map(|m| MoveInfo {
            number: m.number,
            san: m.san,
            english: m.english,
            uci: m.uci,
            range: convert::range(doc, &m.span, unit),
            guessed: m.guessed,
        }),
        tried: at.wrong.map(|w| Tried {
            written: w.written,
            fen: board::fen(&w.before),
            board: board::diagram(&w.before, pieces),
            status: board::status(&w.before),
            findings: w.findings.into_iter().map(|d| d.message).collect(),
            guess: w.guess.map(|g| g.own),
        }),
    })
}
