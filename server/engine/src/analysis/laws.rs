//! What the Laws of Chess say about a game as it goes: where it ends by
//! itself (checkmate 5.1.1, stalemate 5.2.1, a dead position 5.2.2,
//! fivefold repetition 9.6.1, the seventy-five-move rule 9.6.2) and where a
//! draw could have been claimed (threefold repetition 9.2, fifty moves 9.3).
//!
//! Positions are compared as 9.2.2 compares them: the same pieces on the
//! same squares, the same player to move, the same castling rights and the
//! same right to capture en passant, which counts only when such a capture
//! is legal. A line keeps the Zobrist hash of each position since its last
//! capture or pawn move (no position before one can come back), not the
//! positions themselves.
//!
//! ```
//! use chess_ls_engine::analysis::{analyze_text, Options};
//! let text = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 \
//!             7. Nf3 Nf6 8. Ng1 Ng8 9. e4 *";
//! let report = analyze_text(text, &Options::default());
//! let codes: Vec<_> = report.diagnostics().map(|d| d.code.as_str()).collect();
//! assert_eq!(codes, ["draw-claim", "game-over", "result"]);
//! ```

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Bitboard, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Square, attacks};

use crate::syntax::Span;

/// Why a game ended by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// 5.1.1: the player to move is checkmated.
    Checkmate { winner: Color },
    /// 5.2.1: the player to move has no legal move and is not in check.
    Stalemate,
    /// 5.2.2: no series of legal moves can lead to a mate.
    DeadPosition(Dead),
    /// 9.6.1: the same position has stood for the fifth time.
    FivefoldRepetition,
    /// 9.6.2: each player has made 75 moves without a capture or a pawn move,
    /// and the last of them did not mate.
    SeventyFiveMoves,
}

/// Why a position is dead, as a reader would see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dead {
    /// Neither side has the pieces to mate (bare kings, a lone minor
    /// piece, bishops all on squares of one colour).
    InsufficientMaterial,
    /// Only kings and pawns, every pawn blocked by an enemy pawn, no pawn
    /// can capture and neither king can reach an enemy pawn: nothing can
    /// ever change but the kings' squares.
    BlockedPawns,
}

impl Ending {
    /// The result the rule gives.
    pub fn result(self) -> &'static str {
        match self {
            Ending::Checkmate { winner: Color::White } => "1-0",
            Ending::Checkmate { winner: Color::Black } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// The article of the Laws of Chess.
    pub fn article(self) -> &'static str {
        match self {
            Ending::Checkmate { .. } => "5.1.1",
            Ending::Stalemate => "5.2.1",
            Ending::DeadPosition(_) => "5.2.2",
            Ending::FivefoldRepetition => "9.6.1",
            Ending::SeventyFiveMoves => "9.6.2",
        }
    }

    /// What happened, in a few words (`checkmate, White wins`).
    pub fn describe(self) -> &'static str {
        match self {
            Ending::Checkmate { winner: Color::White } => "checkmate, White wins",
            Ending::Checkmate { winner: Color::Black } => "checkmate, Black wins",
            Ending::Stalemate => "stalemate, a draw",
            Ending::DeadPosition(Dead::InsufficientMaterial) => {
                "a dead position, a draw: neither side has the material to mate"
            }
            Ending::DeadPosition(Dead::BlockedPawns) => {
                "a dead position, a draw: the pawns are blocked and neither king can reach an enemy pawn"
            }
            Ending::FivefoldRepetition => "the same position for the fifth time, a draw by fivefold repetition",
            Ending::SeventyFiveMoves => {
                "75 moves by each player without a capture or a pawn move, a draw by the seventy-five-move rule"
            }
        }
    }

    /// Checkmate or stalemate in `pos`, which has no legal move; `None`
    /// when it has one.
    pub fn without_moves(pos: &Chess) -> Option<Ending> {
        if !pos.legal_moves().is_empty() {
            return None;
        }
        Some(if pos.is_check() { Ending::Checkmate { winner: !pos.turn() } } else { Ending::Stalemate })
    }
}

/// The move after which a position stood: where it is written and its
/// number, to name it (`12. Nf3`, `12... Nf6`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAt {
    pub span: Span,
    pub fullmove: u32,
    pub mover: Color,
}

impl MoveAt {
    /// The move named with its number, from its text in `source`.
    pub fn label(&self, source: &str) -> String {
        let text = source.get(self.span.clone()).unwrap_or_default();
        // The move's own text, without a number written before it.
        let text = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '…' || c.is_whitespace());
        let dots = if self.mover == Color::White { "." } else { "..." };
        format!("{}{dots} {}", self.fullmove, text.trim_end())
    }
}

