//! Manuscript documents in the language server: Markdown, plain text and
//! LaTeX, read through `syntax::manuscript` (notation kept at its offsets,
//! prose blanked) and chained by `analysis::manuscript` (a run that goes on
//! from an earlier one starts where that one stopped).
//!
//! A section is a unit of notation with its setup and the prose after it
//! (so that a move typed after a run's last one is in the run's section).
//! After an edit the manuscript is read again around the edit
//! (`Manuscript::rescan`: the markup from a line where its reading can start
//! again until it reads as before, the prose between the paragraph breaks
//! around that; the whole text when an edit opens a fence or a macro) and
//! the sections are matched with the old ones from both ends: those wholly
//! before what was read again are kept as they are; those after it have
//! the same text (moved) and are kept while their possible starts are as
//! before, and without looking once the games before them end in the very
//! records they ended in (`Chain::same_outlook`); those between are
//! compared by their notation and repairs. Any other section is parsed and
//! analysed again, and a game that leaves the record it left before leaves
//! that very record, so the runs after it need not be analysed again. So
//! typing prose analyses nothing, and typing in a run analyses that run
//! and the runs whose start it changes; neither walks the whole book.

use std::sync::Arc;

use super::{Document, Kind, Section};
use crate::analysis::manuscript::{self as chain, Chain, DocumentLetters, Head, Letters, LineRecord, Plan, Start};
use crate::analysis::{GameReport, Language, LanguageSource, Options, Trace, trace_game};
use crate::ide::outline;
use crate::syntax::manuscript::{self, Edit, Manuscript, Repair, RepairKind, SectionSpec, Unit, UnitKind};
use crate::syntax::{self, GameSyntax};

/// The parser's view of a manuscript document.
#[derive(Clone)]
pub(super) struct View {
    pub kind: Kind,
    pub ms: Manuscript,
    /// The letters of all its sections...
    pub letters: DocumentLetters,
    /// ...and the document's language they say (`chain::document_language`),
    /// which its games were analysed in.
    pub language: Option<Language>,
}

impl View {
    pub fn new(kind: Kind, text: &str) -> View {
        let format = kind.manuscript().unwrap_or(manuscript::Format::Text);
        View { kind, ms: manuscript::scan(text, format), letters: DocumentLetters::default(), language: None }
    }

    /// Reads the letters of every section and the document's language they
    /// say; returns each section's letters.
    fn read_language(&mut self, specs: &[SectionSpec], options: &Options) -> Vec<Letters> {
        let letters: Vec<Letters> = specs.iter().map(|spec| section_letters(self, spec)).collect();
        self.letters = DocumentLetters::default();
        for l in &letters {
            self.letters.add(l);
        }
        self.language = chain::document_language(&self.letters, options);
        letters
    }
}

