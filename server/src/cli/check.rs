//! `chess-ls --check`: reads the files, analyses their games on every core,
//! and prints the findings in file order.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::sources::{self, Source};
use super::{Args, Format, human, json};
use crate::analysis::{self, Diagnostic, Language, Options, Severity};
use crate::syntax;

/// Files larger than this are split at game boundaries so that several
/// threads share one big file. Small pieces are also faster on one thread:
/// a piece's tree and lowered games stay in the CPU caches, and tree-sitter
/// balances shorter lists (on 10 MB of games, one core: 256 KB pieces take
/// about 20 % more CPU time than 32 KB ones; `check-stages` measures it).
const PIECE_LEN: usize = 32 * 1024;

/// A file's findings.
pub struct Checked {
    pub source: Source,
    pub games: usize,
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs `--check`; returns the exit status (0 no error, 1 errors, 2 the run
/// failed).
pub fn run_check(args: &Args) -> i32 {
    let language = match args.lang.as_str() {
        "auto" => None,
        code => match Language::from_code(code) {
            Some(language) => Some(language),
            None => {
                let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
                eprintln!(
                    "error: unknown language `{code}`; use auto or one of {}",
                    codes.join(", ")
                );
                return 2;
            }
        },
    };
    if args.paths.is_empty() {
        eprintln!("error: --check needs at least one file or directory (or - for stdin)");
        return 2;
    }
    let options = Options {
        language,
        report_missing_check: args.missing_check_marks,
        report_missing_capture: args.missing_capture_signs,
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);

    let mut failures = Vec::new();
    let paths = sources::expand(&args.paths, &mut failures);
    let mut texts = Vec::with_capacity(paths.len());
    for path in &paths {
        match sources::read(path) {
            Ok(source) => texts.push(source),
            Err(e) => failures.push(e),
        }
    }
    let checked = check_sources(texts, &options, threads);

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let (mut errors, mut warnings, mut games) = (0, 0, 0);
    for file in &checked {
        games += file.games;
        errors += file.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        warnings += file.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
        let written = match args.format {
            Format::Human => human::write(&mut out, file, color),
            Format::Json => json::write(&mut out, file),
        };
        if written.is_err() {
            // stdout closed (e.g. piped into `head`): nothing more to say.
            return if errors > 0 { 1 } else { 0 };
        }
    }
    for failure in &failures {
        eprintln!("error: {failure}");
    }
    let files = checked.len();
    let summary = human::summary(files, games, errors, warnings, failures.len());
    let _ = match args.format {
        Format::Human => writeln!(out, "{summary}"),
        Format::Json => {
            let _ = out.flush();
            writeln!(std::io::stderr(), "{summary}")
        }
    };
    let _ = out.flush();
    if !failures.is_empty() {
        2
    } else if errors > 0 {
        1
    } else {
        0
    }
}

/// Analyses every source on `threads` threads. Big files are cut into
/// pieces at game boundaries; the results come back in file order.
pub fn check_sources(sources: Vec<Source>, options: &Options, threads: usize) -> Vec<Checked> {
    struct Job {
        file: usize,
        range: std::ops::Range<usize>,
    }
    /// A piece's games and diagnostics, once a thread has checked it.
    type Done = std::sync::Mutex<Option<(usize, Vec<Diagnostic>)>>;
    let mut jobs = Vec::new();
    for (file, source) in sources.iter().enumerate() {
        for range in syntax::split::split_at_games(&source.text, PIECE_LEN) {
            jobs.push(Job { file, range });
        }
    }
    let next = AtomicUsize::new(0);
    let results: Vec<Done> = jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(jobs.len()).max(1) {
            scope.spawn(|| {
                let mut parser = syntax::parser();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let text = &sources[job.file].text[job.range.clone()];
                    // Each piece on its own (as the language server parses
                    // it), and each game analysed as soon as it is lowered,
                    // then dropped: a lowered game is many times the size
                    // of its text.
                    let mut diagnostics: Vec<Diagnostic> = Vec::new();
                    let mut games = 0;
                    for piece in syntax::split::split_at_games(text, 0) {
                        let base = piece.start;
                        let piece_text = &text[piece];
                        syntax::lower_piece(&mut parser, piece_text, |game| {
                            games += 1;
                            let mut found = analysis::analyze_game(&game, piece_text, options).diagnostics;
                            if base > 0 {
                                for d in &mut found {
                                    shift_diagnostic(d, base);
                                }
                            }
                            diagnostics.extend(found);
                        });
                    }
                    let shift = job.range.start;
                    if shift > 0 {
                        for d in &mut diagnostics {
                            shift_diagnostic(d, shift);
                        }
                    }
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) =
                        Some((games, diagnostics));
                }
            });
        }
    });
    let mut checked: Vec<Checked> = sources
        .into_iter()
        .map(|source| Checked { source, games: 0, diagnostics: Vec::new() })
        .collect();
    for (job, result) in jobs.iter().zip(results) {
        if let Some((games, mut diagnostics)) =
            result.into_inner().unwrap_or_else(|e| e.into_inner())
        {
            checked[job.file].games += games;
            checked[job.file].diagnostics.append(&mut diagnostics);
        }
    }
    checked
}


fn shift_diagnostic(d: &mut Diagnostic, by: usize) {
    d.span = d.span.start + by..d.span.end + by;
    for r in &mut d.related {
        r.span = r.span.start + by..r.span.end + by;
    }
    for f in &mut d.fixes {
        for e in &mut f.edits {
            e.span = e.span.start + by..e.span.end + by;
        }
    }
}
