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
    /// The ranges that differ, each in the original and in the fixed text,
    /// in order: between two of them the texts are equal. A diff is made
    /// from them without comparing the texts (which is quadratic).
    pub differ: Vec<(Range<usize>, Range<usize>)>,
}

/// Fixes a text until nothing changes or [`MAX_ROUNDS`] rounds have run.
/// Only the findings `filter` reports are fixed (a code ignored is left as
/// it is written), and those are what remains.
pub(crate) fn fix_text(
    original: &str,
    kind: Kind,
    options: &Options,
    filter: &Filter,
    progress: &dyn Progress,
) -> Fixed {
    let mut text = original.to_owned();
    let mut changes = Vec::new();
    // The edits of each round, sorted, with the length of their new text:
    // how offsets of a later round map back to the original.
    let mut rounds: Vec<Round> = Vec::new();
    let mut differ = Vec::new();
    let mut round = 0;
    loop {
        // The progress counts the first round only: later ones are short.
        let Findings { games, diagnostics } =
            check_text(&text, kind, options, filter, if round == 0 { progress } else { &() });
        let mut chosen = certain_fixes(&diagnostics);
        // An edit never lands in markup (a fix of a move written with a
        // reference, `&#9816;f3`, is left to the author).
        chosen.retain(|(_, fix)| fix.edits.iter().all(|e| !in_markup(kind, &text, &e.span)));
        if chosen.is_empty() || round == MAX_ROUNDS {
            let unfinished = !chosen.is_empty();
            return Fixed { text, changes, games, remaining: diagnostics, unfinished, differ };
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
            return Fixed { text, changes, games, remaining: diagnostics, unfinished: false, differ };
        }
        rounds.push(Round::new(&edits));
        differ = compose(&differ, &edits);
        text = new_text;
        round += 1;
    }
}

/// Whether an edit of `span` would touch the markup of an HTML page or a
/// Typst chapter (whose notation the reader sees through blanked markup
/// and decoded references): its text holds a markup character, or it
/// starts inside a reference (`&#98|16;`).
fn in_markup(kind: Kind, text: &str, span: &Range<usize>) -> bool {
    let markup: &[char] = match kind {
        Kind::Html => &['&', ';', '<', '>'],
        Kind::Typst => &['*', '_', '#', '$', '\\', '`', '<', '>', '@', '~', '[', ']'],
        _ => return false,
    };
    let Some(old) = text.get(span.clone()) else { return true };
    if old.contains(markup) {
        return true;
    }
    kind == Kind::Html && {
        let before = text.as_bytes()[..span.start.min(text.len())].iter().rev();
        let mut name = before.skip_while(|b| b.is_ascii_alphanumeric() || **b == b'#');
        name.next() == Some(&b'&')
    }
}

/// The safe fixes of a round, in text order, no two touching the same
/// text (nor inserting at the same place). The spans taken are kept by
/// their start: those never overlap, so their ends are in order too, and
/// one look at the last span starting before a new one's end tells a
/// clash (a text with a fix in every game is not quadratic).
pub fn certain_fixes(diagnostics: &[Diagnostic]) -> Vec<(&Diagnostic, &Fix)> {
    let mut taken: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    let mut chosen = Vec::new();
    let clashes = |a: &Range<usize>, b: &Range<usize>| a.start == b.start || (a.start < b.end && b.start < a.end);
    let clashes_taken = |taken: &std::collections::BTreeMap<usize, usize>, a: &Range<usize>| {
        taken.contains_key(&a.start)
            || taken.range(..a.end).next_back().is_some_and(|(&start, &end)| clashes(a, &(start..end)))
    };
    for d in diagnostics {
        let Some(fix) = d.certain_fix() else { continue };
        let spans: Vec<&Range<usize>> = fix.edits.iter().map(|e| &e.span).collect();
        let own_clash = spans.iter().enumerate().any(|(i, a)| spans[i + 1..].iter().any(|b| clashes(a, b)));
        if own_clash || spans.iter().any(|a| clashes_taken(&taken, a)) {
            continue;
        }
        taken.extend(spans.into_iter().map(|s| (s.start, s.end)));
        chosen.push((d, fix));
    }
    chosen
}

/// The edits of one round, sorted, as [`map_back`] reads them: where each
/// starts in the text after the round, the length of its new text, where
/// it started before, and the change in length up to and including it.
#[derive(Default)]
struct Round {
    edits: Vec<(usize, usize, usize, isize)>,
}

impl Round {
    fn new(edits: &[TextEdit]) -> Round {
        let mut delta: isize = 0;
        let mut out = Vec::with_capacity(edits.len());
        for e in edits {
            let start_after = e.span.start.saturating_add_signed(delta);
            delta += e.new_text.len() as isize - e.span.len() as isize;
            out.push((start_after, e.new_text.len(), e.span.start, delta));
        }
        Round { edits: out }
    }
}

/// Maps an offset in the text after `rounds` of edits back to the original:
/// into the start of an edit's old text when it falls in its new text,
/// else shifted by the edits before it (found by a binary search, so that
/// many fixes in many rounds stay linear).
fn map_back(mut offset: usize, rounds: &[Round]) -> usize {
    for round in rounds.iter().rev() {
        let before = round.edits.partition_point(|&(start_after, ..)| start_after <= offset);
        offset = match before.checked_sub(1).map(|i| round.edits[i]) {
            None => offset,
            Some((start_after, new_len, start, _)) if offset < start_after + new_len => start,
            Some((.., delta)) => offset.saturating_add_signed(-delta),
        };
    }
    offset
}

