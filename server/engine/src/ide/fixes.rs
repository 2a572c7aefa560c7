//! The fix policy at work: applying every certain fix of a text, round
//! after round, and the certain fixes of an open document ("fix all").
//!
//! Which fix is certain is decided in the analysis, once, for every front
//! end (`Diagnostic::settle`: the one preferred fix of an error or a
//! warning, never the reading of an illegal move or the piece of a
//! promotion that names none, never a hint). `--fix` and the editors'
//! "fix all" pick the same fixes here ([`certain_fixes`]), so fixing in an
//! editor and then with `--fix` ends where `--fix` alone ends.
//!
//! Fixing may make more of a game checkable (a line that stopped at a bad
//! move replays on), so a text is checked again and fixed again, until
//! nothing changes or [`MAX_ROUNDS`] rounds have run. Two fixes whose edits
//! overlap are never applied in the same round; the second is found again
//! in the next round if it still applies.

use std::ops::Range;

use super::check::{Findings, Progress, check_text};
use super::document::{Document, Kind};
use super::settings::Filter;
use crate::analysis::rewrite::apply_edits;
use crate::analysis::{Code, Diagnostic, Fix, Options, TextEdit};

/// Fix, re-check, fix again: at most this many rounds.
pub const MAX_ROUNDS: usize = 5;

/// A change `--fix` made, where it is in the original text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub code: Code,
    pub title: String,
    /// Byte range in the original text.
    pub span: Range<usize>,
    /// The text replaced and the text written (for a fix of one edit).
    pub old: String,
    pub new: String,
}

/// A text after fixing.
pub struct Fixed {
    pub text: String,
    pub changes: Vec<Change>,
    pub games: usize,
    /// What is left, with spans in the fixed text.
    pub remaining: Vec<Diagnostic>,
    /// The last round still found something to fix.
    pub unfinished: bool,
}

/// Fixes a text until nothing changes or [`MAX_ROUNDS`] rounds have run.
/// Only the findings `filter` reports are fixed (a code ignored is left as
/// it is written), and those are what remains.
pub fn fix_text(original: &str, kind: Kind, options: &Options, filter: &Filter, progress: &dyn Progress) -> Fixed {
    let mut text = original.to_owned();
    let mut changes = Vec::new();
    // The edits of each round, sorted, with the length of their new text:
    // how offsets of a later round map back to the original.
    let mut rounds: Vec<Vec<(Range<usize>, usize)>> = Vec::new();
    let mut round = 0;
    loop {
        // The progress counts the first round only: later ones are short.
        let Findings { games, diagnostics } =
            check_text(&text, kind, options, filter, if round == 0 { progress } else { &() });
        let chosen = certain_fixes(&diagnostics);
        if chosen.is_empty() || round == MAX_ROUNDS {
            let unfinished = !chosen.is_empty();
            return Fixed { text, changes, games, remaining: diagnostics, unfinished };
        }
        let mut edits: Vec<TextEdit> = Vec::new();
        for (d, fix) in &chosen {
            let start = fix.edits.iter().map(|e| e.span.start).min().unwrap_or(d.span.start);
            let end = fix.edits.iter().map(|e| e.span.end).max().unwrap_or(d.span.end);
            let (old, new) = match &fix.edits[..] {
                [one] => (text[one.span.clone()].to_owned(), one.new_text.clone()),
                _ => (text[start..end].to_owned(), String::new()),
            };
            changes.push(Change {
                code: d.code,
                title: fix.title.clone(),
                span: map_back(start, &rounds)..map_back(end, &rounds),
                old,
                new,
            });
            edits.extend(fix.edits.iter().cloned());
        }
        edits.sort_by_key(|e| e.span.start);
        let new_text = apply_edits(&text, &edits);
        if new_text == text {
            return Fixed { text, changes, games, remaining: diagnostics, unfinished: false };
        }
        rounds.push(edits.iter().map(|e| (e.span.clone(), e.new_text.len())).collect());
        text = new_text;
        round += 1;
    }
}

/// The safe fixes of a round, in text order, no two touching the same
/// text (nor inserting at the same place).
pub fn certain_fixes(diagnostics: &[Diagnostic]) -> Vec<(&Diagnostic, &Fix)> {
    let mut taken: Vec<Range<usize>> = Vec::new();
    let mut chosen = Vec::new();
    for d in diagnostics {
        let Some(fix) = d.certain_fix() else { continue };
        let clashes = |a: &Range<usize>, b: &Range<usize>| a.start == b.start || (a.start < b.end && b.start < a.end);
        let spans: Vec<&Range<usize>> = fix.edits.iter().map(|e| &e.span).collect();
        let own_clash = spans.iter().enumerate().any(|(i, a)| spans[i + 1..].iter().any(|b| clashes(a, b)));
        if own_clash || spans.iter().any(|a| taken.iter().any(|b| clashes(a, b))) {
            continue;
        }
        taken.extend(spans.into_iter().cloned());
        chosen.push((d, fix));
    }
    chosen
}

