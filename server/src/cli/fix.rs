//! `chess-ls --check --fix`: applies every safe fix in place, re-checks,
//! and reports what changed and what is left; `--diff` shows the changes as
//! a unified diff instead of writing them.
//!
//! A fix is safe when it has one certain outcome: the one fix the analysis
//! prefers for an error or a warning (a look-alike letter, a wrong check or
//! capture mark, a move number, a result, a disambiguation that the rest of
//! the game decides, ...). Not safe, and left for a person: the reading of
//! an illegal move and the piece of a promotion that names none (both are
//! guesses), and hints (style, not mistakes).
//!
//! Fixing may make more of a game checkable (a line that stopped at a bad
//! move replays on), so the file is checked again and fixed again, until
//! nothing changes or [`MAX_ROUNDS`] rounds have run. Two fixes whose edits
//! overlap are never applied in the same round; the second is found again
//! in the next round if it still applies.

use std::ops::Range;

use rayon::prelude::*;
use similar::TextDiff;

use super::Session;
use super::check::{Checked, analyse};
use super::output::{Printer, Summary, plural};
use super::progress::Progress;
use super::write::write_back;
use crate::analysis::rewrite::apply_edits;
use crate::analysis::{Code, Diagnostic, Fix, Options, Severity, TextEdit};
use crate::line_index::{LineIndex, Unit};
use crate::syntax::manuscript::Format as ManuscriptFormat;

/// Fix, re-check, fix again: at most this many rounds.
pub const MAX_ROUNDS: usize = 5;

/// Whether `--fix` applies a fix of this diagnostic: see the module docs.
pub fn is_safe(d: &Diagnostic) -> bool {
    safe_fix(d).is_some()
}

