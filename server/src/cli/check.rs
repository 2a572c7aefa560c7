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
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

/// Runs `--check`; returns the exit status (0 no error, 1 errors, 2 the run
/// failed).
pub fn run(session: &Session) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    let checked: Vec<Checked> = sources
        .into_par_iter()
        .map(|source| {
            let (games, diagnostics) = analyse(&source.text, source.manuscript, &session.options, &progress);
            progress.file_done();
            Checked { source, games, diagnostics }
        })
        .collect();
    progress.finish();

    let mut printer = Printer::new(session.format);
    let mut summary = Summary::default();
    for file in &checked {
        summary.add(file);
        if printer.file(file).is_err() {
            // stdout closed (e.g. piped into `head`): nothing more to say.
            return i32::from(summary.errors > 0);
        }
    }
    failures.sort();
    summary.failures = failures.len();
    summary.elapsed = session.started.elapsed();
    printer.finish(&failures, &summary.line());
    summary.exit_status()
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
