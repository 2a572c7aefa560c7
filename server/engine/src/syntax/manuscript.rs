//! Notation inside manuscripts: books and articles written as plain text,
//! Markdown or LaTeX, with games and lines in the prose (`After 1. e4 e5
//! 2. Nf3 Nc6 3. Bb5 White pins...`), in fenced ```` ```pgn ```` blocks, or
//! in xskak's `\mainline{...}`.
//!
//! Like [`super::markdown`], a manuscript is read through a *blanked* copy
//! of its text: every byte that is not notation becomes a space (line ends
//! stay), so the parser sees only the moves, at their very offsets in the
//! manuscript, and what it reports is a place in the manuscript as it is.
//! The notation is found as *units*:
//!
//! - runs in the prose: a move number followed by a move, then moves,
//!   numbers, glyphs and bracketed variations, up to the first word that is
//!   not notation, a sentence's punctuation or a paragraph break
//!   ([`runs`]); prose is never read as moves;
//! - fenced chess blocks of Markdown (whole PGN, tags included);
//! - the arguments of LaTeX's notation macros ([`latex`]).
//!
//! A unit may have a *setup* before it: a FEN in the prose, a position
//! description (`White: Kg1, Rd1; pawns f2, g2.`, kept for the parser, so
//! the game starts from it), `\newchessgame[setfen=...]` or a bare
//! `\newchessgame`. Where a unit without a setup starts (the initial
//! position, the end of an earlier run of the same game, a position inside
//! one for a variation written in prose) is decided by the analysis, which
//! knows the positions (`analysis::manuscript`).
//!
//! Three kinds of scanning damage inside runs are read as the moves they
//! stand for and recorded as [`Repair`]s: a space inside a move (`К f3`,
//! read as `Кf3` by moving the letter over the space in the blanked text,
//! which is the one place where the blanked text's offsets differ from the
//! manuscript's: [`Manuscript::to_original`] maps them back), a lost move
//! number (`.b3`, the dots blanked) and a lower-case piece letter (`кf6`,
//! the capital written in the blanked text; same length).
//!
//! After an edit, [`Manuscript::rescan`] reads again only around it (the
//! markup from a line where its reading may start again until it reads as
//! before, the prose between the paragraph breaks around that) and gives
//! what [`scan`] of the new text gives.
//!
//! The submodules: [`markup`] reads Markdown's and LaTeX's markup (with
//! [`latex`]), [`runs`] finds the runs in the prose, [`setups`] the FENs and
//! position descriptions, [`blanking`] makes the text the parser reads, and
//! [`rescan`] reads a manuscript again after an edit. Their letters are
//! those of [`super::lexicon`].

use std::ops::Range;

use super::split;

mod blanking;
mod html;
mod latex;
mod markup;
mod rescan;
mod runs;
mod setups;
mod typst;

pub(crate) use blanking::blank;
use blanking::{blanked_stretch, reblank};
use markup::Markup;
pub use rescan::Edit;
pub(crate) use runs::{look_alike_number, move_at, move_number_at, number_text, ply_of, unnumbered_ply};
use setups::setups_in;

/// A section longer than this is cut after its results too
/// ([`Manuscript::sections`]), at the size the checker cuts PGN at.
const SECTION_CUT: usize = 32 * 1024;

/// The kind of manuscript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Text,
    Markdown,
    Latex,
    /// An HTML or XHTML page (also an EPUB's chapters): the text, tags
    /// blanked, references decoded in place ([`html`]).
    Html,
    /// Typst: the prose, markup and code blanked ([`typst`]).
    Typst,
}

impl Format {
    /// The format a file's name says: `.txt`, `.md`, `.tex`, `.html`,
    /// `.typ` and their relatives; `None` for anything else (a `.pgn` file is notation).
    pub fn from_path(path: &str) -> Option<Format> {
        let lower = path.to_ascii_lowercase();
        let ext = lower.rsplit_once('.').map(|(_, e)| e)?;
        if ext.contains('/') || ext.contains('\\') {
            return None;
        }
        match ext {
            "txt" | "text" => Some(Format::Text),
            "md" | "markdown" | "mdown" | "mkd" | "mdx" | "qmd" | "rmd" => Some(Format::Markdown),
            "tex" | "ltx" | "latex" => Some(Format::Latex),
            "html" | "htm" | "xhtml" => Some(Format::Html),
            "typ" => Some(Format::Typst),
            _ => None,
        }
    }
}

