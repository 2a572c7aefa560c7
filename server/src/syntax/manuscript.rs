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

/// Turns every byte of `range` except line ends into a space.
pub(crate) fn blank(bytes: &mut [u8], range: Range<usize>) {
    for b in &mut bytes[range] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
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

fn macro_kind(variation: bool) -> UnitKind {
    if variation { UnitKind::Variation } else { UnitKind::Macro }
}

/// A unit the markup makes (a fenced chess block, a macro's argument).
type Forced = (Range<usize>, UnitKind);

/// What the markup of a manuscript says, read over the whole text (a pass
/// over its lines or bytes, cheap next to looking for runs): the text the
/// runs are looked for in, and the units and setups the markup makes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Markup {
    /// The text with the markup blanked; `None` for plain text, which is
    /// its own view.
    view: Option<String>,
    /// Fenced chess blocks and the arguments of notation macros, in order.
    forced: Vec<Forced>,
    /// LaTeX's setups, each at its macro.
    setups: Vec<(usize, Setup)>,
    /// The line starts where reading may start again: for LaTeX where the
    /// reader was between commands (`latex::scan_from`), for Markdown
    /// outside every block and comment (`markdown::read_from`).
    lines: Vec<usize>,
}

impl Markup {
    fn read(text: &str, format: Format) -> Markup {
        let (view, forced, setups, lines) = match format {
            Format::Text => return Markup { view: None, forced: Vec::new(), setups: Vec::new(), lines: Vec::new() },
            Format::Markdown => {
                let reading = markdown::read_from(text, 0, usize::MAX, |_| false);
                let (view, forced) = markdown_view(text, &reading, 0);
                (view, forced, Vec::new(), reading.lines)
            }
            Format::Latex => {
                let l = latex::scan(text);
                (l.view, l.notation.into_iter().map(|(r, v)| (r, macro_kind(v))).collect(), l.setups, l.lines)
            }
        };
        // Blanking replaced whole characters by spaces: still UTF-8.
        let view = String::from_utf8(view).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Markup { view: Some(view), forced, setups, lines }
    }

    /// The markup after an edit, read again only from a line before the
    /// edit where reading may start again (`lines`) up to the first line
    /// after it where the reading is again where it was before; and the
    /// edit widened to what was read again, outside which the markup is the
    /// old one (moved). `None` for plain text.
    fn reread(&self, text: &str, format: Format, e: Edit) -> Option<(Markup, Edit)> {
        let old_view = self.view.as_deref().filter(|_| !self.lines.is_empty())?;
        let delta = e.delta();
        let shift = |x: usize| (x as isize + delta) as usize;
        let mut k = self.lines.partition_point(|&s| s <= e.start);
        let from = loop {
            let Some(before) = k.checked_sub(1) else { break 0 };
            let s = self.lines[before];
            // What LaTeX's reader read before a line start ends with the
            // line after it: that line must end before the edit. Markdown
            // reads line by line.
            if format == Format::Markdown || text.as_bytes()[s..e.start].contains(&b'\n') {
                break s;
            }
            k = before;
        };
        let old_lines = &self.lines;
        let at_old_line = |i: usize| old_lines.binary_search(&((i as isize - delta) as usize)).is_ok();
        let (middle, new_forced, new_setups, new_lines, to) = match format {
            Format::Latex => {
                let (l, to) = latex::scan_from(text, from, e.new_end, at_old_line);
                let forced: Vec<Forced> = l.notation.into_iter().map(|(r, v)| (r, macro_kind(v))).collect();
                (l.view[from..to].to_vec(), forced, l.setups, l.lines, to)
            }
            Format::Markdown => {
                let reading = markdown::read_from(text, from, e.new_end, at_old_line);
                let (view, forced) = markdown_view(text, &reading, from);
                (view, forced, Vec::new(), reading.lines, reading.end)
            }
            Format::Text => return None,
        };
        let old_to = (to as isize - delta) as usize;
        let mut view = String::with_capacity(text.len());
        view.push_str(&old_view[..from]);
        view.push_str(std::str::from_utf8(&middle).ok()?);
        view.push_str(&old_view[old_to..]);
        let mut forced: Vec<Forced> = self.forced.iter().take_while(|(r, _)| r.start < from).cloned().collect();
        forced.extend(new_forced);
        // (A macro left open at the end has an empty argument there: when
        // reading went on to the end, nothing old is left after it.)
        let old_after = if to < text.len() { &self.forced[..] } else { &[] };
        forced.extend(
            old_after.iter().filter(|(r, _)| r.start >= old_to).map(|(r, k)| (shift(r.start)..shift(r.end), *k)),
        );
        let mut setups: Vec<(usize, Setup)> = self.setups.iter().take_while(|(at, _)| *at < from).cloned().collect();
        setups.extend(new_setups);
        setups.extend(self.setups.iter().filter(|(at, _)| *at >= old_to).map(|(at, s)| (shift(*at), s.shifted(delta))));
        let mut lines: Vec<usize> = self.lines.iter().copied().take_while(|&s| s < from).collect();
        lines.extend(new_lines);
        if to < text.len() {
            lines.extend(self.lines[self.lines.partition_point(|&s| s < old_to)..].iter().map(|&s| shift(s)));
        }
        let markup = Markup { view: Some(view), forced, setups, lines };
        Some((markup, Edit { start: from, old_end: old_to, new_end: to }))
    }

