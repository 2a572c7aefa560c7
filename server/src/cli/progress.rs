//! A progress bar on stderr for long runs: shown only when stderr is a
//! terminal and the run is long (more than [`MANY_FILES`] files, or still
//! going after [`LONG_RUN`]), and cleared before the results are printed.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::sources::Source;

const MANY_FILES: usize = 100;
const LONG_RUN: Duration = Duration::from_secs(1);

/// Counts the bytes and files done; draws only when it is worth it.
pub struct Progress {
    bar: Option<ProgressBar>,
    started: Instant,
    files: usize,
    files_done: AtomicUsize,
    shown: AtomicBool,
}

impl Progress {
    /// A progress over these sources, drawn if stderr is a terminal.
    pub fn new(sources: &[Source]) -> Progress {
        let bytes: usize = sources.iter().map(|s| s.text.len()).sum();
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template(
                "{spinner} {msg} [{elapsed}] [{wide_bar}] {bytes}/{total_bytes} ({eta} left)",
            )
            .expect("a valid template")
            .progress_chars("=> ");
            ProgressBar::with_draw_target(Some(bytes as u64), ProgressDrawTarget::hidden())
                .with_style(style)
                .with_message(format!("0/{} files", sources.len()))
        });
        Progress {
            bar,
            started: Instant::now(),
            files: sources.len(),
            files_done: AtomicUsize::new(0),
            shown: AtomicBool::new(false),
        }
    }

    /// A progress that never draws.
    pub fn none() -> Progress {
        Progress {
            bar: None,
            started: Instant::now(),
            files: 0,
            files_done: AtomicUsize::new(0),
            shown: AtomicBool::new(false),
        }
    }

    /// `bytes` more of the text are done.
    pub fn advance(&self, bytes: usize) {
        let Some(bar) = &self.bar else { return };
        bar.inc(bytes as u64);
        self.show_if_long(bar);
    }

    /// One more file is done.
    pub fn file_done(&self) {
        let Some(bar) = &self.bar else { return };
        let done = self.files_done.fetch_add(1, Ordering::Relaxed) + 1;
        bar.set_message(format!("{done}/{} files", self.files));
        self.show_if_long(bar);
    }

    fn show_if_long(&self, bar: &ProgressBar) {
        if self.shown.load(Ordering::Relaxed) {
            return;
        }
        if (self.files > MANY_FILES || self.started.elapsed() > LONG_RUN) && !self.shown.swap(true, Ordering::Relaxed) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(100));
        }
    }

    /// Clears the bar, so that what follows starts on a clean line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl chess_ls_engine::ide::check::Progress for Progress {
    fn advance(&self, bytes: usize) {
        Progress::advance(self, bytes);
    }
}