/// Where notation stands in a manuscript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The notation (kept in the blanked text).
    pub notation: Range<usize>,
    pub kind: UnitKind,
    /// The position given right before it, if any.
    pub setup: Option<Setup>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// Moves found in the prose.
    Run,
    /// The argument of a notation macro (`\mainline{...}`).
    Macro,
    /// The argument of `\variation{...}`: a line that branches off.
    Variation,
    /// A fenced chess block (whole PGN games).
    Block,
}

/// A start position given in the manuscript before a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// A FEN: in the prose, `setfen=` or `\fenboard{...}`.
    Fen(Range<usize>),
    /// Position descriptions (from the first's start to the last's end);
    /// they are kept in the blanked text, so the game reads them itself.
    Description(Range<usize>),
    /// `\newchessgame` or `\newgame` without a position: the initial one.
    NewGame,
}

/// Scanning damage read as the move it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The damaged text in the manuscript.
    pub span: Range<usize>,
    pub kind: RepairKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RepairKind {
    /// `К f3`, `e x d4`: the span is the whole move; `joined` is it without
    /// the spaces; the parts before the last gap are its first `letter_len`
    /// bytes (the letter of `К f3`); `glued` when the next move is glued
    /// to it (`К f3К b4`: its fix gives that one its space). The scanner
    /// reads `glued` from the text, so that a section whose next character
    /// changes is analysed again.
    SpaceInMove { letter_len: usize, joined: String, glued: bool },
    /// `.b3`: the span is the dots; `number` is the move number they lost
    /// (`2.`, `2...`).
    LostMoveNumber { number: String },
    /// `кf6`: the span is the letter; `upper` is its capital.
    LowerCaseLetter { upper: char },
    /// `1) e4 - e5, 2) d4`: a dash or a comma between two moves, a
    /// convention of the text (blanked for the parser, never reported).
    Separator,
    /// `^` for the capture sign, `f` for the check sign `†`: OCR's reading
    /// of a sign; the span is the sign, `meant` what it stands for.
    Sign { meant: char },
    /// `Ks3`, `Fs5`: the Latin `s` that a transliteration of Cyrillic text
    /// puts for the file letter `с` (c) in a square; the span is the `s`.
    TransliteratedFile { meant: char },
    /// `1 e2 e4 e7 e5 2 Kg1 f3`: long algebraic with a space between the
    /// squares, a convention of the text (never reported); the fields as
    /// in `SpaceInMove`.
    Spaced { letter_len: usize, joined: String },
    /// `K.d8`: a stray character inside a move; `joined` is the move
    /// without it, whose letter is its first `letter_len` bytes.
    Stray { letter_len: usize, joined: String },
    /// `Sx` at the end of an excerpt: a move cut off (blanked for the
    /// parser).
    Unfinished,
    /// `Bc4Bc5`: two moves with the blank between them lost; the first is
    /// the span's first `first_len` bytes (found by `syntax::slips`, in
    /// the parsed text).
    Glued { first_len: usize },
    /// `IO.`: a move number with letters for its digits; `number` is it
    /// written with digits (as many bytes).
    LookAlikeNumber { number: String },
    /// `3, Nc3`: a move number with a comma for its dot; `number` is it
    /// written with the dot (as many bytes).
    NumberSign { number: String },
    /// `7. Fn—d3, b7—b6`: a word no move reads, right after a move number
    /// and before a move: a move OCR or a typist broke, kept in the run as
    /// written (the parser reads it as a syntax error, reported there, and
    /// the replay reads on by the position).
    Damaged,
    /// `7 ..Dxd1`, `10. ..Re7`: Black's move marked with two dots, a
    /// newspaper's convention (never reported); the span is the number and
    /// its dots, given to the parser as `number` (as many bytes: `7...`,
    /// `10 ...`).
    BlackDots { number: String },
    /// `4. c3? 4. b4!? 4...Bb6`: the blank before an alternative written
    /// with the number of the move it replaces, or the blank after it,
    /// read as the bracket of a variation (`4. c3?(4. b4!?)4...Bb6`), a
    /// convention of the text (never reported).
    Bracket { open: bool },
    /// `{comment) 9...e6 10. Bg2 {comment}`: a PGN comment closed with `)`
    /// for `}`, moves after it (found by `syntax::slips`); the span is the
    /// comment from its `{` to the `)`.
    CommentBracket,
    /// `Nf64. Bg5`, `Nf6!4. Bg5`: a move number glued to the move before
    /// it (the blank between them lost); the span is the number, read as
    /// written (the parser reads it so).
    GluedNumber,
    /// `e2--e4`: long algebraic's dash written twice (a typewriter's or
    /// LaTeX's en dash, common in scanned old magazines), a convention of
    /// the text (never reported); the fields as in `SpaceInMove`, the
    /// first dash being the gap.
    DoubledDash { letter_len: usize, joined: String },
    /// `d4-e5:`, `Sf3-e5:`: the old capture mark written after the move, a
    /// convention of the text (blanked for the parser, never reported).
    CaptureAfter,
    /// `Sg8-06`, `Lf1-15`: a digit where long algebraic's destination has
    /// its file letter (OCR reads round letters as `0`, tall ones as `1`);
    /// the span is the digit, given to the parser as `placeholder` (the
    /// origin's file), and the replay reads the move the position allows
    /// (`chain::file_digit_read`).
    FileDigit { placeholder: char },
}