/// The piece letters of a section's games, as their heads count them: what
/// the document's language is decided from, before any game is analysed
/// (a run early in a book is read in the language its later runs tell).
/// The section is lowered for them alone (the fast path where it reads it;
/// some 5 to 8 % of a check of a 1 MB book), from the text `build` lowers.
fn section_letters(view: &View, spec: &SectionSpec) -> Letters {
    let (source, _) = crate::ide::intake::checked_view(&view.ms.blanked[spec.range.clone()]);
    let sum = |games: &[GameSyntax<'_>]| games.iter().fold(Letters::default(), |sum, g| sum.plus(&Letters::of(g)));
    match syntax::fast::lower_fast(&source) {
        Some(games) => sum(&games),
        None => {
            let tree = syntax::parse(&source, None);
            sum(&syntax::lower(&tree, &source))
        }
    }
}

/// The games of a manuscript section: where each starts and what it leaves
/// for the games after it.
#[derive(Clone, Debug)]
pub struct SectionChain {
    pub games: Vec<ChainedGame>,
    /// The repairs inside the section (spans relative to it).
    repairs: Vec<Repair>,
    /// The unit it starts, if any.
    unit: Option<Unit>,
    /// The piece letters of its games ([`section_letters`]).
    letters: Letters,
}

#[derive(Clone, Debug)]
pub struct ChainedGame {
    /// Where the game starts in the section.
    pub at: usize,
    head: Head,
    /// The starts it could have, as places in the games before it and
    /// written out, and the one taken.
    plan: Plan,
    candidates: Vec<Start>,
    chosen: usize,
    record: Option<Arc<LineRecord>>,
}

impl ChainedGame {
    pub fn start(&self) -> &Start {
        &self.candidates[self.chosen]
    }
}

/// The section's notation: its blanked text without the blank prose after it
/// (which only moves).
fn core(source: &str) -> &str {
    // Blanked prose is spaces and line ends only.
    let end = source.bytes().rposition(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t')).map_or(0, |i| i + 1);
    &source[..end]
}

fn relative_repairs(ms: &Manuscript, spec: &SectionSpec) -> Vec<Repair> {
    let r = &spec.range;
    let first = ms.repairs.partition_point(|x| x.span.start < r.start);
    ms.repairs[first..]
        .iter()
        .take_while(|x| x.span.start < r.end)
        .map(|x| Repair { span: x.span.start - r.start..x.span.end - r.start, kind: x.kind.clone() })
        .collect()
}

/// Parses and analyses one section of a manuscript, chaining its games. A
/// game that leaves the record its game in the old section (`was`) left
/// leaves that very record, so that the plans after it stay as they were.
/// Its games are read in the document's language (`view.language`) where
/// their letters leave a choice; `letters` are its own, kept for the
/// document's language after an edit.
#[allow(clippy::too_many_arguments)]
fn build(
    view: &View,
    text: &str,
    spec: &SectionSpec,
    chain_so_far: &mut Chain,
    options: &Options,
    keep: bool,
    used: u64,
    was: Option<&Section>,
    letters: Letters,
) -> Section {
    let range = spec.range.clone();
    // Hostile notation (a 16 MB token in a chess block, variations nested
    // a million deep) is not shown to the grammar, as in a PGN document
    // (`super::build_section`): the section's parser text has it blanked,
    // a syntax error says so, and no tree is kept.
    let (checked, hidden) = crate::ide::intake::checked_view(&view.ms.blanked[range.clone()]);
    let blanked: Option<Arc<str>> = match checked {
        std::borrow::Cow::Owned(blanked) => Some(Arc::from(blanked)),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let mut hidden: Vec<crate::analysis::Diagnostic> = hidden
        .into_iter()
        .map(|(span, message)| crate::analysis::Diagnostic::new(crate::analysis::Code::Syntax, span, message))
        .collect();
    for d in &mut hidden {
        chain::to_manuscript(&view.ms, d, range.start);
        d.shift(-(range.start as isize));
    }
    let keep = keep && blanked.is_none() && hidden.is_empty();
    let source = blanked.as_deref().unwrap_or(&view.ms.blanked[range.clone()]);
    let setup = spec.unit.and_then(|u| chain::setup_ref(text, &view.ms.units[u], range.start));
    // The fast path where it reads the section, unless its tree is kept.
    let fast = if keep { None } else { syntax::fast::lower_fast_with_comments(source) };
    let tree = fast.is_none().then(|| syntax::parse(source, None));
    let (lowered, outline) = match (&tree, fast) {
        (Some(tree), _) => {
            let lowered = syntax::lower(tree, source);
            let outline = outline::outline(tree, &lowered, source);
            (lowered, outline)
        }
        (None, fast) => {
            let (lowered, long_comments) = fast.expect("a section without a tree is read by the fast path");
            let outline = outline::outline_without_tree(&lowered, &long_comments, source);
            (lowered, outline)
        }
    };
    let mut games = Vec::with_capacity(lowered.len());
    let mut reports = Vec::with_capacity(lowered.len());
    // Digits read as files (`Sg8-06`): whether the replay played each move.
    let in_range = |r: &&Repair| range.start <= r.span.start && r.span.start < range.end;
    let mut digits: Vec<(usize, bool)> = view
        .ms
        .repairs
        .iter()
        .filter(in_range)
        .filter(|r| matches!(r.kind, RepairKind::FileDigit { .. }))
        .map(|r| (r.span.start - range.start, false))
        .collect();
    for (k, game) in lowered.iter().enumerate() {
        let mut head = chain::head_of(game, spec.unit.map(|u| &view.ms.units[u]), k == 0);
        if k == 0 {
            Place::of(text, &view.ms.units, spec.unit).set(&mut head);
        }
        let plan = chain_so_far.plan(&head, if k == 0 { setup.as_ref() } else { None }, options.language);
        let candidates = plan.starts(&head, view.language);
        let (chosen, mut report, trace) = chain::choose(game, source, options, &candidates);
        for (at, played) in &mut digits {
            *played |= trace.moves.iter().any(|m| m.span.contains(at));
        }
        let mut record = chain::record(game, source, options, &candidates[chosen], &report, &trace, &head);
        let old_record =
            was.and_then(|p| p.chain.as_ref()).and_then(|c| c.games.get(k)).and_then(|g| g.record.as_ref());
        if let (Some(new), Some(old)) = (&record, old_record)
            && new == old
        {
            record = Some(old.clone());
        }
        if let Some(r) = &record {
            chain_so_far.push(r.clone());
        }
        for d in &mut report.diagnostics {
            chain::to_manuscript(&view.ms, d, range.start);
            d.shift(-(range.start as isize));
        }
        reports.push(report);
        games.push(ChainedGame { at: game.span.start, head, plan, candidates, chosen, record });
    }
    let repairs = relative_repairs(&view.ms, spec);
    if !repairs.is_empty() {
        if reports.is_empty() {
            reports.push(GameReport {
                span: 0..0,
                language: options.language.unwrap_or(crate::analysis::Language::En),
                language_source: LanguageSource::Undecided,
                diagnostics: Vec::new(),
                plies: 0,
            });
        }
        for repair in &view.ms.repairs {
            if range.start <= repair.span.start
                && repair.span.start < range.end
                && let Some(mut d) = chain::repair_diagnostic(text, &view.ms.blanked, repair)
            {
                d.shift(-(range.start as isize));
                let mut read = false;
                for report in &mut reports {
                    chain::sign_read_as_dash(repair, &mut d, &mut report.diagnostics);
                    read |= chain::file_digit_read(&text[range.clone()], repair, &mut d, &mut report.diagnostics);
                }
                let at = repair.span.start - range.start;
                if digits.iter().any(|&(digit, played)| digit == at && !played) && !read {
                    chain::file_digit_unread(&text[range.clone()], &mut d);
                }
                reports[0].diagnostics.push(d);
            }
        }
        reports[0].diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.span.end.cmp(&b.span.end)));
    }
    super::place_hidden(&mut reports, &hidden);
    let mut section = Section::new(range, tree.filter(|_| keep), used, reports, outline);
    section.chain =
        Some(Arc::new(SectionChain { games, repairs, unit: spec.unit.map(|u| view.ms.units[u].clone()), letters }));
    section.blanked = blanked;
    section.hidden = hidden;
    section.findings += section.leading_hidden().count();
    section
}

/// Whether an old section can stand for a new one: the same notation and
/// repairs (unless `same_text` says so already), the same kind of unit, and
/// every game with the same possible starts as before: the same plan, and
/// when the document's language changed (`relook`), the same starts
/// written out (the language each is read in).
#[allow(clippy::too_many_arguments)]
fn still_fits(
    old: &Section,
    old_view: &View,
    view: &View,
    spec: &SectionSpec,
    text: &str,
    chain_so_far: &mut Chain,
    options: &Options,
    same_text: bool,
    relook: bool,
) -> bool {
    let Some(old_chain) = &old.chain else { return false };
    // `\mainline` and `\variation` blank alike.
    if old_chain.unit.as_ref().map(|u| u.kind) != spec.unit.map(|u| view.ms.units[u].kind) {
        return false;
    }
    if !same_text && core(&old_view.ms.blanked[old.range()]) != core(&view.ms.blanked[spec.range.clone()]) {
        return false;
    }
    if !same_text && old_chain.repairs != relative_repairs(&view.ms, spec) {
        return false;
    }
    // Where its first game stands (`Place`) is read from the text around
    // the unit, which an edit may change alone.
    let place = Place::of(text, &view.ms.units, spec.unit);
    if old_chain.games.first().is_some_and(|g| Place::of_head(&g.head) != place) {
        return false;
    }
    let setup = spec.unit.and_then(|u| chain::setup_ref(text, &view.ms.units[u], spec.range.start));
    // The records of the section's own earlier games count for its later
    // ones: they are pushed on trial and taken back if the section does not
    // fit (when it fits, they stay).
    let before = chain_so_far.len();
    for (k, game) in old_chain.games.iter().enumerate() {
        let plan = chain_so_far.plan(&game.head, if k == 0 { setup.as_ref() } else { None }, options.language);
        if plan != game.plan || (relook && plan.starts(&game.head, view.language) != game.candidates) {
            chain_so_far.truncate(before);
            return false;
        }
        if let Some(r) = &game.record {
            chain_so_far.push(r.clone());
        }
    }
    true
}

/// Where a unit stands in the text, as its first game's `Head` records it:
/// at the start of a line (`own_line`), in brackets in a sentence
/// (`aside`), in the sentence of the run before it (`in_sentence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place {
    own_line: bool,
    aside: bool,
    in_sentence: bool,
}

