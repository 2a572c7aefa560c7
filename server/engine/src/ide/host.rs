//! The engine's facade: the one API the front ends call (rust-analyzer's
//! `AnalysisHost` and `Analysis`, biome's `Workspace`).
//!
//! - [`Host`] holds the open documents and takes their changes: open,
//!   change (edits in byte offsets), new settings ([`Config`]), close. A
//!   settings change that leaves a document's analysis options as they are
//!   analyses nothing again (its filter of findings is swapped).
//! - [`Snapshot`] is one version of one document, immutable and cheap to
//!   take (an `Arc`): it answers every question an editor asks
//!   (diagnostics, assists and their edits, fix all, rewrites, hover, the
//!   board, completions, format, highlights, folds, symbols), each with the
//!   document's settings applied inside and each cancellable: its
//!   [`Token`] is checked as the work goes, and a cancelled one unwinds
//!   with [`Cancelled`](super::cancel::Cancelled). A host's snapshots are
//!   cancelled by the next change of their document.
//! - [`Batch`] is a whole text checked, fixed or rewritten at once, as the
//!   command line does: notation streamed section by section on every
//!   core, a manuscript through the sections an open document holds, never
//!   kept.
//!
//! Every job has one path: `--check`'s findings are [`Batch::check`], an
//! editor's [`Snapshot::diagnostics`] (and the engine's agreement test holds
//! them equal); `--fix` is [`Batch::fix`], an editor's Fix All
//! [`Snapshot::fix_all`], one round of the same choice of fixes;
//! `--translate` is [`Batch::rewrite`], an editor's source actions
//! [`Snapshot::rewrite`]. The front ends convert the answers (byte offsets,
//! plain data) to their own terms, and print or send them.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use super::assists::{self, Asked, Assist, AssistKind};
use super::cancel::Token;
use super::check::{self, Findings, Progress};
use super::completion::{self, Completions};
use super::document::{ByteChange, Document, Kind};
use super::fixes::{self, Fixed};
use super::folds::{self, FoldRange};
use super::format::{self, Formatted};
use super::highlight::{self, HighlightBlock};
use super::hover::{self, Hover};
use super::line_index::Unit;
use super::position::{self, BoardAt};
use super::rewrite::{self, Edits, Rewritten, Scope};
use super::settings::Filter;
use super::symbols::{self, Symbol};
use crate::analysis::rewrite::{Castling, Rewrite};
use crate::analysis::{Diagnostic, Options, TextEdit};

/// The settings that apply to a document: the analysis options (the
/// language, missing marks) and the filter of findings (`ignore`,
/// `select`, severities), a project's `chess-ls.toml` merged with the
/// editor's settings or the command line's flags (`settings::Settings`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    pub options: Options,
    pub filter: Filter,
    /// How Normalize notation writes castling (`[normalize] castling`).
    pub castling: Castling,
}

/// The open documents, by the front end's name for each (a URI, a path).
#[derive(Default)]
pub struct Host {
    docs: HashMap<String, Open>,
}

struct Open {
    doc: Arc<Document>,
    castling: Castling,
    /// The newest version: a snapshot of an older one is cancelled.
    latest: Arc<AtomicI32>,
}

impl Host {
    pub fn new() -> Host {
        Host::default()
    }

    /// Opens (or opens again) a document of a kind at a version.
    pub fn open(&mut self, name: &str, kind: Kind, text: String, version: i32, config: &Config) {
        let mut doc = Document::open_as(kind, text, version, &config.options);
        doc.set_filter(config.filter.clone());
        self.docs.insert(
            name.to_owned(),
            Open { doc: Arc::new(doc), castling: config.castling, latest: Arc::new(AtomicI32::new(version)) },
        );
    }