/// A piece of the blanked text that parses on its own: a unit with its
/// setup, or the prose before the first unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpec {
    pub range: Range<usize>,
    /// The unit the piece starts (its setup goes with the piece's first
    /// game), if any.
    pub unit: Option<usize>,
}

/// A manuscript as the parser reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manuscript {
    pub format: Format,
    /// The text with everything but the notation blanked, repairs applied.
    pub blanked: String,
    pub units: Vec<Unit>,
    pub repairs: Vec<Repair>,
    /// Where a letter was moved over a space (`К f3`): its range in the
    /// blanked text and by how much it moved.
    shifts: Vec<(Range<usize>, usize)>,
    /// What the markup says, and the runs and setups found in the prose
    /// and the macros, in order (for [`Manuscript::rescan`]).
    markup: Markup,
    found: Vec<(usize, Event)>,
}

/// What is found in the text, in order, before units and setups are paired.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event {
    Setup(Setup),
    Unit(Range<usize>, UnitKind),
}

impl Setup {
    fn shifted(&self, delta: isize) -> Setup {
        let by = |r: &Range<usize>| (r.start as isize + delta) as usize..(r.end as isize + delta) as usize;
        match self {
            Setup::Fen(r) => Setup::Fen(by(r)),
            Setup::Description(r) => Setup::Description(by(r)),
            Setup::NewGame => Setup::NewGame,
        }
    }
}

impl Event {
    fn shifted(&self, delta: isize) -> Event {
        match self {
            Event::Setup(s) => Event::Setup(s.shifted(delta)),
            Event::Unit(r, kind) => {
                Event::Unit((r.start as isize + delta) as usize..(r.end as isize + delta) as usize, *kind)
            }
        }
    }
}

/// The runs and the setups in the prose from `part.start` to `part.end`,
/// in a stretch of prose that ends at `limit` (a run may read up to it).
fn read_prose(
    view: &str,
    part: Range<usize>,
    limit: usize,
    found: &mut Vec<(usize, Event)>,
    repairs: &mut Vec<Repair>,
) {
    let mut scanner = runs::Runs::new(view, limit, false);
    let runs = scanner.find(part.start, part.end);
    mark_glued(view, &mut scanner.repairs);
    repairs.append(&mut scanner.repairs);
    // Positions in the prose between the runs.
    let mut gap_start = part.start;
    for run in runs.into_iter().chain(std::iter::once(part.end..part.end)) {
        setups_in(view, gap_start..run.start, found);
        gap_start = run.end;
        if !run.is_empty() {
            found.push((run.start, Event::Unit(run, UnitKind::Run)));
        }
    }
}

/// The argument of a notation macro: one run, whatever it holds.
fn read_macro(
    view: &str,
    range: Range<usize>,
    kind: UnitKind,
    found: &mut Vec<(usize, Event)>,
    repairs: &mut Vec<Repair>,
) {
    let mut scanner = runs::Runs::new(view, range.end, true);
    for run in scanner.find(range.start, range.end) {
        found.push((run.start, Event::Unit(run, kind)));
    }
    mark_glued(view, &mut scanner.repairs);
    repairs.append(&mut scanner.repairs);
}

