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

use std::ops::Range;

use super::{markdown, split};

mod latex;
mod runs;

/// The kind of manuscript.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Text,
    Markdown,
    Latex,
}

impl Format {
    /// The format a file's name says: `.txt`, `.md`, `.tex` and their
    /// relatives; `None` for anything else (a `.pgn` file is notation).
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
    /// `К f3`: the span is the whole move; `joined` is it without the
    /// space; the letter is the first `letter_len` bytes.
    SpaceInMove { letter_len: usize, joined: String },
    /// `.b3`: the span is the dots; `number` is the move number they lost
    /// (`2.`, `2...`).
    LostMoveNumber { number: String },
    /// `кf6`: the span is the letter; `upper` is its capital.
    LowerCaseLetter { upper: char },
}

/// A piece of the blanked text that parses on its own: a unit with its
/// setup, or the prose before the first unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
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
}

/// Turns every byte of `range` except line ends into a space.
pub(crate) fn blank(bytes: &mut [u8], range: Range<usize>) {
    for b in &mut bytes[range] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// What is found in the text, in order, before units and setups are paired.
enum Event {
    Setup(Setup),
    Unit(Range<usize>, UnitKind),
}

/// Reads a manuscript.
pub fn scan(text: &str, format: Format) -> Manuscript {
    let (view, forced, latex_setups) = match format {
        Format::Text => (text.as_bytes().to_vec(), Vec::new(), Vec::new()),
        Format::Markdown => markdown_view(text),
        Format::Latex => {
            let l = latex::scan(text);
            let kind = |variation: bool| if variation { UnitKind::Variation } else { UnitKind::Macro };
            (l.view, l.notation.into_iter().map(|(r, v)| (r, kind(v))).collect(), l.setups)
        }
    };
    // Blanking replaced whole characters by spaces: still UTF-8.
    let view = String::from_utf8(view).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let mut events: Vec<(usize, Event)> = latex_setups.into_iter().map(|(at, s)| (at, Event::Setup(s))).collect();
    let mut repairs = Vec::new();

    // The prose between the forced units.
    let mut at = 0;
    let mut segments = Vec::new();
    for (range, _) in &forced {
        segments.push(at..range.start);
        at = range.end;
    }
    segments.push(at..view.len());
    for segment in segments {
        let mut scanner = runs::Runs::new(&view, segment.end, false);
        let found = scanner.find(segment.start);
        repairs.append(&mut scanner.repairs);
        // Positions in the prose between the runs.
        let mut gap_start = segment.start;
        for run in found.iter().cloned().chain(std::iter::once(segment.end..segment.end)) {
            setups_in(&view, gap_start..run.start, &mut events);
            gap_start = run.end;
            if !run.is_empty() {
                events.push((run.start, Event::Unit(run, UnitKind::Run)));
            }
        }
    }
    for (range, kind) in forced {
        match kind {
            UnitKind::Macro | UnitKind::Variation => {
                let mut scanner = runs::Runs::new(&view, range.end, true);
                for run in scanner.find(range.start) {
                    events.push((run.start, Event::Unit(run, kind)));
                }
                repairs.append(&mut scanner.repairs);
            }
            _ => events.push((range.start, Event::Unit(range, kind))),
        }
    }
    events.sort_by_key(|(at, _)| *at);
    repairs.sort_by_key(|r| r.span.start);

    // Pair each unit with the setup before it.
    let mut units = Vec::new();
    let mut pending: Option<Setup> = None;
    for (_, event) in events {
        match event {
            Event::Setup(Setup::Description(r)) => {
                pending = Some(match pending {
                    Some(Setup::Description(before)) => Setup::Description(before.start..r.end),
                    _ => Setup::Description(r),
                });
            }
            Event::Setup(s) => pending = Some(s),
            Event::Unit(notation, kind) => units.push(Unit { notation, kind, setup: pending.take() }),
        }
    }

    // The blanked text: the units and the descriptions before them.
    let mut blanked: Vec<u8> = text.as_bytes().to_vec();
    blank(&mut blanked, 0..text.len());
    let keep = |blanked: &mut Vec<u8>, r: Range<usize>| blanked[r.clone()].copy_from_slice(&view.as_bytes()[r]);
    for unit in &units {
        keep(&mut blanked, unit.notation.clone());
        if let Some(Setup::Description(r)) = &unit.setup {
            // Only the descriptions themselves, not the prose between them.
            for d in descriptions_in(&view, r.clone()) {
                keep(&mut blanked, d);
            }
        }
    }
    let mut shifts = Vec::new();
    for repair in &repairs {
        let span = repair.span.clone();
        match &repair.kind {
            RepairKind::LowerCaseLetter { upper } => {
                let mut buf = [0u8; 4];
                let upper = upper.encode_utf8(&mut buf).as_bytes();
                if upper.len() == span.len() {
                    blanked[span].copy_from_slice(upper);
                }
            }
            RepairKind::LostMoveNumber { .. } => blank(&mut blanked, span),
            RepairKind::SpaceInMove { letter_len, joined } => {
                let gap = span.len() - joined.len();
                let letter = text.as_bytes()[span.start..span.start + letter_len].to_vec();
                blank(&mut blanked, span.start..span.start + gap);
                let at = span.start + gap;
                blanked[at..at + letter_len].copy_from_slice(&letter);
                shifts.push((at..at + letter_len, gap));
            }
        }
    }
    let blanked = String::from_utf8(blanked).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Manuscript { format, blanked, units, repairs, shifts }
}

/// The Markdown view: fenced blocks blanked (chess blocks kept, as forced
/// units), HTML comments blanked.
#[allow(clippy::type_complexity)]
fn markdown_view(text: &str) -> (Vec<u8>, Vec<(Range<usize>, UnitKind)>, Vec<(usize, Setup)>) {
    let mut view = text.as_bytes().to_vec();
    let mut forced = Vec::new();
    for fence in markdown::fences(text) {
        blank(&mut view, fence.lines.clone());
        if fence.chess {
            view[fence.content.clone()].copy_from_slice(&text.as_bytes()[fence.content.clone()]);
            forced.push((fence.content, UnitKind::Block));
        }
    }
    let mut from = 0;
    while let Some(start) = text[from..].find("<!--").map(|k| from + k) {
        let end = text[start..].find("-->").map_or(text.len(), |k| start + k + 3);
        if !forced.iter().any(|(r, _)| r.contains(&start)) {
            blank(&mut view, start..end);
        }
        from = end;
    }
    (view, forced, Vec::new())
}

/// The FENs and position descriptions in a stretch of prose.
fn setups_in(view: &str, range: Range<usize>, events: &mut Vec<(usize, Event)>) {
    let mut i = range.start;
    while i < range.end {
        let Some(c) = view[i..range.end].chars().next() else { break };
        // Only a FEN's first rank or a side's label may start here.
        let may_start = matches!(c, 'r' | 'n' | 'b' | 'q' | 'k' | 'p' | 'R' | 'N' | 'B' | 'Q' | 'K' | 'P' | '1'..='8')
            || matches!(c, 'Б' | 'Ч' | 'W' | 'S' | 'N') && SIDES.iter().any(|side| side.starts_with(c));
        let word_start = || view[..i].chars().next_back().is_none_or(|p| !p.is_alphanumeric() && p != '/');
        if may_start && word_start() {
            if let Some(end) = fen_at(view, i, range.end) {
                events.push((i, Event::Setup(Setup::Fen(i..end))));
                i = end;
                continue;
            }
            if let Some(end) = description_at(view, i, range.end) {
                events.push((i, Event::Setup(Setup::Description(i..end))));
                i = end;
                continue;
            }
        }
        i += c.len_utf8();
    }
}

/// The descriptions between `range`'s ends (for keeping them, not the
/// prose between).
fn descriptions_in(view: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = range.start;
    while i < range.end {
        if let Some(end) = description_at(view, i, range.end) {
            out.push(i..end);
            i = end;
            continue;
        }
        i += view[i..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// A FEN at `i`: the board (eight ranks that each fill eight squares) and
/// as many of the fields after it as are there.
fn fen_at(view: &str, i: usize, limit: usize) -> Option<usize> {
    let s = &view[i..limit];
    let board_len =
        s.find(|c: char| !(c == '/' || c.is_ascii_digit() || "pnbrqkPNBRQK".contains(c))).unwrap_or(s.len());
    let board = &s[..board_len];
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    for rank in &ranks {
        let squares: u32 = rank.chars().map(|c| c.to_digit(10).unwrap_or(1)).sum();
        if squares != 8 {
            return None;
        }
    }
    let mut end = board_len;
    let fields: [fn(&str) -> bool; 5] = [
        |f| f == "w" || f == "b",
        |f| f == "-" || (f.len() <= 4 && f.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c))),
        |f| {
            f == "-" || (f.len() == 2 && f.as_bytes()[0].is_ascii_lowercase() && matches!(f.as_bytes()[1], b'3' | b'6'))
        },
        |f| !f.is_empty() && f.len() <= 3 && f.bytes().all(|b| b.is_ascii_digit()),
        |f| !f.is_empty() && f.len() <= 4 && f.bytes().all(|b| b.is_ascii_digit()),
    ];
    for field in fields {
        let Some(rest) = s[end..].strip_prefix(' ') else { break };
        let len =
            rest.find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ')' | ']' | '}')).unwrap_or(rest.len());
        // A field at a sentence's end keeps its period out.
        let word = rest[..len].trim_end_matches('.');
        if !field(word) {
            break;
        }
        end += 1 + word.len();
    }
    Some(i + end)
}

