//! An open document: its text (a rope for positions, a string for the
//! parser) cut into sections of whole games (`syntax::split`), each with its
//! own tree and analysis, kept up to date edit by edit.
//!
//! An edit goes to the rope and the string at once. The sections it touches
//! are rescanned; a section that stays one section gets `Tree::edit` and a
//! reparse that reuses its old tree, and only its games are analysed
//! again. Sections after the edit only move. So a keystroke costs the same
//! in a 10 MB document as in a 10 KB one.
//!
//! Spans inside a section (its tree, its games' diagnostics) are relative to
//! the section's start; [`Document::diagnostics`] and the handlers add it.
//!
//! A manuscript ([`Kind::Markdown`], [`Kind::Text`], [`Kind::Latex`]) is
//! parsed through a blanked copy of its text (`syntax::manuscript`): only
//! its notation is left (runs in the prose, fenced ```` ```pgn ```` blocks,
//! `\mainline{...}`), at the same offsets, so every span is a position in
//! the real text. The rope and `text` keep the real text; sections are cut
//! from the blanked copy ([`Document::source`]), and each game of a section
//! starts where the manuscript says (see `document/manuscript.rs`).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use ropey::Rope;
use tree_sitter::{InputEdit, Point, Tree};

use super::settings::Filter;
use super::{highlight, intake};
use crate::analysis::{self, Diagnostic, GameReport, Options};
use crate::ide::line_index::Unit;
use crate::ide::outline::{self, Outline};
use crate::syntax::{self, kinds, split};

pub mod lines;
mod manuscript;
pub use lines::Kept;
pub use manuscript::{ChainedGame, SectionChain, check_manuscript};

/// How many sections keep their syntax tree between edits. A tree takes
/// tens of times its text's size; the sections being edited keep theirs for
/// incremental reparses, the others are parsed again (a section is a game or
/// so: well under a millisecond) when a request needs their tree.
const TREES_KEPT: usize = 64;

/// Whole games parsed on their own.
#[derive(Clone)]
pub struct Section {
    pub start: usize,
    pub len: usize,
    tree: Option<Tree>,
    /// When this section was last edited (for keeping recent trees).
    used: u64,
    /// The analysis of each game in the section, spans relative to `start`.
    pub games: Arc<Vec<GameReport>>,
    /// How many diagnostics its games have: kept beside the section, so
    /// that publishing a document of thousands of clean sections does not
    /// follow every section's `Arc` to learn that it has none.
    pub findings: usize,
    pub outline: Arc<Outline>,
    /// In a manuscript, where each game starts.
    pub chain: Option<Arc<SectionChain>>,
    /// Its highlights, once asked for (`ide::highlight`).
    pub highlights: highlight::KeptTokens,
    /// Its folds as lines from its first line, once asked for
    /// (`ide::outline::line_folds`).
    pub folds: outline::KeptFolds,
    /// Its symbols' places as lines from its first line, once asked for
    /// (`ide::outline::line_symbols`).
    pub symbols: outline::KeptSymbols,
    /// How many line breaks end in its text ([`lines::breaks_in`]): the
    /// line of a section's start is the sum over the sections before it.
    /// Counted by the document once the section is in place (with the
    /// section's length then).
    breaks: Option<(usize, u32)>,
    /// What the parser reads of a hostile section: its text with what
    /// [`intake::hidden`] finds (a run of more than [`intake::MAX_RUN`]
    /// bytes without a blank, variations nested too deep) blanked, as the
    /// command line's checker reads it; `None` for every usual section.
    blanked: Option<Arc<str>>,
    /// The syntax errors that say what was blanked (spans relative to
    /// `start`); those in a game are among its diagnostics too, in order.
    pub hidden: Vec<Diagnostic>,
    /// Left to parse and analyse by an edit applied with
    /// [`Document::apply_changes_unanalysed`]: the mark of that edit (its
    /// clock), so that an analysis made meanwhile is put in place only if
    /// no later edit replaced the section ([`Document::put_analysed`]).
    /// Its tree, if any, is the old one with the edits applied
    /// (`Tree::edit`) and not reparsed yet; it has no games and no outline.
    pending: Option<u64>,
}

impl Section {
    /// A section of notation over `range` with its games' analyses (no
    /// manuscript chain; its highlights computed when asked for).
    pub(super) fn new(
        range: Range<usize>,
        tree: Option<Tree>,
        used: u64,
        games: Vec<GameReport>,
        outline: Outline,
    ) -> Section {
        Section {
            start: range.start,
            len: range.len(),
            tree,
            used,
            findings: findings(&games),
            games: Arc::new(games),
            outline: Arc::new(outline),
            chain: None,
            highlights: Kept::default(),
            folds: Kept::default(),
            symbols: Kept::default(),
            breaks: None,
            blanked: None,
            hidden: Vec::new(),
            pending: None,
        }
    }

    /// A section an edit left to parse and analyse (see its `pending`).
    fn left_to_analyse(range: Range<usize>, tree: Option<Tree>, now: u64) -> Section {
        let mut section = Section::new(range, tree, now, Vec::new(), Outline::default());
        section.pending = Some(now);
        section
    }

    pub fn range(&self) -> Range<usize> {
        self.start..self.start + self.len
    }

    /// How many line breaks end in the section's text.
    pub fn breaks(&self) -> usize {
        self.breaks.map_or(0, |(_, n)| n as usize)
    }

    /// The syntax errors of what was hidden before the section's first game
    /// (the others are among their games' diagnostics).
    pub fn leading_hidden(&self) -> impl Iterator<Item = &Diagnostic> {
        let first = self.games.first().map(|g| g.span.start);
        self.hidden.iter().filter(move |d| first.is_none_or(|start| d.span.start < start))
    }

    /// The section's diagnostics, in order, with spans in the document.
    pub fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.leading_hidden().chain(self.games.iter().flat_map(|g| g.diagnostics.iter())).map(move |d| {
            let mut d = d.clone();
            d.shift(self.start as isize);
            d
        })
    }

    /// The section's own text, as the parser reads it (blanked outside the
    /// chess blocks of a Markdown document, and where [`intake::hidden`]
    /// finds hostile input).
    pub fn text<'d>(&'d self, doc: &'d Document) -> &'d str {
        match &self.blanked {
            Some(blanked) => blanked,
            None => &doc.source()[self.range()],
        }
    }

    /// The section's syntax tree (positions relative to the section): the kept
    /// one, or a fresh parse.
    pub fn tree(&self, doc: &Document) -> Tree {
        match &self.tree {
            Some(tree) => tree.clone(),
            None => syntax::parse(self.text(doc), None),
        }
    }
}

