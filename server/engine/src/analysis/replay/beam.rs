//! Going on past an undecided move: an ambiguous `Nd2` whose two knights
//! both fit the moves after it, or an illegal move with two readings that
//! the rest bears out equally well. The rest of the line is replayed under
//! each reading; the replay goes on under the one that reads best (fewest
//! findings, then the furthest, then the first). What is wrong under every
//! reading is reported as usual when the readings surely hold the
//! intended move (an ambiguous move's); a finding that some other reading does not share,
//! or any finding after readings that may all be wrong, becomes an
//! `unchecked` note that says which reading it assumes. So one undecided move never leaves the rest of a game
//! unchecked, and never makes a false error of a later move.

use super::*;

impl Replayer<'_, '_> {
    /// Replays `rest`, the line after `m` (played at `pos`), under the
    /// readings in [`Replayer::undecided`]; returns the position at its end
    /// under the chosen one.
    pub(super) fn beam(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        rest: &Line<'_>,
        is_main: bool,
        line_id: usize,
    ) -> Option<Chess> {
        self.beams += 1;
        let readings = std::mem::take(&mut self.undecided);
        let firm = std::mem::take(&mut self.undecided_firm);
        // The rest under each reading, in a replay of its own that does not
        // carry further undecided moves forward (the work stays linear).
        let fork = |mv: Move, quick: bool| {
            let mut fork = Replayer::new(self.source, self.options, self.language, self.syntax_errors);
            fork.style = self.style;
            fork.mixing = self.mixing;
            fork.transliterated = self.transliterated;
            fork.capture_written = self.capture_written;
            fork.beam = false;
            fork.quick = quick;
            // The forks share the replay's budget of going on past
            // unreadable tokens.
            fork.resyncs = if self.deciding { resync::MAX_RESYNCS } else { self.resyncs };
            let mut next = pos.clone();
            next.play_unchecked(mv);
            // The fork's repetitions count the positions of the line so far.
            fork.positions = self.positions.clone();
            fork.positions.record(&next, Some(step(pos, m, mv)));
            fork.replay_line_after(rest, next, is_main, Some(pos.clone()));
            (fork.diagnostics, fork.plies, fork.stopped)
        };
        let forks: Vec<(Vec<Diagnostic>, usize)> =
            readings.iter().map(|&mv| fork(mv, false)).map(|(ds, plies, _)| (ds, plies)).collect();
        // When the readings may all be wrong (an illegal move's), the rest
        // is replayed after every legal move here as well: a finding that
        // every one of them shares is wrong whatever was meant.
        let others: Vec<(Vec<Diagnostic>, Option<usize>)> = if firm || self.deciding {
            Vec::new()
        } else {
            pos.legal_moves()
                .into_iter()
                .filter(|mv| !readings.contains(mv))
                .map(|mv| fork(mv, true))
                .map(|(ds, _, stopped)| (ds, stopped))
                .collect()
        };
        let findings =
            |ds: &[Diagnostic]| ds.iter().filter(|d| matches!(d.severity, Severity::Error | Severity::Warning)).count();
        let best =
            (0..forks.len()).min_by_key(|&i| (findings(&forks[i].0), std::cmp::Reverse(forks[i].1), i)).unwrap_or(0);
        let chosen = readings[best];
        let written = m.text(self.source).to_owned();
        let reading = self.render(pos, &chosen);
        let names: Vec<String> = readings.iter().map(|mv| self.render(pos, mv)).collect();
        let what = if is_main { "game" } else { "variation" };
        if let Some(d) = self.diagnostics.iter_mut().rev().find(|d| {
            matches!(d.code, Code::AmbiguousMove | Code::IllegalMove)
                && m.span.start <= d.span.start
                && d.span.end <= m.span.end
        }) {
            if names.len() == 1 {
                d.message.push_str(&format!(
                    "; read on as {reading}, the likeliest reading, though the moves after it do not bear it out: \
                     the rest of the {what} is checked for what is wrong whatever was meant here"
                ));
            } else {
                d.message.push_str(&format!(
                    "; {} fit the moves after it alike, so the rest of the {what} is checked under each, \
                     and read on as {reading}",
                    join_or(&names, "and")
                ));
            }
        }
        let mut next = pos.clone();
        next.play_unchecked(chosen);
        self.guesses += 1;
        self.played(m, line_id, pos, chosen, &next, true);
        self.note_position(&next, Some(step(pos, m, chosen)));
        let mark = self.diagnostics.len();
        // The rest goes on in the same traced line: after the undecided
        // move, a main line's moves are still its own (a manuscript's next
        // run goes on from its end).
        let end = self.replay_rest(rest, next, is_main, Some(pos.clone()), line_id);
        // What is wrong under every reading is reported as it is; what only
        // the chosen reading finds is no certain finding: a note says what
        // it depends on, without a fix.
        let same = |a: &Diagnostic, b: &Diagnostic| a.code == b.code && a.span == b.span;
        // A replay after another move that stopped at a move it could not
        // play, before `d`, says nothing about `d`: it never got there
        // (`2...Фc6 3.Лc4 ... Лc5`: after every other Black move the rook
        // move at 3 stops it, and what is wrong at `Лc5` is wrong under
        // every reading that gets there).
        let stopped_before = |stopped: &Option<usize>, d: &Diagnostic| stopped.is_some_and(|at| at < d.span.start);
        for d in &mut self.diagnostics[mark..] {
            let everywhere = forks.iter().enumerate().all(|(i, (ds, _))| i == best || ds.iter().any(|o| same(o, d)));
            let whatever = everywhere
                && others.iter().all(|(ds, stopped)| stopped_before(stopped, d) || ds.iter().any(|o| same(o, d)));
            let certain = everywhere && (firm || whatever);
            if !certain && !matches!(d.severity, Severity::Info) {
                d.message = format!(
                    "not checked for certain, since it depends on how {written} is read: if it is {reading}, {}",
                    d.message
                );
                d.code = Code::Unchecked;
                d.severity = Severity::Info;
                d.fixes.clear();
            }
        }
        end
    }
}