/// The facts of the Laws at one position, for a hover: how often it has
/// stood, since when no capture or pawn move was made, and the end it
/// makes, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Plies since the last capture or pawn move (the halfmove clock).
    pub halfmoves: u32,
    /// How many times this position has stood, this time included.
    pub occurrences: usize,
    /// The earlier times, each named by the move after which it stood
    /// (`the start` for a line's first position).
    pub earlier: Vec<String>,
    pub ending: Option<Ending>,
}

impl Standing {
    /// Whether there is anything worth telling: a repetition, a long run
    /// without a capture or pawn move, or an end.
    pub fn is_notable(&self) -> bool {
        self.occurrences >= 2 || self.halfmoves >= 100 || self.ending.is_some()
    }

    /// What the Laws of Chess say of it, a sentence each, as the front ends
    /// show them: how often it has stood and after which moves, the moves
    /// made without a capture or pawn move, and the end it makes.
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.occurrences >= 2 {
            let mut note = format!(
                "This position stands for the {} time (before: after {}).",
                ordinal(self.occurrences),
                self.earlier.join(", ")
            );
            if self.occurrences >= 3 {
                note.push_str(" A draw by threefold repetition can be claimed (Article 9.2).");
            }
            out.push(note);
        }
        if self.halfmoves >= 100 {
            out.push(format!(
                "{} moves by each player without a capture or a pawn move (halfmove clock {}): a draw can be claimed (Article 9.3).",
                self.halfmoves / 2,
                self.halfmoves
            ));
        }
        if let Some(ending) = self.ending {
            out.push(format!(
                "The game ends here: {} (Article {}), {}.",
                ending.describe(),
                ending.article(),
                ending.result()
            ));
        }
        out
    }
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

/// A move from the latest recorded position, which reached the one being
/// recorded: its hash is the latest one updated by the move (shakmaty's
/// incremental Zobrist update), not computed again from every piece.
pub(crate) struct Step<'p> {
    pub at: MoveAt,
    pub before: &'p Chess,
    pub played: Move,
}

/// One position of a line since its last capture or pawn move.
#[derive(Clone, Debug)]
struct Seen {
    hash: u64,
    /// The move after which it stood; `None` for a line's first position.
    after: Option<MoveAt>,
}

/// The positions of a line since its last irreversible move, as hashes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Positions {
    seen: Vec<Seen>,
    /// A filter of the hashes in `seen` (a bit per hash's top byte): a
    /// position whose bit is not set stands for the first time, and the
    /// list is not looked through. It may say yes for a new position (then
    /// the list is), never no for a repeated one; forgetting a position
    /// (`pop`) leaves its bit, which costs a look and nothing else.
    filter: [u64; 4],
    /// Whether a threefold repetition was noted since the last capture or
    /// pawn move: the first time a claim is possible is the one an arbiter
    /// needs, the positions that repeat after it would only say it again.
    claimed: bool,
}

/// What the Laws say of a position just recorded.
#[derive(Clone, Debug, Default)]
pub(crate) struct Noted {
    /// How many times it has stood, this time included.
    pub occurrences: usize,
    /// It stands for the third time, the first position to do so since the
    /// last capture or pawn move: a draw could be claimed (9.2).
    pub threefold: bool,
    /// The fiftieth move of each player without a capture or pawn move was
    /// just made: a draw could be claimed (9.3).
    pub fifty: bool,
    /// The end it makes by rule, checkmate and stalemate aside (those are
    /// only looked for where a move follows or the game ends, since finding
    /// them costs the legal moves).
    pub ending: Option<Ending>,
    /// Whether it was new to the list (not a line's start that its parent
    /// line recorded already).
    pub pushed: bool,
}