/// What a document is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Notation throughout (`*.pgn`).
    Pgn,
    /// Markdown: notation in fenced ```` ```pgn ```` / ```` ```chess ````
    /// blocks and in runs in the prose.
    Markdown,
    /// Plain text with runs of notation in the prose.
    Text,
    /// LaTeX: runs in the prose and xskak's `\mainline{...}`.
    Latex,
    /// HTML: runs in the page's text (tags skipped, references decoded).
    Html,
    /// Typst: runs in the prose and in raw blocks.
    Typst,
}

impl Kind {
    /// The kind of a document from its `languageId` and, when that says
    /// nothing known, only "plain text" or only "notation", its URI's
    /// extension: a client that sends one id for every file it serves
    /// (Emacs eglot sends `pgn` for a `.tex` chapter) still gets its
    /// manuscripts read as manuscripts. A `.pgn` file is notation whatever
    /// the id (Emacs eglot 1.9 sends every buffer the id of the first one
    /// that started the server: a game opened after a LaTeX chapter came
    /// as `latex`, and the moves in its comments were checked).
    pub fn detect(language_id: &str, uri: &str) -> Kind {
        let path = uri.split(['?', '#']).next().unwrap_or(uri);
        if path.rsplit_once('.').is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("pgn")) {
            return Kind::Pgn;
        }
        let by_extension = syntax::manuscript::Format::from_path(path).map(Kind::of_format);
        match language_id.to_ascii_lowercase().as_str() {
            "markdown" | "md" | "mdx" | "quarto" | "rmd" => Kind::Markdown,
            "latex" | "tex" | "plaintex" | "context" => Kind::Latex,
            "html" | "xhtml" => Kind::Html,
            "typst" | "typ" => Kind::Typst,
            "plaintext" | "text" | "txt" => by_extension.unwrap_or(Kind::Text),
            _ => by_extension.unwrap_or(Kind::Pgn),
        }
    }

    /// The kind a document is read as in a project whose `[manuscript]
    /// all` is set (`--manuscript`): notation is read as plain text, as the
    /// command line reads every file there.
    pub fn in_project(self, all_manuscripts: bool) -> Kind {
        if all_manuscripts && self == Kind::Pgn { Kind::Text } else { self }
    }

    /// The kind of a file read as notation (`None`) or as a manuscript.
    pub fn from_manuscript(format: Option<syntax::manuscript::Format>) -> Kind {
        format.map_or(Kind::Pgn, Kind::of_format)
    }

    fn of_format(format: syntax::manuscript::Format) -> Kind {
        match format {
            syntax::manuscript::Format::Text => Kind::Text,
            syntax::manuscript::Format::Markdown => Kind::Markdown,
            syntax::manuscript::Format::Latex => Kind::Latex,
            syntax::manuscript::Format::Html => Kind::Html,
            syntax::manuscript::Format::Typst => Kind::Typst,
        }
    }

    /// The manuscript format of a kind; `None` for notation.
    pub fn manuscript(self) -> Option<syntax::manuscript::Format> {
        match self {
            Kind::Pgn => None,
            Kind::Markdown => Some(syntax::manuscript::Format::Markdown),
            Kind::Text => Some(syntax::manuscript::Format::Text),
            Kind::Latex => Some(syntax::manuscript::Format::Latex),
            Kind::Html => Some(syntax::manuscript::Format::Html),
            Kind::Typst => Some(syntax::manuscript::Format::Typst),
        }
    }
}

/// Cloning is cheap enough to do on an edit while requests still read the
/// old version (the language server's snapshots): the rope is shared, each
/// section's analysis is behind an `Arc`, only the text is copied.
#[derive(Clone)]
pub struct Document {
    pub version: i32,
    pub rope: Rope,
    pub text: String,
    pub sections: Vec<Section>,
    clock: u64,
    /// Sections parsed and analysed again by the last update (for tests and
    /// benchmarks).
    pub last_reanalysed: usize,
    /// For a manuscript, what the parser reads.
    manuscript: Option<manuscript::View>,
    /// For notation with a lone `\r`, what the parser reads
    /// (`intake::parser_view`); `None` when that is the text itself.
    view: Option<String>,
    /// The project's `ignore`, `select` and severities: applied to every
    /// finding the document gives out (published, fixed, shown in a hover
    /// or the board view), so no front end can apply them differently.
    /// Changing it re-analyses nothing.
    filter: Arc<Filter>,
    /// The analysis options its analyses were made with (the last open,
    /// edit or settings change): what is at a position is replayed with
    /// them too, so a hover reads a game as its findings did.
    options: Arc<Options>,
}

/// A change as the protocol gives it, already in byte offsets.
pub struct ByteChange {
    pub range: Option<Range<usize>>,
    pub text: String,
}

/// Parses and analyses one section of `text`.
fn build_section(
    text: &str,
    range: Range<usize>,
    old: Option<&Tree>,
    options: &Options,
    keep: bool,
    used: u64,
) -> Section {
    // Hostile input (a 16 MB token, a million nested variations) is not
    // shown to the grammar, as on the command line: the section's parser
    // text has it blanked, and a syntax error says so. Such a section
    // keeps no tree, so an edit in it parses it afresh.
    let (checked, hidden) = intake::checked_view(&text[range.clone()]);
    let blanked: Option<Arc<str>> = match checked {
        Cow::Owned(blanked) => Some(Arc::from(blanked)),
        Cow::Borrowed(_) => None,
    };
    let hidden: Vec<Diagnostic> =
        hidden.into_iter().map(|(span, message)| Diagnostic::new(analysis::Code::Syntax, span, message)).collect();
    let keep = keep && blanked.is_none() && hidden.is_empty();
    let source = blanked.as_deref().unwrap_or(&text[range.clone()]);
    let with_hidden = |mut section: Section| {
        section.blanked = blanked.clone();
        section.hidden = hidden.clone();
        section.findings += section.leading_hidden().count();
        section
    };
    if !keep && let Some((lowered, long_comments)) = syntax::fast::lower_fast_with_comments(source) {
        // No tree is kept for this section anyway: the fast path gives the
        // same games without building one.
        let mut games: Vec<GameReport> = lowered.iter().map(|g| analysis::analyze_game(g, source, options)).collect();
        place_hidden(&mut games, &hidden);
        let outline = outline::outline_without_tree(&lowered, &long_comments, source);
        return with_hidden(Section::new(range, None, used, games, outline));
    }
    let mut tree = syntax::parse(source, old);
    if old.is_some() && tree.root_node().has_error() {
        // Error recovery after an incremental reparse may read junk
        // differently from a fresh parse (found by fuzzing: whole games
        // merged into one); a section with errors is parsed afresh, so that an
        // edited document always reads as a fresh open of its text. A section
        // is a game or so: the second parse costs well under a millisecond.
        tree = syntax::parse(source, None);
    }
    let lowered = syntax::lower(&tree, source);
    let mut games: Vec<GameReport> = lowered.iter().map(|g| analysis::analyze_game(g, source, options)).collect();
    place_hidden(&mut games, &hidden);
    let outline = outline::outline(&tree, &lowered, source);
    with_hidden(Section::new(range, keep.then_some(tree), used, games, outline))
}