    fn view<'a>(&'a self, text: &'a str) -> &'a str {
        self.view.as_deref().unwrap_or(text)
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
    repairs.append(&mut scanner.repairs);
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

/// An edit of a manuscript's text: `start..old_end` of the old text became
/// `start..new_end` of the new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl Edit {
    fn delta(&self) -> isize {
        self.new_end as isize - self.old_end as isize
    }

    /// Where an offset of the old text is in the new one (the edit's start
    /// for an offset inside the replaced text).
    fn map(&self, x: usize) -> usize {
        if x < self.start {
            x
        } else if x >= self.old_end {
            (x as isize + self.delta()) as usize
        } else {
            self.start
        }
    }
}

impl Manuscript {
    /// The manuscript after an edit (`text` is the new text), equal to
    /// `scan(text, format)`, and the stretch of the new text that was read
    /// again: what was found before it is as it was, what was found after
    /// it only moved by the edit's length (the setups of units are paired
    /// again everywhere, and the blanked text is made again).
    ///
    /// The markup is read again from a line before the edit until it reads
    /// as before (a fence, a brace or a `%` may change everything after
    /// it); when the forced units away from that are as before, only the prose from the last
    /// paragraph break before the edit to the first after it (and the
    /// forced units the edit touches) is searched for runs again. A
    /// paragraph break ends every run and every setup, except after a `(`,
    /// `:`, `,`, `;` or a pawns label, or before dots, `:`, `,` or `;`
    /// (`runs::Runs::find`, `description_at`); such breaks are passed over.
    /// Otherwise the whole manuscript is read again.
    pub fn rescan(&self, text: &str, edit: Edit) -> (Manuscript, Range<usize>) {
        match self.rescan_around(text, edit) {
            Some(done) => done,
            None => (scan(text, self.format), 0..text.len()),
        }
    }

