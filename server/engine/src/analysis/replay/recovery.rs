//! Recovery from a move that does not name one legal move: an ambiguous
//! move's candidates, an illegal move's likely readings (the one under
//! which the game goes on furthest is taken, and its fix preferred), a
//! promotion that names no piece; and how a fix is written in the game's
//! own style.

use super::*;

/// The legal moves that fit a target: at most 12 (three pawns that reach
/// one square, by a push and two captures, each promoting to any of four
/// pieces; of the other pieces at most eight of a kind, one from each
/// direction), so a short list on the stack, not shakmaty's `MoveList` of
/// 270, which would be copied for every move of every game
/// (`candidates::san_candidates` fills it).
pub(in crate::analysis) type Matches = arrayvec::ArrayVec<Move, MAX_MATCHES>;
const MAX_MATCHES: usize = 16;

/// Legal moves that fit a target.
pub(super) fn matching(pos: &Chess, target: &Target) -> Matches {
    match *target {
        Target::Normal { role, to, from_file, from_rank, promotion } => {
            let mut found = Matches::new();
            super::candidates::san_candidates(pos, role, to, &mut found);
            if from_file.is_some() || from_rank.is_some() || promotion.is_some() {
                found.retain(|mv| {
                    let from = mv.from();
                    from_file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
                        && from_rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
                        && promotion.is_none_or(|p| mv.promotion() == Some(p))
                });
            }
            found
        }
        // `take`: the bound above holds in every position; were it ever
        // passed, the list would be cut, not the program stopped.
        Target::Castle(side) => pos.castling_moves(side).into_iter().take(MAX_MATCHES).collect(),
        Target::Capture { from_file, to_file, to_rank } => {
            let mut list = pos.capture_moves();
            list.retain(|mv| {
                let to = mv.to();
                to.file() == to_file
                    && to_rank.is_none_or(|r| to.rank() == r)
                    && from_file.is_none_or(|f| mv.role() == Role::Pawn && mv.from().is_some_and(|s| s.file() == f))
            });
            list.into_iter().take(MAX_MATCHES).collect()
        }
    }
}

/// The one move that matching moves stand for: the only one, or, when a
/// single pawn may promote to several pieces (the piece was not named), the
/// promotion to a queen. `None` when none or several pieces match.
pub(super) fn single(found: &[Move]) -> Option<Move> {
    match found {
        [] => None,
        [only] => Some(*only),
        [first, ..] => {
            let one_pawn = found.iter().all(|mv| mv.from() == first.from() && mv.promotion().is_some());
            if one_pawn { found.iter().copied().find(|mv| mv.promotion() == Some(Role::Queen)) } else { None }
        }
    }
}

/// Whether two texts differ by at most one inserted, deleted or replaced
/// character (a slip of the pen or of OCR).
pub(super) fn within_one_edit(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let prefix = short.iter().zip(long.iter()).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        short[prefix + 1..] == long[prefix + 1..]
    } else {
        short[prefix..] == long[prefix + 1..]
    }
}