    /// Applies the changes of one edit (ranges in the text as each change
    /// before it left it); the document's snapshots taken before are
    /// cancelled. Returns false when no such document is open.
    pub fn change(&mut self, name: &str, changes: Vec<ByteChange>, version: i32) -> bool {
        let Some(open) = self.docs.get_mut(name) else { return false };
        open.latest.store(version, Ordering::Relaxed);
        // A snapshot still reading the old version keeps it: the edit is
        // applied to a copy (the text is copied, the analyses shared).
        let doc = Arc::make_mut(&mut open.doc);
        let options = doc.options().clone();
        doc.apply_changes(changes, version, &options);
        true
    }

    /// New settings for a document: it is analysed again only when they
    /// change its analysis options (returns whether it was).
    pub fn set_config(&mut self, name: &str, config: &Config) -> bool {
        let Some(open) = self.docs.get_mut(name) else { return false };
        open.castling = config.castling;
        let reanalyse = *open.doc.options() != config.options;
        if !reanalyse && *open.doc.filter() == config.filter {
            return false;
        }
        let doc = Arc::make_mut(&mut open.doc);
        if reanalyse {
            doc.reanalyse_all(&config.options);
        }
        doc.set_filter(config.filter.clone());
        reanalyse
    }

    pub fn close(&mut self, name: &str) {
        self.docs.remove(name);
    }

    /// New settings for every open document (a page's controls, a settings
    /// file that applies to all); returns how many were analysed again.
    pub fn set_config_all(&mut self, config: &Config) -> usize {
        let names: Vec<String> = self.docs.keys().cloned().collect();
        names.iter().filter(|name| self.set_config(name, config)).count()
    }

    /// The document's current version, cancelled by its next change.
    pub fn snapshot(&self, name: &str) -> Option<Snapshot> {
        let open = self.docs.get(name)?;
        let token = Token::new(Arc::new(AtomicBool::new(false)), open.latest.clone(), open.doc.version);
        Some(Snapshot::new(open.doc.clone(), token).with_castling(open.castling))
    }
}

/// One version of one document, with its settings, answering an editor's
/// questions. Offsets are bytes of the document's text; lines and columns
/// (highlights, folds, symbols) are in the unit asked for.
#[derive(Clone)]
pub struct Snapshot {
    doc: Arc<Document>,
    token: Token,
    castling: Castling,
}

impl Snapshot {
    /// A snapshot of a document whose work `token` cancels (a front end
    /// that keeps its documents itself: the language server's requests).
    pub fn new(doc: Arc<Document>, token: Token) -> Snapshot {
        Snapshot { doc, token, castling: Castling::Keep }
    }

    /// This snapshot with Normalize notation writing castling as `castling`
    /// says (the settings' `[normalize] castling`; the game's own way when
    /// not said).
    pub fn with_castling(mut self, castling: Castling) -> Snapshot {
        self.castling = castling;
        self
    }

    /// The document read (its text, version and positions, for the front
    /// end's conversions).
    pub fn document(&self) -> &Document {
        &self.doc
    }

    pub fn token(&self) -> &Token {
        &self.token
    }