impl Place {
    /// The place of unit `u` of `units` (none for a section of no unit).
    fn of(text: &str, units: &[Unit], u: Option<usize>) -> Place {
        let Some(u) = u else { return Place { own_line: false, aside: false, in_sentence: false } };
        Place {
            own_line: starts_line(text, &units[u]),
            aside: in_brackets(text, &units[u]),
            in_sentence: in_sentence(text, units, u),
        }
    }

    fn of_head(head: &Head) -> Place {
        Place { own_line: head.own_line, aside: head.aside, in_sentence: head.in_sentence }
    }

    fn set(self, head: &mut Head) {
        (head.own_line, head.aside, head.in_sentence) = (self.own_line, self.aside, self.in_sentence);
    }
}

/// Whether `unit` begins a line of `text` (only blanks before it there).
fn starts_line(text: &str, unit: &syntax::manuscript::Unit) -> bool {
    text.get(..unit.notation.start)
        .is_some_and(|before| before.trim_end_matches([' ', '\t']).ends_with('\n') || before.trim().is_empty())
}

/// Whether `unit` stands in brackets opened and closed on its own line of
/// `text` (`(s'ils décident de jouer 13.g3)`): a remark in a sentence. The
/// line is read at most [`BRACKET_REACH`] bytes to each side of the unit: a
/// remark in brackets is a sentence, not a page, and reading a whole line
/// for every run on it made a 16 MB line of games quadratic (5 minutes).
fn in_brackets(text: &str, unit: &syntax::manuscript::Unit) -> bool {
    let bytes = text.as_bytes();
    let (start, end) = (unit.notation.start, unit.notation.end);
    if start > end || end > bytes.len() {
        return false;
    }
    let after = &bytes[end..bytes.len().min(end.saturating_add(BRACKET_REACH))];
    let line_after = &after[..memchr::memchr(b'\n', after).unwrap_or(after.len())];
    if !line_after.contains(&b')') {
        return false;
    }
    let before = &bytes[start.saturating_sub(BRACKET_REACH)..start];
    let line_before = &before[memchr::memrchr(b'\n', before).map_or(0, |n| n + 1)..];
    // Brackets still open before it, and one that closes them after.
    let mut open = 0usize;
    for &c in line_before {
        match c {
            b'(' => open += 1,
            b')' => open = open.saturating_sub(1),
            _ => {}
        }
    }
    open > 0
}

/// How far to each side of a run its line is read for the brackets around
/// it ([`in_brackets`]).
const BRACKET_REACH: usize = 4096;

/// Whether the run `units[u]` goes on in the sentence of the run before it
/// (`Head::in_sentence`): between them only prose on one line, with no end
/// of a sentence (`.`, `!`, `?` before a blank) and no bracket closed that
/// was open before it (`5...Sf6 (5...d6) 6. e5` goes on from the main line).
fn in_sentence(text: &str, units: &[syntax::manuscript::Unit], u: usize) -> bool {
    let Some(before) = u.checked_sub(1).map(|b| &units[b]) else { return false };
    let unit = &units[u];
    if unit.kind != UnitKind::Run || before.kind != UnitKind::Run || unit.setup.is_some() {
        return false;
    }
    let Some(between) = text.get(before.notation.end..unit.notation.start) else { return false };
    let bytes = between.as_bytes();
    let mut depth = 0usize;
    for (k, &c) in bytes.iter().enumerate() {
        match c {
            b'\n' => return false,
            b'(' | b'[' => depth += 1,
            b')' | b']' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            b'.' | b'!' | b'?'
                if bytes.get(k + 1).is_none_or(|b| b.is_ascii_whitespace()) && ends_sentence(between, k) =>
            {
                return false;
            }
            _ => {}
        }
    }
    true
}

