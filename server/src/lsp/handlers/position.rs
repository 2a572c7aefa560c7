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

use crate::lsp::config::Settings;
use crate::lsp::convert;
use chess_ls_engine::analysis::LanguageSource;
use chess_ls_engine::analysis::board;
use chess_ls_engine::analysis::languages::{MoveStyle, render_move};
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::position::game_at;

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
    /// The messages of the errors on it.
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

/// The game's text is move numbers only (`18.`, `18...`), as for the outline.
fn is_bare_number(doc: &Document, section_start: usize, span: &std::ops::Range<usize>) -> bool {
    chess_ls_engine::ide::outline::is_bare_move_number(&doc.text[section_start + span.start..section_start + span.end])
}

/// The move at the cursor if it is wrong as written: a guessed reading in
/// the trace (tried in the position before it), or an illegal move no
/// reading saves (not in the trace: tried in the position at the cursor).
fn tried(doc: &Document, at: &chess_ls_engine::ide::position::GameAt<'_>, settings: &Settings) -> Option<Tried> {
    let local = at.local;
    let errors: Vec<&chess_ls_engine::analysis::Diagnostic> = at
        .report?
        .diagnostics
        .iter()
        .filter(|d| {
            d.severity == chess_ls_engine::analysis::Severity::Error && d.span.start <= local && local <= d.span.end
        })
        .collect();
    let first = errors.first()?;
    let line = at.line()?;
    let text = at.section.text(doc);
    let here = at.trace.moves.iter().find(|m| m.line == line && m.span.start <= local && local <= m.span.end);
    let (span, before, guess) = match here {
        Some(m) if m.guessed => {
            let style = MoveStyle::for_language(at.language());
            (m.span.clone(), &m.before, Some(render_move(&m.before, &m.played, &style)))
        }
        Some(_) => return None,
        None => (first.span.clone(), at.position()?, None),
    };
    Some(Tried {
        written: text.get(span)?.trim().to_owned(),
        fen: board::fen(before),
        board: board::diagram(before, settings.pieces()),
        status: board::status(before),
        findings: errors.iter().map(|d| d.message.clone()).collect(),
        guess,
    })
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
    info.tried = tried(doc, &at, settings);
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