/// Marks each move broken by a space that the next move is glued to.
pub(crate) fn mark_glued(view: &str, repairs: &mut [Repair]) {
    for r in repairs {
        if let RepairKind::SpaceInMove { glued, .. } = &mut r.kind {
            *glued = glued_after(view, r.span.end);
        }
    }
}

/// Whether a letter or digit follows `end` at once (`К f3К b4`).
pub fn glued_after(text: &str, end: usize) -> bool {
    text.get(end..).and_then(|t| t.chars().next()).is_some_and(char::is_alphanumeric)
}

/// Reads a manuscript.
pub fn scan(text: &str, format: Format) -> Manuscript {
    let markup = Markup::read(text, format);
    let view = markup.view(text);
    let mut found = Vec::new();
    let mut repairs = Vec::new();
    // The prose between the forced units.
    let mut at = 0;
    for (range, kind) in &markup.forced {
        read_prose(view, at..range.start, range.start, &mut found, &mut repairs);
        if matches!(kind, UnitKind::Macro | UnitKind::Variation) {
            read_macro(view, range.clone(), *kind, &mut found, &mut repairs);
        }
        at = range.end;
    }
    read_prose(view, at..view.len(), view.len(), &mut found, &mut repairs);
    found.sort_by_key(|(at, _)| *at);
    repairs.sort_by_key(|r| r.span.start);
    assemble(text, format, markup, found, repairs, None)
}

/// The units, setups and blanked text from what was found: the runs and
/// prose setups (`found`), the forced units and LaTeX setups (`markup`),
/// the repairs; each list in order.
fn assemble(
    text: &str,
    format: Format,
    markup: Markup,
    found: Vec<(usize, Event)>,
    repairs: Vec<Repair>,
    after: Option<(&Manuscript, Edit, Range<usize>)>,
) -> Manuscript {
    let view = markup.view(text);
    let mut events: Vec<(usize, &Event)> = Vec::with_capacity(found.len() + markup.setups.len() + markup.forced.len());
    let latex: Vec<(usize, Event)> = markup.setups.iter().map(|(at, s)| (*at, Event::Setup(s.clone()))).collect();
    let blocks: Vec<(usize, Event)> = markup
        .forced
        .iter()
        .filter(|(_, kind)| *kind == UnitKind::Block)
        .map(|(r, kind)| (r.start, Event::Unit(r.clone(), *kind)))
        .collect();
    events.extend(found.iter().chain(&latex).chain(&blocks).map(|(at, e)| (*at, e)));
    // Each list is in order: the sort merges them.
    events.sort_by_key(|(at, _)| *at);

    // Pair each unit with the setup before it.
    let mut units = Vec::new();
    let mut pending: Option<Setup> = None;
    for (_, event) in events {
        match event {
            Event::Setup(Setup::Description(r)) => {
                pending = Some(match pending {
                    Some(Setup::Description(before)) => Setup::Description(before.start..r.end),
                    _ => Setup::Description(r.clone()),
                });
            }
            Event::Setup(s) => pending = Some(s.clone()),
            Event::Unit(notation, kind) => {
                units.push(Unit { notation: notation.clone(), kind: *kind, setup: pending.take() })
            }
        }
    }

    // The blanked text: the units and the descriptions before them; after
    // an edit the old one, made again where units changed.
    let blanked =
        after.and_then(|(old, e, read)| reblank(old, text, view, &units, &repairs, e, read)).unwrap_or_else(|| {
            let blanked = blanked_stretch(text, view, &units, &repairs, 0..text.len());
            String::from_utf8(blanked).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        });
    let shifts = repairs
        .iter()
        .filter_map(|r| match &r.kind {
            RepairKind::SpaceInMove { letter_len, joined, .. }
            | RepairKind::Spaced { letter_len, joined }
            | RepairKind::DoubledDash { letter_len, joined }
            | RepairKind::Stray { letter_len, joined } => {
                let gap = r.span.len() - joined.len();
                let at = r.span.start + gap;
                Some((at..at + letter_len, gap))
            }
            _ => None,
        })
        .collect();
    Manuscript { format, blanked, units, repairs, shifts, markup, found }
}

