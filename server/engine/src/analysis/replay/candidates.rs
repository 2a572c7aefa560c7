//! The legal moves of one kind of piece to one square (what a SAN move such
//! as `Nf3` or `exd5` may name), written into the caller's short list.
//!
//! shakmaty's `Position::san_candidates` gives the same moves in the same
//! order, but returns its `MoveList` of 270 moves (about 2 KB) by value, and
//! that copy was a tenth of the time `--check` spent on a game: this is called
//! for nearly every move of every game. The rules are shakmaty's, read from
//! the position through its public API; the rare cases (an en passant
//! capture to the square) are left to shakmaty. The test below compares the
//! two over the positions of random games, every kind of piece and square.

use shakmaty::{Bitboard, Chess, Move, Position, Rank, Role, Square, attacks};

pub(in crate::analysis) use super::recovery::Matches;

/// Pushes the legal moves of a `role` to `to` onto `out`, in shakmaty's
/// order (the same list `pos.san_candidates(role, to)` holds). A list that
/// is full takes no more (see `Matches` for why 16 is enough).
pub(in crate::analysis) fn san_candidates(pos: &Chess, role: Role, to: Square, out: &mut Matches) {
    let board = pos.board();
    let turn = pos.turn();
    let Some(king) = board.king_of(turn) else {
        return shakmaty_candidates(pos, role, to, out);
    };
    if role == Role::Pawn && pos.maybe_ep_square() == Some(to) {
        // An en passant capture has its own test of the king's safety.
        return shakmaty_candidates(pos, role, to, out);
    }
    let us = board.by_color(turn);
    let occupied = board.occupied();
    let checkers = board.attacks_to(king, !turn, occupied);
    let start = out.len();
    let mut push = |mv: Move| {
        let _ = out.try_push(mv);
    };

    if checkers.is_empty() {
        if us.contains(to) {
            return;
        }
        let target = Bitboard::from_square(to);
        match role {
            Role::Pawn => pawn_moves(pos, target, &mut push),
            Role::King => safe_king(pos, king, target, &mut push),
            _ => piece_moves(pos, role, to, &mut push),
        }
    } else {
        // Evasions: the king steps off every checking line, or (one checker)
        // another piece takes it or steps between.
        if role == Role::King {
            let mut attacked = Bitboard(0);
            (checkers & board.sliders()).for_each(|checker| attacked |= attacks::ray(checker, king) ^ checker);
            safe_king(pos, king, Bitboard::from_square(to) & !us & !attacked, &mut push);
        } else if let Some(checker) = checkers.single_square() {
            let target = attacks::between(king, checker).with(checker);
            if target.contains(to) {
                if role == Role::Pawn {
                    pawn_moves(pos, Bitboard::from_square(to), &mut push);
                } else {
                    piece_moves(pos, role, to, &mut push);
                }
            }
        }
    }

    // A pinned piece moves only along its pin.
    let blockers = slider_blockers(pos, king);
    if blockers.any() {
        let mut i = start;
        while i < out.len() {
            let from = out[i].from().unwrap_or(to);
            if blockers.contains(from) && !attacks::aligned(from, out[i].to(), king) {
                out.remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// shakmaty's own list, for the cases this module leaves to it.
fn shakmaty_candidates(pos: &Chess, role: Role, to: Square, out: &mut Matches) {
    for mv in pos.san_candidates(role, to) {
        let _ = out.try_push(mv);
    }
}

/// A knight, bishop, rook or queen of ours that reaches `to` (not ours).
fn piece_moves(pos: &Chess, role: Role, to: Square, push: &mut impl FnMut(Move)) {
    let board = pos.board();
    let occupied = board.occupied();
    let from = match role {
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occupied),
        Role::Rook => attacks::rook_attacks(to, occupied),
        Role::Queen => attacks::queen_attacks(to, occupied),
        Role::Pawn | Role::King => return,
    };
    let capture = board.role_at(to);
    (from & pos.our(role)).for_each(|from| push(Move::Normal { role, from, capture, to, promotion: None }));
}

/// The king's steps into `target` that no piece of theirs attacks.
fn safe_king(pos: &Chess, king: Square, target: Bitboard, push: &mut impl FnMut(Move)) {
    let board = pos.board();
    (attacks::king_attacks(king) & target).for_each(|to| {
        if board.attacks_to(to, !pos.turn(), board.occupied()).is_empty() {
            push(Move::Normal { role: Role::King, from: king, capture: board.role_at(to), to, promotion: None });
        }
    });
}

/// Pawn moves into `target` (one square): captures from the left and the
/// right, then a step, then a double step, promotions to each piece.
fn pawn_moves(pos: &Chess, target: Bitboard, push: &mut impl FnMut(Move)) {
    let board = pos.board();
    let turn = pos.turn();
    let Some(to) = target.first() else { return };
    let pawns = pos.our(Role::Pawn);
    let mut pawn = |from: Square, capture: Option<Role>| {
        if Bitboard::BACKRANKS.contains(to) {
            for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(promotion) });
            }
        } else {
            push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: None });
        }
    };
    if pos.them().contains(to) {
        // shakmaty takes the capture toward the a-file first (from the
        // pawn's side: north-west for White, south-west for Black).
        let capture = board.role_at(to);
        let from_east = to.offset(turn.fold_wb(-7, 9));
        let from_west = to.offset(turn.fold_wb(-9, 7));
        for from in [from_east, from_west].into_iter().flatten() {
            if pawns.contains(from) && attacks::pawn_attacks(turn, from).contains(to) {
                pawn(from, capture);
            }
        }
        return;
    }
    if board.occupied().contains(to) {
        return;
    }
    let step = turn.fold_wb(-8, 8);
    let Some(one) = to.offset(step) else { return };
    if pawns.contains(one) {
        pawn(one, None);
    } else if !board.occupied().contains(one)
        && to.rank() == turn.fold_wb(Rank::Fourth, Rank::Fifth)
        && let Some(two) = to.offset(2 * step)
        && pawns.contains(two)
    {
        pawn(two, None);
    }
}