/// Abbreviations that end in a dot inside a sentence, in the languages of
/// the notation (`dr. Perlis`, `vgl. Partie 12`, `см. партию`).
const ABBREVIATIONS: [&str; 24] = [
    "dr", "prof", "vgl", "bzw", "usw", "etc", "ca", "stb", "pl", "np", "tzn", "itd", "nr", "no", "cf", "vs", "resp",
    "см", "ср", "напр", "стр", "гр", "st", "str",
];

/// Whether the mark at `k` of `between` (`.`, `!` or `?` before a blank)
/// ends a sentence: not the dot of an abbreviation or an initial before
/// it (`dr. Perlis`, `J. Mieses`), nor a dot after which the sentence goes
/// on in lower case (a Hungarian or German ordinal: `az 1912. san-sebastiani
/// versenyen`).
fn ends_sentence(between: &str, k: usize) -> bool {
    if between.as_bytes()[k] != b'.' || k == 0 {
        return true;
    }
    let start =
        between[..k].char_indices().rev().find(|&(_, c)| !c.is_alphanumeric()).map_or(0, |(i, c)| i + c.len_utf8());
    let word = &between[start..k];
    let initial = word.chars().count() == 1 && !word.starts_with(|c: char| c.is_ascii_digit());
    let lower = || word.chars().flat_map(char::to_lowercase);
    if initial || ABBREVIATIONS.iter().any(|a| lower().eq(a.chars())) {
        return false;
    }
    let next = between[k + 1..].trim_start().chars().next();
    !next.is_some_and(char::is_lowercase)
}

/// Whether a section whose blank space after the notation changed has a
/// finding that reaches into that space (junk the parser reads to the end,
/// such as an unclosed `"`): a fresh parse of the section would end it
/// elsewhere, so it is parsed again (found by fuzzing).
fn reaches_into_blank(old: &Section, old_view: &View, spec: &SectionSpec) -> bool {
    if old.len == spec.range.len() {
        return false;
    }
    let notation = core(&old_view.ms.blanked[old.range()]).len();
    old.games.iter().flat_map(|g| &g.diagnostics).any(|d| d.span.end > notation)
}

/// The records of sections, from the last back.
fn records_back(sections: &[Section]) -> impl Iterator<Item = &Arc<LineRecord>> {
    sections
        .iter()
        .rev()
        .flat_map(|p| p.chain.iter().flat_map(|c| c.games.iter().rev().filter_map(|g| g.record.as_ref())))
}

/// Puts the records of a section's games into the chain.
fn push_records(section: &Section, chain_so_far: &mut Chain) {
    for game in section.chain.iter().flat_map(|c| &c.games) {
        if let Some(r) = &game.record {
            chain_so_far.push(r.clone());
        }
    }
}

/// Checks a whole manuscript once, as the command line does: the very
/// sections [`Document::open_as`] builds, in the same order and with the same
/// chain, so the findings are the same; but each section is dropped once its
/// findings are taken, and the chain forgets the records that no game still
/// to come can look at ([`Chain::forget_out_of_sight`]). So memory follows
/// the manuscript's text and its last games, not its games: a book of
/// 600,000 short games kept some 4 KB for each (the positions of its main
/// line among them), 2.4 GB for 16 MB. Returns the number of games and the
/// findings in text order.
pub fn check_manuscript(kind: Kind, text: &str, options: &Options) -> (usize, Vec<crate::analysis::Diagnostic>) {
    let mut view = View::new(kind, text);
    let specs = view.ms.sections();
    // The document's language first (each section's letters are not kept,
    // as the section is not).
    view.read_language(&specs, options);
    let mut chain_so_far = Chain::default();
    let mut games = 0;
    let mut found = Vec::new();
    for spec in specs {
        let section = build(&view, text, &spec, &mut chain_so_far, options, false, 0, None, Letters::default());
        games += section.games.len();
        if section.findings > 0 {
            found.extend(section.diagnostics());
        }
        chain_so_far.forget_out_of_sight();
    }
    (games, found)
}

impl Document {
    pub(super) fn open_manuscript(kind: Kind, text: String, version: i32, options: &Options) -> Document {
        let mut view = View::new(kind, &text);
        let specs = view.ms.sections();
        let letters = view.read_language(&specs, options);
        let mut chain_so_far = Chain::default();
        let sections: Vec<Section> = specs
            .iter()
            .zip(letters)
            .map(|(spec, letters)| build(&view, &text, spec, &mut chain_so_far, options, false, 0, None, letters))
            .collect();
        let last_reanalysed = sections.len();
        let rope = ropey::Rope::from_str(&text);
        let mut doc = Document {
            version,
            rope,
            text,
            sections,
            clock: 0,
            last_reanalysed,
            manuscript: Some(view),
            view: None,
            filter: Arc::default(),
            options: Arc::new(options.clone()),
        };
        doc.count_lines(None);
        doc
    }

    /// Every section analysed again (the settings changed).
    pub(super) fn rebuild_manuscript(&mut self, options: &Options) {
        let Some(view) = &mut self.manuscript else { return };
        let specs = view.ms.sections();
        let letters = view.read_language(&specs, options);
        let view = &*view;
        let mut chain_so_far = Chain::default();
        self.sections = specs
            .iter()
            .zip(letters)
            .map(|(spec, letters)| build(view, &self.text, spec, &mut chain_so_far, options, false, 0, None, letters))
            .collect();
        self.last_reanalysed = self.sections.len();
        self.count_lines(None);
    }