impl Unit {
    /// Whether this is `old` moved by `delta`.
    pub fn moved(&self, old: &Unit, delta: isize) -> bool {
        let by = |r: &Range<usize>| (r.start as isize + delta) as usize..(r.end as isize + delta) as usize;
        old.kind == self.kind
            && by(&old.notation) == self.notation
            && match &old.setup {
                Some(s) => self.setup.as_ref() == Some(&s.shifted(delta)),
                None => self.setup.is_none(),
            }
    }
}

impl Manuscript {
    /// The offset in the manuscript of an offset in the blanked text. `end`
    /// says whether it ends a span (the end of a moved letter stays with
    /// the letter).
    pub fn to_original(&self, offset: usize, end: bool) -> usize {
        let i = self.shifts.partition_point(|(r, _)| r.end < offset);
        for (r, gap) in &self.shifts[i..] {
            if r.start > offset {
                break;
            }
            let inside = if end { r.start < offset && offset <= r.end } else { r.start <= offset && offset < r.end };
            if inside {
                return offset - gap;
            }
        }
        offset
    }

    /// Maps a span of the blanked text to the manuscript.
    pub fn span_to_original(&self, span: &Range<usize>) -> Range<usize> {
        if self.shifts.is_empty() {
            return span.clone();
        }
        let start = self.to_original(span.start, false);
        start..self.to_original(span.end, span.end > span.start).max(start)
    }

    /// Where the piece of a unit starts: at its setup if the setup stands
    /// in the text, else at its notation.
    pub fn piece_start(unit: &Unit) -> usize {
        match &unit.setup {
            Some(Setup::Fen(r) | Setup::Description(r)) => r.start.min(unit.notation.start),
            _ => unit.notation.start,
        }
    }

    /// The pieces of the blanked text, covering it: each unit starts one
    /// (a block with several tagged games several, where `split` cuts), and
    /// the prose after a unit belongs to its piece, so that a move typed
    /// after a run's last one is in the run's piece.
    pub fn sections(&self) -> Vec<SectionSpec> {
        let mut starts: Vec<(usize, Option<usize>)> = Vec::new();
        for (i, unit) in self.units.iter().enumerate() {
            let start = Self::piece_start(unit);
            if starts.last().is_none_or(|&(s, _)| s < start) {
                starts.push((start, Some(i)));
            }
            if unit.kind == UnitKind::Block {
                split::scan(&self.blanked[..unit.notation.end], unit.notation.start, |s| {
                    if s > start {
                        starts.push((s, None));
                    }
                    true
                });
            }
        }
        if starts.first().is_none_or(|&(s, _)| s > 0) {
            starts.insert(0, (0, None));
        }
        let len = self.blanked.len();
        let mut out = Vec::with_capacity(starts.len());
        for (k, &(s, unit)) in starts.iter().enumerate() {
            let end = starts.get(k + 1).map_or(len, |n| n.0);
            // A long piece of bare games (a chess block of them, with no tag
            // sections to cut at) is cut after its results too, as the
            // checker cuts PGN: parsed at once, 16 MB of them took 2.9 GB.
            // The games after the first cut start no unit, as those after a
            // tag section do not.
            for (i, range) in split::cut_after_results(&self.blanked, s..end, SECTION_CUT).into_iter().enumerate() {
                out.push(SectionSpec { range, unit: if i == 0 { unit } else { None } });
            }
        }
        out
    }

    /// Whether a span (in the manuscript) lies in notation: in a unit, in
    /// a description before one, or in a FEN setup. Fixes outside are never
    /// offered: prose and markup are not edited.
    pub fn in_notation_span(&self, span: &Range<usize>) -> bool {
        let i = self.units.partition_point(|u| Self::piece_start(u) <= span.start);
        self.units[..i].iter().rev().take(2).any(|u| {
            let inside = |r: &Range<usize>| r.start <= span.start && span.end <= r.end;
            inside(&u.notation)
                || match &u.setup {
                    Some(Setup::Fen(r) | Setup::Description(r)) => inside(r),
                    _ => false,
                }
        })
    }

