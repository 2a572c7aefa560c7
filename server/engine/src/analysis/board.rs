//! Text diagrams of a position for hovers: an 8x8 board with file and rank
//! labels, in figurines or in the letters of a notation language.

use shakmaty::{Chess, Color, File, Position, Rank, Role, Square};

use super::languages::Language;

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pieces {
    Figurines,
    /// FEN-style letters: upper case for White, lower case for Black.
    Letters,
}

/// The board from White's side, one rank a line, `·` for an empty square.
pub fn diagram(pos: &Chess, pieces: Pieces) -> String {
    let mut out = String::with_capacity(200);
    for rank in (0..8).rev() {
        let rank = Rank::new(rank);
        out.push(rank.char());
        out.push(' ');
        for file in 0..8 {
            let sq = Square::from_coords(File::new(file), rank);
            let ch = match pos.board().piece_at(sq) {
                None => '·',
                Some(piece) => match pieces {
                    Pieces::Letters => piece.char(),
                    Pieces::Figurines => figurine(piece.role, piece.color),
                },
            };
            out.push(' ');
            out.push(ch);
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h");
    out
}

pub fn figurine(role: Role, color: Color) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// "White to move", "Black to move, in check", "checkmate: White wins", ...
pub fn status(pos: &Chess) -> String {
    let side = if pos.turn() == Color::White { "White" } else { "Black" };
    if pos.is_checkmate() {
        let winner = if pos.turn() == Color::White { "Black" } else { "White" };
        format!("checkmate: {winner} wins")
    } else if pos.is_stalemate() {
        format!("stalemate: {side} has no move, a draw")
    } else if pos.is_check() {
        format!("{side} to move, in check")
    } else if pos.is_insufficient_material() {
        format!("{side} to move; neither side can mate")
    } else {
        format!("{side} to move")
    }
}

/// The FEN of a position.
pub fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The piece letters of a language, for a legend under a letter board.
pub fn legend(language: Language) -> String {
    [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        .iter()
        .map(|&r| language.letter(r))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let d = diagram(&Chess::default(), Pieces::Letters);
        assert!(d.starts_with("8  r n b q k b n r\n"));
        assert!(d.ends_with("1  R N B Q K B N R\n   a b c d e f g h"));
        assert_eq!(status(&Chess::default()), "White to move");
        assert_eq!(fen(&Chess::default()), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    }
}