    /// Every finding, in order, as the settings report them.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.token.check();
        self.doc.diagnostics().collect()
    }

    /// The findings that touch `span` (it may be empty: a cursor).
    pub fn diagnostics_in(&self, span: Range<usize>) -> Vec<Diagnostic> {
        self.token.check();
        self.doc.diagnostics_in(span).collect()
    }

    /// The edits of Fix All: the certain fixes `--fix` would apply in its
    /// first round (the same choice, `fixes::certain_fixes`), sorted.
    pub fn fix_all(&self) -> Vec<TextEdit> {
        self.token.check();
        fixes::fix_all(&self.doc)
    }

    /// The moves of the games in `scope` rewritten (translated or
    /// normalised), as `--translate` writes them.
    pub fn rewrite(&self, rewrite: Rewrite, scope: Scope) -> Edits {
        rewrite::rewrite_document(&self.doc, rewrite, scope, self.castling, &self.token)
    }

    /// What a hover at `offset` explains, as data (rendered by the front
    /// end).
    pub fn hover(&self, offset: usize) -> Option<Hover> {
        self.token.check();
        hover::hover(&self.doc, offset, self.doc.options())
    }

    /// What a board view shows at `offset`.
    pub fn board_at(&self, offset: usize) -> Option<BoardAt> {
        self.token.check();
        position::board_at(&self.doc, offset, self.doc.options())
    }

    /// The legal moves that may be typed at `offset`.
    pub fn completions(&self, offset: usize) -> Option<Completions> {
        self.token.check();
        completion::complete(&self.doc, offset, self.doc.options())
    }

    /// The assists at `span` that the front end asks for (`assists`).
    pub fn assists(&self, span: Range<usize>, asked: &Asked<'_>) -> Vec<Assist> {
        self.token.check();
        assists::assists(&self.doc, span, asked)
    }

    /// The edits of an assist listed without them (Fix All, the source
    /// actions).
    pub fn assist_edits(&self, kind: &AssistKind) -> Vec<TextEdit> {
        assists::assist_edits(&self.doc, kind, self.castling, &self.token)
    }

    /// Format Document at `width` columns (`0`: lines never wrapped).
    pub fn format(&self, width: usize) -> Formatted {
        format::format_document(&self.doc, width, &self.token)
    }

    /// The highlights of the sections that meet `span` (`None`: the whole
    /// document), up to a bound (`highlight::WHOLE_DOCUMENT_MAX` bytes).
    pub fn highlights(&self, span: Option<Range<usize>>, unit: Unit) -> Vec<HighlightBlock> {
        highlight::highlights(&self.doc, span, unit, &self.token)
    }

    /// The folds, at most `limit` of them (a big database's games first).
    pub fn folds(&self, limit: Option<usize>) -> Vec<FoldRange> {
        folds::folds(&self.doc, limit, &self.token)
    }

    /// The outline.
    pub fn symbols(&self, unit: Unit) -> Vec<Symbol> {
        symbols::symbols(&self.doc, unit, &self.token)
    }
}

/// Whole texts checked, fixed or rewritten at once under one [`Config`], as
/// the command line does; nothing is kept.
#[derive(Clone, Copy)]
pub struct Batch<'c> {
    pub options: &'c Options,
    pub filter: &'c Filter,
}

