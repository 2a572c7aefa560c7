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
mod compare;
pub use chess_ls_engine::input::{compressed, encoding};
mod fix;
mod github;
mod human;
mod json;
mod output;
mod patch;
mod progress;
mod sarif;
mod sources;
mod stream;
mod translate;
mod write;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use rayon::prelude::*;

use crate::project::Projects;
use chess_ls_engine::analysis::{Language, Options};
use chess_ls_engine::ide::settings::{self, Filter, Settings};
use encoding::Encoding;
use sources::Source;

/// The archive reader on bytes, for its fuzz target.
pub use check::read_archive_bytes;

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
    /// or `auto` to infer it per game [default: the project's `language`, else auto].
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,

    /// The encoding of every file (utf-8, utf-16le, utf-16be, windows-1251, cp866, koi8-r,
    /// latin-1, windows-1252), or `auto` to detect it per file [default: the project's, else auto].
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,

    /// Codes never reported (comma-separated, e.g. check-mark,move-number), besides
    /// those a project's `chess-ls.toml` ignores.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub ignore: Vec<String>,

    /// Report only these codes (comma-separated); replaces a project's `select`.
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub select: Vec<String>,

    /// Search directories for every file: hidden ones, and those that `.gitignore`,
    /// `.ignore` and git's excludes leave out.
    #[arg(long)]
    pub no_ignore: bool,

    /// Search directories for manuscripts too (`.md`, `.tex`, `.txt`, `.html`, `.typ`,
    /// `.docx`, `.odt`, `.epub`), not only for notation (`.pgn`, compressed or in zip
    /// archives).
    #[arg(long)]
    pub search_manuscripts: bool,

    /// Do not read `chess-ls.toml` project files.
    #[arg(long)]
    pub no_config: bool,

    /// Also report checks and mates written without `+`/`#`.
    #[arg(long)]
    pub missing_check_marks: bool,

    /// Also report captures written without a capture sign.
    #[arg(long)]
    pub missing_capture_signs: bool,

    /// Threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Compare two records of one game (two scoresheets, in any language and
    /// notation, PGN or manuscript) and say where they part ways; exit 1 when
    /// they differ.
    #[arg(long, num_args = 2, value_names = ["FIRST", "SECOND"], conflicts_with_all = ["check", "fix", "translate"])]
    pub compare: Option<Vec<PathBuf>>,

    /// Speak LSP over stdio (the default; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,

    /// Read every file named as a manuscript (prose with games in it), whatever its
    /// extension; `.txt`, `.md` and `.tex` files are read so without it.
    #[arg(long)]
    pub manuscript: bool,

    /// Files or directories (searched for *.pgn, also compressed: .gz, .bz2, .xz, .zst,
    /// and .zip archives); `-` reads stdin.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl Args {
    /// Whether the command line asks for a command-line mode rather than
    /// the language server.
    pub fn is_command_line(&self) -> bool {
        self.check || self.fix || self.diff || self.translate.is_some() || self.compare.is_some()
    }
}

/// The settings that apply to a file: its project's `chess-ls.toml` with
/// the command line's flags over it (`ide::settings`).
#[derive(Clone, Debug, Default)]
pub struct Effective {
    pub options: Options,
    pub filter: Filter,
    pub encoding: Option<Encoding>,
    /// Every file is a manuscript (`--manuscript`, `manuscript.all`).
    pub all_manuscripts: bool,
    /// Directory searches take manuscripts (`--search-manuscripts`,
    /// `manuscript.search`).
    pub search_manuscripts: bool,
}

impl Effective {
    /// The engine's facade for whole texts under these settings: every
    /// mode checks, fixes and rewrites through it.
    pub fn batch(&self) -> chess_ls_engine::ide::Batch<'_> {
        chess_ls_engine::ide::Batch::new(&self.options, &self.filter)
    }

    fn of(settings: &Settings) -> Result<Effective, String> {
        let encoding = match settings.encoding.as_deref() {
            None | Some("auto") => None,
            Some(name) => Some(Encoding::from_name(name).ok_or_else(|| {
                let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
                format!("unknown encoding {}; use auto or one of {}", settings::quoted(name), names.join(", "))
            })?),
        };
        Ok(Effective {
            options: settings.options(&Options::default()),
            filter: settings.filter(),
            encoding,
            all_manuscripts: settings.all_manuscripts.unwrap_or(false),
            search_manuscripts: settings.search_manuscripts.unwrap_or(false),
        })
    }
}

/// The settings of a project file, or why it cannot be used.
type EffectiveOrError = Result<Arc<Effective>, String>;

/// What every mode needs: the settings, the output format, the files, and
/// when the run started.
pub struct Session {
    /// What the command line's flags say.
    pub flags: Settings,
    /// The project files, unless `--no-config`.
    pub projects: Option<Projects>,
    /// The settings of each project file met (by its path; `None`: no file).
    effective: std::sync::Mutex<std::collections::HashMap<Option<PathBuf>, EffectiveOrError>>,
    pub format: Format,
    pub paths: Vec<PathBuf>,
    /// The run writes files (`--fix` without `--diff`, `--translate --write`).
    pub writes: bool,
    pub started: Instant,
    pub walk: sources::Walk,
}