    /// An edit of a manuscript: the text is read again around the edit
    /// (`Manuscript::rescan`), and the sections are matched with the old ones
    /// from both ends.
    ///
    /// A section wholly before the stretch read again, with the same unit, is
    /// as it was (so are the games before it): it is kept as it is. One
    /// wholly after it, with the same unit moved, has the same text; it is
    /// kept when its games' plans are as before, and once the chain of
    /// games so far ends in the very records the old one ended in there
    /// (`Chain::same_outlook`), every later section is kept without looking.
    /// The sections between are compared by their text.
    pub(super) fn apply_manuscript(&mut self, range: std::ops::Range<usize>, new_text: &str, options: &Options) {
        let start_char = self.rope.byte_to_char(range.start);
        let end_char = self.rope.byte_to_char(range.end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, new_text);
        self.text.replace_range(range.clone(), new_text);
        let Some(old_view) = self.manuscript.take() else { return };
        let edit = Edit { start: range.start, old_end: range.end, new_end: range.start + new_text.len() };
        let delta = edit.new_end as isize - edit.old_end as isize;
        let (ms, read) = old_view.ms.rescan(&self.text, edit);
        let mut view = View { kind: old_view.kind, ms, letters: old_view.letters, language: old_view.language };
        let specs = view.ms.sections();
        let old_pieces = std::mem::take(&mut self.sections);
        let (old_len, new_len) = (old_pieces.len(), specs.len());

        let unit_of = |s: &SectionSpec| s.unit.map(|u| &view.ms.units[u]);
        fn old_unit(o: &Section) -> Option<Option<&Unit>> {
            o.chain.as_ref().map(|c| c.unit.as_ref())
        }
        let before = old_pieces
            .iter()
            .zip(&specs)
            .take_while(|(o, s)| s.range.end <= read.start && o.range() == s.range && old_unit(o) == Some(unit_of(s)))
            .count();
        let moved = |o: &Section, s: &SectionSpec| {
            let start = o.start as isize + delta;
            start == s.range.start as isize
                && o.len == s.range.len()
                && match (old_unit(o), unit_of(s)) {
                    (Some(Some(a)), Some(b)) => b.moved(a, delta),
                    (Some(None), None) => true,
                    _ => false,
                }
        };
        let most = old_len.min(new_len) - before;
        let after = old_pieces
            .iter()
            .rev()
            .zip(specs.iter().rev())
            .take(most)
            .take_while(|(o, s)| s.range.start >= read.end && moved(o, s))
            .count();
        // Between them, the sections whose notation alone is as before (their
        // starts are checked in order below).
        let same = |o: &Section, s: &SectionSpec| {
            core(&old_view.ms.blanked[o.range()]) == core(&view.ms.blanked[s.range.clone()])
        };
        let prefix = before
            + old_pieces[before..old_len - after]
                .iter()
                .zip(&specs[before..new_len - after])
                .take_while(|(o, s)| same(o, s))
                .count();
        let most = old_len.min(new_len) - prefix;
        let suffix = after
            + old_pieces[prefix..old_len - after]
                .iter()
                .rev()
                .zip(specs[prefix..new_len - after].iter().rev())
                .take(most - after)
                .take_while(|(o, s)| same(o, s))
                .count();
        // The document's language: the letters of the sections between
        // `prefix` and `suffix` replace the old ones' (the others have their
        // text). When it changes, every section is looked at again (`relook`).
        for o in &old_pieces[prefix..old_len - suffix] {
            view.letters.remove(&o.chain.as_ref().map(|c| c.letters).unwrap_or_default());
        }
        let letters: Vec<Letters> =
            specs[prefix..new_len - suffix].iter().map(|spec| section_letters(&view, spec)).collect();
        for l in &letters {
            view.letters.add(l);
        }
        view.language = chain::document_language(&view.letters, options);
        let relook = view.language != old_view.language;
        // The old chain's last records before the first section after the
        // stretch read again (then of each section after it, as the walk
        // passes it), for `Chain::same_outlook`.
        let (mut old_seen, whole) = if after > 0 {
            Chain::last_records(records_back(&old_pieces[..old_len - after]))
        } else {
            (Vec::new(), true)
        };
        self.clock += 1;
        let now = self.clock;
        let mut chain_so_far = Chain::default();
        let mut sections = Vec::with_capacity(new_len);
        let mut rebuilt = 0;
        let mut outlook_same = false;
        let mut old_iter: Vec<Option<Section>> = old_pieces.into_iter().map(Some).collect();
        for (k, spec) in specs.iter().enumerate() {
            let old_index = if k < prefix {
                Some(k)
            } else if k >= new_len - suffix {
                Some(old_len - (new_len - k))
            } else {
                None
            };
            let old = old_index.and_then(|i| old_iter[i].take());
            if (k < before && !relook) || (outlook_same && k >= new_len - after) {
                // As it was, and the games before it too.
                let mut section = old.expect("a section kept from before the edit");
                if k < before {
                    push_records(&section, &mut chain_so_far);
                }
                section.start = spec.range.start;
                sections.push(section);
                continue;
            }
            if k >= new_len - after && !relook && chain_so_far.same_outlook(&old_seen, whole) {
                // From here on the chain looks as it did: no later plan
                // changes, and the chain is not needed any more.
                outlook_same = true;
                let mut section = old.expect("a section kept from after the edit");
                section.start = spec.range.start;
                sections.push(section);
                continue;
            }
            let same_text = k < before || k >= new_len - after;
            if k >= new_len - after {
                let records = old.iter().flat_map(|p| p.chain.iter().flat_map(|c| &c.games));
                let lines = records.filter_map(|g| g.record.as_ref()).flat_map(Chain::lines_of);
                old_seen.extend(lines.map(|(line, _)| line.clone()));
            }
            let fits = old.as_ref().is_some_and(|old| {
                !reaches_into_blank(old, &old_view, spec)
                    && still_fits(
                        old,
                        &old_view,
                        &view,
                        spec,
                        &self.text,
                        &mut chain_so_far,
                        options,
                        same_text,
                        relook,
                    )
            });
            match old {
                Some(mut section) if fits => {
                    if section.len != spec.range.len() {
                        // Its tree was parsed with other blank space after it.
                        section.tree = None;
                        section.highlights.clear();
                        section.folds.clear();
                        section.symbols.clear();
                    }
                    section.start = spec.range.start;
                    section.len = spec.range.len();
                    // Its records went into the chain in `still_fits`.
                    sections.push(section);
                }
                was => {
                    rebuilt += 1;
                    // Outside what was read again, an old section's
                    // letters are as its text, which is as before.
                    let letters = if (prefix..new_len - suffix).contains(&k) {
                        letters[k - prefix]
                    } else {
                        was.as_ref()
                            .and_then(|w| w.chain.as_ref())
                            .map_or_else(|| section_letters(&view, spec), |c| c.letters)
                    };
                    let section =
                        build(&view, &self.text, spec, &mut chain_so_far, options, true, now, was.as_ref(), letters);
                    sections.push(section);
                }
            }
        }
        self.sections = sections;
        self.manuscript = Some(view);
        self.last_reanalysed += rebuilt;
        self.forget_old_trees();
    }