/// The ranges that differ between the original and the text after one
/// more round of `edits` (sorted, in the text before it), from those that
/// differed before it (`differ`: each range in the original and in the text
/// before the round). Ranges that overlap or touch are merged; between
/// them both texts are equal, so each offset there maps by the change in
/// length before it. Linear in the ranges and edits.
pub(crate) fn compose(
    differ: &[(Range<usize>, Range<usize>)],
    edits: &[TextEdit],
) -> Vec<(Range<usize>, Range<usize>)> {
    // The edits `apply_edits` applies: it skips one that starts inside the
    // one before.
    let mut applied: Vec<&TextEdit> = Vec::with_capacity(edits.len());
    for e in edits {
        if applied.last().is_none_or(|last| e.span.start >= last.span.end) {
            applied.push(e);
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    // The change in length of the ranges before the current one: from the
    // original to the text before the round, and by the round.
    let (mut before, mut by_round) = (0isize, 0isize);
    loop {
        let x = match (differ.get(i), applied.get(j)) {
            (None, None) => break,
            (Some(d), Some(e)) => d.1.start.min(e.span.start),
            (Some(d), None) => d.1.start,
            (None, Some(e)) => e.span.start,
        };
        let mut y = x;
        let (mut d_len, mut e_len) = (0isize, 0isize);
        loop {
            if let Some(d) = differ.get(i).filter(|d| d.1.start <= y) {
                y = y.max(d.1.end);
                d_len += d.1.len() as isize - d.0.len() as isize;
                i += 1;
            } else if let Some(e) = applied.get(j).filter(|e| e.span.start <= y) {
                y = y.max(e.span.end);
                e_len += e.new_text.len() as isize - e.span.len() as isize;
                j += 1;
            } else {
                break;
            }
        }
        out.push((
            x.saturating_add_signed(-before)..y.saturating_add_signed(-before - d_len),
            x.saturating_add_signed(by_round)..y.saturating_add_signed(by_round + e_len),
        ));
        before += d_len;
        by_round += e_len;
    }
    out
}

/// The edits of every certain fix of an open document that do not overlap
/// (one round of [`fix_text`]): the editors' "fix all".
pub(crate) fn fix_all(doc: &Document) -> Vec<TextEdit> {
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
        let fixed = fix_text(text, Kind::Pgn, &Options::default(), &Filter::default(), &());
        // Between the ranges that differ, the texts are equal.
        let (mut old_at, mut new_at) = (0, 0);
        for (old, new) in &fixed.differ {
            assert_eq!(text[old_at..old.start], fixed.text[new_at..new.start], "{:?}", fixed.differ);
            (old_at, new_at) = (old.end, new.end);
        }
        assert_eq!(text[old_at..], fixed.text[new_at..], "{:?}", fixed.differ);
        fixed
    }

    #[test]
    fn the_ranges_that_differ_compose_over_rounds() {
        let edit = |span: Range<usize>, new: &str| TextEdit { span, new_text: new.into() };
        // Round 1 on "abcdef": "b" -> "XY", insert "Z" at 4; round 2 on
        // "aXYcdZef": "Yc" -> "", "f" -> "W".
        let first = compose(&[], &[edit(1..2, "XY"), edit(4..4, "Z")]);
        assert_eq!(first, [(1..2, 1..3), (4..4, 5..6)]);
        let second = compose(&first, &[edit(2..4, ""), edit(7..8, "W")]);
        assert_eq!(second, [(1..3, 1..2), (4..4, 3..4), (5..6, 5..6)]);
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
        let edit = |span: Range<usize>, new: &str| TextEdit { span, new_text: new.into() };
        let rounds = [Round::new(&[edit(2..4, "x"), edit(6..6, "yz")])];
        assert_eq!(map_back(0, &rounds), 0);
        assert_eq!(map_back(2, &rounds), 2);
        assert_eq!(map_back(3, &rounds), 4);
        assert_eq!(map_back(5, &rounds), 6);
        assert_eq!(map_back(6, &rounds), 6);
        assert_eq!(map_back(7, &rounds), 6);
        assert_eq!(map_back(8, &rounds), 7);
        // A deletion.
        assert_eq!(map_back(3, &[Round::new(&[edit(3..5, "")])]), 5);
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

    #[test]
    fn a_fix_in_every_game_is_chosen_in_linear_time() {
        // 100,000 fixes, each followed by one that clashes with it. Before,
        // each was compared with every span taken: 5 billion comparisons.
        let d = |span: Range<usize>| {
            Diagnostic::new(Code::Homoglyph, span.clone(), "x")
                .with_fix(Fix::replace("Write x", span, "x").preferred(true))
        };
        let diagnostics: Vec<Diagnostic> =
            (0..100_000).flat_map(|i| [d(4 * i..4 * i + 2), d(4 * i + 1..4 * i + 3)]).collect();
        let chosen = certain_fixes(&diagnostics);
        assert_eq!(chosen.len(), 100_000);
        assert!(chosen.iter().enumerate().all(|(i, (d, _))| d.span.start == 4 * i));
    }
}
