//! The command line for publishers and CI: `--check` (with `--fix` and
//! `--diff`), `--translate`, and the choice between them and the language
//! server.
//!
//! Every mode reads its files the same way (`sources.rs`: directories
//! searched for `*.pgn`, each file decoded in its own encoding), works on
//! all cores with rayon (`--threads` sets how many), and writes files back
//! only through `write.rs` (same encoding, atomic rename, never over a file
//! that changed meanwhile).

mod check;
pub mod encoding;
mod fix;
mod github;
mod human;
mod json;
mod output;
mod progress;
mod sarif;
mod sources;
mod translate;
mod write;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use rayon::prelude::*;

use crate::analysis::{Language, Options};
use encoding::Encoding;
use sources::Source;

/// How `--check` prints its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style reports with the source line and a caret under the token.
    Human,
    /// One JSON object per diagnostic (JSON Lines, notation.md section 6).
    Json,
    /// GitHub Actions workflow commands (`::error file=...`), shown as annotations.
    Github,
    /// One SARIF 2.1.0 log, for code scanning.
    Sarif,
}

/// Checks chess notation in every language, or serves it to an editor.
///
/// Without --check, --fix or --translate, chess-ls is a language server
/// speaking LSP over stdio.
#[derive(Debug, Parser)]
#[command(name = "chess-ls", version, about, long_about = None)]
pub struct Args {
    /// Check files and print what is wrong, instead of running the language server.
    #[arg(long)]
    pub check: bool,

    /// Apply every safe fix in place (implies --check) and report what changed and what is left.
    #[arg(long, conflicts_with = "translate")]
    pub fix: bool,

    /// With --fix or --translate: print the changes as a unified diff instead of writing them.
    #[arg(long, conflicts_with = "write")]
    pub diff: bool,

    /// Rewrite the moves into another notation language (en, ru, uk, de, ..., figurine);
    /// the text goes to stdout unless --write.
    #[arg(long, value_name = "LANG")]
    pub translate: Option<String>,

    /// With --translate: rewrite the files in place.
    #[arg(long, requires = "translate")]
    pub write: bool,

    /// Output format of --check and --fix.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// The notation language of every game (en, ru, uk, de, fr, ..., figurine),
    /// or `auto` to infer it per game.
    #[arg(long, value_name = "LANG", default_value = "auto")]
    pub lang: String,

    /// The encoding of every file (utf-8, utf-16le, utf-16be, windows-1251, cp866, koi8-r,
    /// latin-1, windows-1252), or `auto` to detect it per file.
    #[arg(long, value_name = "NAME", default_value = "auto")]
    pub encoding: String,

    /// Also report checks and mates written without `+`/`#`.
    #[arg(long)]
    pub missing_check_marks: bool,

    /// Also report captures written without a capture sign.
    #[arg(long)]
    pub missing_capture_signs: bool,

    /// Threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Speak LSP over stdio (the default; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,

    /// Read every file named as a manuscript (prose with games in it), whatever its
    /// extension; `.txt`, `.md` and `.tex` files are read so without it.
    #[arg(long)]
    pub manuscript: bool,

    /// Files or directories (searched for *.pgn); `-` reads stdin.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl Args {
    /// Whether the command line asks for a command-line mode rather than
    /// the language server.
    pub fn is_command_line(&self) -> bool {
        self.check || self.fix || self.diff || self.translate.is_some()
    }
}

/// What every mode needs: the analysis options, the output format, the
/// files, and when the run started.
pub struct Session {
    pub options: Options,
    pub format: Format,
    pub encoding: Option<Encoding>,
    pub paths: Vec<PathBuf>,
    /// The run writes files (`--fix` without `--diff`, `--translate --write`).
    pub writes: bool,
    pub started: Instant,
    /// `--manuscript`: every file is a manuscript.
    pub manuscript: bool,
}

impl Session {
    /// Reads every file (in parallel), in the stable order of
    /// [`sources::expand`], each file once however many names lead to it;
    /// returns the sources and what could not be read. What a directory
    /// search skipped is said on stderr as warnings.
    pub fn read_all(&self) -> (Vec<Source>, Vec<String>) {
        let mut failures = Vec::new();
        let mut warnings = Vec::new();
        let found = sources::expand(&self.paths, &mut failures, &mut warnings);
        for warning in &warnings {
            eprintln!("warning: {warning}");
        }
        let read: Vec<Result<Source, String>> = found
            .par_iter()
            .map(|found| sources::read(&found.path, self.encoding, self.writes, found.searched))
            .collect();
        let mut sources = Vec::with_capacity(read.len());
        let mut seen = std::collections::HashSet::new();
        for result in read {
            match result {
                Ok(mut source) => {
                    if source.identity.is_some_and(|identity| !seen.insert(identity)) {
                        continue;
                    }
                    source.manuscript = sources::manuscript_format(&source.name, self.manuscript);
                    sources.push(source);
                }
                Err(e) => failures.push(e),
            }
        }
        (sources, failures)
    }
}

/// Runs a command-line mode; returns the exit status (0 no error, 1
/// errors, 2 the run failed: bad arguments, a file that could not be read
/// or written).
pub fn run(args: &Args) -> i32 {
    match session(args) {
        Ok((session, threads)) => {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool,
                Err(e) => {
                    eprintln!("error: cannot start {threads} threads: {e}");
                    return 2;
                }
            };
            if session.writes {
                write::remove_temporaries_on_signals();
            }
            pool.install(|| {
                if let Some(language) = &args.translate {
                    let language = Language::from_code(language).expect("checked in session()");
                    translate::run(&session, language, args.write, args.diff)
                } else if args.fix {
                    fix::run(&session, args.diff)
                } else {
                    check::run(&session)
                }
            })
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

fn session(args: &Args) -> Result<(Session, usize), String> {
    let language_codes = || {
        let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        codes.join(", ")
    };
    let language = match args.lang.as_str() {
        "auto" => None,
        code => Some(
            Language::from_code(code)
                .ok_or_else(|| format!("unknown language `{code}`; use auto or one of {}", language_codes()))?,
        ),
    };
    if let Some(code) = &args.translate
        && Language::from_code(code).is_none()
    {
        return Err(format!("unknown language `{code}` for --translate; use one of {}", language_codes()));
    }
    let encoding = match args.encoding.as_str() {
        "auto" => None,
        name => Some(Encoding::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
            format!("unknown encoding `{name}`; use auto or one of {}", names.join(", "))
        })?),
    };
    if args.diff && !args.fix && args.translate.is_none() {
        return Err("--diff goes with --fix or --translate".into());
    }
    if args.translate.is_some() && args.format != Format::Human {
        return Err("--format applies to --check and --fix, not to --translate".into());
    }
    if args.paths.is_empty() {
        let mode = if args.translate.is_some() {
            "--translate"
        } else if args.fix {
            "--fix"
        } else {
            "--check"
        };
        return Err(format!("{mode} needs at least one file or directory (or - for stdin)"));
    }
    let writes = args.fix && !args.diff || args.write;
    if writes && args.paths.iter().any(|p| p.as_os_str() == "-") {
        return Err("standard input cannot be rewritten in place; use --diff, or --translate without --write".into());
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let options = Options {
        language,
        report_missing_check: args.missing_check_marks,
        report_missing_capture: args.missing_capture_signs,
    };
    let session = Session {
        options,
        format: args.format,
        encoding,
        paths: args.paths.clone(),
        writes,
        started: Instant::now(),
        manuscript: args.manuscript,
    };
    Ok((session, threads))
}