    fn rescan_around(&self, text: &str, e: Edit) -> Option<(Manuscript, Range<usize>)> {
        let delta = e.delta();
        if e.start > e.old_end || e.start > e.new_end || self.blanked.len() as isize + delta != text.len() as isize {
            return None;
        }
        let shift = |x: usize| (x as isize + delta) as usize;
        // The markup is read again around the edit, and the edit widened
        // to that (or, should that fail, read whole and compared).
        let (markup, e) = match self.markup.reread(text, self.format, e) {
            Some(done) => done,
            None => {
                let markup = Markup::read(text, self.format);
                if let (Some(old), Some(new)) = (&self.markup.view, &markup.view)
                    && (old.as_bytes()[..e.start] != new.as_bytes()[..e.start]
                        || old.as_bytes()[e.old_end..] != new.as_bytes()[e.new_end..])
                {
                    return None;
                }
                (markup, e)
            }
        };
        let view = markup.view(text);
        // The forced units away from the edit must be as they were; the
        // ones it touches are read again.
        let (old, new) = (&self.markup.forced, &markup.forced);
        let old_before = old.partition_point(|(r, _)| r.end < e.start);
        let new_before = new.partition_point(|(r, _)| r.end < e.start);
        let old_after = old.partition_point(|(r, _)| r.start <= e.old_end);
        let new_after = new.partition_point(|(r, _)| r.start <= e.new_end);
        let moved = |((o, k), (n, l)): (&Forced, &Forced)| k == l && shift(o.start) == n.start && shift(o.end) == n.end;
        if old[..old_before] != new[..new_before]
            || old.len() - old_after != new.len() - new_after
            || !old[old_after..].iter().zip(&new[new_after..]).all(moved)
        {
            return None;
        }
        let (mut lo, mut hi) = (e.start, e.new_end);
        for (r, _) in &new[new_before..new_after] {
            (lo, hi) = (lo.min(r.start), hi.max(r.end));
        }
        for (r, _) in &old[old_before..old_after] {
            (lo, hi) = (lo.min(e.map(r.start)), hi.max(e.map(r.end)));
        }
        // The prose around, up to breaks that nothing reads across (or the
        // forced units on either side).
        let floor = new_before.checked_sub(1).map_or(0, |k| new[k].0.end);
        let ceil = new.get(new_after).map_or(view.len(), |(r, _)| r.start);
        let a = break_before(view, floor, lo);
        // The pawns label a break looks back at must be outside the edit.
        let b = break_after(view, hi.max(e.new_end + 16), ceil);

        let mut found = Vec::new();
        let mut repairs = Vec::new();
        let mut at = a;
        for (range, kind) in new[new_before..new_after].iter().filter(|(r, _)| a <= r.start && r.start < b) {
            read_prose(view, at..range.start, range.start, &mut found, &mut repairs);
            if matches!(kind, UnitKind::Macro | UnitKind::Variation) {
                read_macro(view, range.clone(), *kind, &mut found, &mut repairs);
            }
            at = range.end;
        }
        read_prose(view, at..b, ceil, &mut found, &mut repairs);
        found.sort_by_key(|(at, _)| *at);
        repairs.sort_by_key(|r| r.span.start);

        let old_b = (b as isize - delta) as usize;
        let (keep, kept_after) =
            (self.found.partition_point(|(at, _)| *at < a), self.found.partition_point(|(at, _)| *at < old_b));
        let mut all = Vec::with_capacity(self.found.len() + found.len());
        all.extend_from_slice(&self.found[..keep]);
        all.append(&mut found);
        all.extend(self.found[kept_after..].iter().map(|(at, event)| (shift(*at), event.shifted(delta))));
        let (keep, kept_after) = (
            self.repairs.partition_point(|r| r.span.start < a),
            self.repairs.partition_point(|r| r.span.start < old_b),
        );
        let mut all_repairs = Vec::with_capacity(self.repairs.len() + repairs.len());
        all_repairs.extend_from_slice(&self.repairs[..keep]);
        all_repairs.append(&mut repairs);
        all_repairs.extend(
            self.repairs[kept_after..]
                .iter()
                .map(|r| Repair { span: shift(r.span.start)..shift(r.span.end), kind: r.kind.clone() }),
        );
        let manuscript = assemble(text, self.format, markup, all, all_repairs, Some((self, e, a..b)));
        Some((manuscript, a..b))
    }
}

/// Where reading may start again at or before `at`: the end of the last
/// break in `floor..at` that ends before `at`, or `floor`.
fn break_before(view: &str, floor: usize, at: usize) -> usize {
    let bytes = view.as_bytes();
    let mut end = at;
    while let Some(nl) = bytes[floor..end].iter().rposition(|&b| b == b'\n').map(|k| floor + k) {
        let blank = blank_around(view, nl, floor, view.len());
        if blank.start == floor {
            return floor;
        }
        if blank.end < at && is_break(view, blank.clone()) {
            return blank.end;
        }
        end = blank.start;
    }
    floor
}

/// Where reading may stop after `from`: the end of the first break that
/// starts at or after `from`, or `ceil` (where the prose ends).
fn break_after(view: &str, from: usize, ceil: usize) -> usize {
    let bytes = view.as_bytes();
    let mut i = from;
    while i < ceil {
        let Some(nl) = bytes[i..ceil].iter().position(|&b| b == b'\n').map(|k| i + k) else { break };
        let blank = blank_around(view, nl, 0, ceil);
        if blank.end == ceil {
            return ceil;
        }
        if blank.start >= from && is_break(view, blank.clone()) {
            return blank.end;
        }
        i = blank.end;
    }
    ceil
}

/// The blank space around the line end at `nl`, within `floor..ceil`.
fn blank_around(view: &str, nl: usize, floor: usize, ceil: usize) -> Range<usize> {
    let mut start = nl;
    while let Some(c) = view[floor..start].chars().next_back().filter(|c| c.is_whitespace()) {
        start -= c.len_utf8();
    }
    let mut end = nl;
    while let Some(c) = view[end..ceil].chars().next().filter(|c| c.is_whitespace()) {
        end += c.len_utf8();
    }
    start..end
}

/// Whether a blank stretch is a paragraph break that no run and no setup
/// reads across: a blank line, not after `(` (a variation may open before
/// it), `:`, `,`, `;` or a pawns label (a position description goes on),
/// nor before dots (`2.` then `... Nf6`), `:`, `,` or `;`.
fn is_break(view: &str, blank: Range<usize>) -> bool {
    if view.as_bytes()[blank.clone()].iter().filter(|&&b| b == b'\n').count() < 2 {
        return false;
    }
    let before = view[..blank.start].chars().next_back();
    let after = view[blank.end..].chars().next();
    !matches!(before, Some('(' | ':' | ',' | ';'))
        && !matches!(after, Some('.' | '…' | ':' | ',' | ';'))
        && !PAWNS.iter().any(|label| view[..blank.start].ends_with(label))
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
            RepairKind::SpaceInMove { letter_len, joined } => {
                let gap = r.span.len() - joined.len();
                let at = r.span.start + gap;
                Some((at..at + letter_len, gap))
            }
            _ => None,
        })
        .collect();
    Manuscript { format, blanked, units, repairs, shifts, markup, found }
}

