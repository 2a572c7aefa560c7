//! Going on past a written move that cannot be read or played, where no
//! recovery found what it stands for: instead of leaving the rest of the
//! line unchecked, the replay finds its way back into the game the way a
//! reader does, from the moves after it.
//!
//! Three hypotheses are weighed at the token: (a) it is one move that could
//! not be read, any legal move of the position; (b) it is noise, no move at
//! all; (c) a move was lost before it (in the text that could not be read,
//! or left out), and the token is the move after that one. A hypothesis
//! survives when the next written moves ([`AHEAD`]) replay after it as they
//! are written. Among the survivors the replay takes a move that shares the
//! most with the token (its destination, its piece letter, its characters),
//! then a move over noise over a lost move. The token keeps its own
//! finding; when exactly one reading survives, that finding says so and
//! offers the move as its preferred fix.
//!
//! The work is bounded: at most `2 x legal moves` hypotheses (under 500),
//! each checked on at most [`AHEAD`] moves, and at most [`MAX_RESYNCS`]
//! resynchronisations in one replay, so a hostile text costs at most a
//! constant per written move.

use super::*;

/// How many written moves after the token must replay under a hypothesis.
pub(super) const AHEAD: usize = 4;
/// How many times one replay goes on past an unreadable token; past that,
/// a line stops at one as before.
pub(super) const MAX_RESYNCS: usize = 64;

/// How many resynchronisations a replay may have made after `plies` moves:
/// a few at once, then one per eight moves. A damaged game needs one here
/// and there; text where a reading has to be guessed every other move is
/// not a game being read (a burst of keystrokes that repeats moves, junk),
/// and each try costs up to `2 x legal moves x AHEAD` replayed moves, so
/// such a line stops as it did before.
fn resync_budget(plies: usize) -> usize {
    4 + plies / 8
}

/// A hypothesis that lets the game go on, as it ranks: moves replayed
/// after it (reversed: more first), move numbers that do not fit, likeness
/// to the token (reversed), kind order, the hypothesis.
type Survivor = (std::cmp::Reverse<usize>, usize, std::cmp::Reverse<usize>, u8, Resync);

/// What the replay takes an unreadable token for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Resync {
    /// One move that could not be read: it is played in the token's place.
    Read(Move),
    /// Noise: the position stays, the next written move is read on it.
    Noise,
    /// A move was lost before the token: this one is played first, then
    /// the token is read as written after it.
    Lost(Move),
    /// The token stands for two moves (one of them lost in it).
    Two(Move, Move),
}

/// A move's writing without its check or mate sign.
fn strip_check(text: &str) -> &str {
    text.trim_end_matches(['+', '#'])
}

/// Whether a move number fits the position one move after `pos` (a move
/// was lost before it).
pub(super) fn fits_after_one(text: &str, pos: &Chess) -> bool {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let Ok(n) = digits.parse::<u32>() else { return false };
    let black_dots = text.ends_with("...") || text.ends_with('…');
    let (number, turn) = match pos.turn() {
        Color::White => (pos.fullmoves().get(), Color::Black),
        Color::Black => (pos.fullmoves().get() + 1, Color::White),
    };
    n == number && (!black_dots || turn == Color::Black)
}

/// Whether a move number (`12.`, `12...`) fits the position it stands
/// before: the number of the move, and Black's dots before a Black move.
pub(super) fn number_fits(text: &str, pos: &Chess) -> bool {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    let Ok(n) = digits.parse::<u32>() else { return true };
    let black_dots = text.ends_with("...") || text.ends_with('…');
    n == pos.fullmoves().get() && (!black_dots || pos.turn() == Color::Black)
}

/// Where the replay stands after going on past an unreadable token.
pub(super) enum Resumed {
    /// The token was played as a move: the positions around it, and the
    /// end it makes by rule, if any.
    Played { before: Chess, after: Chess, ended: Option<Ending> },
    /// The token was skipped as noise.
    Noise,
    /// Several readings go on alike: the caller replays the rest under
    /// each ([`Replayer::beam`], the readings in `undecided`).
    Beam,
    /// A lost move was played before the token, which is to be read again
    /// on `after`.
    Lost { before: Chess, after: Chess, ended: Option<Ending> },
}

/// A later note on a finding the replay does not own (the grammar's
/// syntax error at the token): applied when the game's findings are
/// gathered.
#[derive(Clone, Debug)]
pub(super) struct Annotation {
    /// Where the finding is (any finding overlapping it is annotated).
    pub(super) span: Span,
    pub(super) note: String,
    pub(super) fix: Option<Fix>,
}

