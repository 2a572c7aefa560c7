//! `chess-ls --check --fix`: applies every certain fix in place
//! (`ide::fixes`, by the one fix policy of `Diagnostic::settle`), and
//! reports what changed and what is left; `--diff` shows the changes as a
//! unified diff instead of writing them.

use rayon::prelude::*;

use super::Session;
use super::check::{Checked, analyse, internal_error, test_panic};
use super::output::{Printer, Summary, plural};
use super::progress::Progress;
use super::write::write_back;
use chess_ls_engine::ide::document::Kind;
use chess_ls_engine::ide::fixes::{Change, MAX_ROUNDS};
use chess_ls_engine::ide::line_index::{LineIndex, Unit};

/// One file after `--fix`.
struct FileFix {
    /// The fixed text and what is left in it.
    checked: Checked,
    /// Each change with its 1-based line and column in the original.
    changes: Vec<(Change, usize, usize)>,
    unfinished: bool,
    diff: Option<Vec<u8>>,
    failure: Option<String>,
}

/// Runs `--fix` (or `--fix --diff`); returns the exit status.
pub fn run(session: &Session, diff: bool) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    let files: Vec<Result<FileFix, String>> = sources
        .into_par_iter()
        .map(|source| {
            // A panic anywhere in one file's fix (a bug) is a failure of
            // that file (exit 2); the others are fixed and reported. Nothing
            // is written before the fix is done, and the writer undoes its
            // own steps after a panic (`write_back`), so the file is left
            // as it was unless its new text took its place.
            let name = source.name.clone();
            let wrote = std::cell::Cell::new(false);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fix_one(source, diff, &progress, &wrote)))
                .unwrap_or_else(|_| {
                    Err(if wrote.get() {
                        format!("an internal error stopped the fix of {name} after it was written (please report it)")
                    } else {
                        internal_error("fix", &name)
                    })
                })
        })
        .collect();
    let files: Vec<FileFix> =
        files.into_iter().filter_map(|file| file.map_err(|failure| failures.push(failure)).ok()).collect();
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
            if let Err(e) = out.write_all(patch).and_then(|()| out.flush()) {
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
            super::output::say(&format!("error: {failure}"));
        }
        super::output::say(&line);
        summary.exit_status()
    } else {
        printer.finish(&failures, &line, summary.exit_status())
    }
}

/// Fixes one file (writes it back, or makes its diff).
fn fix_one(
    mut source: super::sources::Source,
    diff: bool,
    progress: &Progress,
    wrote: &std::cell::Cell<bool>,
) -> Result<FileFix, String> {
    let kind = Kind::from_manuscript(source.manuscript);
    let fixed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        test_panic(&source.name);
        source.effective.batch().fix(&source.text, kind, progress)
    }));
    progress.file_done();
    let Ok(fixed) = fixed else { return Err(internal_error("fix", &source.name)) };
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
        // Made from the ranges the fixes changed: linear, where comparing
        // the texts took minutes on a few megabytes of many fixes.
        let diff = super::patch::unified_diff(&source.name, &source.text, &fixed.text, &fixed.differ);
        patch = Some(in_encoding(&source, diff));
    } else if changed {
        failure = write_back(&source, &fixed.text).err().map(|e| e.to_string());
        wrote.set(failure.is_none());
    }
    if failure.is_none() {
        source.text = fixed.text;
    }
    // A file that could not be written is reported as it is on disk.
    let (games, diagnostics) = if failure.is_none() {
        (fixed.games, fixed.remaining)
    } else {
        analyse(&source.text, source.manuscript, &source.effective, &Progress::none())
    };
    Ok(FileFix {
        checked: Checked::new(source, games, diagnostics, false),
        changes,
        unfinished: fixed.unfinished,
        diff: patch,
        failure,
    })
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

/// A unified diff of a file's text before and after, in the file's own
/// 8-bit encoding (so that `patch` applies it to the file as it is); in
/// UTF-8, with a note on stderr, for a UTF-16 file or one whose name the
/// encoding cannot hold. Made from the ranges that differ (`differ`, as
/// the rewrite reports them): linear in the text.
pub fn diff_in_encoding(
    source: &super::sources::Source,
    new: &str,
    differ: &[(std::ops::Range<usize>, std::ops::Range<usize>)],
) -> Vec<u8> {
    in_encoding(source, super::patch::unified_diff(&source.name, &source.text, new, differ))
}

/// A diff of a file in the file's own encoding where it can be (see
/// [`diff_in_encoding`]).
fn in_encoding(source: &super::sources::Source, diff: String) -> Vec<u8> {
    use super::encoding::Encoding;
    if matches!(source.encoding, Encoding::Utf8) {
        return diff.into_bytes();
    }
    if !matches!(source.encoding, Encoding::Utf16Le | Encoding::Utf16Be)
        && let Ok(bytes) = super::encoding::encode(&diff, source.encoding, false)
    {
        return bytes;
    }
    super::output::say(&format!(
        "note: the diff of {} is shown in UTF-8, not in the file's {}",
        source.name,
        source.encoding.name()
    ));
    diff.into_bytes()
}