/// Puts the syntax errors of what was hidden among the diagnostics of the
/// game they stand in (the last one starting before), in order, as the
/// command line reports them; those before every game stay in
/// [`Section::hidden`] only (see [`Section::leading_hidden`]).
fn place_hidden(games: &mut [GameReport], hidden: &[Diagnostic]) {
    for d in hidden {
        let holder = games.partition_point(|g| g.span.start <= d.span.start);
        if let Some(game) = holder.checked_sub(1).map(|i| &mut games[i]) {
            let at = game.diagnostics.partition_point(|e| e.span.start <= d.span.start);
            game.diagnostics.insert(at, d.clone());
        }
    }
}

/// How many diagnostics some games have.
fn findings(games: &[GameReport]) -> usize {
    games.iter().map(|g| g.diagnostics.len()).sum()
}

/// Builds every section of a text cut at `starts`, on every core.
fn build_all(text: &str, starts: &[usize], options: &Options) -> Vec<Section> {
    let ranges: Vec<Range<usize>> =
        starts.iter().enumerate().map(|(i, &s)| s..starts.get(i + 1).copied().unwrap_or(text.len())).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(ranges.len()).max(1);
    if threads == 1 || text.len() < 1 << 20 {
        return ranges.into_iter().map(|r| build_section(text, r, None, options, false, 0)).collect();
    }
    let chunk = ranges.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .chunks(chunk)
            .map(|rs| {
                scope.spawn(move || {
                    rs.iter().map(|r| build_section(text, r.clone(), None, options, false, 0)).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

/// The sections an edit left to parse and analyse, taken out of the
/// document (their text copied, a section being a game or so) so that they
/// can be analysed without holding it ([`Document::unanalysed`]).
pub struct Unanalysed {
    sections: Vec<UnanalysedSection>,
}

struct UnanalysedSection {
    index: usize,
    start: usize,
    mark: u64,
    text: String,
    tree: Option<Tree>,
}

/// Sections parsed and analysed from an [`Unanalysed`], to be put in place
/// with [`Document::put_analysed`].
pub struct Analysed {
    sections: Vec<(usize, u64, Section)>,
}

impl Unanalysed {
    /// Parses and analyses the sections, as an edit applied with
    /// [`Document::apply_changes`] would have (the same `build_section`).
    pub fn analyse(self, options: &Options) -> Analysed {
        let sections = self
            .sections
            .into_iter()
            .map(|s| {
                let mut section = build_section(&s.text, 0..s.text.len(), s.tree.as_ref(), options, true, s.mark);
                section.start = s.start;
                (s.index, s.mark, section)
            })
            .collect();
        Analysed { sections }
    }
}

impl Document {
    /// The sections left to parse and analyse by
    /// [`Document::apply_changes_unanalysed`], if any.
    pub fn unanalysed(&self) -> Option<Unanalysed> {
        let source = self.view.as_deref().unwrap_or(&self.text);
        let sections: Vec<UnanalysedSection> = self
            .sections
            .iter()
            .enumerate()
            .filter_map(|(index, section)| {
                Some(UnanalysedSection {
                    index,
                    start: section.start,
                    mark: section.pending?,
                    text: source[section.range()].to_owned(),
                    tree: section.tree.clone(),
                })
            })
            .collect();
        (!sections.is_empty()).then_some(Unanalysed { sections })
    }

    /// Whether no section is left to parse and analyse.
    pub fn is_analysed(&self) -> bool {
        self.sections.iter().all(|s| s.pending.is_none())
    }

    /// Whether `analysed` can be put in place: every section it holds is
    /// still the one it was made from (no edit replaced or moved it since).
    pub fn takes(&self, analysed: &Analysed) -> bool {
        analysed.sections.iter().all(|(index, mark, section)| {
            self.sections
                .get(*index)
                .is_some_and(|s| s.pending == Some(*mark) && s.start == section.start && s.len == section.len)
        })
    }

    /// Puts the sections of `analysed` in place, if it [`takes`](Document::takes)
    /// them (otherwise nothing changes); returns whether it did.
    pub fn put_analysed(&mut self, analysed: Analysed) -> bool {
        if !self.takes(&analysed) {
            return false;
        }
        self.last_reanalysed += analysed.sections.len();
        for (index, _, section) in analysed.sections {
            self.sections[index] = section;
        }
        self.count_lines(None);
        self.forget_old_trees();
        true
    }

    /// Opens a notation (PGN) document.
    pub fn open(text: String, version: i32, options: &Options) -> Document {
        Document::open_as(Kind::Pgn, text, version, options)
    }

    pub fn open_as(kind: Kind, text: String, version: i32, options: &Options) -> Document {
        if kind != Kind::Pgn {
            return Document::open_manuscript(kind, text, version, options);
        }
        let rope = Rope::from_str(&text);
        let view = match intake::parser_view(&text) {
            Cow::Owned(view) => Some(view),
            Cow::Borrowed(_) => None,
        };
        let source = view.as_deref().unwrap_or(&text);
        let sections = build_all(source, &split::section_starts(source), options);
        let last_reanalysed = sections.len();
        let mut doc = Document {
            version,
            rope,
            text,
            sections,
            clock: 0,
            last_reanalysed,
            manuscript: None,
            view,
            filter: Arc::default(),
            options: Arc::new(options.clone()),
        };
        doc.count_lines(None);
        doc
    }

    /// Counts the line breaks of the sections not counted yet and of those
    /// around `changed` (where the text was just edited, in the new text),
    /// and forgets what the sections whose text changed kept of their
    /// lines: a break's count depends on the byte after a section too.
    fn count_lines(&mut self, changed: Option<Range<usize>>) {
        let text = &self.text;
        for section in &mut self.sections {
            let (s, e) = (section.start, section.start + section.len);
            let touches = changed.as_ref().is_some_and(|c| s <= c.end && c.start <= e);
            if section.breaks.is_some_and(|(len, _)| len == section.len) && !touches {
                continue;
            }
            if let Some(c) = &changed {
                let edited = (s < c.end && c.start < e) || (c.is_empty() && s < c.start && c.start < e);
                if edited {
                    section.highlights.clear();
                    section.folds.clear();
                    section.symbols.clear();
                }
            }
            section.breaks = Some((section.len, lines::breaks_in(text, s..e.min(text.len()))));
        }
    }

    /// The line each section starts on, in order.
    pub fn section_lines(&self) -> impl Iterator<Item = usize> + '_ {
        self.sections.iter().scan(0, |line, section| {
            let at = *line;
            *line += section.breaks();
            Some(at)
        })
    }

    /// The line and column of a section's start, given its line (from
    /// [`Document::section_lines`]): no look-up in the rope when the
    /// section starts a line, as almost every section does.
    pub fn section_position(&self, section: &Section, line: usize, unit: Unit) -> (usize, usize) {
        if lines::starts_line(&self.text, section.start) {
            (line, 0)
        } else {
            (line, self.position(section.start, unit).1)
        }
    }

    pub fn kind(&self) -> Kind {
        self.manuscript.as_ref().map_or(Kind::Pgn, |view| view.kind)
    }

    /// Where notation stands in a manuscript (runs, macros, fenced
    /// blocks), in order; empty for notation.
    pub fn manuscript_units(&self) -> &[syntax::manuscript::Unit] {
        self.manuscript.as_ref().map_or(&[], |view| &view.ms.units)
    }

    /// The text the parser reads: the text itself, or for a manuscript the
    /// text blanked outside its notation (same offsets, same lines).
    pub fn source(&self) -> &str {
        match &self.manuscript {
            Some(view) => &view.ms.blanked,
            None => self.view.as_deref().unwrap_or(&self.text),
        }
    }

    /// Whether an offset is inside notation: anywhere in a PGN document; in
    /// a manuscript, inside its notation or typing on after a run.
    pub fn in_notation(&self, offset: usize) -> bool {
        match &self.manuscript {
            None => true,
            Some(view) => view.ms.in_notation(&self.text, offset),
        }
    }

    /// Whether a whole span is notation (an edit there edits no prose).
    pub fn in_notation_span(&self, span: &Range<usize>) -> bool {
        match &self.manuscript {
            None => true,
            Some(view) => view.ms.in_notation_span(span),
        }
    }

    pub fn reanalyse_all(&mut self, options: &Options) {
        self.remember_options(options);
        if self.manuscript.is_some() {
            self.rebuild_manuscript(options);
            return;
        }
        if let Some(unanalysed) = self.unanalysed() {
            let analysed = unanalysed.analyse(options);
            self.put_analysed(analysed);
        }
        let source = self.view.as_deref().unwrap_or(&self.text);
        for section in &mut self.sections {
            let source = section.blanked.as_deref().unwrap_or(&source[section.start..section.start + section.len]);
            let tree = match &section.tree {
                Some(tree) => tree.clone(),
                None => syntax::parse(source, None),
            };
            let mut games: Vec<GameReport> =
                syntax::lower(&tree, source).iter().map(|g| analysis::analyze_game(g, source, options)).collect();
            place_hidden(&mut games, &section.hidden);
            section.findings = findings(&games) + section.leading_hidden().count();
            section.games = Arc::new(games);
        }
        self.last_reanalysed = self.sections.len();
    }

    /// Applies the changes of one `didChange`, in order.
    pub fn apply_changes(&mut self, changes: Vec<ByteChange>, version: i32, options: &Options) {
        self.apply(changes, version, options, false);
    }

    /// Applies the changes of one `didChange` to the text, the sections and
    /// the trees only: in a notation document, the sections they touch are
    /// left to parse and analyse ([`Document::unanalysed`]), so that a burst
    /// of edits analyses only the version whose diagnostics are wanted. The
    /// document gives out no finding, outline or tree of those sections
    /// until they are analysed ([`Document::put_analysed`]). A manuscript
    /// (whose games start where the games before them end) and a change of
    /// the whole text are analysed at once, as [`Document::apply_changes`]
    /// does.
    pub fn apply_changes_unanalysed(&mut self, changes: Vec<ByteChange>, version: i32, options: &Options) {
        self.apply(changes, version, options, true);
    }

    fn apply(&mut self, changes: Vec<ByteChange>, version: i32, options: &Options, later: bool) {
        self.last_reanalysed = 0;
        self.remember_options(options);
        for change in changes {
            match change.range {
                None => {
                    let filter = self.filter.clone();
                    *self = Document::open_as(self.kind(), change.text, version, options);
                    self.filter = filter;
                }
                Some(range) => {
                    let start = floor_boundary(&self.text, range.start.min(self.text.len()));
                    self.apply_one(range, &change.text, options, later);
                    self.count_lines(Some(start..start + change.text.len()));
                }
            }
        }
        self.version = version;
    }

    fn apply_one(&mut self, range: Range<usize>, new_text: &str, options: &Options, later: bool) {
        let start = floor_boundary(&self.text, range.start.min(self.text.len()));
        let end = floor_boundary(&self.text, range.end.clamp(start, self.text.len()));
        if self.manuscript.is_some() {
            self.apply_manuscript(start..end, new_text, options);
            return;
        }
        let start_char = self.rope.byte_to_char(start);
        let end_char = self.rope.byte_to_char(end);
        // Points for `Tree::edit`, taken before the text changes.
        let start_point = self.point(start);
        let old_end_point = self.point(end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, new_text);
        self.text.replace_range(start..end, new_text);
        let new_end = start + new_text.len();
        match &mut self.view {
            Some(view) => {
                view.replace_range(start..end, new_text);
                intake::patch_view(&self.text, view, start..new_end);
            }
            None if intake::has_lone_cr_near(&self.text, start..new_end) => {
                self.view = Some(intake::parser_view(&self.text).into_owned());
            }
            None => {}
        }
        let source = self.view.as_deref().unwrap_or(&self.text);
        let delta = new_end as isize - end as isize;
        let shift = |x: usize| (x as isize + delta) as usize;

        // The sections the edit touches: the one holding `start` (and the one
        // before, when the edit is in the blanks a section starts with or at
        // its first character, since it may unmake that boundary: a cut
        // after a result looks that far ahead) through the one holding `end`.
        let holding = |offset: usize| self.sections.partition_point(|p| p.start <= offset).saturating_sub(1);
        let mut lo = holding(start);
        if lo > 0 && source.as_bytes()[self.sections[lo].start..start].iter().all(u8::is_ascii_whitespace) {
            lo -= 1;
        }
        let hi = holding(end);
        let region_start = self.sections[lo].start;

        // Rescan from the first touched section until a boundary meets an old
        // section start after the edit: from there on nothing changes.
        let old_starts: Vec<usize> = self.sections[hi + 1..].iter().map(|p| shift(p.start)).collect();
        let mut new_starts = vec![region_start];
        let mut resume: Option<usize> = None;
        let mut next_old = 0;
        split::scan(source, region_start, |s| {
            while next_old < old_starts.len() && old_starts[next_old] < s {
                next_old += 1;
            }
            if next_old < old_starts.len() && old_starts[next_old] == s && s >= new_end {
                resume = Some(hi + 1 + next_old);
                return false;
            }
            new_starts.push(s);
            true
        });
        let region_end = match resume {
            Some(j) => shift(self.sections[j].start),
            None => self.text.len(),
        };
        let replaced_end = resume.unwrap_or(self.sections.len());

        // A section that stays one section reuses its tree.
        let reuse = lo == hi && new_starts.len() == 1 && replaced_end == hi + 1 && self.sections[lo].tree.is_some();
        let mut rebuilt: Vec<Section> = Vec::with_capacity(new_starts.len());
        self.clock += 1;
        let now = self.clock;
        if reuse {
            let section = &self.sections[lo];
            let Some(mut tree) = section.tree.clone() else { unreachable!("checked above") };
            let base_row = self.rope.byte_to_line(section.start);
            let rel = |p: Point| Point { row: p.row - base_row, column: p.column };
            tree.edit(&InputEdit {
                start_byte: start - section.start,
                old_end_byte: end - section.start,
                new_end_byte: new_end - section.start,
                start_position: rel(start_point),
                old_end_position: rel(old_end_point),
                new_end_position: rel(advance(start_point, new_text)),
            });
            if later {
                rebuilt.push(Section::left_to_analyse(region_start..region_end, Some(tree), now));
            } else {
                rebuilt.push(build_section(source, region_start..region_end, Some(&tree), options, true, now));
            }
        } else {
            for (i, &s) in new_starts.iter().enumerate() {
                let e = new_starts.get(i + 1).copied().unwrap_or(region_end);
                if later {
                    rebuilt.push(Section::left_to_analyse(s..e, None, now));
                } else {
                    rebuilt.push(build_section(source, s..e, None, options, true, now));
                }
            }
        }
        if !later {
            self.last_reanalysed += rebuilt.len();
        }
        for section in &mut self.sections[replaced_end..] {
            section.start = shift(section.start);
        }
        self.sections.splice(lo..replaced_end, rebuilt);
        self.forget_old_trees();
    }

    /// Keeps the trees of the most recently edited sections only.
    fn forget_old_trees(&mut self) {
        let kept = self.sections.iter().filter(|p| p.tree.is_some()).count();
        if kept <= TREES_KEPT {
            return;
        }
        let mut ages: Vec<u64> = self.sections.iter().filter(|p| p.tree.is_some()).map(|p| p.used).collect();
        ages.sort_unstable();
        let cutoff = ages[kept - TREES_KEPT];
        for section in &mut self.sections {
            if section.used < cutoff {
                section.tree = None;
            }
        }
    }

    /// The analysis options the document's analyses were made with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    fn remember_options(&mut self, options: &Options) {
        if *self.options != *options {
            self.options = Arc::new(options.clone());
        }
    }

    /// The project's filter of findings ([`Document::set_filter`]).
    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// Sets which findings the document reports and at which severity (a
    /// project's `ignore`, `select` and `[severity]`). Nothing is analysed
    /// again: the findings are filtered as they are given out.
    pub fn set_filter(&mut self, filter: Filter) {
        if *self.filter != filter {
            self.filter = Arc::new(filter);
        }
    }

    /// Every diagnostic of the document, in order, with absolute spans, as
    /// the project's filter reports them.
    pub fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.sections
            .iter()
            .filter(|section| section.findings > 0)
            .flat_map(Section::diagnostics)
            .filter_map(|d| self.filter.reported(d))
    }

    /// The diagnostics that touch `span` (it may be empty: a cursor), from
    /// the sections around it only, with absolute spans.
    pub fn diagnostics_in(&self, span: Range<usize>) -> impl Iterator<Item = Diagnostic> + '_ {
        // A diagnostic may reach a little outside its section (a manuscript's
        // repair), so the sections on both sides are looked at too.
        let first = self.sections.partition_point(|s| s.start + s.len < span.start).saturating_sub(1);
        let last = self.sections.partition_point(|s| s.start <= span.end).saturating_add(1).min(self.sections.len());
        self.sections[first.min(last)..last]
            .iter()
            .flat_map(|section| {
                section.leading_hidden().chain(section.games.iter().flat_map(|g| g.diagnostics.iter())).map(move |d| {
                    let mut d = d.clone();
                    d.shift(section.start as isize);
                    d
                })
            })
            .filter(move |d| !(d.span.start > span.end || d.span.end < span.start))
            .filter_map(|d| self.filter.reported(d))
    }

    /// The span (in the document) of the game that holds `offset`, if any.
    pub fn game_at(&self, offset: usize) -> Option<Range<usize>> {
        let section = self.section_at(offset);
        section
            .games
            .iter()
            .map(|g| g.span.start + section.start..g.span.end + section.start)
            .find(|span| span.start <= offset && offset <= span.end)
    }

    /// The number of games in the document.
    pub fn game_count(&self) -> usize {
        self.sections.iter().map(|p| p.games.len()).sum()
    }

    /// The tree-sitter point (row, byte column) of a byte offset.
    fn point(&self, offset: usize) -> Point {
        let line = self.rope.byte_to_line(offset);
        Point { row: line, column: offset - self.rope.line_to_byte(line) }
    }

    /// Byte offset of an LSP position (0-based line, column in `unit`);
    /// a column past the line's end clamps to the end, a line past the
    /// document's end to the document's end.
    pub fn offset(&self, line: usize, column: usize, unit: Unit) -> usize {
        if line >= self.rope.len_lines() {
            return self.text.len();
        }
        let line_start = self.rope.line_to_byte(line);
        let mut counted = 0;
        let mut bytes = 0;
        for ch in self.rope.line(line).chars() {
            if counted >= column || ch == '\n' || ch == '\r' {
                break;
            }
            counted += unit.width(ch);
            bytes += ch.len_utf8();
        }
        line_start + bytes
    }

    /// The LSP position (0-based line, column in `unit`) of a byte offset.
    pub fn position(&self, offset: usize, unit: Unit) -> (usize, usize) {
        let offset = floor_boundary(&self.text, offset.min(self.text.len()));
        let line = self.rope.byte_to_line(offset);
        let line_start = self.rope.line_to_byte(line);
        let column = match unit {
            Unit::Utf8 => offset - line_start,
            Unit::Char => self.rope.byte_to_char(offset) - self.rope.line_to_char(line),
            Unit::Utf16 => {
                let c = self.rope.byte_to_char(offset);
                let l = self.rope.line_to_char(line);
                self.rope.char_to_utf16_cu(c) - self.rope.char_to_utf16_cu(l)
            }
        };
        (line, column)
    }

    /// The section that holds a byte offset (the last section for the end).
    pub fn section_at(&self, offset: usize) -> &Section {
        let i = self.sections.partition_point(|p| p.start <= offset).saturating_sub(1);
        &self.sections[i]
    }

    /// The game node around an offset, with the section it is in: the last
    /// game starting at or before the offset.
    /// (Its range is relative to the section.)
    pub fn game_before(&self, offset: usize) -> Option<(&Section, Range<usize>)> {
        // The blanks after a game's result may begin the next section (a
        // piece starts right after the result of a bare game): the game
        // before is then the last one of a section before.
        let at = self.sections.partition_point(|p| p.start <= offset).saturating_sub(1);
        for (i, section) in self.sections[..=at.min(self.sections.len().saturating_sub(1))].iter().enumerate().rev() {
            let local = if i == at { offset - section.start } else { section.len };
            let tree = section.tree(self);
            let root = tree.root_node();
            let mut cursor = root.walk();
            let game = root.children(&mut cursor).filter(|n| n.kind() == kinds::GAME && n.start_byte() <= local).last();
            if let Some(game) = game {
                return Some((section, game.byte_range()));
            }
            // Only blanks between the offset and the section's start look
            // back further (a section holding text but no game does not).
            if !self.text.as_bytes()[section.start..section.start + local.min(section.len)]
                .iter()
                .all(u8::is_ascii_whitespace)
            {
                return None;
            }
        }
        None
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The point after inserting `text` at `start`.
fn advance(start: Point, text: &str) -> Point {
    let mut row = start.row;
    let mut column = start.column;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                row += 1;
                column = 0;
            }
            b'\r' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                row += 1;
                column = 0;
            }
            _ => column += 1,
        }
        i += 1;
    }
    Point { row, column }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::manuscript::StartKind;

    fn edit(doc: &mut Document, start: usize, end: usize, text: &str) {
        doc.apply_changes(
            vec![ByteChange { range: Some(start..end), text: text.to_owned() }],
            doc.version + 1,
            &Options::default(),
        );
    }

    fn same_as_fresh(doc: &Document) {
        let fresh = Document::open_as(doc.kind(), doc.text.clone(), 1, &Options::default());
        assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>());
        let starts = |d: &Document| d.sections.iter().map(|p| (p.start, p.len)).collect::<Vec<_>>();
        assert_eq!(starts(doc), starts(&fresh));
        let outlines = |d: &Document| d.sections.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
        assert_eq!(outlines(doc), outlines(&fresh));
        assert_eq!(doc.rope.to_string(), doc.text);
        assert_eq!(doc.source(), fresh.source());
        same_lines_as_fresh(doc, &fresh);
    }

    /// What is kept of the sections' lines (their starts' lines, their
    /// highlights and folds, kept across the edits of `doc`) is what the
    /// rope and a fresh open of the same text give.
    pub(crate) fn same_lines_as_fresh(doc: &Document, fresh: &Document) {
        let lines: Vec<usize> = doc.section_lines().collect();
        let rope: Vec<usize> = doc.sections.iter().map(|s| doc.rope.byte_to_line(s.start)).collect();
        assert_eq!(lines, rope, "section lines");
        for unit in [Unit::Utf16, Unit::Utf8] {
            let tokens = |d: &Document| {
                d.sections
                    .iter()
                    .zip(d.section_lines())
                    .flat_map(|(s, line)| {
                        assert_eq!(d.section_position(s, line, unit), d.position(s.start, unit));
                        let (line, column) = d.position(s.start, unit);
                        highlight::section_tokens(d, s, unit)
                            .iter()
                            .map(|t| {
                                (
                                    line + t.line as usize,
                                    if t.line == 0 { column + t.column as usize } else { t.column as usize },
                                    t.length,
                                    t.kind,
                                )
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(tokens(doc), tokens(fresh), "highlights in {unit:?}");
        }
        let folds = |d: &Document| {
            d.sections
                .iter()
                .zip(d.section_lines())
                .flat_map(|(s, line)| {
                    outline::line_folds(d, s)
                        .iter()
                        .map(|f| (line + f.start as usize, line + f.end as usize, f.kind))
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(folds(doc), folds(fresh), "folds");
    }

    #[test]
    fn edits_reanalyse_only_the_touched_piece_and_match_a_fresh_open() {
        let games: Vec<String> = (0..20).map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n")).collect();
        let text = games.concat();
        let mut doc = Document::open(text.clone(), 1, &Options::default());
        assert_eq!(doc.sections.len(), 20);
        assert!(doc.diagnostics().next().is_none());
        let at = text.find("Nf3").unwrap() + games[0].len() * 5;
        edit(&mut doc, at, at + 3, "Nf5");
        assert_eq!(doc.last_reanalysed, 1);
        let a: Vec<_> = doc.diagnostics().collect();
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(a[0].code, crate::analysis::Code::IllegalMove);
        same_as_fresh(&doc);
        // A line before everything: every later span shifts.
        edit(&mut doc, 0, 0, "\n");
        same_as_fresh(&doc);
        // Break a boundary (delete a tag's `[`), then make it again. The
        // line left is bare movetext after a result: the piece now starts
        // right after that result.
        let sections = doc.sections.len();
        let at = doc.text.find("[Event \"7\"]").unwrap();
        edit(&mut doc, at, at + 1, "");
        assert_eq!(doc.sections.len(), sections);
        assert!(doc.sections.iter().all(|s| s.start != at), "the tag line no longer starts a piece");
        same_as_fresh(&doc);
        edit(&mut doc, at, at, "[");
        assert_eq!(doc.sections.len(), sections);
        same_as_fresh(&doc);
        // An unclosed comment swallows the boundaries after it.
        let at = doc.text.find("[Event \"3\"]").unwrap() + 14;
        edit(&mut doc, at, at, "{");
        same_as_fresh(&doc);
    }

    const RU_GAME: &str = include_str!("../../../../tests/fixtures/ru-errors.pgn");

    fn book() -> String {
        format!(
            "# Глава 1\n\nПосле 1. e4 e5 2. Кf3 белые грозят; ход Кd2 здесь не ошибка, и 16. Кf3 тоже.\nInline `Кd2` and [a link](x.pgn).\n\n```pgn\n{RU_GAME}\n```\n\nПроза после партии: e4, Nf3, 1-0.\n\n```python\nprint(\"1. e4 e5 2. Ke2\")\n```\n"
        )
    }

    fn markdown(text: &str) -> Document {
        Document::open_as(Kind::Markdown, text.to_owned(), 1, &Options::default())
    }

    #[test]
    fn markdown_is_checked_in_its_chess_blocks_and_runs_at_the_real_positions() {
        use crate::analysis::Code;
        let text = book();
        let doc = markdown(&text);
        assert_eq!(doc.source().len(), text.len());
        let found: Vec<(Code, &str)> = doc.diagnostics().map(|d| (d.code, &text[d.span.clone()])).collect();
        // The runs in the prose: `1. e4 e5 2. Кf3` replays from the start;
        // `16. Кf3` starts where no game of the chapter has been, so it is
        // only said to be unchecked. Then the game in the block.
        assert_eq!(found, [(Code::Unchecked, "16."), (Code::AmbiguousMove, "Кd2"), (Code::IllegalMove, "Кf3")]);
        let ds: Vec<Diagnostic> = doc.diagnostics().skip(1).collect();
        let block = text.find("```pgn").unwrap();
        assert_eq!(ds[0].span.start, block + text[block..].find("Кd2").unwrap());
        assert_eq!(ds[1].span.start, block + text[block..].find("Кf3 *").unwrap());
        // The preferred fix edits the real text in the block.
        let fix = ds[0].fixes.iter().find(|f| f.preferred).unwrap();
        assert_eq!(fix.edits[0].span, ds[0].span);
        assert_eq!(fix.edits[0].new_text, "Кbd2");
        assert_eq!(doc.game_count(), 3);
        assert!(!doc.in_notation(text.find("Кd2").unwrap()), "prose");
        assert!(doc.in_notation(ds[0].span.start));
        // The same text read as PGN is full of errors.
        assert!(Document::open(text.clone(), 1, &Options::default()).diagnostics().count() > 2);
    }

    #[test]
    fn markdown_games_continue_across_blocks_and_restart_at_move_one() {
        let text = "```pgn\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n```\n\nThe Spanish.\n\n```pgn\n3... a6 4. Ba4 Nf6 *\n```\n\nThe Italian:\n\n```chess\n1. e4 e5 2. Nf3 Nc6 3. Bc4\n```\n\n~~~pgn\n[Event \"x\"]\n\n1. d4 d5 2. Кf3 Кf6 3. Кd2 *\n~~~\n";
        let doc = markdown(text);
        let found: Vec<_> = doc.diagnostics().map(|d| (d.code, &text[d.span.clone()])).collect();
        assert_eq!(found, [(crate::analysis::Code::AmbiguousMove, "Кd2")]);
        // The fence line, then each block with the prose after it.
        assert_eq!(doc.sections.iter().map(|p| p.games.len()).collect::<Vec<_>>(), [0, 1, 1, 1, 1]);
        let kinds: Vec<StartKind> =
            doc.sections[1..].iter().map(|p| p.chain.as_ref().unwrap().games[0].start().kind).collect();
        assert_eq!(kinds, [StartKind::Initial, StartKind::Continues, StartKind::Initial, StartKind::Written]);
        // A move in the prose is a game of its own.
        let prose = markdown("No games here, only 1. e4 in prose.\n");
        assert_eq!(prose.diagnostics().count(), 0);
        assert_eq!(prose.game_count(), 1);
        assert_eq!(markdown("No moves: e4, Nf3 and 1995.\n").game_count(), 0);
    }

    #[test]
    fn markdown_edits_reanalyse_what_changed_and_match_a_fresh_open() {
        let text = format!("Intro 1. e4.\n\n```pgn\n1. e4 e5 2. Nf3 Nc6 *\n```\n\nProse.\n\n{}", book());
        let mut doc = markdown(&text);
        let sections = doc.sections.len();
        // In a block: only that section, with its tree.
        let at = doc.text.find("Nc6 *").unwrap();
        edit(&mut doc, at, at + 3, "Nc5");
        assert_eq!(doc.last_reanalysed, 1);
        assert_eq!(doc.diagnostics().filter(|d| d.code == crate::analysis::Code::IllegalMove).count(), 2);
        same_as_fresh(&doc);
        // Typing in prose that holds no moves: no game is parsed again.
        let at = doc.text.find("Prose.").unwrap();
        edit(&mut doc, at, at + 6, "Ke2 1.");
        assert_eq!(doc.last_reanalysed, 0, "same blanked text");
        edit(&mut doc, at, at + 6, "More prose, longer now.");
        assert_eq!(doc.last_reanalysed, 0, "the blank text after a block only moves");
        // Moves typed into the prose: only their new section.
        edit(&mut doc, at, at + 23, "Ke2 1. e4!\n\nMore prose.");
        assert_eq!(doc.last_reanalysed, 1, "only the new run");
        assert_eq!(doc.section_at(at + 5).games.len(), 1);
        assert_eq!(doc.sections.len(), sections + 1);
        same_as_fresh(&doc);
        edit(&mut doc, at, at + 10, "Prose.");
        assert_eq!(doc.sections.len(), sections);
        same_as_fresh(&doc);
        // Break the first closing fence: the block runs on through the
        // prose up to the next fence, which now opens nothing...
        let at = doc.text.find("*\n```").unwrap() + 2;
        edit(&mut doc, at, at + 1, "");
        same_as_fresh(&doc);
        // ...and mend it.
        edit(&mut doc, at, at, "`");
        same_as_fresh(&doc);
        assert_eq!(doc.sections.len(), sections);
        // A new block typed into the prose, in steps.
        let at = doc.text.find("Проза после").unwrap();
        for (i, step) in ["`", "``", "pgn\n", "1. d4 ", "d5 2. Кf3 Кf6 3. Кd2", "\n```\n"].iter().enumerate() {
            let at = at
                + ["`", "``", "pgn\n", "1. d4 ", "d5 2. Кf3 Кf6 3. Кd2"].iter().take(i).map(|s| s.len()).sum::<usize>();
            edit(&mut doc, at, at, step);
            same_as_fresh(&doc);
        }
        assert_eq!(doc.diagnostics().filter(|d| d.code == crate::analysis::Code::AmbiguousMove).count(), 2);
        // Prose turned into an empty block of the same shape changes no text
        // the parser reads, but the sections.
        let at = doc.text.find("Проза после").unwrap();
        edit(&mut doc, at, at, "aaaaaa\n\nbbb\n");
        edit(&mut doc, at, at + 12, "```pgn\n\n```\n");
        same_as_fresh(&doc);
        // A whole-document replacement stays Markdown.
        doc.apply_changes(vec![ByteChange { range: None, text: book() }], doc.version + 1, &Options::default());
        assert_eq!(doc.kind(), Kind::Markdown);
        assert_eq!(doc.diagnostics().count(), 3);
    }

    #[test]
    fn markdown_random_edits_match_a_fresh_open() {
        const SNIPPETS: &[&str] = &[
            "",
            " ",
            "\n",
            "\r\n",
            "```",
            "```pgn\n",
            "```\n",
            "~~~chess\n",
            "~~~\n",
            "````",
            "`",
            "Кf3",
            "Nf3",
            "e4",
            "12.",
            "3...",
            "{",
            "}",
            "(",
            ")",
            "[Event \"x\"]\n",
            "1-0",
            "*",
            "Кd2",
            "😀",
            "é",
            "prose ",
            "# Title\n",
        ];
        let mut next = crate::test_support::below(0x9e37_79b9_7f4a_7c15);
        for _ in 0..40 {
            let mut doc = markdown(&format!("{}\n```pgn\n1. e4 e5 2. Кf3 *\n```\nx\n", book()));
            for _ in 0..25 {
                let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 12);
                let snippet = SNIPPETS[next(SNIPPETS.len())];
                edit(&mut doc, start, end, snippet);
                same_as_fresh(&doc);
            }
        }
    }

    /// Random edits of a database (line ends of every kind, comments and
    /// variations over several lines, boundaries made and unmade): every
    /// section's lines, highlights and folds kept across the edits are a
    /// fresh open's.
    #[test]
    fn random_edits_keep_lines_highlights_and_folds_as_a_fresh_open() {
        const SNIPPETS: &[&str] = &[
            "",
            " ",
            "\n",
            "\r\n",
            "\r",
            "\n\n",
            "{",
            "}",
            "{a\nb}",
            "(",
            ")",
            "(1... c5\n2. d4)",
            "[Event \"x\"]\n",
            "\n[Site \"y\"]\n\n",
            "*",
            "1-0",
            "; c\n",
            "12.",
            "Кf3",
            "Nf3",
            "😀",
            "é",
            "e4",
        ];
        let mut next = crate::test_support::below(0x5851_f42d_4c95_7f2d);
        let game = |i: usize| {
            format!("[Event \"{i}\"]\r\n[Site \"s\"]\n\n1. e4 {{a\ncomment}} e5\n(1... c5\n2. Nf3)\n2. Кf3 Nc6 *\n\n")
        };
        for round in 0..12 {
            let mut doc = Document::open((0..6 + round % 3).map(game).collect(), 1, &Options::default());
            same_as_fresh(&doc);
            for _ in 0..30 {
                let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 10);
                edit(&mut doc, start, end, SNIPPETS[next(SNIPPETS.len())]);
                same_as_fresh(&doc);
            }
        }
    }

    /// Edits applied to the text alone (a burst of keystrokes), the
    /// sections they left analysed now and then, an analysis made before
    /// a later edit refused: once analysed, the document is a fresh open.
    #[test]
    fn edits_left_to_analyse_and_analysed_later_match_a_fresh_open() {
        const SNIPPETS: &[&str] =
            &["", " ", "\n", "\r", "\n\n", "{", "}", "(", ")", "[Event \"x\"]\n", "*", "1-0", "Кf3", "Nf5", "e4", "7"];
        let mut next = crate::test_support::below(0x2545_f491_4f6c_dd1d);
        let game =
            |i: usize| format!("[Event \"{i}\"]\n\n1. e4 {{a\ncomment}} e5\n(1... c5\n2. Nf3)\n2. Кf3 Nc6 *\n\n");
        let options = Options::default();
        for round in 0..8 {
            let mut doc = Document::open((0..5 + round % 3).map(game).collect(), 1, &options);
            for step in 0..40 {
                let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 10);
                let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
                let taken = doc.unanalysed();
                doc.apply_changes_unanalysed(vec![change], doc.version + 1, &options);
                // An analysis taken before this edit: put in place only where
                // the edit left its sections as they were.
                if let Some(taken) = taken.filter(|_| step % 3 == 0) {
                    let _ = doc.put_analysed(taken.analyse(&options));
                }
                if step % 5 == 4 {
                    if let Some(unanalysed) = doc.unanalysed() {
                        assert!(doc.put_analysed(unanalysed.analyse(&options)));
                    }
                    assert!(doc.unanalysed().is_none());
                    same_as_fresh(&doc);
                }
            }
        }
    }

    #[test]
    fn positions_agree_with_the_line_index_for_every_line_end() {
        use crate::ide::line_index::LineIndex;
        let text = "1. e4 ; c\r2. Кf3 {😀}\r\n♘c6\n\r\nd4\r";
        let doc = Document::open(text.to_owned(), 1, &Options::default());
        let index = LineIndex::new(text);
        for unit in [Unit::Utf8, Unit::Utf16, Unit::Char] {
            for (offset, _) in text.char_indices() {
                let (line, column) = index.position(text, offset, unit);
                assert_eq!(doc.position(offset, unit), (line, column), "{offset} in {unit:?}");
                assert_eq!(Some(doc.offset(line, column, unit)), index.offset(text, line, column, unit));
            }
        }
    }

    #[test]
    fn kinds_from_language_ids_and_uris() {
        assert_eq!(Kind::detect("markdown", "file:///a.txt"), Kind::Markdown);
        assert_eq!(Kind::detect("pgn", "file:///a.md"), Kind::Markdown);
        assert_eq!(Kind::detect("pgn", "file:///book/ch1.tex"), Kind::Latex);
        assert_eq!(Kind::detect("chess", "file:///notes.txt"), Kind::Text);
        assert_eq!(Kind::detect("pgn", "file:///games.pgn"), Kind::Pgn);
        assert_eq!(Kind::detect("plaintext", "file:///book/ch1.MD"), Kind::Markdown);
        assert_eq!(Kind::detect("", "file:///book/games.pgn"), Kind::Pgn);
    }
}