/// The blanked bytes of `stretch` of the text: all blank but the units
/// starting in it and the descriptions before them, repairs applied. (No
/// unit, description or repair crosses its ends.)
fn blanked_stretch(text: &str, view: &str, units: &[Unit], repairs: &[Repair], stretch: Range<usize>) -> Vec<u8> {
    let base = stretch.start;
    let mut out = text.as_bytes()[stretch.clone()].to_vec();
    let len = out.len();
    blank(&mut out, 0..len);
    let local = |r: &Range<usize>| r.start - base..r.end - base;
    let keep = |out: &mut Vec<u8>, r: Range<usize>| out[local(&r)].copy_from_slice(&view.as_bytes()[r]);
    let first = units.partition_point(|u| u.notation.start < base);
    // An empty unit at the very end (a block opened on the last line) is
    // the last stretch's.
    let last =
        if stretch.end == text.len() { units.len() } else { units.partition_point(|u| u.notation.start < stretch.end) };
    for unit in &units[first..last.max(first)] {
        keep(&mut out, unit.notation.clone());
        if let Some(Setup::Description(r)) = &unit.setup {
            // Only the descriptions themselves, not the prose between them.
            for d in descriptions_in(view, r.clone()) {
                keep(&mut out, d);
            }
        }
    }
    let first = repairs.partition_point(|r| r.span.start < base);
    for repair in repairs[first..].iter().take_while(|r| r.span.start < stretch.end) {
        let span = local(&repair.span);
        match &repair.kind {
            RepairKind::LowerCaseLetter { upper } => {
                let mut buf = [0u8; 4];
                let upper = upper.encode_utf8(&mut buf).as_bytes();
                if upper.len() == span.len() {
                    out[span].copy_from_slice(upper);
                }
            }
            RepairKind::LostMoveNumber { .. } => blank(&mut out, span),
            RepairKind::SpaceInMove { letter_len, joined } => {
                let gap = span.len() - joined.len();
                let letter = &text.as_bytes()[repair.span.start..repair.span.start + letter_len];
                blank(&mut out, span.start..span.start + gap);
                let at = span.start + gap;
                out[at..at + letter_len].copy_from_slice(letter);
            }
        }
    }
    out
}