/// Maps an offset in the text after `rounds` of edits back to the original.
fn map_back(mut offset: usize, rounds: &[Vec<(Range<usize>, usize)>]) -> usize {
    for edits in rounds.iter().rev() {
        let mut delta: isize = 0;
        let mut mapped = None;
        for (span, new_len) in edits {
            let start_after = span.start.saturating_add_signed(delta);
            if offset < start_after {
                break;
            }
            if offset < start_after + new_len {
                mapped = Some(span.start);
                break;
            }
            delta += *new_len as isize - span.len() as isize;
        }
        offset = mapped.unwrap_or_else(|| offset.saturating_add_signed(-delta));
    }
    offset
}

/// The edits of every certain fix of an open document that do not overlap
/// (one round of [`fix_text`]): the editors' "fix all".
pub fn fix_all(doc: &Document) -> Vec<TextEdit> {
    let diagnostics: Vec<Diagnostic> = doc.diagnostics().collect();
    let mut edits: Vec<TextEdit> =
        certain_fixes(&diagnostics).into_iter().flat_map(|(_, fix)| fix.edits.iter().cloned()).collect();
    edits.sort_by_key(|e| e.span.start);
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str) -> Fixed {
        fix_text(text, Kind::Pgn, &Options::default(), &Filter::default(), &())
    }

    #[test]
    fn fixes_lookalikes_marks_and_numbers_and_reports_them_in_the_original() {
        // Cyrillic `е` in a square, a wrong check mark, a wrong move number.
        let text = "1. е4 e5 2. Кf3+ Кc6 4. Сb5 a6 *\n";
        let fixed = fix(text);
        assert_eq!(fixed.text, "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 *\n");
        let codes: Vec<Code> = fixed.changes.iter().map(|c| c.code).collect();
        assert_eq!(codes, [Code::Homoglyph, Code::CheckMark, Code::MoveNumber]);
        for change in &fixed.changes {
            assert_eq!(text[change.span.clone()], change.old, "{change:?}");
        }
        assert!(fixed.remaining.iter().all(|d| d.certain_fix().is_none()), "{:?}", fixed.remaining);
        assert!(!fixed.unfinished);
    }

    #[test]
    fn an_ambiguous_move_that_the_game_decides_is_fixed_an_illegal_one_is_not() {
        let text = "1. Кf3 Кf6 2. d4 d5 3. Кbd2 Кbd7 4. e4 dxe4 5. Кd2xe4 *\n\n1. e4 e5 2. Крe3 *\n";
        let fixed = fix(text);
        assert!(fixed.changes.iter().all(|c| c.code != Code::IllegalMove));
        let left: Vec<Code> = fixed.remaining.iter().map(|d| d.code).collect();
        assert!(left.contains(&Code::IllegalMove), "{left:?}");
        // Fixing again changes nothing.
        assert_eq!(fix(&fixed.text).text, fixed.text);
    }

    #[test]
    fn offsets_map_back_through_rounds() {
        // Round 1 replaced 2..4 by one byte and inserted two at 6.
        let rounds = vec![vec![(2..4, 1), (6..6, 2)]];
        assert_eq!(map_back(0, &rounds), 0);
        assert_eq!(map_back(2, &rounds), 2);
        assert_eq!(map_back(3, &rounds), 4);
        assert_eq!(map_back(5, &rounds), 6);
        assert_eq!(map_back(6, &rounds), 6);
        assert_eq!(map_back(7, &rounds), 6);
        assert_eq!(map_back(8, &rounds), 7);
        // A deletion.
        assert_eq!(map_back(3, &[vec![(3..5, 0)]]), 5);
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let d = |span: Range<usize>| {
            Diagnostic::new(Code::Homoglyph, span.clone(), "x")
                .with_fix(Fix::replace("Write x", span, "x").preferred(true))
        };
        let diagnostics = [d(0..2), d(1..3), d(3..3), d(3..4), d(5..6)];
        let chosen: Vec<Range<usize>> = certain_fixes(&diagnostics).iter().map(|(d, _)| d.span.clone()).collect();
        assert_eq!(chosen, [0..2, 3..3, 5..6]);
    }
}