    /// Replays the game at `node` of `section` (from the start a manuscript
    /// gives it), recording every move; empty when it cannot be replayed.
    pub fn trace_game(&self, section: &Section, node: tree_sitter::Node<'_>, options: &Options) -> Trace {
        let source = section.text(self);
        let game = syntax::lower_game(node, source);
        match self.replayable(section, game, options) {
            Some((game, options)) => trace_game(&game, source, &options),
            None => Trace::default(),
        }
    }

    /// A span of the parser's text as a span of the document (they differ
    /// only where a manuscript's move was read over a space, `К f3`).
    pub fn to_original(&self, span: &std::ops::Range<usize>) -> std::ops::Range<usize> {
        match &self.manuscript {
            Some(view) => view.ms.span_to_original(span),
            None => span.clone(),
        }
    }

    /// A game of a section as the analysis must see it: with the start a
    /// manuscript gives it (a FEN tag) and the language it is read in.
    /// `None` when its start is unknown (it cannot be replayed).
    pub fn replayable<'d>(
        &'d self,
        section: &'d Section,
        game: GameSyntax<'d>,
        options: &Options,
    ) -> Option<(GameSyntax<'d>, Options)> {
        let Some(c) = &section.chain else { return Some((game, options.clone())) };
        let Some(chained) = c.games.iter().find(|g| g.at == game.span.start) else {
            return Some((game, options.clone()));
        };
        chain::prepared(game, chained.start(), options)
    }
}

#[cfg(test)]
#[path = "chain_tests.rs"]
mod chain_tests;

#[cfg(test)]
mod tests {
    use super::super::ByteChange;
    use super::*;
    use crate::analysis::Code;
    use crate::analysis::manuscript::StartKind;
    use crate::syntax::manuscript::TYPED_SNIPPETS;

    fn open(kind: Kind, text: &str) -> Document {
        Document::open_as(kind, text.to_owned(), 1, &Options::default())
    }

    fn edit(doc: &mut Document, start: usize, end: usize, text: &str) {
        doc.apply_changes(
            vec![ByteChange { range: Some(start..end), text: text.to_owned() }],
            doc.version + 1,
            &Options::default(),
        );
    }