/// The side labels of position descriptions (the grammar's `side`).
const SIDES: [&str; 14] = [
    "Белые",
    "Чёрные",
    "Черные",
    "Білі",
    "Чорні",
    "White",
    "Black",
    "Weiß",
    "Weiss",
    "Schwarz",
    "Blancs",
    "Noirs",
    "Blancas",
    "Negras",
];
/// The labels of pawn lists (the grammar's `pawns_label`).
const PAWNS: [&str; 9] = ["пп.", "п.", "пішаки", "пешки", "Pawns", "pawns", "Bauern", "pions", "peones"];

/// A position description at `i`, as the grammar reads one: `Белые: Крс1,
/// Фf2, Лe1; пп. a3, b2.`
fn description_at(view: &str, i: usize, limit: usize) -> Option<usize> {
    let s = &view[i..limit];
    let side = SIDES.iter().find(|side| s.starts_with(**side))?;
    let mut j = side.len();
    j += blank_len(&s[j..]);
    j = s[j..].starts_with(':').then_some(j + 1)?;
    let placement = |k: usize| -> Option<usize> {
        let k = k + blank_len(&s[k..]);
        let p = runs::piece_at(s, k).unwrap_or(k);
        let mut chars = s[p..].chars();
        let (f, r) = (chars.next()?, chars.next()?);
        if !runs::is_file(f) || !(matches!(r, '1'..='8' | 'l' | 'З')) {
            return None;
        }
        let end = p + f.len_utf8() + r.len_utf8();
        s[end..].chars().next().is_none_or(|c| !c.is_alphanumeric()).then_some(end)
    };
    let list = |mut k: usize| -> Option<usize> {
        k = placement(k)?;
        loop {
            let c = k + blank_len(&s[k..]);
            match s[c..].strip_prefix(',').and_then(|_| placement(c + 1)) {
                Some(next) => k = next,
                None => return Some(k),
            }
        }
    };
    let mut end = list(j)?;
    let semi = end + blank_len(&s[end..]);
    if s[semi..].starts_with(';') {
        let mut k = semi + 1;
        k += blank_len(&s[k..]);
        if let Some(label) = PAWNS.iter().find(|l| s[k..].starts_with(**l)) {
            k += label.len();
            end = list(k).unwrap_or(k);
        } else if let Some(after) = list(k) {
            end = after;
        }
    }
    if s[end..].starts_with('.') {
        end += 1;
    }
    Some(i + end)
}

fn blank_len(s: &str) -> usize {
    s.len() - s.trim_start().len()
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
    pub fn pieces(&self) -> Vec<PieceSpec> {
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
        starts
            .iter()
            .enumerate()
            .map(|(k, &(s, unit))| PieceSpec { range: s..starts.get(k + 1).map_or(len, |n| n.0), unit })
            .collect()
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
        let pieces = m.pieces();
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
        assert_eq!(m.pieces().len(), 5);
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