impl Positions {
    /// Records `pos`, reached by `step` from the latest recorded position
    /// (`None` at a line's start or after a null move: then a position that
    /// is the latest one already is not counted again).
    pub fn record(&mut self, pos: &Chess, step: Option<Step<'_>>) -> Noted {
        let updated = match (&step, self.seen.last()) {
            (Some(step), Some(latest)) => updated(latest.hash, step.before, step.played, pos),
            _ => None,
        };
        let hash = updated.unwrap_or_else(|| pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        // Only a capture or a pawn move changes what can mate: a position
        // reached otherwise is dead only if the one before it was, and the
        // game ended there.
        let material_changed = step.is_none() || pos.halfmoves() == 0;
        let after = step.map(|s| s.at);
        let again = after.is_none() && self.seen.last().is_some_and(|s| s.hash == hash);
        let mut pushed = false;
        if !again {
            // Before a capture or pawn move no position can come back.
            if pos.halfmoves() == 0 {
                self.seen.clear();
                self.claimed = false;
                self.filter = [0; 4];
            }
            self.seen.push(Seen { hash, after });
            pushed = true;
        }
        let top = (hash >> 56) as usize;
        let (word, bit) = (top >> 6, 1u64 << (top & 63));
        let occurrences = if self.filter[word] & bit == 0 { 1 } else { self.occurrences(hash) };
        self.filter[word] |= bit;
        let halfmoves = pos.halfmoves();
        let ending = if occurrences >= 5 {
            Some(Ending::FivefoldRepetition)
        } else if halfmoves >= 150 && !pos.is_checkmate() {
            Some(Ending::SeventyFiveMoves)
        } else if material_changed {
            dead(pos).map(Ending::DeadPosition)
        } else {
            None
        };
        let threefold = pushed && occurrences == 3 && !self.claimed;
        self.claimed |= threefold;
        Noted { occurrences, threefold, fifty: pushed && halfmoves == 100 && !pos.is_checkmate(), ending, pushed }
    }

    /// How many recorded positions have this hash. Only one in two can
    /// (the same player must be to move), so every other one is looked at.
    fn occurrences(&self, hash: u64) -> usize {
        self.seen.iter().rev().step_by(2).filter(|s| s.hash == hash).count()
    }

    /// The earlier times the latest position stood, named by their moves.
    pub fn earlier(&self, source: &str) -> Vec<String> {
        let Some((last, before)) = self.seen.split_last() else { return Vec::new() };
        before
            .iter()
            .filter(|s| s.hash == last.hash)
            .map(|s| s.after.as_ref().map_or_else(|| "the start".to_owned(), |m| m.label(source)))
            .collect()
    }

    /// The move after which the latest position stood.
    pub fn latest(&self) -> Option<&MoveAt> {
        self.seen.last().and_then(|s| s.after.as_ref())
    }

    /// Forgets the latest position (a variation starts before the move that
    /// led to it).
    pub fn pop(&mut self) {
        self.seen.pop();
    }
}

/// The hash of `after`, reached by `played` from `before`, whose hash is
/// `hash`: the squares the move changes, the castling rights it takes away
/// and the en-passant rights before and after, XORed in (shakmaty's own
/// update gives up on king moves, double steps and rook moves, a third of a
/// game's moves). A castling and an en-passant capture are hashed whole.
#[inline]
fn updated(hash: u64, before: &Chess, played: Move, after: &Chess) -> Option<u64> {
    let Move::Normal { role, from, capture, to, promotion } = played else { return None };
    let turn = before.turn();
    let mut z = Zobrist64(hash);
    z ^= Zobrist64::zobrist_for_white_turn();
    z ^= Zobrist64::zobrist_for_piece(from, role.of(turn));
    z ^= Zobrist64::zobrist_for_piece(to, promotion.unwrap_or(role).of(turn));
    if let Some(captured) = capture {
        z ^= Zobrist64::zobrist_for_piece(to, captured.of(!turn));
    }
    let (was, now) = (before.castles(), after.castles());
    if was.castling_rights() != now.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if was.has(color, side) != now.has(color, side) {
                    z ^= Zobrist64::zobrist_for_castling_right(color, side);
                }
            }
        }
    }
    for ep in [before.ep_square(EnPassantMode::Legal), after.ep_square(EnPassantMode::Legal)].into_iter().flatten() {
        z ^= Zobrist64::zobrist_for_en_passant_file(ep.file());
    }
    Some(z.0)
}

/// Whether `pos` is dead in one of the ways a reader sees at once.
pub fn dead(pos: &Chess) -> Option<Dead> {
    // Most positions have a pawn and a heavier piece than a bishop or a
    // knight beside its kings: neither test applies to them.
    let board = pos.board();
    let pawns = board.pawns();
    if (pawns | board.rooks_and_queens()).is_empty() {
        return pos.is_insufficient_material().then_some(Dead::InsufficientMaterial);
    }
    if board.occupied() != (pawns | board.kings()) {
        return None;
    }
    blocked_pawns(pos).then_some(Dead::BlockedPawns)
}