/// The fix `--fix` applies for this diagnostic, if any.
pub fn safe_fix(d: &Diagnostic) -> Option<&Fix> {
    if d.severity > Severity::Warning
        || matches!(d.code, Code::IllegalMove | Code::MissingPromotion | Code::Syntax | Code::InvalidPosition)
    {
        return None;
    }
    let mut preferred = d.fixes.iter().filter(|f| f.preferred && !f.edits.is_empty());
    let fix = preferred.next()?;
    // Two preferred fixes would be a choice, not a certainty.
    if preferred.next().is_some() {
        return None;
    }
    Some(fix)
}

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
pub fn fix_text(original: &str, manuscript: Option<ManuscriptFormat>, options: &Options, progress: &Progress) -> Fixed {
    let mut text = original.to_owned();
    let mut changes = Vec::new();
    // The edits of each round, sorted, with the length of their new text:
    // how offsets of a later round map back to the original.
    let mut rounds: Vec<Vec<(Range<usize>, usize)>> = Vec::new();
    let quiet = Progress::none();
    let mut round = 0;
    loop {
        // The progress counts the first round only: later ones are short.
        let (games, diagnostics) = analyse(&text, manuscript, options, if round == 0 { progress } else { &quiet });
        let chosen = choose(&diagnostics);
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
fn choose(diagnostics: &[Diagnostic]) -> Vec<(&Diagnostic, &Fix)> {
    let mut taken: Vec<Range<usize>> = Vec::new();
    let mut chosen = Vec::new();
    for d in diagnostics {
        let Some(fix) = safe_fix(d) else { continue };
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

/// One file after `--fix`.
struct FileFix {
    /// The fixed text and what is left in it.
    checked: Checked,
    /// Each change with its 1-based line and column in the original.
    changes: Vec<(Change, usize, usize)>,
    unfinished: bool,
    diff: Option<String>,
    failure: Option<String>,
}

/// Runs `--fix` (or `--fix --diff`); returns the exit status.
pub fn run(session: &Session, diff: bool) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    let files: Vec<FileFix> = sources
        .into_par_iter()
        .map(|mut source| {
            let fixed = fix_text(&source.text, source.manuscript, &session.options, &progress);
            progress.file_done();
            let index = LineIndex::new(&source.text);
            let changes = fixed
                .changes
                .into_iter()
                .map(|c| {
                    let (line, column) = index.position(&source.text, c.span.start, Unit::Char);
                    (c, line + 1, column + 1)
                })
                .collect();
            let changed = fixed.text != source.text;
            let mut failure = None;
            let mut patch = None;
            if changed && diff {
                patch = Some(unified_diff(&source.name, &source.text, &fixed.text));
            } else if changed {
                failure = write_back(&source, &fixed.text).err().map(|e| e.to_string());
            }
            if failure.is_none() {
                source.text = fixed.text;
            }
            // A file that could not be written is reported as it is on disk.
            let (games, diagnostics) = if failure.is_none() {
                (fixed.games, fixed.remaining)
            } else {
                analyse(&source.text, source.manuscript, &session.options, &Progress::none())
            };
            FileFix {
                checked: Checked { source, games, diagnostics },
                changes,
                unfinished: fixed.unfinished,
                diff: patch,
                failure,
            }
        })
        .collect();
    progress.finish();

    let mut printer = Printer::new(session.format);
    let mut summary = Summary { failure_note: Some("could not be read or written"), ..Summary::default() };
    let (mut fixed_problems, mut fixed_files) = (0, 0);
    let verb = if diff { "would fix" } else { "fixed" };
    for file in &files {
        summary.add(&file.checked);
        if let Some(failure) = &file.failure {
            failures.push(failure.clone());
            continue;
        }
        if !file.changes.is_empty() {
            fixed_files += 1;
            fixed_problems += file.changes.len();
        }
        if let Some(patch) = &file.diff {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(patch.as_bytes()).and_then(|()| out.flush()) {
                return super::output::output_failed(&e);
            }
            continue;
        }
        if diff {
            continue;
        }
        for (change, line, column) in &file.changes {
            printer.note(&format!(
                "{}:{line}:{column}: {verb} [{}] {}",
                file.checked.source.name,
                change.code,
                describe(change)
            ));
        }
        if file.unfinished {
            printer.note(&format!(
                "{}: fixes were still being found after {MAX_ROUNDS} rounds; run --fix again",
                file.checked.source.name
            ));
        }
        if let Err(e) = printer.file(&file.checked) {
            return super::output::output_failed(&e);
        }
    }
    failures.sort();
    summary.failures = failures.len();
    summary.elapsed = session.started.elapsed();
    let line =
        format!("{verb} {} in {}; {}", plural(fixed_problems, "problem"), plural(fixed_files, "file"), summary.line());
    if diff {
        // stdout holds the diff alone.
        for failure in &failures {
            eprintln!("error: {failure}");
        }
        eprintln!("{line}");
        summary.exit_status()
    } else {
        printer.finish(&failures, &line, summary.exit_status())
    }
}

/// `` `е` → `e` ``, `inserted `+``, `removed `x``.
fn describe(change: &Change) -> String {
    match (change.old.is_empty(), change.new.is_empty()) {
        (true, false) => format!("inserted `{}`", change.new),
        (false, true) if change.title.starts_with("Remove") => format!("removed `{}`", change.old),
        (false, _) if !change.new.is_empty() => format!("`{}` → `{}`", change.old, change.new),
        _ => change.title.clone(),
    }
}

/// A unified diff of a file's text before and after (in UTF-8, whatever the
/// file's encoding), with the file's name on both sides.
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(name, name).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str) -> Fixed {
        fix_text(text, None, &Options::default(), &Progress::none())
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
        assert!(fixed.remaining.iter().all(|d| !is_safe(d)), "{:?}", fixed.remaining);
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
        let chosen: Vec<Range<usize>> = choose(&diagnostics).iter().map(|(d, _)| d.span.clone()).collect();
        assert_eq!(chosen, [0..2, 3..3, 5..6]);
    }
}