impl Session {
    /// The settings of a file (or of stdin, `-`: those of the current
    /// directory), or why its project file cannot be used.
    pub fn effective(&self, path: &std::path::Path) -> Result<Arc<Effective>, String> {
        let path = if path.as_os_str() == "-" { std::path::Path::new(".") } else { path };
        let project = match &self.projects {
            Some(projects) => projects.for_path(path)?,
            None => None,
        };
        let key = project.as_ref().map(|p| p.path.clone());
        let mut cache = self.effective.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(key)
            .or_insert_with(|| {
                let merged = match &project {
                    Some(p) => p.settings.overridden_by(&self.flags),
                    None => self.flags.clone(),
                };
                Effective::of(&merged).map(Arc::new).map_err(|e| {
                    format!(
                        "{}: {e}",
                        project.as_ref().map_or("the command line".into(), |p| p.path.display().to_string())
                    )
                })
            })
            .clone()
    }

    /// The files named, directories searched (in the stable order of
    /// [`sources::expand`]); what a search skipped is said on stderr.
    pub fn find(&self, failures: &mut Vec<String>) -> Vec<sources::Found> {
        let mut warnings = Vec::new();
        let manuscripts = |dir: &std::path::Path| self.effective(dir).is_ok_and(|e| e.search_manuscripts);
        let found = sources::expand(&self.paths, self.walk, &manuscripts, failures, &mut warnings);
        for warning in &warnings {
            output::say(&format!("warning: {warning}"));
        }
        found
    }

    /// Reads a file whole, with its settings.
    pub fn read(&self, found: &sources::Found) -> Result<Source, String> {
        let effective = self.effective(&found.path)?;
        let mut source = sources::read(&found.path, effective.encoding, self.writes, found.searched)?;
        let name = source.inner_name.as_deref().unwrap_or(&source.name);
        // A Word document's body is plain text (a line per paragraph).
        if source.package.is_none() {
            source.manuscript = sources::manuscript_format(name, effective.all_manuscripts);
        }
        source.effective = effective;
        Ok(source)
    }

    /// Reads every file (in parallel), in the stable order of
    /// [`sources::expand`], each file once however many names lead to it;
    /// returns the sources and what could not be read. What a directory
    /// search skipped is said on stderr as warnings.
    pub fn read_all(&self) -> (Vec<Source>, Vec<String>) {
        let mut failures = Vec::new();
        let found = self.find(&mut failures);
        let read: Vec<Result<Source, String>> = found.par_iter().map(|found| self.read(found)).collect();
        let mut sources = Vec::with_capacity(read.len());
        let mut seen = std::collections::HashSet::new();
        for result in read {
            match result {
                Ok(source) => {
                    if source.identity.is_some_and(|identity| !seen.insert(identity)) {
                        continue;
                    }
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
    if let Some(files) = &args.compare {
        return compare::run(args, files);
    }
    match session(args) {
        Ok((session, threads)) => {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool,
                Err(e) => {
                    output::say(&format!("error: cannot start {threads} threads: {e}"));
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
            output::say(&format!("error: {message}"));
            2
        }
    }
}

/// The most threads started whatever `--threads` says (or 4 a core, on a
/// machine of more than 16 cores).
const MAX_THREADS: usize = 64;

fn session(args: &Args) -> Result<(Session, usize), String> {
    let language = args.lang.as_deref().map(settings::parse_language).transpose()?;
    if let Some(code) = &args.translate
        && Language::from_code(code).is_none()
    {
        let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        return Err(format!(
            "unknown language {} for --translate; use one of {}",
            settings::quoted(code),
            codes.join(", ")
        ));
    }
    let codes = |names: &[String]| names.iter().map(|n| settings::parse_code(n)).collect::<Result<Vec<_>, _>>();
    let flags = Settings {
        language,
        encoding: args.encoding.clone(),
        missing_check_marks: args.missing_check_marks.then_some(true),
        missing_capture_signs: args.missing_capture_signs.then_some(true),
        ignore: codes(&args.ignore)?,
        select: if args.select.is_empty() { None } else { Some(codes(&args.select)?) },
        severity: Vec::new(),
        search_manuscripts: args.search_manuscripts.then_some(true),
        all_manuscripts: args.manuscript.then_some(true),
        castling: None,
    };
    // The flags alone must make sense (an unknown encoding is said now).
    Effective::of(&flags)?;
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
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = args.threads.unwrap_or(cores).max(1);
    // More threads than a few per core only cost memory and start-up time
    // (a million took minutes to start, each with its stack).
    let most = (4 * cores).max(MAX_THREADS);
    if threads > most {
        output::say(&format!("note: --threads {threads} is more than this machine can use; {most} are started"));
    }
    let threads = threads.min(most);
    let session = Session {
        flags,
        projects: (!args.no_config).then(Projects::new),
        effective: Default::default(),
        format: args.format,
        paths: args.paths.clone(),
        writes,
        started: Instant::now(),
        walk: sources::Walk { everything: args.no_ignore },
    };
    Ok((session, threads))
}