/// Applies the annotations to the first error or warning they overlap;
/// one that overlaps none becomes a note of its own.
pub(super) fn annotate(diagnostics: &mut Vec<Diagnostic>, annotations: Vec<Annotation>) {
    for a in annotations {
        let overlaps = |d: &Diagnostic| {
            d.span.start < a.span.end.max(a.span.start + 1) && a.span.start < d.span.end.max(d.span.start + 1)
        };
        let target = diagnostics.iter_mut().find(|d| {
            matches!(d.severity, Severity::Error | Severity::Warning) && d.code != Code::Unchecked && overlaps(d)
        });
        match target {
            Some(d) => {
                d.message.push_str("; ");
                d.message.push_str(&a.note);
                if let Some(fix) = a.fix {
                    for f in &mut d.fixes {
                        f.preferred = false;
                    }
                    d.fixes.insert(0, fix);
                    d.settle();
                }
            }
            None => {
                let mut d = Diagnostic::new(Code::Unchecked, a.span.clone(), a.note);
                d.severity = Severity::Info;
                diagnostics.push(d);
            }
        }
    }
}

impl Replayer<'_, '_> {
    /// The legal move a written move names at `pos`, without reporting
    /// anything (the first of several when it is ambiguous).
    pub(super) fn quiet_move(&self, pos: &Chess, m: &WrittenMove<'_>) -> Option<Move> {
        let reading = self.read_at(pos, m).ok()?;
        if let Some((target, _)) = &reading.primary
            && let Some(&mv) = matching(pos, target).first()
        {
            return Some(mv);
        }
        match (&m.piece, reading.foreign) {
            (Some(letter), Some(parts)) if self.mixing => self
                .foreign_targets(letter, parts, None)
                .iter()
                .find_map(|(target, _)| matching(pos, target).first().copied()),
            _ => None,
        }
    }

