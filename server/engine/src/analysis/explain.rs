//! Says in words why a written move is illegal: no such piece, a blocked
//! path, a pin, a king left in check, a lost castling right.

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Piece, Position, Role, Square, attacks};

use super::languages::Language;

/// What a written move asks for, with the letters already understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Castle(CastlingSide),
    Normal {
        role: Role,
        from_file: Option<shakmaty::File>,
        from_rank: Option<shakmaty::Rank>,
        to: Square,
        promotion: Option<Role>,
    },
    /// A capture that names less than SAN needs, for the position to
    /// complete: `xg7`, whose piece letter was lost (any capture on g7),
    /// and `ed`, a pawn capture written with its two files only (a pawn of
    /// the e-file taking on the d-file).
    Capture {
        from_file: Option<shakmaty::File>,
        to_file: shakmaty::File,
        to_rank: Option<shakmaty::Rank>,
    },
}

pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn piece_on(pos: &Chess, sq: Square) -> String {
    match pos.board().piece_at(sq) {
        Some(p) => format!("the {} {} on {sq}", color_name(p.color).to_lowercase(), role_name(p.role)),
        None => format!("{sq}"),
    }
}

/// Why no legal move matches `target` in `pos`.
pub fn illegal(pos: &Chess, target: &Target, _language: Language) -> String {
    let us = pos.turn();
    match *target {
        Target::Castle(side) => castle(pos, side),
        Target::Capture { from_file: Some(from), to_file, .. } => {
            format!(
                "no {} pawn of the {}-file can take on the {}-file",
                color_name(us).to_lowercase(),
                from.char(),
                to_file.char()
            )
        }
        Target::Capture { from_file: None, to_file, to_rank } => match to_rank {
            Some(rank) => {
                let to = Square::from_coords(to_file, rank);
                match pos.board().piece_at(to) {
                    Some(p) if p.color != us => {
                        format!("no {} piece can take {}", color_name(us).to_lowercase(), piece_on(pos, to))
                    }
                    Some(_) => format!("{to} holds a piece of {}'s own", color_name(us)),
                    None => format!("nothing stands on {to} to be taken"),
                }
            }
            None => format!("no {} piece can take on the {}-file", color_name(us).to_lowercase(), to_file.char()),
        },
        Target::Normal { role, from_file, from_rank, to, promotion } => {
            match promotion {
                Some(new @ (Role::King | Role::Pawn)) => {
                    return format!(
                        "a pawn cannot promote to a {}: write the queen, rook, bishop or knight",
                        role_name(new)
                    );
                }
                Some(_) if role != Role::Pawn => {
                    return format!("only a pawn promotes, not a {}", role_name(role));
                }
                _ => {}
            }
            let ours = pos.our(role);
            if ours.is_empty() {
                let mut why = format!("{} has no {} on the board", color_name(us), role_name(role));
                if let Some(other) = other_side_could(pos, role, to) {
                    why.push_str(&other);
                }
                return why;
            }
            if let Some(p) = pos.board().piece_at(to)
                && p.color == us
            {
                return format!("{to} is occupied by {}'s own {}", color_name(us), role_name(p.role));
            }
            let fits =
                |sq: Square| from_file.is_none_or(|f| sq.file() == f) && from_rank.is_none_or(|r| sq.rank() == r);
            let occupied = pos.board().occupied();
            let mut blocked: Option<(Square, Square)> = None;
            let mut reachable: Vec<Square> = Vec::new();
            let mut reachable_elsewhere: Vec<Square> = Vec::new();
            for from in ours {
                let (now, empty_board) = if role == Role::Pawn {
                    pawn_reach(pos, from, to)
                } else {
                    let piece = Piece { color: us, role };
                    (
                        attacks::attacks(from, piece, occupied).contains(to),
                        attacks::attacks(from, piece, Bitboard::EMPTY).contains(to),
                    )
                };
                if now {
                    if fits(from) {
                        reachable.push(from);
                    } else {
                        reachable_elsewhere.push(from);
                    }
                } else if empty_board && fits(from) && blocked.is_none() {
                    let between = attacks::between(from, to) & occupied;
                    let blocker = if to.rank() > from.rank() || to.file() > from.file() {
                        between.first()
                    } else {
                        between.last()
                    };
                    if let Some(b) = blocker {
                        blocked = Some((from, b));
                    }
                }
            }
            if role == Role::Pawn
                && promotion.is_some()
                && !matches!(to.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth)
            {
                return format!("a pawn promotes only on the last rank, not on {to}");
            }
            if let Some(&from) = reachable.first() {
                return pinned_or_check(pos, from, to, role);
            }
            if let Some((from, b)) = blocked {
                return format!(
                    "the path of the {} on {from} to {to} is blocked by {}",
                    role_name(role),
                    piece_on(pos, b)
                );
            }
            if !reachable_elsewhere.is_empty() {
                let names: Vec<String> =
                    reachable_elsewhere.iter().map(|sq| format!("the {} on {sq}", role_name(role))).collect();
                return format!("the written origin does not fit: only {} can go to {to}", names.join(" or "));
            }
            let mut why = format!("no {} {} can reach {to}", color_name(us).to_lowercase(), role_name(role));
            if let Some(other) = other_side_could(pos, role, to) {
                why.push_str(&other);
            }
            why
        }
    }
}