    /// Whether a cursor at `offset` is in notation, for completion: inside
    /// a unit, or after a run's last move on what is being typed there (a
    /// move number and the start of a move).
    pub fn in_notation(&self, text: &str, offset: usize) -> bool {
        let i = self.units.partition_point(|u| u.notation.start <= offset);
        let Some(unit) = i.checked_sub(1).map(|k| &self.units[k]) else { return false };
        if offset <= unit.notation.end {
            return true;
        }
        unit.kind != UnitKind::Block && text.get(unit.notation.end..offset).is_some_and(is_typing_tail)
    }
}

/// What may stand between a run's last move and a cursor still typing the
/// run: blank space (no paragraph break), a move number, the start of a
/// move.
fn is_typing_tail(tail: &str) -> bool {
    let rest = tail.trim_start();
    if tail[..tail.len() - rest.len()].matches('\n').count() > 1 {
        return false;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 {
        let after = rest[digits..].trim_start_matches(['.', '…']);
        if after.len() == rest.len() - digits {
            return false;
        }
        after.trim_start_matches([' ', '\t'])
    } else {
        rest
    };
    !rest.contains(char::is_whitespace)
}

/// Text that matters to the reader of manuscripts, for tests that type it
/// at random and compare the result with a fresh reading: notation, prose,
/// paragraph breaks and what a break may not be read across (`(`, dots, a
/// description's punctuation), fences, comments and LaTeX's markup. (Used
/// by the tests of this module, of the language server's documents and of
/// `chess-ls-tests`.)
#[doc(hidden)]
pub const TYPED_SNIPPETS: &[&str] = &[
    "",
    " ",
    "\n",
    "\n\n",
    "\r\n\r\n",
    "\n \n",
    "1. ",
    "3...",
    "...",
    "…",
    ". . ",
    ".",
    "e4",
    "Nf3",
    "Кf3",
    "К ",
    "к",
    "(",
    ")",
    "(\n\n",
    "\n\n... ",
    ":",
    "--",
    "-06 ",
    "a 7-a6 ",
    ",",
    ";",
    "; pawns",
    " pawns\n\n",
    "1-0",
    "\\mainline{",
    "\\variation{",
    "}",
    "{",
    "\\",
    "\\newchessgame",
    "\\newchessgame\n",
    "\\mainline\n",
    "\\label\n",
    "[setfen=8/8/8/8/8/8/8/K1k5 w - - 0 1]",
    "White: Kg1, Rd1. ",
    "White:\n\n",
    "Black: Kg8\n\n, Rd8",
    "6k1/8/8/8/8/8/8/K7 w - - 0 1 ",
    "```pgn\n",
    "```\n",
    "~~~",
    "<!--",
    "-->",
    "%",
    "😀",
    "é",
    "\u{a0}",
    "prose ",
    "O-O",
    "12.",
    "♘",
    "... ",
    "pawns\n\n",
    "*",
    "Weiß:\n\n",
    "\r\n",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn units(m: &Manuscript, text: &str) -> Vec<String> {
        m.units.iter().map(|u| text[u.notation.clone()].to_owned()).collect()
    }

    #[test]
    fn formats_from_paths() {
        assert_eq!(Format::from_path("book/ch1.md"), Some(Format::Markdown));
        assert_eq!(Format::from_path("BOOK.TEX"), Some(Format::Latex));
        assert_eq!(Format::from_path("notes.txt"), Some(Format::Text));
        assert_eq!(Format::from_path("games.pgn"), None);
        assert_eq!(Format::from_path("dir.md/file"), None);
    }

    #[test]
    fn text_runs_setups_and_blanking() {
        let text = "Chapter 1. The Spanish\n\nAfter 1. e4 e5 2. Nf3 Nc6 3. Bb5, White pins.\n\nFEN: 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1. White mates: 1. Rd8#\n\nWhite: Kg1, Rd1; pawns f2, g2, h2. Black: Kg8; pawns f7, g7, h7. 1. Rd8#\n";
        let m = scan(text, Format::Text);
        assert_eq!(m.blanked.len(), text.len());
        assert_eq!(units(&m, text), ["1. e4 e5 2. Nf3 Nc6 3. Bb5", "1. Rd8#", "1. Rd8#"]);
        assert_eq!(m.units[0].setup, None);
        let Some(Setup::Fen(fen)) = &m.units[1].setup else { panic!("{:?}", m.units[1]) };
        assert_eq!(&text[fen.clone()], "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        let Some(Setup::Description(d)) = &m.units[2].setup else { panic!() };
        assert!(text[d.clone()].starts_with("White: Kg1") && text[d.clone()].ends_with("h7."));
        // The descriptions stay for the parser, the prose does not.
        assert!(m.blanked.contains("White: Kg1, Rd1; pawns f2, g2, h2. Black: Kg8; pawns f7, g7, h7. 1. Rd8#"));
        assert!(!m.blanked.contains("Chapter") && !m.blanked.contains("FEN") && !m.blanked.contains("6k1"));
        let pieces = m.sections();
        assert_eq!(pieces[0].range.start, 0);
        assert_eq!(pieces.iter().filter(|p| p.unit.is_some()).count(), 3);
        assert_eq!(pieces[2].range.start, fen.start);
    }

    #[test]
    fn markdown_blocks_and_prose_runs() {
        let text = "# 1. e4\n\nAfter 1. e4 e5 the game.\n\n```pgn\n[Event \"x\"]\n1. d4 *\n\n[Event \"y\"]\n1. c4 *\n```\n\n```python\nprint(\"1. e4 e5\")\n```\n<!-- 1. d4 d5 -->\n";
        let m = scan(text, Format::Markdown);
        assert_eq!(units(&m, text), ["1. e4", "1. e4 e5", "[Event \"x\"]\n1. d4 *\n\n[Event \"y\"]\n1. c4 *\n"]);
        assert_eq!(m.units[2].kind, UnitKind::Block);
        // The prose before, two runs, and the block cut into its two games.
        assert_eq!(m.sections().len(), 5);
        assert!(!m.blanked.contains("print") && !m.blanked.contains("d5"));
    }

    #[test]
    fn latex_macros_and_setups() {
        let text = "\\newchessgame\n\\mainline{1. e4 e5 2. Sf3}\n\nNach 2...Sc6 3. Lb5 \\variation{3. Lc4} ist\n\\newchessgame[setfen=8/8/8/8/8/8/8/K1k5 w - - 0 1]\n\\mainline{1. Kb2}\n";
        let m = scan(text, Format::Latex);
        assert_eq!(units(&m, text), ["1. e4 e5 2. Sf3", "2...Sc6 3. Lb5", "3. Lc4", "1. Kb2"]);
        assert_eq!(m.units[0].setup, Some(Setup::NewGame));
        assert!(matches!(m.units[3].setup, Some(Setup::Fen(_))));
        assert_eq!(m.units[0].kind, UnitKind::Macro);
        assert_eq!(m.units[1].kind, UnitKind::Run);
        assert_eq!(m.units[2].kind, UnitKind::Variation);
    }

    #[test]
    fn repairs_change_the_blanked_text_and_map_back() {
        let text = "Партия: 1. К f3 кf6 .b3 d5 и всё.";
        let m = scan(text, Format::Text);
        let run = &m.units[0].notation;
        assert_eq!(&text[run.clone()], "1. К f3 кf6 .b3 d5");
        assert_eq!(&m.blanked[run.clone()], "1.  Кf3 Кf6  b3 d5");
        let k = text.find("К f3").unwrap();
        // The move `Кf3` in the blanked text starts one byte later.
        assert_eq!(m.span_to_original(&(k + 1..k + 5)), k..k + 5);
        assert_eq!(m.span_to_original(&(k + 1..k + 3)), k..k + 2);
        assert_eq!(m.span_to_original(&(k + 3..k + 5)), k + 3..k + 5);
        assert!(m.in_notation_span(&(k..k + 5)));
        assert!(!m.in_notation_span(&(0..4)));
    }

    #[test]
    fn typing_after_a_run_is_in_notation() {
        let text = "See 1. e4 e5 2. N and so on.\n\nNew paragraph.";
        let m = scan(text, Format::Text);
        let at = text.find("2. N").unwrap();
        assert!(m.in_notation(text, at + 4));
        assert!(m.in_notation(text, at + 2));
        assert!(!m.in_notation(text, text.find("so").unwrap()));
        assert!(!m.in_notation(text, text.find("New").unwrap()));
        assert!(!m.in_notation(text, 2));
    }
}