    /// How many of the first `need` written moves of `rest` replay from
    /// `pos` as written, and how many of their move numbers do not fit.
    fn replays_ahead(&self, pos: &Chess, rest: &[Item<'_>], need: usize) -> (usize, usize) {
        let mut pos = pos.clone();
        let (mut n, mut wrong_numbers) = (0, 0);
        for (k, item) in rest.iter().enumerate() {
            if n == need {
                break;
            }
            match item {
                Item::Move(m) => match self.quiet_move(&pos, m) {
                    Some(mv) => {
                        pos.play_unchecked(mv);
                        n += 1;
                    }
                    None => break,
                },
                Item::MoveNumber(t) if matches!(rest.get(k + 1), Some(Item::Move(_))) => {
                    wrong_numbers += usize::from(!number_fits(t.text, &pos));
                }
                Item::NullMove(_) | Item::PositionDescription(_) => break,
                _ => {}
            }
        }
        (n, wrong_numbers)
    }

    /// What to take the token `m` at `pos` for, if the moves after it
    /// (`rest`) tell; with whether it was the only reading that let the
    /// game go on. `None` when no hypothesis does, or the budget is spent.
    pub(super) fn resync(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        rest: &[Item<'_>],
        before: &str,
    ) -> Option<(Resync, bool)> {
        // The replays that decide the language compare where each reading
        // stops; the forks that only test later findings stop too.
        if self.quick || self.deciding || self.resyncs >= MAX_RESYNCS || self.resyncs >= resync_budget(self.plies) {
            return None;
        }
        // The moves that must replay: up to the next stop of the line.
        let mut available = 0;
        for item in rest {
            match item {
                Item::Move(_) => available += 1,
                Item::NullMove(_) | Item::PositionDescription(_) => break,
                _ => {}
            }
            if available == AHEAD {
                break;
            }
        }
        if available == 0 {
            return None;
        }
        self.resyncs += 1;
        let need = available;
        let token = m.text(self.source);
        let legal = pos.legal_moves();
        // (moves replayed reversed, later wrong numbers, likeness reversed,
        // kind order, hypothesis).
        let mut survivors: Vec<Survivor> = Vec::new();
        // A hypothesis survives when at least the first two of those moves
        // (or the only one) replay after it: a later move may be damaged
        // too, and is read past in its turn.
        let enough = need.min(2);
        let consider = |survivors: &mut Vec<_>, ahead: (usize, usize), prior: usize, kind: u8, h: Resync| {
            if ahead.0 >= enough {
                survivors.push((std::cmp::Reverse(ahead.0), ahead.1, std::cmp::Reverse(prior), kind, h));
            }
        };
        for &mv in &legal {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            consider(
                &mut survivors,
                self.replays_ahead(&next, rest, need),
                self.likeness(pos, &mv, token),
                0,
                Resync::Read(mv),
            );
        }
        consider(&mut survivors, self.replays_ahead(pos, rest, need), 0, 1, Resync::Noise);
        for &lost in &legal {
            let mut next = pos.clone();
            next.play_unchecked(lost);
            let Some(mv) = self.quiet_move(&next, m) else { continue };
            next.play_unchecked(mv);
            // A lost move that shares most with the text that could not be
            // read before the token (`Nf 6`) is the likeliest.
            let prior = if before.is_empty() { 0 } else { self.likeness(pos, &lost, before) };
            consider(&mut survivors, self.replays_ahead(&next, rest, need), prior, 2, Resync::Lost(lost));
        }
        // Two moves in the token's place (`3. Q a6 4. Bc4`: White's move
        // and Black's reply lost in it), only when no reading of one fits
        // the numbers after it.
        if !survivors.iter().any(|s| s.0 == std::cmp::Reverse(need) && s.1 == 0) {
            for &first in &legal {
                let mut mid = pos.clone();
                mid.play_unchecked(first);
                let prior = self.likeness(pos, &first, token);
                for second in mid.legal_moves() {
                    let mut next = mid.clone();
                    next.play_unchecked(second);
                    consider(
                        &mut survivors,
                        self.replays_ahead(&next, rest, need),
                        prior,
                        3,
                        Resync::Two(first, second),
                    );
                }
            }
        }
        // Most moves replayed, then fewest wrong numbers, then likeness.
        survivors.sort_by_key(|s| (s.0, s.1, s.2, s.3));
        let best = *survivors.first()?;
        let tied = |s: &&(std::cmp::Reverse<usize>, usize, std::cmp::Reverse<usize>, u8, Resync)| {
            (s.0, s.1) == (best.0, best.1)
        };
        let only = survivors.iter().filter(tied).count() == 1;
        // The likeliest readings as moves, for the beam when several tie.
        self.resync_readings = survivors
            .iter()
            .filter(tied)
            .filter_map(|s| if let Resync::Read(mv) = s.4 { Some(mv) } else { None })
            .take(MAX_READINGS)
            .collect();
        Some((best.4, only))
    }

    /// How much a move's rendering shares with the token it may stand for:
    /// its destination square, its piece letter, then its characters.
    fn likeness(&self, pos: &Chess, mv: &Move, token: &str) -> usize {
        // Blanks inside a token are damage too (`Db 3`).
        let token: String = token.chars().filter(|c| !c.is_whitespace()).collect();
        let token = token.as_str();
        let written = self.render(pos, mv);
        let mut score = 0;
        if let Some(to) = mv.to().to_string().get(..2)
            && token.contains(to)
        {
            score += 4;
        }
        let (first, token_first) = (written.chars().next(), token.chars().next());
        if first.is_some() && first == token_first {
            score += 2;
        }
        let mut rest: Vec<char> = token.chars().collect();
        for c in written.chars() {
            if let Some(k) = rest.iter().position(|&t| t == c) {
                rest.swap_remove(k);
                score += 1;
            }
        }
        score
    }

    /// The note that says how the token was read, and the fix when the
    /// reading is certain.
    pub(super) fn resync_note(
        &self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        reading: Resync,
        only: bool,
        is_main: bool,
    ) -> (String, Option<Fix>) {
        let what = if is_main { "game" } else { "variation" };
        let token = m.text(self.source);
        match reading {
            Resync::Read(mv) => {
                let name = self.render(pos, &mv);
                if only {
                    let fix = Fix::replace(format!("Write {name}"), core_span(m), self.render_like(pos, m, &mv))
                        .preferred(true);
                    (format!("read as {name}: the only move after which the {what} goes on"), Some(fix))
                } else {
                    (
                        format!(
                            "read on as {name}, the likeliest of the moves after which the {what} goes on; the rest of the {what} is checked"
                        ),
                        None,
                    )
                }
            }
            Resync::Noise => (
                format!("{token} is read as no move: the {what} goes on from the moves after it as they are written"),
                None,
            ),
            Resync::Two(first, second) => {
                let mut mid = pos.clone();
                mid.play_unchecked(first);
                let names = format!("{} {}", self.render(pos, &first), self.render(&mid, &second));
                let how = if only { "the only moves" } else { "the likeliest moves" };
                (format!("{token} is read as two moves, {names} ({how} after which the {what} goes on)"), None)
            }
            Resync::Lost(mv) => {
                let name = self.render(pos, &mv);
                let how = if only { "the only move" } else { "the likeliest move" };
                (
                    format!(
                        "a move seems lost before {token}: the {what} is read on as if {name} was played ({how} after which it goes on)"
                    ),
                    None,
                )
            }
        }
    }

    /// Goes on past the token `m` at `pos` if the moves after it (`rest`)
    /// tell how; notes on the finding at `note_span` how it was read.
    pub(super) fn go_on(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        rest: &[Item<'_>],
        (is_main, line_id): (bool, usize),
        (note_span, last_move_end): (Span, Option<usize>),
    ) -> Option<Resumed> {
        // The text between the latest move and the token, without its
        // move numbers: where a lost move may stand.
        let gap_start = last_move_end.unwrap_or(m.span.start).min(m.span.start);
        let gap = self.source.get(gap_start..m.span.start).unwrap_or_default();
        // Its words that are no move numbers, and where they stand.
        let mut words: Option<Span> = None;
        let mut before = String::new();
        let mut at = 0;
        for w in gap.split_whitespace() {
            let offset = gap_start + at + gap[at..].find(w).unwrap_or(0);
            at = offset - gap_start + w.len();
            let number = w.trim_end_matches(['.', '…']);
            if number.len() < w.len() && number.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            before.push_str(w);
            words = Some(words.map_or(offset..offset + w.len(), |s| s.start..offset + w.len()));
        }
        let (reading, only) = self.resync(pos, m, rest, &before)?;
        let (mut note, mut fix) = self.resync_note(pos, m, reading, only, is_main);
        // A lost move whose writing the unread text is, blanks aside
        // (`Nf 6`): that text is the move, and its fix joins it.
        if let (Resync::Lost(mv), Some(span)) = (reading, words.clone())
            && !before.is_empty()
            && strip_check(&self.render(pos, &mv)) == strip_check(&before)
        {
            let written = self.render(pos, &mv);
            let text = self.source.get(span.clone()).unwrap_or_default();
            note = format!("\"{text}\" is {written} broken apart, and the game goes on after it");
            fix = Some(Fix::replace(format!("Write {written}"), span, written).preferred(true));
        } else if let (Resync::Lost(mv), Some(span)) = (reading, words)
            && self
                .syntax_errors
                .iter()
                .any(|e| e.repair.is_none() && e.span.start <= span.start && span.end <= e.span.end)
            && self.render(pos, &mv).chars().next() == before.chars().next()
        {
            // Text the grammar could not read where the lost move stands
            // (`N?6`), all of it one syntax error (no comment, no NAG), and
            // starting as the move does: that text is the move, damaged.
            let written = self.render(pos, &mv);
            let what = if is_main { "game" } else { "variation" };
            if only {
                note = format!("read as {written}, the only move after which the {what} goes on");
                fix = Some(Fix::replace(format!("Write {written}"), span, written).preferred(true));
            } else {
                note = format!("read as {written}, the likeliest of the moves after which the {what} goes on");
            }
        }
        self.annotations.push(Annotation { span: note_span, note, fix });
        self.undecided.clear();
        self.guessed = false;
        self.read_as_guess = false;
        self.guesses += 1;
        match reading {
            // Several readings go on alike: the rest of the line is
            // replayed under each (`beam.rs`), and what only some of them
            // find is no certain finding.
            Resync::Read(_) if !only && self.beam && self.beams < MAX_BEAMS && self.resync_readings.len() > 1 => {
                self.guesses -= 1;
                // The beam says how an illegal move is read on; a token the
                // grammar could not read keeps this note.
                let said = self.diagnostics.iter().any(|d| {
                    matches!(d.code, Code::AmbiguousMove | Code::IllegalMove)
                        && m.span.start <= d.span.start
                        && d.span.end <= m.span.end
                });
                if said {
                    self.annotations.pop();
                }
                self.undecided = std::mem::take(&mut self.resync_readings);
                self.undecided_firm = false;
                Some(Resumed::Beam)
            }
            Resync::Read(mv) => {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                self.played(m, line_id, pos, mv, &next, true);
                let ended = self.note_position(&next, Some(step(pos, m, mv)));
                Some(Resumed::Played { before: pos.clone(), after: next, ended })
            }
            Resync::Noise => Some(Resumed::Noise),
            Resync::Two(first, second) => {
                let mut mid = pos.clone();
                mid.play_unchecked(first);
                self.plies += 1;
                self.note_position(&mid, Some(step(pos, m, first)));
                let mut next = mid.clone();
                next.play_unchecked(second);
                self.played(m, line_id, &mid, second, &next, true);
                let ended = self.note_position(&next, Some(step(&mid, m, second)));
                Some(Resumed::Played { before: mid, after: next, ended })
            }
            Resync::Lost(mv) => {
                // A lost move has no text of its own: it is counted, not
                // traced (no hover or translation belongs to it).
                let mut next = pos.clone();
                next.play_unchecked(mv);
                self.plies += 1;
                let ended = self.note_position(&next, Some(step(pos, m, mv)));
                Some(Resumed::Lost { before: pos.clone(), after: next, ended })
            }
        }
    }
}
