//! The analysis layer: replays every game of a parsed document with shakmaty
//! and reports what is wrong, where, and how to fix it.
//!
//! It speaks in byte ranges and strings only: no LSP types, no IO, no
//! threads. The CLI and the language server call the same functions.
//!
//! ```
//! use chess_ls_engine::analysis::{analyze_text, Options};
//! let text = "1. Кf3 Кf6 2. d4 d5 3. Кd2 *";
//! let report = analyze_text(text, &Options::default());
//! let codes: Vec<_> = report.diagnostics().map(|d| d.code.as_str()).collect();
//! assert_eq!(codes, ["ambiguous-move"]);
//! ```

pub mod board;
pub mod diagnostic;
mod explain;
pub mod glossary;
mod infer;
pub mod languages;
pub mod laws;
pub mod manuscript;
mod replay;
pub mod rewrite;
mod setup;
pub use setup::from_descriptions as setup_from_descriptions;
pub mod tags;
#[cfg(test)]
mod tests;

pub use diagnostic::{Code, Diagnostic, Fix, Related, Severity, TextEdit};
pub use languages::Language;
pub use replay::{Trace, TracedLine, TracedMove, analyze_traced, trace_game};

use crate::syntax::{self, GameSyntax, Span};

/// What the user chose; the defaults follow notation.md (optional marks are
/// not reported).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The notation language of every game, or `None` to infer it per game.
    pub language: Option<Language>,
    /// Report a check or mate that has no `+`/`#`.
    pub report_missing_check: bool,
    /// Report a capture that has no capture sign.
    pub report_missing_capture: bool,
    /// The language of the document around the game, when the game is
    /// read without `language`: a manuscript's, which the letters of all
    /// its runs decide (`manuscript::document_language`). A game whose own
    /// letters leave a choice (several languages read them alike, as
    /// `Sc6 ... Kd2` reads in German and Polish, or their readings replay
    /// equally well, or it has none) is read in this one when it is one of
    /// the choice; it never overrides what the game's own moves decide.
    /// Set by the manuscript reader, not by the user.
    pub document_language: Option<Language>,
}

/// How a game's language was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanguageSource {
    /// Set by the user (`--lang`, editor setting).
    Chosen,
    /// The only language whose letters the game uses.
    Letters,
    /// Several languages read the letters; this one replays legally.
    Replay,
    /// Nothing decides (no piece letters at all, or letters of two languages).
    Undecided,
}

/// One move that was replayed: where it stands and what it was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub span: Span,
    /// The move in UCI notation, e.g. `g1f3`.
    pub uci: String,
}

/// The analysis of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    pub span: Span,
    pub language: Language,
    pub language_source: LanguageSource,
    pub diagnostics: Vec<Diagnostic>,
    /// Plies replayed in the main line and all variations.
    pub plies: usize,
}

/// The analysis of a whole document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentReport {
    pub games: Vec<GameReport>,
}

impl DocumentReport {
    /// Every diagnostic in document order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.games.iter().flat_map(|g| g.diagnostics.iter())
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics().filter(|d| d.severity == severity).count()
    }
}

/// Analyses one lowered game.
pub fn analyze_game(game: &GameSyntax<'_>, source: &str, options: &Options) -> GameReport {
    replay::analyze_game(game, source, options)
}

/// Parses and analyses a whole text.
pub fn analyze_text(source: &str, options: &Options) -> DocumentReport {
    let tree = syntax::parse(source, None);
    analyze_tree(&tree, source, options)
}

/// Analyses a text already parsed into `tree`.
pub fn analyze_tree(tree: &tree_sitter::Tree, source: &str, options: &Options) -> DocumentReport {
    let games = syntax::lower(tree, source);
    DocumentReport { games: games.iter().map(|g| analyze_game(g, source, options)).collect() }
}