/// For a pawn: can it move to `to` now, and could it on an empty board?
fn pawn_reach(pos: &Chess, from: Square, to: Square) -> (bool, bool) {
    let us = pos.turn();
    let forward: i32 = if us == Color::White { 1 } else { -1 };
    let df = to.file() as i32 - from.file() as i32;
    let dr = (to.rank() as i32 - from.rank() as i32) * forward;
    let start_rank = if us == Color::White { shakmaty::Rank::Second } else { shakmaty::Rank::Seventh };
    let occupied = pos.board().occupied();
    if df == 0 && (dr == 1 || (dr == 2 && from.rank() == start_rank)) {
        let free = !occupied.contains(to) && (dr == 1 || !(attacks::between(from, to) & occupied).any());
        (free, true)
    } else if df.abs() == 1 && dr == 1 {
        let capture = pos.them().contains(to) || pos.maybe_ep_square() == Some(to);
        (capture, capture)
    } else {
        (false, false)
    }
}

/// A piece that can reach the square but may not go there: a pin, a check
/// it does not parry, or (for the king) an attacked square.
fn pinned_or_check(pos: &Chess, from: Square, to: Square, role: Role) -> String {
    let us = pos.turn();
    let Some(king) = pos.board().king_of(us) else {
        return format!("the {} on {from} cannot go to {to}", role_name(role));
    };
    if role == Role::King {
        let attackers = pos.king_attackers(to, !us, pos.board().occupied() ^ Bitboard::from(from));
        if let Some(a) = attackers.first() {
            return format!("the king would stand in check on {to} from {}", piece_on(pos, a));
        }
        return format!("the king cannot go to {to}");
    }
    let checkers = pos.checkers();
    if let Some(c) = checkers.first() {
        return format!("the king on {king} is in check from {}, and this move does not parry it", piece_on(pos, c));
    }
    // A pin: the piece stands between the king and an enemy slider.
    let without = pos.board().occupied() ^ Bitboard::from(from);
    let pinners = pos.king_attackers(king, !us, without);
    if let Some(p) = pinners.first() {
        return format!(
            "the {} on {from} is pinned against the king on {king} by {}",
            role_name(role),
            piece_on(pos, p)
        );
    }
    format!("the {} on {from} cannot go to {to}: the king would be left in check", role_name(role))
}

fn castle(pos: &Chess, side: CastlingSide) -> String {
    let us = pos.turn();
    let side_name = match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    };
    if !pos.castles().has(us, side) {
        return format!(
            "{} can no longer castle {side_name}: the king or that rook has moved (or the rook was captured)",
            color_name(us)
        );
    }
    if pos.is_check() {
        return format!("{} may not castle out of check", color_name(us));
    }
    if let Some(rook) = pos.castles().rook(us, side) {
        let path = pos.castles().path(us, side);
        let blockers = path & pos.board().occupied();
        if let Some(b) = blockers.first() {
            return format!("castling {side_name} is blocked by {}", piece_on(pos, b));
        }
        let king = pos.board().king_of(us);
        if let Some(king) = king {
            let king_to = Square::from_coords(side.king_to_file(), king.rank());
            for sq in attacks::between(king, king_to).with(king_to) {
                let attackers = pos.king_attackers(sq, !us, pos.board().occupied());
                if let Some(a) = attackers.first() {
                    return format!("the king would cross or land on {sq}, which {} attacks", piece_on(pos, a));
                }
            }
        }
        let _ = rook;
    }
    format!("{} cannot castle {side_name} here", color_name(us))
}

/// When the other side could make this move, the likely slip is a move
/// missing or written twice: say so.
fn other_side_could(pos: &Chess, role: Role, to: Square) -> Option<String> {
    let swapped = pos.clone().swap_turn().ok()?;
    if swapped.san_candidates(role, to).is_empty() {
        return None;
    }
    Some(format!(
        "; {} could make this move, but it is {}'s turn (is a move missing or written twice?)",
        color_name(!pos.turn()),
        color_name(pos.turn())
    ))
}