    fn same_as_fresh(doc: &Document) {
        let fresh = Document::open_as(doc.kind(), doc.text.clone(), 1, &Options::default());
        assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>(), "{:?}", doc.text);
        let starts = |d: &Document| d.sections.iter().map(|p| (p.start, p.len)).collect::<Vec<_>>();
        assert_eq!(starts(doc), starts(&fresh), "{:?}", doc.text);
        let outlines = |d: &Document| d.sections.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
        assert_eq!(outlines(doc), outlines(&fresh));
        assert_eq!(doc.source(), fresh.source());
        assert_eq!(doc.rope.to_string(), doc.text);
        crate::ide::document::tests::same_lines_as_fresh(doc, &fresh);
    }

    fn found(doc: &Document) -> Vec<(Code, String)> {
        doc.diagnostics().map(|d| (d.code, doc.text[d.span.clone()].to_owned())).collect()
    }

    fn kinds(doc: &Document) -> Vec<StartKind> {
        doc.sections
            .iter()
            .filter_map(|p| p.chain.as_ref())
            .flat_map(|c| c.games.iter().map(|g| g.start().kind))
            .collect()
    }

    #[test]
    fn manuscript_kinds_from_language_ids_and_uris() {
        // A `.pgn` file is notation whatever its id (a client that sends
        // one id for every buffer); a LaTeX buffer with no file is LaTeX.
        assert_eq!(Kind::detect("latex", "file:///a.pgn"), Kind::Pgn);
        assert_eq!(Kind::detect("markdown", "file:///games/A.PGN"), Kind::Pgn);
        assert_eq!(Kind::detect("latex", "untitled:Untitled-1"), Kind::Latex);
        assert_eq!(Kind::detect("plaintext", "file:///book/ch1.txt"), Kind::Text);
        assert_eq!(Kind::detect("plaintext", "file:///book/ch1.tex"), Kind::Latex);
        assert_eq!(Kind::detect("text", "file:///notes"), Kind::Text);
        assert_eq!(Kind::detect("", "file:///book/kapitel.TEX"), Kind::Latex);
        assert_eq!(Kind::detect("", "file:///notes.txt?x=1"), Kind::Text);
        assert_eq!(Kind::detect("", "file:///games.pgn"), Kind::Pgn);
        assert_eq!(Kind::Latex.manuscript(), Some(crate::syntax::manuscript::Format::Latex));
    }

    #[test]
    fn a_run_follows_the_run_it_goes_on_from() {
        let text = "The game: 1. e4 e5 2. Nf3 Nc6, and then\n\n3. Nxe5 Nxe5 4. d4 was played.\n";
        let mut doc = open(Kind::Text, text);
        assert!(found(&doc).is_empty(), "{:?}", found(&doc));
        assert_eq!(kinds(&doc), [StartKind::Initial, StartKind::Continues]);
        // A change in the first run: the second is analysed again too.
        let at = doc.text.find("Nf3").unwrap();
        edit(&mut doc, at, at + 3, "Nc3");
        assert_eq!(doc.last_reanalysed, 2);
        // The game goes on past the illegal move (read as the likeliest
        // move after which the rest replays): nothing is left unchecked.
        assert_eq!(found(&doc), [(Code::IllegalMove, "Nxe5".to_owned())]);
        same_as_fresh(&doc);
        // Prose typed between them: nothing.
        let at = doc.text.find("and then").unwrap();
        edit(&mut doc, at, at + 8, "and after a long think");
        assert_eq!(doc.last_reanalysed, 0);
        same_as_fresh(&doc);
    }

    #[test]
    fn hover_replays_a_continuation_from_its_game() {
        let text = "1. e4 e5 2. Nf3\n\nBlack defends: 2...Nc6 3. Bb5\n";
        let doc = open(Kind::Text, text);
        let at = text.find("Bb5").unwrap();
        let section = doc.section_at(at);
        let tree = section.tree(&doc);
        let node = tree.root_node().child(0).unwrap();
        let trace = doc.trace_game(section, node, &Options::default());
        let last = trace.moves.last().unwrap();
        assert_eq!(
            crate::analysis::board::fen(&last.after),
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
        );
    }

    #[test]
    fn latex_documents_follow_their_macros() {
        let text = "\\newchessgame\n\\mainline{1. e4 e5 2. Sf3 Sc6}\n\nNach \\mainline{3. Lb5} droht nichts; \\variation{3. Lc4 Lc5}.\n\\newchessgame[setfen=6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1]\n\\mainline{1. Td8+}\n";
        let mut doc = open(Kind::Latex, text);
        assert!(found(&doc).is_empty(), "{:?}", found(&doc));
        assert_eq!(kinds(&doc), [StartKind::Initial, StartKind::Continues, StartKind::Variation, StartKind::Position]);
        // `Td7+` gives no check: its mark is wrong.
        let at = doc.text.find("Td8+").unwrap();
        edit(&mut doc, at, at + 3, "Td7");
        assert_eq!(found(&doc), [(Code::CheckMark, "+".to_owned())]);
        same_as_fresh(&doc);
        // The FEN changed in the macro's options: the game after it again.
        let at = doc.text.find("3R2K1").unwrap();
        edit(&mut doc, at, at + 5, "4RK1");
        assert_eq!(doc.last_reanalysed, 1);
        same_as_fresh(&doc);
    }

    #[test]
    fn the_checker_finds_what_a_document_holds() {
        // `check_manuscript` drops each section once read and forgets the
        // chain's records no later game looks at: the same findings as the
        // document that keeps them all, over more records than it forgets
        // at, with runs that go on from a game, branch off it, or start at
        // a move no game of the last eight reaches.
        let mut text = String::new();
        for k in 0..1500 {
            let (w, b) = [("Nf3", "Nc6"), ("Nc3", "Nf6"), ("Ke2", "Ke7"), ("Nh3", "Nh6")][k % 4];
            text.push_str(&format!("Game {k}: 1. e4 e5 2. {w} {b} 3. Bc4 and then\n\n"));
            text.push_str(if k % 5 == 0 { "3...Bc5 4. Ke3 was bad.\n\n" } else { "3...Bc5 4. c3 is usual.\n\n" });
            text.push_str(if k % 7 == 0 { "Or 3. Bb5 a6 4. Bxc6 dxc6.\n\n" } else { "Also 2...d6 3. d4.\n\n" });
            if k % 97 == 0 {
                text.push_str("Later 40. Qh5 Qg5 41. Qxg5 was seen.\n\n");
            }
        }
        for kind in [Kind::Text, Kind::Markdown] {
            let doc = open(kind, &text);
            let (games, found) = check_manuscript(kind, &text, &Options::default());
            assert_eq!(games, doc.game_count());
            assert!(found.iter().any(|d| d.code == Code::IllegalMove), "{:?}", &found[..found.len().min(3)]);
            assert!(found.iter().any(|d| d.code == Code::Unchecked), "{:?}", &found[..found.len().min(3)]);
            assert!(found == doc.diagnostics().collect::<Vec<_>>(), "{kind:?}: the findings differ");
        }
    }

    /// The text of the preferred fix of the finding at `token`.
    fn fix_at(doc: &Document, token: &str) -> Option<String> {
        let at = doc.text.find(token).expect("the token is in the text");
        let d = doc.diagnostics().find(|d| d.span.start == at)?;
        Some(d.fixes.iter().find(|f| f.preferred)?.edits[0].new_text.clone())
    }

    #[test]
    fn an_edit_that_changes_the_document_s_language_reads_every_run_again_in_it() {
        // `b8` lost the rook's letter in a run whose letters (`S`) German
        // and Polish read alike; the run after it is German, then Polish.
        let first = "Partia: 1. e4 e5 2. Sf3 Sc6 3. Sc3 Sd4 4. d3 b8 5. Sxd4 exd4 6. Se2 d6.\n\n";
        let german = "Dann 7. Lg5 Le7 8. Dd2 h6.\n\n";
        let mut doc = open(Kind::Text, &format!("{first}{german}Ende.\n"));
        assert_eq!(fix_at(&doc, "b8").as_deref(), Some("Tb8"));
        // The second run made Polish, after the first: the first is read
        // again in Polish, though the edit is not in it.
        let at = doc.text.find("7. Lg5 Le7 8. Dd2").unwrap() + 3;
        edit(&mut doc, at, at + 14, "Gg5 Ge7 8. Hd2");
        assert_eq!(fix_at(&doc, "b8").as_deref(), Some("Wb8"));
        same_as_fresh(&doc);
        assert!(doc.last_reanalysed >= 2, "{}", doc.last_reanalysed);
        // And back to German.
        edit(&mut doc, at, at + 14, "Lg5 Le7 8. Dd2");
        assert_eq!(fix_at(&doc, "b8").as_deref(), Some("Tb8"));
        same_as_fresh(&doc);
        // A Polish game typed before the run: the runs after the edit are
        // read again in Polish too (they are not kept because the chain
        // looks as it did).
        edit(&mut doc, 0, 0, "Inna partia: 1. d4 d5 2. Gf4 Gf5 3. Hd3 Hd6 4. Wd1 Wd8 5. Gg3 Gg6.\n\n");
        assert_eq!(fix_at(&doc, "b8").as_deref(), Some("Wb8"));
        same_as_fresh(&doc);
        // A run of no known start (it leaves no record) made Polish, before
        // the first: the chain after it looks as it did, and still the runs
        // after it are read again.
        let unplaced = "Gdzie indziej 23. Lh5 Lf6 24. Dd2.\n\n";
        let mut other = open(Kind::Text, &format!("{unplaced}Tekst.\n\nTekst.\n\n{first}Ende.\n"));
        assert_eq!(fix_at(&other, "b8").as_deref(), Some("Tb8"));
        let at = other.text.find("23. Lh5").unwrap() + 4;
        edit(&mut other, at, at + 15, "Gh5 Gf6 24. Hd2");
        assert_eq!(fix_at(&other, "b8").as_deref(), Some("Wb8"));
        same_as_fresh(&other);
        // Prose typed changes no language, and nothing is analysed again.
        let at = doc.text.find("Ende").unwrap();
        edit(&mut doc, at, at + 4, "Koniec");
        assert_eq!(doc.last_reanalysed, 0);
        same_as_fresh(&doc);
        // The language the user chose wins: the first run is German.
        let german = Options { language: Some(Language::De), ..Options::default() };
        doc.reanalyse_all(&german);
        assert_eq!(fix_at(&doc, "b8").as_deref(), Some("Tb8"));
    }

    #[test]
    fn random_edits_that_change_the_document_s_language_match_a_fresh_open() {
        // Runs whose letters several languages read alike (German and
        // Polish `S`, Russian and Ukrainian `К`), letters lost, and letters
        // typed that tell one language or another: the document's language
        // changes often, and every edit must read as a fresh open.
        let base = "Partia: 1. e4 e5 2. Sf3 Sc6 3. Sc3 Sd4 4. d3 b8 5. Sxd4 exd4 6. Se2 d6.\n\nDann 7. Lg5 Le7.\n\n\
                    Gdzie indziej 23. Gh5 Gf6.\n\nПартия: 1. e4 e5 2. Кf3 Кc6 3. Кc3 Кd4 4. d3 b8 5. Кxd4.\n\nТекст.\n";
        const TELLING: [&str; 12] =
            ["Lg5", "Gg5", "Dd2", "Hd2", "Wb1", "Tb1", "Тe1", "Лe1", "Sf3", " 8. Ld3", "\n\n", "1. "];
        let mut next = crate::test_support::below(0x9e37_79b9_7f4a_7c15);
        let mut changes = 0;
        for round in 0..24 {
            let kind = [Kind::Text, Kind::Markdown, Kind::Latex][round % 3];
            let mut doc = open(kind, base);
            for _ in 0..16 {
                let before = doc.manuscript.as_ref().and_then(|v| v.language);
                let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 6);
                let typed = if next(3) == 0 {
                    TYPED_SNIPPETS[next(TYPED_SNIPPETS.len())]
                } else {
                    TELLING[next(TELLING.len())]
                };
                edit(&mut doc, start, end, typed);
                same_as_fresh(&doc);
                changes += usize::from(doc.manuscript.as_ref().and_then(|v| v.language) != before);
            }
        }
        assert!(changes >= 10, "the document's language changed {changes} times");
    }

    #[test]
    fn random_edits_match_a_fresh_open() {
        let base = "Intro 1. e4 e5 2. Nf3 Nc6.\n\nThen 2...Nf6 3. Nxe5 and 3. Bc4 Nf6 4. d3.\n\n\\newchessgame\n\\mainline{1. d4 d5 2. c4}\nWhite: Kg1, Rd1; pawns f2. Black: Kg8. 1. Rd8#\n\nКf3 кf6 .b3 1. К f3 кf6 .b3 d5\n";
        let mut next = crate::test_support::below(0x2545_f491_4f6c_dd1d);
        for round in 0..36 {
            let kind = [Kind::Text, Kind::Latex, Kind::Markdown][round % 3];
            let mut doc = open(kind, base);
            for _ in 0..20 {
                let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 10);
                edit(&mut doc, start, end, TYPED_SNIPPETS[next(TYPED_SNIPPETS.len())]);
                same_as_fresh(&doc);
            }
        }
    }
}