/// The blanked text after an edit (`e`, with `read` read again): the old
/// one, made again from the first unit that changed (or whose description
/// did) to the last, and over what was read again; `None` when that does
/// not cut the old one where it can be cut.
fn reblank(
    old: &Manuscript,
    text: &str,
    view: &str,
    units: &[Unit],
    repairs: &[Repair],
    e: Edit,
    read: Range<usize>,
) -> Option<String> {
    let delta = e.delta();
    let (mut lo, mut hi) = (read.start.min(e.start), read.end.max(e.new_end));
    let cover = |u: &Unit| Manuscript::piece_start(u)..u.notation.end;
    let front = old.units.iter().zip(units).take_while(|(o, n)| o == n).count();
    let most = old.units.len().min(units.len()) - front;
    let back = old.units.iter().rev().zip(units.iter().rev()).take(most).take_while(|(o, n)| n.moved(o, delta)).count();
    for u in &units[front..units.len() - back] {
        (lo, hi) = (lo.min(cover(u).start), hi.max(cover(u).end));
    }
    for u in &old.units[front..old.units.len() - back] {
        (lo, hi) = (lo.min(e.map(cover(u).start)), hi.max(e.map(cover(u).end)));
    }
    // Every unit that reaches into the stretch, whole.
    loop {
        let before = (lo, hi);
        let first = units.partition_point(|u| u.notation.end <= lo);
        for u in &units[first..] {
            let c = cover(u);
            if c.start >= hi {
                break;
            }
            (lo, hi) = (lo.min(c.start), hi.max(c.end));
        }
        if (lo, hi) == before {
            break;
        }
    }
    let old_hi = (hi as isize - delta) as usize;
    let middle = blanked_stretch(text, view, units, repairs, lo..hi);
    let mut blanked = String::with_capacity(text.len());
    blanked.push_str(old.blanked.get(..lo)?);
    blanked.push_str(std::str::from_utf8(&middle).ok()?);
    blanked.push_str(old.blanked.get(old_hi..)?);
    Some(blanked)
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

/// The Markdown view of `text[from..reading.end]` (what `reading` read
/// from `from`): fenced blocks blanked (chess blocks kept, as forced units),
/// HTML comments blanked.
fn markdown_view(text: &str, reading: &markdown::Reading, from: usize) -> (Vec<u8>, Vec<Forced>) {
    let mut view = text.as_bytes()[from..reading.end].to_vec();
    let local = |r: &Range<usize>| r.start - from..r.end - from;
    let mut forced = Vec::new();
    for fence in &reading.fences {
        blank(&mut view, local(&fence.lines));
        if fence.chess {
            view[local(&fence.content)].copy_from_slice(&text.as_bytes()[fence.content.clone()]);
            forced.push((fence.content.clone(), UnitKind::Block));
        }
    }
    for comment in &reading.comments {
        if !forced.iter().any(|(r, _)| r.contains(&comment.start)) {
            blank(&mut view, local(comment));
        }
    }
    (view, forced)
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
        let p = runs::section_at(s, k).unwrap_or(k);
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
        starts
            .iter()
            .enumerate()
            .map(|(k, &(s, unit))| SectionSpec { range: s..starts.get(k + 1).map_or(len, |n| n.0), unit })
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
mod rescan_tests {
    use super::*;

    const BASE: &str = "Intro 1. e4 e5 2. Nf3 Nc6.\n\nThen 2...Nf6 3. Nxe5 and 3. Bc4 Nf6 4. d3.\n\n\\newchessgame\n\\mainline{1. d4 d5 2. c4}\nWhite: Kg1, Rd1; pawns f2. Black: Kg8. 1. Rd8#\n\nКf3 кf6 .b3 1. К f3 кf6 .b3 d5\n\n```pgn\n1. e4 e5 *\n```\n\nA 1. e4 (\n\n1. d4 d5) 2.\n\n... Nf6 3. Bb5\n\n<!-- 1. c4 -->\n\nFEN 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1. 1. Rd8#\n\n% 1. f4\n\\variation{2. f4 exf4}\nWhite:\n\nKg1\n\n; pawns\n\nh2. 1. Kf2\n";

    fn random_edits(format: Format, seed: u64, rounds: usize, edits: usize) {
        let mut state = seed;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..rounds {
            let mut text = BASE.repeat(1 + next(3));
            let mut ms = scan(&text, format);
            for _ in 0..edits {
                let mut start = next(text.len() + 1);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + next(12)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let snippet = TYPED_SNIPPETS[next(TYPED_SNIPPETS.len())];
                text.replace_range(start..end, snippet);
                let edit = Edit { start, old_end: end, new_end: start + snippet.len() };
                let (again, _) = ms.rescan(&text, edit);
                let fresh = scan(&text, format);
                assert!(again == fresh, "{format:?} after {edit:?} ({snippet:?}): {text:?}");
                ms = again;
            }
        }
    }

    #[test]
    fn rescans_equal_fresh_scans_in_plain_text() {
        random_edits(Format::Text, 0x2545_f491_4f6c_dd1d, 60, 30);
    }

    #[test]
    fn rescans_equal_fresh_scans_in_markdown() {
        random_edits(Format::Markdown, 0x9e37_79b9_7f4a_7c15, 60, 30);
    }

    #[test]
    fn rescans_equal_fresh_scans_in_latex() {
        random_edits(Format::Latex, 0xd1b5_4a32_d192_ed03, 60, 30);
    }

    #[test]
    fn latex_arguments_on_the_next_line_are_read_again() {
        // A macro at a line's end takes a group that starts the next line:
        // an edit there changes what the line before means.
        for (text, at) in [
            ("Text 1. e4 e5.\n\\mainline\nx{2. Nf3 Nc6}\n\nMore 1. d4.\n", "x{"),
            ("A\n\\newchessgame\nx[setfen=8/8/8/8/8/8/8/K1k5 w - - 0 1]\n\\mainline{1. Kb2}\n", "x["),
            ("A\n\\label\n x{1. e4 e5}\n\n1. d4 d5\n", "x{"),
        ] {
            let ms = scan(text, Format::Latex);
            let k = text.find(at).unwrap();
            let mut edited = text.to_owned();
            edited.replace_range(k..k + 1, "");
            let (again, _) = ms.rescan(&edited, Edit { start: k, old_end: k + 1, new_end: k });
            assert_eq!(again, scan(&edited, Format::Latex), "{edited:?}");
            let (back, _) = again.rescan(text, Edit { start: k, old_end: k, new_end: k + 1 });
            assert_eq!(back, ms, "{text:?}");
        }
    }

    #[test]
    fn a_keystroke_in_prose_reads_its_paragraph_only() {
        let paragraph = "After 1. e4 e5 2. Nf3 Nc6 White pins.\n\n";
        let mut text = paragraph.repeat(50);
        let ms = scan(&text, Format::Text);
        let at = paragraph.len() * 20 + 3;
        text.insert(at, 'x');
        let (again, read) = ms.rescan(&text, Edit { start: at, old_end: at, new_end: at + 1 });
        assert_eq!(again, scan(&text, Format::Text));
        assert_eq!(read, paragraph.len() * 20..paragraph.len() * 21 + 1);
    }
}