impl<'c> Batch<'c> {
    pub fn new(options: &'c Options, filter: &'c Filter) -> Batch<'c> {
        Batch { options, filter }
    }

    /// The games of a text and its findings as the settings report them,
    /// as an open document of the same text gives them.
    pub fn check(&self, text: &str, kind: Kind, progress: &dyn Progress) -> Findings {
        check::check_text(text, kind, self.options, self.filter, progress)
    }

    /// The text with every certain fix applied, round after round, until
    /// nothing changes (`fixes::MAX_ROUNDS` at most); only the findings
    /// the settings report are fixed.
    pub fn fix(&self, text: &str, kind: Kind, progress: &dyn Progress) -> Fixed {
        fixes::fix_text(text, kind, self.options, self.filter, progress)
    }

    /// Every game of the text rewritten (translated or normalised).
    pub fn rewrite(&self, text: &str, kind: Kind, rewrite: Rewrite) -> Rewritten {
        rewrite::rewrite_text(text, kind, self.options, rewrite)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Language;
    use crate::analysis::rewrite::apply_edits;
    use crate::ide::cancel::Cancelled;
    use crate::ide::settings::Settings;

    fn config(toml: &str) -> Config {
        let settings = Settings::parse(toml).unwrap();
        settings.config(&Options::default())
    }

    const TEXT: &str = "1. e4 e5 2. Nf3+ Nc6 3. Bb5 a6 4. Ke2 Ke7 5. Kf3 *\n";

    #[test]
    fn an_open_document_and_the_batch_agree_under_settings() {
        for toml in ["", "ignore = [\"check-mark\"]\n", "select = [\"illegal-move\"]\n", "language = \"de\"\n"] {
            let config = config(toml);
            let mut host = Host::new();
            host.open("a.pgn", Kind::Pgn, TEXT.to_owned(), 1, &config);
            let snapshot = host.snapshot("a.pgn").unwrap();
            let batch = Batch::new(&config.options, &config.filter);
            assert_eq!(snapshot.diagnostics(), batch.check(TEXT, Kind::Pgn, &()).diagnostics, "{toml}");
            // Fix All is the first round of `--fix`.
            let fixed = batch.fix(TEXT, Kind::Pgn, &());
            let once = apply_edits(TEXT, &snapshot.fix_all());
            assert_eq!(batch.fix(&once, Kind::Pgn, &()).text, fixed.text, "{toml}");
            // A translation of the document is `--translate`'s.
            let ru = Rewrite::Translate(Language::Ru);
            let edits = snapshot.rewrite(ru, Scope::Document).edits;
            assert_eq!(apply_edits(TEXT, &edits), batch.rewrite(TEXT, Kind::Pgn, ru).text, "{toml}");
        }
    }

    #[test]
    fn a_settings_change_filters_without_analysing_again() {
        let mut host = Host::new();
        host.open("a.pgn", Kind::Pgn, TEXT.to_owned(), 1, &Config::default());
        let codes = |host: &Host| -> Vec<&'static str> {
            host.snapshot("a.pgn").unwrap().diagnostics().iter().map(|d| d.code.as_str()).collect()
        };
        assert!(codes(&host).contains(&"check-mark"));
        assert!(!host.set_config("a.pgn", &config("ignore = [\"check-mark\"]\n")), "nothing analysed again");
        assert!(!codes(&host).contains(&"check-mark"));
        let snapshot = host.snapshot("a.pgn").unwrap();
        assert!(snapshot.assists(0..TEXT.len(), &all()).iter().all(|a| a.title != "Remove the check mark"));
        assert!(host.set_config("a.pgn", &config("missing-check-marks = true\n")), "options changed");
    }

    fn all() -> Asked<'static> {
        Asked { source: true, translations: true, wants: &|_| true }
    }

    #[test]
    fn a_change_cancels_the_snapshots_before_it() {
        let mut host = Host::new();
        host.open("a.pgn", Kind::Pgn, TEXT.to_owned(), 1, &Config::default());
        let old = host.snapshot("a.pgn").unwrap();
        let at = TEXT.find("Nf3+").unwrap() + 3;
        assert!(host.change("a.pgn", vec![ByteChange { range: Some(at..at + 1), text: String::new() }], 2));
        let new = host.snapshot("a.pgn").unwrap();
        assert!(new.diagnostics().iter().all(|d| d.code.as_str() != "check-mark"));
        assert_eq!(old.document().version, 1, "the old version is still readable");
        let cancelled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| old.diagnostics()));
        assert!(cancelled.is_err_and(|p| p.is::<Cancelled>()));
        assert!(!host.change("b.pgn", Vec::new(), 1));
    }

    #[test]
    fn a_snapshot_answers_every_question() {
        let mut host = Host::new();
        let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5\n2. Nf3 Nc6 *\n";
        host.open("a.pgn", Kind::Pgn, text.to_owned(), 1, &Config::default());
        let s = host.snapshot("a.pgn").unwrap();
        let at = text.find("Nf3").unwrap();
        assert!(s.hover(at).is_some());
        assert!(s.board_at(at).is_some_and(|b| b.last_move.is_some_and(|m| m.english == "Nf3")));
        assert!(s.completions(text.len() - 2).is_none_or(|c| !c.items.is_empty()));
        assert_eq!(s.symbols(Unit::Utf16).len(), 1);
        assert_eq!(s.folds(None).len(), 2, "{:?}", s.folds(None));
        assert!(!s.highlights(None, Unit::Utf16).is_empty());
        assert_eq!(s.format(80).edits.len(), 1);
    }
}