pub(super) fn join_or(names: &[String], word: &str) -> String {
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} {word} {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

impl Replayer<'_, '_> {
    /// One or more legal moves match: exactly one is the move; a pawn
    /// reaching the last rank without a piece is a missing promotion;
    /// several pieces are an ambiguity.
    pub(super) fn resolve(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        target: &Target,
        found: &[Move],
        rest: &[Item<'_>],
    ) -> Option<Move> {
        if found.len() == 1 {
            self.check_disambiguation(pos, m, target, found[0]);
            return Some(found[0]);
        }
        if single(found).is_some() {
            return Some(self.missing_promotion(pos, m, found));
        }
        self.ambiguous(pos, m, found, rest)
    }

    pub(super) fn missing_promotion(&mut self, pos: &Chess, m: &WrittenMove<'_>, found: &[Move]) -> Move {
        let queen = found.iter().copied().find(|mv| mv.promotion() == Some(Role::Queen)).unwrap_or(found[0]);
        let at = m.destination.as_ref().map_or(m.span.clone(), |d| d.span.clone());
        let mut d = Diagnostic::new(
            Code::MissingPromotion,
            at.clone(),
            format!(
                "the pawn reaches the last rank but no piece is named; read as a promotion to a queen ({})",
                self.render(pos, &queen)
            ),
        );
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            let letter = self.language.letter(role);
            d = d.with_fix(
                Fix::replace(format!("Promote to a {} ({letter})", role_name(role)), at.end..at.end, letter)
                    .preferred(role == Role::Queen),
            );
        }
        self.diagnostics.push(d);
        queen
    }

    pub(super) fn ambiguous(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        found: &[Move],
        rest: &[Item<'_>],
    ) -> Option<Move> {
        let written = m.text(self.source);
        // One candidate per piece: a pawn that may promote to any piece
        // counts once, as the promotion to a queen.
        let mut pieces: Vec<Move> = Vec::new();
        for mv in found {
            match pieces.iter_mut().find(|p| p.from() == mv.from()) {
                Some(p) if mv.promotion() == Some(Role::Queen) => *p = *mv,
                Some(_) => {}
                None => pieces.push(*mv),
            }
        }
        let found = &pieces[..];
        let names: Vec<String> = found
            .iter()
            .filter_map(|mv| mv.from().map(|from| format!("the {} on {from}", role_name(mv.role()))))
            .collect();
        let tiered: Vec<(Move, u8)> = found.iter().map(|&mv| (mv, 0)).collect();
        let (chosen, tied) = self.choose_or_tie(pos, &tiered, rest);
        self.end_readings = if chosen.is_none() && tied.is_empty() { found.to_vec() } else { Vec::new() };
        // The written move is one of its readings: what is wrong after it
        // under all of them is wrong.
        self.undecided = tied;
        self.undecided_firm = true;
        self.read_as_guess = chosen.is_some();
        let to = found[0].to();
        let mut message = format!("{written} is ambiguous: {} can go to {to}", join_or(&names, "and"));
        if let Some(mv) = chosen {
            message.push_str(&format!(
                "; read as {}, the only one that the moves after it bear out",
                self.render(pos, &mv)
            ));
        }
        let span = core_span(m);
        let mut d = Diagnostic::new(Code::AmbiguousMove, span, message);
        for mv in found {
            let new_text = self.rewrite_with_origin(pos, m, mv);
            d = d.with_fix(
                Fix::replace(format!("Write {new_text}"), m.span.clone(), new_text.clone())
                    .preferred(Some(*mv) == chosen),
            );
            if let Some(from) = mv.from() {
                d.related.push(Related {
                    span: m.span.clone(),
                    message: format!("candidate: the {} on {from}", role_name(mv.role())),
                });
            }
        }
        self.diagnostics.push(d);
        chosen
    }

    pub(super) fn illegal(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        target: &Target,
        rest: &[Item<'_>],
    ) -> Option<Move> {
        if self.quick {
            self.diagnostics.push(Diagnostic::new(Code::IllegalMove, core_span(m), String::new()));
            return None;
        }
        let written = m.text(self.source);
        let why = explain::illegal(pos, target, self.language);
        let mut candidates = self.recovery_candidates(pos, m, target);
        let (chosen, tied) = self.choose_or_tie(pos, &candidates, rest);
        // The intended move may be none of the readings (the generated
        // games show it: readings that the next moves bear out alike, then
        // a later move that fits none): nothing found after it is certain.
        self.undecided = tied;
        self.undecided_firm = false;
        // The fix the replay goes on with comes first, so that it is among
        // the few offered.
        if let Some(i) = candidates.iter().position(|&(mv, _)| Some(mv) == chosen) {
            candidates[..=i].rotate_right(1);
        }
        self.guessed = chosen.is_some();
        self.read_as_guess = chosen.is_some();
        self.guesses += usize::from(chosen.is_some());
        let mut message = format!("{written} is illegal: {why}");
        if let Some(mv) = chosen {
            let why = if rest.iter().any(|i| matches!(i, Item::Move(_))) {
                "which the moves after it bear out"
            } else {
                "the only move close to what is written"
            };
            message.push_str(&format!("; read as {}, {why}", self.render(pos, &mv)));
        }
        let mut d = Diagnostic::new(Code::IllegalMove, core_span(m), message);
        for (mv, _) in candidates.iter().take(4) {
            let text = self.render_like(pos, m, mv);
            d = d.with_fix(
                Fix::replace(format!("Write {text}"), m.span.clone(), text.clone()).preferred(Some(*mv) == chosen),
            );
        }
        self.diagnostics.push(d);
        chosen
    }

    /// A capture written with less than SAN needs (`xg7`, whose piece
    /// letter was lost; `ed`, a pawn capture with its files only): the
    /// captures that fit are its readings, the one that the moves after it
    /// bear out is the fix, and the line goes on with it.
    pub(super) fn incomplete(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        target: &Target,
        rest: &[Item<'_>],
    ) -> Option<Move> {
        let found = matching(pos, target);
        if found.is_empty() {
            return self.illegal(pos, m, target, rest);
        }
        if self.quick {
            self.diagnostics.push(Diagnostic::new(Code::Syntax, core_span(m), String::new()));
            return single(&found);
        }
        let written = m.text(self.source);
        let candidates: Vec<(Move, u8)> = found.iter().map(|&mv| (mv, 0)).collect();
        let (chosen, tied) = match candidates[..] {
            [(only, _)] => (Some(only), Vec::new()),
            _ => self.choose_or_tie(pos, &candidates, rest),
        };
        self.undecided = tied;
        self.undecided_firm = false;
        let what = match *target {
            Target::Capture { from_file: Some(_), .. } => {
                format!("\"{written}\" is a pawn capture written with its files only (an old short form)")
            }
            _ => format!("\"{written}\" names no piece: the letter of the piece that captures was lost"),
        };
        let mut message = what;
        match chosen {
            Some(mv) if found.len() == 1 => {
                message.push_str(&format!("; the only such capture is {}", self.render(pos, &mv)));
            }
            Some(mv) => {
                self.guessed = true;
                self.read_as_guess = true;
                self.guesses += 1;
                message.push_str(&format!("; read as {}, which the moves after it bear out", self.render(pos, &mv)));
            }
            None => {
                let names: Vec<String> = found.iter().map(|mv| self.render(pos, mv)).collect();
                message.push_str(&format!("; it may be {}", join_or(&names, "or")));
            }
        }
        let mut d = Diagnostic::new(Code::Syntax, core_span(m), message);
        let mut ordered = found.to_vec();
        if let Some(i) = ordered.iter().position(|&mv| Some(mv) == chosen) {
            ordered[..=i].rotate_right(1);
        }
        for mv in ordered.iter().take(4) {
            let text = self.render(pos, mv);
            d = d.with_fix(
                Fix::replace(format!("Write {text}"), m.span.clone(), text.clone()).preferred(Some(*mv) == chosen),
            );
        }
        self.diagnostics.push(d);
        chosen
    }

    /// Legal moves the writer may have meant, each with how likely it is
    /// (lower is likelier): 0 for the same piece to the same square from
    /// elsewhere (a wrong disambiguation), 1 for a piece move to the same
    /// square whose letter was lost (`Rb8` for `b8`, likelier than a pawn
    /// move to another rank), 2 for the same piece one character away
    /// (`Nf4` for `Nf3`), 3 for any move one character away (a wrong
    /// letter).
    pub(super) fn recovery_candidates(&self, pos: &Chess, m: &WrittenMove<'_>, target: &Target) -> Vec<(Move, u8)> {
        let mut out: Vec<(Move, u8)> = Vec::new();
        let written_role = match *target {
            Target::Normal { role, to, promotion, .. } => {
                let mut candidates = Matches::new();
                super::candidates::san_candidates(pos, role, to, &mut candidates);
                for mv in candidates {
                    if promotion.is_none_or(|p| mv.promotion() == Some(p)) {
                        out.push((mv, 0));
                    }
                }
                if !out.is_empty() {
                    return out;
                }
                Some(role)
            }
            Target::Castle(_) | Target::Capture { .. } => None,
        };
        let written = strip_marks(m.text(self.source));
        // `Sb8-c6` for `Sg8-f6`: in long algebraic a slip in the
        // destination comes with an origin that no longer fits, two
        // characters apart; without their origins (`Sc6`, `Sf6`) they are
        // one apart, as in short algebraic.
        // (A piece's move: a coordinate move, `g1g3`, names no piece but
        // by its origin.)
        let short_written = match (&m.origin, &m.piece) {
            (Some(Origin::Square(o)), Some(_)) => {
                let src = self.source;
                let after = src[o.span.end..m.span.end].trim_start_matches(lexicon::is_dash);
                Some(strip_marks(&format!("{}{after}", &src[m.span.start..o.span.start])))
            }
            _ => None,
        };
        // A candidate from the written origin is likelier than one that
        // needs the origin to be wrong too (`Sb8-06`: `Sb8-c6` before
        // `Sg8-f6`).
        let written_origin = match &m.origin {
            Some(Origin::Square(o)) => o.text.parse::<Square>().ok(),
            _ => None,
        };
        let mut style = self.style;
        // Compared as written: long algebraic with long (`h7-h6` for
        // `h7-g6`, a pawn's capture in a text that writes none).
        style.long = written_long(m);
        let mut short_style = self.style;
        short_style.long = false;
        // The capture sign as written (`Кf3х04`: the Cyrillic `х`), else `x`.
        let written_sign = Some(m.capture.as_ref().map_or("x", |c| capture_sign(c.text)));
        for mv in &pos.legal_moves() {
            for sign in [written_sign, None] {
                style.capture_sign = sign;
                short_style.capture_sign = sign;
                let text = render_move(pos, mv, &style);
                let short_slip = short_written
                    .as_deref()
                    .is_some_and(|w| !mv.is_castle() && within_one_edit(w, &render_move(pos, mv, &short_style)));
                // `g8` for `Крg8`: the letter lost may be two characters.
                let lost_letter = text.len() > written.len()
                    && text.ends_with(&*written)
                    && !mv.is_castle()
                    && mv.role() != Role::Pawn
                    && text[..text.len() - written.len()].chars().all(|c| c.is_alphabetic() || lexicon::is_figurine(c));
                if (lost_letter || short_slip || within_one_edit(&written, &text)) && !out.iter().any(|(o, _)| o == mv)
                {
                    let tier = if lost_letter {
                        1
                    } else if Some(mv.role()) == written_role
                        && !mv.is_castle()
                        && written_origin.is_none_or(|o| mv.from() == Some(o))
                    {
                        2
                    } else {
                        3
                    };
                    out.push((*mv, tier));
                }
            }
        }
        out.sort_by_key(|&(_, tier)| tier);
        out
    }

    /// The candidate that the rest of the line confirms: the one under
    /// which the following moves replay furthest, the likeliest (lowest
    /// tier) among those, if exactly one. With no move after it, only a
    /// sole candidate is taken.
    ///
    /// When no one candidate is chosen because several are borne out
    /// equally well, those come second: the readings an undecided move is
    /// carried forward under.
    pub(super) fn choose_or_tie(
        &self,
        pos: &Chess,
        candidates: &[(Move, u8)],
        rest: &[Item<'_>],
    ) -> (Option<Move>, Vec<Move>) {
        let upcoming: Vec<&WrittenMove<'_>> =
            rest.iter().filter_map(|i| if let Item::Move(m) = i { Some(m) } else { None }).take(LOOKAHEAD).collect();
        if upcoming.is_empty() {
            return match candidates {
                [(only, _)] => (Some(*only), Vec::new()),
                _ => (None, Vec::new()),
            };
        }
        // How far each reading gets before a move no longer fits. The one
        // that gets strictly furthest is the intended move: the rest of the
        // game may have a mistake of its own further on, which must not
        // hide this one's answer.
        // The target of a written move at `p`, as the replay reads it.
        let target_at = |p: &Chess, w: &WrittenMove<'_>| -> Option<Target> {
            let reading = self.read_at(p, w).ok()?;
            match (reading.primary, reading.foreign, &w.piece) {
                (Some((target, _)), _, _) => Some(target),
                (None, Some(parts), Some(letter)) => {
                    self.foreign_targets(letter, parts, None).into_iter().next().map(|(target, _)| target)
                }
                _ => None,
            }
        };
        // How many of `moves` replay from `p` before one no longer fits.
        let fitting = |p: &mut Chess, moves: &[&WrittenMove<'_>]| {
            moves
                .iter()
                .take_while(|w| {
                    let Some(mv) = target_at(p, w).and_then(|t| single(&matching(p, &t))) else { return false };
                    p.play_unchecked(mv);
                    true
                })
                .count()
        };
        // How far each reading gets before a move no longer fits, and then,
        // where that move is a mistake of its own, how far the line gets
        // past it read as the likeliest of its own readings (so that of two
        // readings stopped by the same later mistake, the one that the moves
        // after that mistake bear out is preferred: `2...Фc6 3.Лc4 Фf6` is
        // `Кc6`, since `3...Фf6` is a queen move then).
        let reach = |mv: &Move| {
            let mut p = pos.clone();
            p.play_unchecked(*mv);
            let before = fitting(&mut p, &upcoming);
            let after = upcoming.get(before).map_or(0, |w| {
                let Some(target) = target_at(&p, w) else { return 0 };
                let tail = &upcoming[before + 1..];
                self.recovery_candidates(&p, w, &target)
                    .into_iter()
                    .take(MAX_READINGS)
                    .map(|(next, _)| {
                        let mut q = p.clone();
                        q.play_unchecked(next);
                        fitting(&mut q, tail)
                    })
                    .max()
                    .unwrap_or(0)
            });
            (before, after)
        };
        let scored: Vec<((usize, usize), u8, Move)> =
            candidates.iter().map(|&(mv, tier)| (reach(&mv), tier, mv)).collect();
        let Some(best) = scored.iter().map(|&(reach, tier, _)| (reach, std::cmp::Reverse(tier))).max() else {
            return (None, Vec::new());
        };
        let at_best: Vec<Move> =
            scored.iter().filter(|&&(reach, tier, _)| (reach, std::cmp::Reverse(tier)) == best).map(|s| s.2).collect();
        // A guess must be borne out: by every move after it, or by enough
        // of them when a later mistake of its own stops the line. Readings
        // that tie are carried forward together (a few at most), proven or
        // not: a later mistake under all of them is what stops them alike.
        //
        // A reading that is not borne out, or more readings than can be
        // carried, still carry the line on (the likeliest few): what
        // follows is then reported only where it is wrong whatever was
        // meant here (see `beam`).
        let proven = best.0.0 >= upcoming.len().min(EVIDENCE);
        match at_best[..] {
            [only] if proven => (Some(only), Vec::new()),
            _ => (None, at_best.into_iter().take(MAX_READINGS).collect()),
        }
    }

    pub(super) fn render(&self, pos: &Chess, mv: &Move) -> String {
        render_move(pos, mv, &self.style)
    }

    /// The move written the way the original was (capture sign or not,
    /// long or short), for a fix that replaces it.
    pub(super) fn render_like(&self, pos: &Chess, m: &WrittenMove<'_>, mv: &Move) -> String {
        let mut style = self.style;
        style.capture_sign = m.capture.as_ref().map(|c| capture_sign(c.text));
        if m.capture.is_none() && mv.is_capture() {
            style.capture_sign = self.capture_written.sign();
        }
        style.long = written_long(m);
        style.castling_zeros = m.castling.as_ref().is_some_and(|c| c.text.contains('0'));
        style.promotion_equals = m.promotion_sign.is_some();
        let mut text = render_move(pos, mv, &style);
        // A written check mark becomes the one this move deserves.
        if m.check.is_some() {
            let mut after = pos.clone();
            after.play_unchecked(*mv);
            if after.is_checkmate() {
                text.push('#');
            } else if after.is_check() {
                text.push('+');
            }
        }
        if let Some(t) = &m.annotation {
            text.push_str(t.text);
        }
        text
    }

    /// The written move with the disambiguation FIDE 18.9 asks for among
    /// the candidates, everything else kept as written.
    pub(super) fn rewrite_with_origin(&self, pos: &Chess, m: &WrittenMove<'_>, mv: &Move) -> String {
        let need = languages::disambiguation(pos, mv);
        let Some(from) = mv.from() else { return m.text(self.source).to_owned() };
        let mut origin = String::new();
        // The file when it decides or when nothing is needed at all (the
        // move is ambiguous only as written), the rank when it must.
        if need.file || !need.rank {
            origin.push(from.file().char());
        }
        if need.rank {
            origin.push(from.rank().char());
        }
        let (cut_start, cut_end) = match (&m.origin, &m.piece) {
            (Some(o), _) => (o.token().span.start, o.token().span.end),
            (None, Some(p)) => (p.span.end, p.span.end),
            (None, None) => (m.span.start, m.span.start),
        };
        let src = self.source;
        format!("{}{}{}", &src[m.span.start..cut_start], origin, &src[cut_end..m.span.end])
    }
}

/// Whether a move is written in long algebraic: a piece's origin square,
/// or a dash (`Ng1-f3`, `e2-e4`); its readings are rendered so too.
fn written_long(m: &WrittenMove<'_>) -> bool {
    matches!(m.origin, Some(Origin::Square(_))) && m.piece.is_some() || m.dash.is_some()
}
