//! Where a game starts: the standard position, a FEN tag (Chess960 through
//! the Variant tag), or a position description (`Белые: Крс1, Фf2; пп. a3`).

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, Piece, PositionErrorKinds, Role, Setup, Square, fen::Fen};

use super::diagnostic::{Code, Diagnostic, Fix};
use super::explain::{color_name, role_name};
use super::glossary;
use super::languages::{Language, LookalikeContext, normalize_lookalike};
use crate::syntax::lexicon::{self, Side};
use crate::syntax::{GameSyntax, PositionDescription, Span, Token};

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
    let key: String = value.to_ascii_lowercase().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
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

/// No game reaches a higher move number: the 75-move rule and fivefold
/// repetition end the longest possible game at move 8,849 (8,848½ moves);
/// a round bound above it. A number past it is a mistake no fix can guess.
pub const MAX_MOVE_NUMBER: u64 = 10_000;

/// The position a game starts from, or a diagnostic when its FEN is not a
/// legal position.
pub fn start_position(game: &GameSyntax<'_>, mode: CastlingMode) -> Result<Chess, Diagnostic> {
    let Some(tag) = game.tag("FEN") else { return Ok(Chess::default()) };
    let value = tag.unescaped_value();
    let span = tag.value.as_ref().map_or(tag.span.clone(), |v| v.span.clone());
    if value.trim().is_empty() {
        return Err(empty_fen(tag));
    }
    let fen = Fen::from_ascii(value.trim().as_bytes())
        .map_err(|e| Diagnostic::new(Code::InvalidPosition, span.clone(), format!("this FEN cannot be read: {e}")))?;
    // shakmaty caps a full-move number at 2^32 - 1 without a word.
    if let Some(number) = value.split_whitespace().nth(5)
        && !number.parse::<u64>().is_ok_and(|n| n <= MAX_MOVE_NUMBER)
    {
        return Err(Diagnostic::new(
            Code::InvalidPosition,
            span,
            format!(
                "the full-move number of this FEN ({}, {} digits) is larger than any game reaches \
                 (at most {MAX_MOVE_NUMBER})",
                crate::analysis::diagnostic::shorten(number, 12),
                number.len()
            ),
        ));
    }
    let mode = if mode == CastlingMode::Standard {
        // Chess960 start positions are often given without a Variant tag;
        // shakmaty tells which castling rights the FEN implies.
        CastlingMode::detect(&fen.as_setup().clone())
    } else {
        mode
    };
    let setup = fen.as_setup().clone();
    fen.into_position::<Chess>(mode).map_err(|e| {
        let why =
            board_problem(&setup.board, setup.turn, e.kinds()).unwrap_or_else(|| describe_position_error(e.kinds()));
        Diagnostic::new(Code::InvalidPosition, span, format!("the FEN is not a legal position: {why}"))
    })
}

/// `[FEN ""]`: a FEN tag with no position in it (some programs write
/// one for every game); the game is read from the standard start
/// ([`empty_fen_start`]), and the tag's removal is the fix.
fn empty_fen(tag: &crate::syntax::Tag<'_>) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidPosition,
        tag.span.clone(),
        "this FEN tag is empty: the moves are read from the standard starting position",
    )
    .with_fix(Fix::replace("Remove the empty FEN tag", tag.span.clone(), "").preferred(true))
}

/// The position a game whose FEN tag is empty starts from: the standard
/// one (`None` when its FEN tag holds something).
pub fn empty_fen_start(game: &GameSyntax<'_>) -> Option<Chess> {
    game.tag("FEN").filter(|t| t.unescaped_value().trim().is_empty()).map(|_| Chess::default())
}

/// The first problem of a board in words that name the side or the square
/// (`Black has no king`, `a pawn stands on h1`), for the errors where
/// shakmaty's kinds alone would not say which.
fn board_problem(board: &Board, turn: Color, kinds: PositionErrorKinds) -> Option<String> {
    if kinds.intersects(PositionErrorKinds::MISSING_KING | PositionErrorKinds::TOO_MANY_KINGS) {
        for color in Color::ALL {
            match (board.kings() & board.by_color(color)).count() {
                0 => return Some(format!("{} has no king", color_name(color))),
                1 => {}
                _ => return Some(format!("{} has more than one king", color_name(color))),
            }
        }
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK)
        && let Some(square) = (board.pawns() & Bitboard::BACKRANKS).first()
    {
        return Some(format!("a pawn stands on {square}, on the first or last rank"));
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        return Some(format!("{} is in check, but it is {}'s move", color_name(!turn), color_name(turn)));
    }
    None
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

/// The colour a position description's label names (the grammar's `side`
/// token, one of the lexicon's labels and its colon).
fn side_color(label: &str) -> Color {
    match lexicon::side_of(label) {
        Some(Side::Black) => Color::Black,
        Some(Side::White) | None => Color::White,
    }
}

/// Reads a square written with possible look-alikes (`с1`, `el`).
pub fn read_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?;
    let rank = chars.next()?;
    let file = normalize_lookalike(file, LookalikeContext::File).unwrap_or(file);
    let rank = normalize_lookalike(rank, LookalikeContext::Rank).unwrap_or(rank);
    Some(Square::from_coords(shakmaty::File::from_char(file)?, shakmaty::Rank::from_char(rank)?))
}

