//! The command line: `chess-ls --check` for publishers and CI, and the
//! choice between it and the language server.

mod check;
mod human;
mod json;
mod sources;

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

pub use check::run_check;

/// How `--check` prints its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style reports with the source line and a caret under the token.
    Human,
    /// One JSON object per diagnostic (JSON Lines, notation.md section 6).
    Json,
}

/// Checks chess notation in every language, or serves it to an editor.
///
/// Without --check, chess-ls is a language server speaking LSP over stdio.
#[derive(Debug, Parser)]
#[command(name = "chess-ls", version, about, long_about = None)]
pub struct Args {
    /// Check files and print what is wrong, instead of running the language server.
    #[arg(long)]
    pub check: bool,

    /// Output format of --check.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// The notation language of every game (en, ru, uk, de, fr, ..., figurine),
    /// or `auto` to infer it per game.
    #[arg(long, value_name = "LANG", default_value = "auto")]
    pub lang: String,

    /// Also report checks and mates written without `+`/`#`.
    #[arg(long)]
    pub missing_check_marks: bool,

    /// Also report captures written without a capture sign.
    #[arg(long)]
    pub missing_capture_signs: bool,

    /// Threads for --check (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Speak LSP over stdio (the default; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,

    /// Files or directories (searched for *.pgn) to check; `-` reads stdin.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}
