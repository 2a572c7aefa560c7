//! Where a game starts: the standard position, a FEN tag (Chess960 through
//! the Variant tag), or a position description (`Белые: Крс1, Фf2; пп. a3`).

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, Piece, PositionErrorKinds, Role,
    Setup, Square, fen::Fen,
};

use super::diagnostic::{Code, Diagnostic};
use super::languages::{Language, LookalikeContext, normalize_lookalike};
use crate::syntax::{GameSyntax, PositionDescription};

/// The rules a game is played by, from its Variant tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Standard(CastlingMode),
    /// A variant this tool does not replay (crazyhouse, antichess, ...).
    Unsupported,
}

pub fn rules(game: &GameSyntax<'_>) -> (Rules, Option<String>) {
    let Some(tag) = game.tag("Variant") else { return (Rules::Standard(CastlingMode::Standard), None) };
    let value = tag.unescaped_value();
    let key: String =
        value.to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    match key.as_str() {
        "" | "standard" | "chess" | "normal" | "regular" | "fromposition" => {
            (Rules::Standard(CastlingMode::Standard), None)
        }
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" | "chess960fischerrandom" => {
            (Rules::Standard(CastlingMode::Chess960), None)
        }
        _ => (Rules::Unsupported, Some(value)),
    }
}

/// The position a game starts from, or a diagnostic when its FEN is not a
/// legal position.
pub fn start_position(
    game: &GameSyntax<'_>,
    mode: CastlingMode,
) -> Result<Chess, Diagnostic> {
    let Some(tag) = game.tag("FEN") else { return Ok(Chess::default()) };
    let value = tag.unescaped_value();
    let span = tag.value.as_ref().map_or(tag.span.clone(), |v| v.span.clone());
    let fen = Fen::from_ascii(value.trim().as_bytes()).map_err(|e| {
        Diagnostic::new(Code::InvalidPosition, span.clone(), format!("this FEN cannot be read: {e}"))
    })?;
    let mode = if mode == CastlingMode::Standard {
        // Chess960 start positions are often given without a Variant tag;
        // shakmaty tells which castling rights the FEN implies.
        CastlingMode::detect(&fen.as_setup().clone())
    } else {
        mode
    };
    fen.into_position::<Chess>(mode).map_err(|e| {
        Diagnostic::new(
            Code::InvalidPosition,
            span,
            format!("the FEN is not a legal position: {}", describe_position_error(e.kinds())),
        )
    })
}

/// Plain words for shakmaty's position errors.
pub fn describe_position_error(kinds: PositionErrorKinds) -> String {
    let mut reasons = Vec::new();
    let table = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a side has no king"),
        (PositionErrorKinds::TOO_MANY_KINGS, "a side has more than one king"),
        (PositionErrorKinds::PAWNS_ON_BACKRANK, "a pawn stands on the first or last rank"),
        (PositionErrorKinds::INVALID_CASTLING_RIGHTS, "the castling rights do not fit the king and rooks"),
        (PositionErrorKinds::INVALID_EP_SQUARE, "the en-passant square is impossible"),
        (PositionErrorKinds::OPPOSITE_CHECK, "the side not to move is in check"),
        (PositionErrorKinds::IMPOSSIBLE_CHECK, "the check could not have arisen from a legal move"),
        (PositionErrorKinds::TOO_MUCH_MATERIAL, "a side has more pieces than a game allows"),
    ];
    for (kind, reason) in table {
        if kinds.contains(kind) {
            reasons.push(reason);
        }
    }
    if reasons.is_empty() { "it breaks the rules of chess".to_owned() } else { reasons.join("; ") }
}

/// The colour a position description's label names.
fn side_color(label: &str) -> Color {
    let lower = label.to_lowercase();
    if ["чёрн", "черн", "чорн", "black", "schwarz", "noir", "negr"].iter().any(|p| lower.starts_with(p)) {
        Color::Black
    } else {
        Color::White
    }
}

/// Reads a square written with possible look-alikes (`с1`, `el`).
pub fn read_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?;
    let rank = chars.next()?;
    let file = normalize_lookalike(file, LookalikeContext::File).unwrap_or(file);
    let rank = normalize_lookalike(rank, LookalikeContext::Rank).unwrap_or(rank);
    Some(Square::from_coords(
        shakmaty::File::from_char(file)?,
        shakmaty::Rank::from_char(rank)?,
    ))
}

/// Builds a board from consecutive descriptions (usually White's, then
/// Black's). Returns the position, White to move, or a diagnostic.
pub fn from_descriptions(
    descriptions: &[&PositionDescription<'_>],
    language: Language,
) -> Result<Chess, Diagnostic> {
    let mut board = Board::empty();
    let span = descriptions[0].span.start..descriptions[descriptions.len() - 1].span.end;
    for description in descriptions {
        let color = side_color(description.side.text);
        for placement in &description.placements {
            let role = match &placement.piece {
                None => Role::Pawn,
                Some(letter) => match read_piece_letter(letter.text, language) {
                    Some(role) => role,
                    None => {
                        return Err(Diagnostic::new(
                            Code::InvalidPosition,
                            letter.span.clone(),
                            format!("`{}` is not a piece letter", letter.text),
                        ));
                    }
                },
            };
            let Some(square) = read_square(placement.square.text) else {
                return Err(Diagnostic::new(
                    Code::InvalidPosition,
                    placement.square.span.clone(),
                    format!("`{}` is not a square", placement.square.text),
                ));
            };
            if board.piece_at(square).is_some() {
                return Err(Diagnostic::new(
                    Code::InvalidPosition,
                    placement.span.clone(),
                    format!("two pieces are placed on {square}"),
                ));
            }
            board.set_piece_at(square, Piece { color, role });
        }
    }
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: Color::White,
        castling_rights: Bitboard::EMPTY,
        ep_square: None,
        remaining_checks: None,
        halfmoves: 0,
        fullmoves: std::num::NonZeroU32::MIN,
    };
    setup.position::<Chess>(CastlingMode::Standard).map_err(|e| {
        Diagnostic::new(
            Code::InvalidPosition,
            span,
            format!("the described position is not legal: {}", describe_position_error(e.kinds())),
        )
    })
}

/// A piece letter in a description: the game's language first, then any
/// language or look-alike (a lesson may describe in Russian and play in
/// figurines).
fn read_piece_letter(text: &str, language: Language) -> Option<Role> {
    if let Some(reading) = language.read_letter(text) {
        return Some(reading.role);
    }
    super::languages::languages_for_letter(text).next().map(|(_, reading)| reading.role)
}