/// Pieces of ours that stand alone between our king and a slider of theirs
/// that aims at it (pinned pieces).
fn slider_blockers(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    (snipers & pos.them()).for_each(|sniper| {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    });
    blockers
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position, Role, Square};

    use super::*;

    fn same_as_shakmaty(pos: &Chess) {
        for role in Role::ALL {
            for to in Square::ALL {
                let mut ours = Matches::new();
                san_candidates(pos, role, to, &mut ours);
                let theirs: Vec<Move> = pos.san_candidates(role, to).into_iter().collect();
                assert_eq!(
                    ours.as_slice(),
                    theirs.as_slice(),
                    "{role:?} to {to} in {}",
                    Fen::from_position(pos, shakmaty::EnPassantMode::Always)
                );
            }
        }
    }

    /// Every kind of piece to every square, in the positions of random
    /// games (a fixed seed) and of positions chosen for their pins, checks,
    /// en passant and promotions.
    #[test]
    fn the_candidates_are_shakmatys() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..60 {
            let mut pos = Chess::default();
            for _ in 0..160 {
                same_as_shakmaty(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(next() % moves.len() as u64) as usize];
                pos.play_unchecked(mv);
            }
        }
        for fen in [
            // A pinned knight and bishop; a pawn pinned on a file.
            "4k3/8/8/8/1b6/2N5/3K4/8 w - - 0 1",
            "4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1",
            // En passant, legal and pinned along the rank.
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
            // Check by one piece, by two; promotions, with a capture.
            "4k3/8/8/8/8/8/4q3/R3K3 w Q - 0 1",
            "4k3/8/8/8/1b6/8/4r3/4K1N1 w - - 0 1",
            "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/p7/1R2K3 b - - 0 1",
            // Black to move with pawns that take on both sides.
            "4k3/8/8/3p1p2/4P3/8/8/4K3 b - - 0 1",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            same_as_shakmaty(&pos);
        }
    }
}