/// Only kings and pawns, every pawn blocked head-on by an enemy pawn, no
/// pawn able to capture, and neither king able to walk to an enemy pawn
/// (through squares its own pawns leave free and enemy pawns do not
/// guard): then no pawn ever moves again and no check can ever be given.
fn blocked_pawns(pos: &Chess) -> bool {
    let board = pos.board();
    let pawns = board.pawns();
    if pawns.is_empty() || board.occupied() != (pawns | board.kings()) || pos.is_check() {
        return false;
    }
    if pos.ep_square(EnPassantMode::Legal).is_some() {
        return false;
    }
    for color in [Color::White, Color::Black] {
        let own = pawns & board.by_color(color);
        let theirs = pawns & board.by_color(!color);
        for sq in own {
            let ahead = if color == Color::White { sq.offset(8) } else { sq.offset(-8) };
            if !ahead.is_some_and(|a| theirs.contains(a)) {
                return false;
            }
            if (attacks::pawn_attacks(color, sq) & theirs).any() {
                return false;
            }
        }
    }
    for color in [Color::White, Color::Black] {
        let Some(king) = board.king_of(color) else { return false };
        let own = pawns & board.by_color(color);
        let theirs = pawns & board.by_color(!color);
        let guarded = theirs.into_iter().fold(Bitboard::EMPTY, |b, sq| b | attacks::pawn_attacks(!color, sq));
        let free = !own & !guarded;
        if (reach(king, free) & theirs).any() {
            return false;
        }
    }
    true
}

/// The squares a king on `from` can walk to through `free` squares.
fn reach(from: Square, free: Bitboard) -> Bitboard {
    let mut region = Bitboard::from(from);
    loop {
        let grown = region.into_iter().fold(region, |b, sq| b | (attacks::king_attacks(sq) & free));
        if grown == region {
            return region;
        }
        region = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().ok().and_then(|f| f.into_position(CastlingMode::Standard).ok()).unwrap_or_default()
    }

    #[test]
    fn dead_positions() {
        assert_eq!(dead(&position("8/8/4k3/8/8/3K4/8/8 w - - 0 1")), Some(Dead::InsufficientMaterial));
        assert_eq!(dead(&position("8/8/4k3/8/8/3KB3/8/8 w - - 0 1")), Some(Dead::InsufficientMaterial));
        // Bishops on squares of one colour (c1 and f4 are both dark).
        assert_eq!(dead(&position("8/8/4k3/8/5b2/3K4/8/2B5 w - - 0 1")), Some(Dead::InsufficientMaterial));
        // A wall of blocked pawns across the board.
        let wall = "8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1";
        assert_eq!(dead(&position(wall)), Some(Dead::BlockedPawns), "the pawns guard the squares between them");
        let wall = "8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1";
        assert_eq!(dead(&position(wall)), Some(Dead::BlockedPawns));
        // A knight more, and it is not dead.
        let wall = "8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/6N1 w - - 0 1";
        assert_eq!(dead(&position(wall)), None);
        // An enemy pawn the king can walk to.
        assert_eq!(dead(&position("8/4k3/8/3p4/3P4/8/4K3/8 w - - 0 1")), None);
        assert_eq!(dead(&Chess::default()), None);
    }

    /// The hash updated move by move is the hash computed from every
    /// piece, over random games (castling, en passant, promotions and
    /// captures among their moves).
    #[test]
    fn the_updated_hash_is_the_whole_hash() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..200 {
            let mut positions = Positions::default();
            let mut pos = Chess::default();
            positions.record(&pos, None);
            for ply in 0..300u32 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                let before = pos.clone();
                pos.play_unchecked(mv);
                let at = MoveAt { span: 0..0, fullmove: ply / 2 + 1, mover: before.turn() };
                positions.record(&pos, Some(Step { at, before: &before, played: mv }));
                let whole = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
                assert_eq!(positions.seen.last().map(|s| s.hash), Some(whole), "after {mv:?} in {before:?}");
            }
        }
    }

    #[test]
    fn repetitions_count_with_the_same_player_to_move() {
        let mut positions = Positions::default();
        let mut pos = Chess::default();
        positions.record(&pos, None);
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut counts = Vec::new();
        for round in 0..4 {
            for (i, uci) in shuffle.iter().enumerate() {
                let Ok(mv) = uci.parse::<shakmaty::uci::UciMove>().map(|u| u.to_move(&pos)) else { return };
                let Ok(mv) = mv else { return };
                let before = pos.clone();
                pos.play_unchecked(mv);
                let at = MoveAt { span: 0..0, fullmove: round * 2 + 1, mover: before.turn() };
                let noted = positions.record(&pos, Some(Step { at, before: &before, played: mv }));
                assert_eq!(
                    positions.seen.last().map(|s| s.hash),
                    Some(pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0)
                );
                if i == 3 {
                    counts.push((noted.occurrences, noted.threefold, noted.ending));
                }
            }
        }
        assert_eq!(
            counts,
            [(2, false, None), (3, true, None), (4, false, None), (5, false, Some(Ending::FivefoldRepetition))]
        );
    }
}