/// Reports the look-alikes in a square of a description that starts at
/// (`с1` with a Cyrillic `с`, `dl`).
fn square_lookalikes(square: &Token<'_>, notes: &mut Vec<Diagnostic>) {
    let start = square.span.start;
    for (i, (offset, ch)) in square.text.char_indices().take(2).enumerate() {
        let context = if i == 0 { LookalikeContext::File } else { LookalikeContext::Rank };
        if let Some(right) = normalize_lookalike(ch, context) {
            let span = start + offset..start + offset + ch.len_utf8();
            notes.push(super::replay::homoglyph(span, ch, right, "in a square"));
        }
    }
}

/// Builds a board from consecutive descriptions (usually White's, then
/// Black's). Returns the position, White to move, or a diagnostic.
pub fn from_descriptions(descriptions: &[&PositionDescription<'_>], language: Language) -> Result<Chess, Diagnostic> {
    start_from_descriptions(descriptions, language, None, None, &mut Vec::new())
}

/// Builds the position that consecutive descriptions set up.
///
/// `source` is the whole text: with it, a pawn list after a `;` that the
/// grammar took for a line comment (`Лe1; пп. a3, b2.`) is read too.
/// `next_number` is the move number after the descriptions, if any: it
/// says who moves (`23...` is Black) and from which move the game goes on,
/// since a book gives a position from a game with that game's numbers.
/// Look-alike letters (`Крс1` with a Cyrillic `с`, a Latin `K` among
/// Russian letters, `Лdl`) are read as what they stand for and reported in
/// `notes`, each with its fix, as they are in moves.
pub fn start_from_descriptions(
    descriptions: &[&PositionDescription<'_>],
    language: Language,
    source: Option<&str>,
    next_number: Option<&Token<'_>>,
    notes: &mut Vec<Diagnostic>,
) -> Result<Chess, Diagnostic> {
    let mut board = Board::empty();
    let span = descriptions[0].span.start..descriptions[descriptions.len() - 1].span.end;
    // Where each side's description is, for a message about that side.
    let mut side_span: [Option<Span>; 2] = [None, None];
    for description in descriptions {
        let color = side_color(description.side.text);
        let mut listed: Vec<Token<'_>> = Vec::new();
        if let Some(source) = source {
            for (span, text) in pawn_list_after(source, description.span.end) {
                listed.push(Token { text, span });
            }
        }
        side_span[color as usize].get_or_insert_with(|| description.side.span.clone());
        let mut placements: Vec<(Option<&str>, Span, &Token<'_>, Span)> = description
            .placements
            .iter()
            .map(|p| {
                (
                    p.piece.as_ref().map(|t| t.text),
                    p.piece.as_ref().map_or(p.span.clone(), |t| t.span.clone()),
                    &p.square,
                    p.span.clone(),
                )
            })
            .collect();
        for square in &listed {
            placements.push((None, square.span.clone(), square, square.span.clone()));
        }
        for (letter, letter_span, written, placement_span) in placements {
            let square_text = written.text;
            let role = match letter {
                None => Role::Pawn,
                Some(letter) => {
                    if let Some(right) = language.read_letter(letter).and_then(|r| r.lookalike_of) {
                        notes.push(
                            Diagnostic::new(
                                Code::Homoglyph,
                                letter_span.clone(),
                                format!(
                                    "\"{letter}\" ({}) is a look-alike of the {} letter \"{right}\" ({})",
                                    glossary::code_points(letter),
                                    language.name(),
                                    glossary::code_numbers(right)
                                ),
                            )
                            .with_fix(
                                Fix::replace(format!("Write {right}"), letter_span.clone(), right).preferred(true),
                            ),
                        );
                    }
                    read_piece_letter(letter, language).ok_or_else(|| {
                        Diagnostic::new(
                            Code::InvalidPosition,
                            letter_span.clone(),
                            format!("\"{letter}\" is not a piece letter"),
                        )
                    })?
                }
            };
            let square = read_square(square_text).ok_or_else(|| {
                Diagnostic::new(
                    Code::InvalidPosition,
                    placement_span.clone(),
                    format!("\"{square_text}\" is not a square"),
                )
            })?;
            square_lookalikes(written, notes);
            if let Some(there) = board.piece_at(square) {
                return Err(Diagnostic::new(
                    Code::InvalidPosition,
                    placement_span,
                    format!(
                        "two pieces are placed on {square}: the {} {} is there already",
                        color_name(there.color).to_lowercase(),
                        role_name(there.role)
                    ),
                ));
            }
            if role == Role::Pawn && matches!(square.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth) {
                return Err(Diagnostic::new(
                    Code::InvalidPosition,
                    placement_span,
                    format!("a pawn cannot stand on {square}, on the first or last rank"),
                ));
            }
            board.set_piece_at(square, Piece { color, role });
        }
    }
    for color in Color::ALL {
        let kings = (board.kings() & board.by_color(color)).count();
        if kings != 1 {
            let at = side_span[color as usize].clone().unwrap_or_else(|| span.clone());
            let problem = if kings == 0 { "no king" } else { "more than one king" };
            return Err(Diagnostic::new(
                Code::InvalidPosition,
                at,
                format!("the described position is not legal: {} has {problem}", color_name(color)),
            ));
        }
    }
    let (turn, fullmoves) = next_number.and_then(move_number_parts).unwrap_or((None, 1));
    let setup_for = |turn: Color| Setup {
        board: board.clone(),
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn,
        castling_rights: Bitboard::EMPTY,
        ep_square: None,
        remaining_checks: None,
        halfmoves: 0,
        fullmoves: std::num::NonZeroU32::new(fullmoves).unwrap_or(std::num::NonZeroU32::MIN),
    };
    let first = setup_for(turn.unwrap_or(Color::White)).position::<Chess>(CastlingMode::Standard);
    match (first, turn) {
        (Ok(pos), _) => Ok(pos),
        // Without a move number to say who moves, a position where Black
        // is in check can only be Black's move.
        (Err(e), None) if e.kinds().contains(PositionErrorKinds::OPPOSITE_CHECK) => {
            setup_for(Color::Black).position::<Chess>(CastlingMode::Standard).map_err(|e| {
                Diagnostic::new(
                    Code::InvalidPosition,
                    span,
                    format!("the described position is not legal: {}", describe_position_error(e.kinds())),
                )
            })
        }
        (Err(e), _) => {
            let mut why = describe_position_error(e.kinds());
            if e.kinds().contains(PositionErrorKinds::OPPOSITE_CHECK) {
                let mover = turn.unwrap_or(Color::White);
                why = format!("{} is in check, but it is {}'s move", color_name(!mover), color_name(mover));
            }
            Err(Diagnostic::new(Code::InvalidPosition, span, format!("the described position is not legal: {why}")))
        }
    }
}

/// Who moves and the move number, from a move number token: `23.` is
/// White's 23rd move, `23...` (or `23…`) Black's.
fn move_number_parts(t: &Token<'_>) -> Option<(Option<Color>, u32)> {
    let digits = t.text.trim_end_matches(|c: char| !c.is_ascii_digit());
    let number: u32 = digits.parse().ok()?;
    let rest = &t.text[digits.len()..];
    let black = rest.starts_with("..") || rest.starts_with('…');
    Some((Some(if black { Color::Black } else { Color::White }), number))
}

/// The pawns of a list that follows a description on the same line after a
/// `;` (`; пп. a3, b2.`), when that list is not part of the description's
/// own syntax: the grammar reads `;` as the start of a line comment. Gives
/// nothing unless everything up to the end of the line (or a final `.`) is
/// a label and squares, so that a real comment is never read as pawns.
fn pawn_list_after(source: &str, end: usize) -> Vec<(Span, &str)> {
    let line_end = source[end..].find('\n').map_or(source.len(), |i| end + i);
    let rest = &source[end..line_end];
    let Some(after_semicolon) = rest.trim_start().strip_prefix(';') else { return Vec::new() };
    let mut at = line_end - after_semicolon.len();
    let skip_space = |at: &mut usize| {
        let text = &source[*at..line_end];
        *at += text.len() - text.trim_start().len();
    };
    skip_space(&mut at);
    if let Some(label) = lexicon::pawn_label_at(&source[at..line_end]) {
        at += label.len();
        if source[at..line_end].starts_with(':') {
            at += 1;
        }
    }
    let mut squares = Vec::new();
    loop {
        skip_space(&mut at);
        let text = &source[at..line_end];
        if matches!(text.trim_end(), "" | ".") {
            return squares;
        }
        let mut chars = text.char_indices();
        let (Some(_), Some((second, rank))) = (chars.next(), chars.next()) else { return Vec::new() };
        let len = second + rank.len_utf8();
        if read_square(&text[..len]).is_none() {
            return Vec::new();
        }
        squares.push((at..at + len, &text[..len]));
        at += len;
        let text = &source[at..line_end];
        if let Some(comma) = text.strip_prefix(',') {
            at = line_end - comma.len();
        } else if !(text.is_empty() || text.starts_with(char::is_whitespace) || text.trim_end() == ".") {
            return Vec::new();
        }
    }
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
