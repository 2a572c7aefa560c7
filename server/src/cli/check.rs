//! `chess-ls --check`: reads the files, checks them on every core (rayon:
//! files, and sections of big files, in parallel, by `ide::check`), and
//! prints the findings in file order.

use rayon::prelude::*;

use super::Session;
use super::output::{Printer, Summary};
use super::progress::Progress;
use super::sources::Source;
use crate::analysis::{Diagnostic, Options, Severity};
use crate::ide::check::check_text;
use crate::ide::document::Kind;
use crate::syntax::manuscript::Format as ManuscriptFormat;

/// A file's findings.
pub struct Checked {
    pub source: Source,
    pub games: usize,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// A file's findings, with its bytes that were not valid in its
    /// encoding reported among them.
    pub fn new(source: Source, games: usize, mut diagnostics: Vec<Diagnostic>) -> Checked {
        let invalid = source.invalid.iter().map(|b| (b.offset, b.byte));
        crate::ide::intake::report_invalid_bytes(invalid, source.encoding.name(), &mut diagnostics);
        Checked { source, games, diagnostics }
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

/// Runs `--check`; returns the exit status (0 no error, 1 errors, 2 the run
/// failed).
pub fn run(session: &Session) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    // A panic while checking one file (a bug) costs that file's findings,
    // not every other file's: it is a failure of that file (exit 2).
    let results: Vec<Result<Checked, String>> = sources
        .into_par_iter()
        .map(|source| {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                test_panic(&source.name);
                analyse(&source.text, source.manuscript, &session.options, &progress)
            }));
            progress.file_done();
            match found {
                Ok((games, diagnostics)) => Ok(Checked::new(source, games, diagnostics)),
                Err(_) => Err(format!(
                    "an internal error stopped the check of {}; its findings are missing (please report it)",
                    source.name
                )),
            }
        })
        .collect();
    progress.finish();
    let mut checked = Vec::with_capacity(results.len());
    for result in results {
        match result {
            Ok(file) => checked.push(file),
            Err(failure) => failures.push(failure),
        }
    }

    let mut printer = Printer::new(session.format);
    let mut summary = Summary::default();
    for file in &checked {
        summary.add(file);
        if let Err(e) = printer.file(file) {
            // A full disk, or stdout closed (e.g. piped into `head`).
            return super::output::output_failed(&e);
        }
    }
    failures.sort();
    summary.failures = failures.len();
    summary.elapsed = session.started.elapsed();
    printer.finish(&failures, &summary.line(), summary.exit_status())
}

/// Test hook: `CHESS_LS_TEST_PANIC_ON=NAME` makes the check of a file whose
/// name ends with NAME panic, for the test that one file's failure keeps
/// the others' reports. Only that test sets it.
fn test_panic(name: &str) {
    static ON: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if let Some(suffix) = ON.get_or_init(|| std::env::var("CHESS_LS_TEST_PANIC_ON").ok())
        && name.ends_with(suffix.as_str())
    {
        panic!("CHESS_LS_TEST_PANIC_ON: a test asked for a panic while checking {name}");
    }
}

/// The games and diagnostics of a file's text (`ide::check`).
pub fn analyse(
    text: &str,
    manuscript: Option<ManuscriptFormat>,
    options: &Options,
    progress: &Progress,
) -> (usize, Vec<Diagnostic>) {
    let found = check_text(text, Kind::from_manuscript(manuscript), options, progress);
    (found.games, found.diagnostics)
}
