//! The Laws of Chess in the replay: each position of a line is recorded
//! (`laws::Positions`), a draw that could be claimed is noted
//! (`draw-claim`), and a move written after the game ended by rule is
//! reported (`game-over`) and ends the line's replay.

use super::*;

impl MoveAt {
    /// The written move `m`, played in `before`.
    pub(super) fn of(before: &Chess, m: &WrittenMove<'_>) -> MoveAt {
        MoveAt { span: m.span.clone(), fullmove: before.fullmoves().get(), mover: before.turn() }
    }
}

/// The step of `played`, written as `m`, from `before`.
pub(super) fn step<'p>(before: &'p Chess, m: &WrittenMove<'_>, played: Move) -> Step<'p> {
    Step { at: MoveAt::of(before, m), before, played }
}

impl Replayer<'_, '_> {
    /// Records `pos`, reached by `step` from the latest recorded position
    /// (`None` at a line's start or after a null move), notes a draw that
    /// could be claimed there, and returns the end it makes by rule, if any.
    pub(super) fn note_position(&mut self, pos: &Chess, step: Option<Step<'_>>) -> Option<Ending> {
        let noted = self.positions.record(pos, step);
        let claim = noted.pushed && (noted.threefold || noted.fifty);
        if let Some(at) = self.positions.latest().filter(|_| claim).cloned() {
            if noted.threefold {
                let earlier = self.positions.earlier(self.source);
                let side = explain::color_name(pos.turn());
                let mut d = Diagnostic::new(
                    Code::DrawClaim,
                    at.span.clone(),
                    format!(
                        "a draw by threefold repetition could be claimed here (Article 9.2): after {} the same position, \
                         {side} to move, stands for the third time (after {} before)",
                        at.label(self.source),
                        join_or(&earlier, "and")
                    ),
                );
                d.severity = Severity::Info;
                self.diagnostics.push(d);
            }
            if noted.fifty {
                let mut d = Diagnostic::new(
                    Code::DrawClaim,
                    at.span.clone(),
                    format!(
                        "a draw by the fifty-move rule could be claimed here (Article 9.3): with {} each player has made \
                         50 moves without a capture or a pawn move",
                        at.label(self.source)
                    ),
                );
                d.severity = Severity::Info;
                self.diagnostics.push(d);
            }
        }
        if noted.pushed
            && let Some(trace) = &mut self.trace
            && let Some(last) = trace.moves.last_mut()
        {
            let standing = Standing {
                halfmoves: pos.halfmoves(),
                occurrences: noted.occurrences,
                earlier: if noted.occurrences >= 2 { self.positions.earlier(self.source) } else { Vec::new() },
                ending: noted.ending,
            };
            if standing.is_notable() {
                last.standing = Some(Box::new(standing));
            }
        }
        noted.ending
    }

    /// Reports `m`, written after the game ended by `ending` at the latest
    /// recorded position: the rule, the move that ended it and the result;
    /// `rest` (the items after `m`) is not replayed either.
    pub(super) fn game_over(&mut self, m: &WrittenMove<'_>, rest: &[Item<'_>], is_main: bool, ending: Ending) {
        let after = self.positions.latest().map(|at| at.label(self.source));
        let when = after.map_or_else(|| "where the line starts".to_owned(), |label| format!("after {label}"));
        let repeated = if ending == Ending::FivefoldRepetition {
            format!(" (it stood after {} before)", join_or(&self.positions.earlier(self.source), "and"))
        } else {
            String::new()
        };
        let others = rest.iter().filter(|i| matches!(i, Item::Move(_))).count();
        let what = if is_main { "game" } else { "variation" };
        let moves = match others {
            0 => "this move is".to_owned(),
            1 => "this move and the one after it are".to_owned(),
            n => format!("this move and the {n} after it are"),
        };
        self.diagnostics.push(Diagnostic::new(
            Code::GameOver,
            core_span(m),
            format!(
                "the game was already over {when}: {}{repeated} (Article {}), so the result is {}; {moves} not part of the {what}",
                ending.describe(),
                ending.article(),
                ending.result()
            ),
        ));
    }

    /// When `p` has no legal move, `m` was written after a checkmate or a
    /// stalemate: what the reading of `m` found is dropped and `m` is
    /// reported as `game-over`. Returns whether it was.
    pub(super) fn over_without_moves(
        &mut self,
        p: &Chess,
        m: &WrittenMove<'_>,
        rest: &[Item<'_>],
        is_main: bool,
    ) -> bool {
        let Some(ending) = Ending::without_moves(p) else { return false };
        self.diagnostics.retain(|d| !(m.span.start <= d.span.start && d.span.start < m.span.end));
        self.undecided.clear();
        self.game_over(m, rest, is_main, ending);
        self.stop_at(m);
        true
    }
}
