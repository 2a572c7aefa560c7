//! Games in manuscripts: where each unit of notation found by
//! `syntax::manuscript` starts, and its analysis from there.
//!
//! A book gives a game in pieces with prose between (`1. e4 e5 2. Nf3 Nc6
//! 3. Bb5`, a paragraph, `3...a6 4. Ba4`), comments on it with lines that
//! branch off (`after 3...Nf6 4.O-O`), and sets up positions (a FEN, a
//! position description, `\newchessgame[setfen=...]`). Each game found is
//! given a [`Start`]:
//!
//! - its own: tags (a FEN tag, or none: the initial position), or a
//!   position description written before its moves;
//! - the position set up right before it;
//! - the initial position, when it starts at White's first move;
//! - the end of an earlier game of the document whose next move it is, in
//!   the same language (a *continuation*);
//! - a position inside an earlier game, at its first move's number (a
//!   *variation* written in prose);
//! - none: then its syntax and numbering are checked, and one `unchecked`
//!   info says that its moves were not replayed.
//!
//! Every game replayed leaves a [`LineRecord`] (the positions of its main
//! line) in the [`Chain`], for the games after it. When several earlier
//! games fit, main lines come before variations and later games before
//! earlier ones, and the first reading under which the moves replay
//! without an error is taken.
//!
//! The start is given to the replay as a FEN tag added to the lowered game
//! (the FEN of the earlier game's position, or the manuscript's FEN with its
//! span there), and a continuation is read in its game's language: so the
//! replay itself needs no notion of manuscripts.

mod head;
mod start;

pub use head::{DocumentLetters, Head, Letters, head_of};
use head::{number_of, ply_of, ply_of_number};
use start::fen_for;
pub use start::{
    Start, StartKind, analyze, choose, file_digit_read, file_digit_unread, prepared, record, repair_diagnostic,
    sign_read_as_dash, to_manuscript, trace,
};

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::languages::{self, LookalikeContext, normalize_lookalike};
use super::{Code, Diagnostic, Fix, GameReport, Language, LanguageSource, Options, Severity, Trace, trace_game};
use crate::syntax::manuscript::{self, Manuscript, Repair, RepairKind, Setup, Unit};
use crate::syntax::{GameSyntax, Item, Line, Span, Tag, Token};

/// The language of a manuscript whose games have `letters` (all of them
/// together): the one that reads most of them
/// ([`DocumentLetters::best_reader`]).
/// A run whose own letters several languages read (`Sc6 ... Kd2`: German,
/// Polish, Swedish...) is read in it where it is one of them, as a reader
/// reads a Polish book's runs as Polish (`Options::document_language`).
/// `None` when the user chose the language (every game is read in it) or
/// there are no letters.
pub fn document_language(letters: &DocumentLetters, options: &Options) -> Option<Language> {
    if options.language.is_some() {
        return None;
    }
    letters.best_reader()
}

/// How many earlier games are tried for one game that could continue or
/// branch off several.
const MAX_CANDIDATES: usize = 4;

/// How many of a game's latest runs a variation may branch off (a run that
/// goes on from the end of one is found however far back it is).
const RECENT_LINES: usize = 256;

/// How many games back (each from a start at move 1 or a position given)
/// a run is looked for that the moves go on from. A line at move 1 in the
/// prose (`1. d4 is also played`) starts a game of its own, so a few are
/// needed; a book does not go back further to pick up an old game.
const GAMES_BACK: usize = 8;

/// How many records out of sight [`Chain::forget_out_of_sight`] lets gather
/// before it forgets them.
const FORGET_AT: usize = 1024;

/// The main line of a game that was replayed: where later games may go on.
#[derive(Clone, Debug, PartialEq)]
pub struct LineRecord {
    pub language: Option<Language>,
    /// The letters of its game up to its end.
    pub letters: Letters,
    pub first_ply: u32,
    /// The position before each ply from `first_ply` on, and after the last.
    pub positions: Vec<Chess>,
    /// The whole main line replayed (none of its moves stopped it).
    pub complete: bool,
    /// The ply after its last written move (past `end_ply` when incomplete).
    pub written_end: u32,
    pub variation: bool,
    /// It started afresh (at move 1, from its tags or a position given):
    /// a new game of the manuscript.
    pub fresh: bool,
    /// The same moves read in other languages, when the game's own letters
    /// do not decide (`4. Re2` is a king's move in Portuguese, a knight's
    /// in Icelandic) and each reading replays without an error: the games
    /// that go on from this one may tell which was meant. Each has its
    /// language set and no alternatives of its own.
    pub alternatives: Vec<Arc<LineRecord>>,
    /// It is one of several readings of its game (the record with
    /// alternatives, or one of them): the games after it go on from it in
    /// its own language first.
    pub one_of_readings: bool,
}

impl LineRecord {
    fn end_ply(&self) -> u32 {
        self.first_ply + self.positions.len() as u32 - 1
    }

    fn position_at(&self, ply: u32) -> Option<&Chess> {
        self.positions.get(ply.checked_sub(self.first_ply)? as usize)
    }
}

/// A position set up before a game, as its piece sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupRef<'a> {
    /// A FEN's text and its span relative to the piece.
    Fen {
        text: &'a str,
        span: Span,
    },
    NewGame,
}

/// The setup a piece hands to its first game.
pub fn setup_ref<'t>(text: &'t str, unit: &Unit, piece_start: usize) -> Option<SetupRef<'t>> {
    match &unit.setup {
        Some(Setup::Fen(r)) => {
            Some(SetupRef::Fen { text: &text[r.clone()], span: r.start - piece_start..r.end - piece_start })
        }
        Some(Setup::NewGame) => Some(SetupRef::NewGame),
        Some(Setup::Description(_)) | None => None,
    }
}

/// Indices of records by a ply (where they start, or where they end): a
/// vector for the plies of real games (a push on every keystroke's walk
/// costs next to nothing), a map beyond.
#[derive(Clone, Debug, Default)]
struct ByPly {
    near: Vec<Vec<usize>>,
    far: HashMap<u32, Vec<usize>>,
}

impl ByPly {
    const NEAR: u32 = 4096;

    fn get(&self, ply: u32) -> &[usize] {
        if ply < Self::NEAR {
            self.near.get(ply as usize).map_or(&[], Vec::as_slice)
        } else {
            self.far.get(&ply).map_or(&[], Vec::as_slice)
        }
    }

    fn get_mut(&mut self, ply: u32) -> Option<&mut Vec<usize>> {
        if ply < Self::NEAR { self.near.get_mut(ply as usize) } else { self.far.get_mut(&ply) }
    }

    fn push(&mut self, ply: u32, index: usize) {
        if ply < Self::NEAR {
            let at = ply as usize;
            if self.near.len() <= at {
                self.near.resize_with(at + 1, Vec::new);
            }
            self.near[at].push(index);
        } else {
            self.far.entry(ply).or_default().push(index);
        }
    }
}

/// The games replayed so far, most recent last, found by the ply where
/// they start and where they end.
#[derive(Clone, Debug, Default)]
pub struct Chain {
    lines: Vec<Arc<LineRecord>>,
    by_first: ByPly,
    by_end: ByPly,
    /// Where each game starts: the records that start afresh (at move 1,
    /// from their tags or from a position given).
    fresh: Vec<usize>,
}

impl Chain {
    /// How many records it holds.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Forgets the records after the first `len` (a trial that did not
    /// hold).
    pub fn truncate(&mut self, len: usize) {
        while self.lines.len() > len {
            let Some(record) = self.lines.pop() else { break };
            let index = self.lines.len();
            for (map, ply) in [(&mut self.by_first, record.first_ply), (&mut self.by_end, record.end_ply())] {
                if let Some(list) = map.get_mut(ply)
                    && list.last() == Some(&index)
                {
                    list.pop();
                }
            }
            if self.fresh.last() == Some(&index) {
                self.fresh.pop();
            }
        }
    }

    /// Forgets the records before [`Chain::outlook_start`], once there are
    /// many of them: no plan of a game still to come looks at them (a plan
    /// looks at the last [`GAMES_BACK`] games and the last [`RECENT_LINES`]
    /// runs), so every later plan is as it would be without forgetting. For
    /// a reader that goes through a manuscript once and keeps none of its
    /// games (the command line's check), so that memory follows the last
    /// games, not the book: a record holds the positions of its main line.
    pub fn forget_out_of_sight(&mut self) {
        let start = self.outlook_start();
        // Rebuilding costs the records kept; done once as many are out of
        // sight, it costs a constant per record pushed.
        if start < FORGET_AT.max(self.lines.len() - start) {
            return;
        }
        let fresh = std::mem::take(&mut self.fresh);
        let lines = std::mem::take(&mut self.lines);
        *self = Chain::default();
        for (index, line) in lines.into_iter().enumerate().skip(start) {
            // The first record kept starts a game here whatever it was (as
            // the first record of any chain does): the game it belongs to
            // is one before the last `GAMES_BACK`, never looked at.
            self.push_one(line, fresh.binary_search(&index).is_ok());
        }
    }

    /// Where the records start that the plans of the games still to come
    /// can look at: the last `GAMES_BACK` games and the last
    /// `RECENT_LINES` runs.
    fn outlook_start(&self) -> usize {
        let games = self.fresh.len().checked_sub(GAMES_BACK).map_or(0, |k| self.fresh[k]);
        games.min(self.lines.len().saturating_sub(RECENT_LINES))
    }

    /// Whether every game after this chain gets the plan it would get
    /// after another chain, of which `theirs` are the last records (all of
    /// them when `whole`): the records its plan can look at are the very
    /// same ones (by address). When they are, the language server keeps
    /// the rest of a manuscript as it was.
    pub fn same_outlook(&self, theirs: &[Arc<LineRecord>], whole: bool) -> bool {
        let start = self.outlook_start();
        let ours = &self.lines[start..];
        let Some(before) = theirs.len().checked_sub(ours.len()) else { return false };
        if !ours.iter().zip(&theirs[before..]).all(|(a, b)| Arc::ptr_eq(a, b)) {
            return false;
        }
        // The first record starts a game whatever it is: when the outlook
        // reaches it, the other chain must hold no more; else it must hold
        // one more at least, so that the games here start where they start
        // there.
        let more = before > 0 || !whole;
        more == (start > 0)
    }

    /// The last lines of the chain that the records of `records_back`
    /// (given from the last back) make: as many as `same_outlook` needs of
    /// it, in order, and whether they are all of them.
    pub fn last_records<'r>(records_back: impl Iterator<Item = &'r Arc<LineRecord>>) -> (Vec<Arc<LineRecord>>, bool) {
        let mut lines_back = records_back.flat_map(|r| Chain::lines_of(r).collect::<Vec<_>>().into_iter().rev());
        let mut out = Vec::new();
        let mut games = 0;
        while out.len() <= RECENT_LINES || games <= GAMES_BACK {
            let Some((line, fresh)) = lines_back.next() else { break };
            games += usize::from(fresh);
            out.push(line.clone());
        }
        let whole = lines_back.next().is_none();
        out.reverse();
        (out, whole)
    }

    pub fn push(&mut self, record: Arc<LineRecord>) {
        for (line, fresh) in Chain::lines_of(&record) {
            self.push_one(line.clone(), fresh);
        }
    }

    /// The lines `push` adds for a record, in order, each with whether it
    /// starts a game: other readings go in first, so that the reading the
    /// game itself chose is the latest, tried first by the games after it.
    pub fn lines_of(record: &Arc<LineRecord>) -> impl Iterator<Item = (&Arc<LineRecord>, bool)> {
        record
            .alternatives
            .iter()
            .chain(std::iter::once(record))
            .enumerate()
            .map(move |(k, line)| (line, k == 0 && record.fresh))
    }

    fn push_one(&mut self, record: Arc<LineRecord>, fresh: bool) {
        let index = self.lines.len();
        if fresh || self.fresh.is_empty() {
            self.fresh.push(index);
        }
        self.by_first.push(record.first_ply, index);
        self.by_end.push(record.end_ply(), index);
        self.lines.push(record);
    }

    /// The starts a game may have, best first (never empty).
    ///
    /// The game being written (since the latest start at move 1 or from a
    /// given position) comes first, then earlier ones. In each, a game that
    /// goes on from the end of a main line comes first (`3. Bc4 is the
    /// Italian; 3...a6 4. Ba4` goes on from the main line, not from the
    /// Italian); then the latest run it goes on from the end of or branches
    /// off inside, whichever (prose discusses the line it has just given).
    /// A game that goes on from a position some earlier run already went on
    /// from is an alternative to it: a variation.
    pub fn candidates(
        &self,
        head: &Head,
        setup: Option<&SetupRef<'_>>,
        chosen: Option<Language>,
        document: Option<Language>,
    ) -> Vec<Start> {
        self.plan(head, setup, chosen).starts(head, document)
    }

    /// The starts a game may have, as places in the games before it: what
    /// [`Chain::candidates`] writes out.
    pub fn plan(&self, head: &Head, setup: Option<&SetupRef<'_>>, chosen: Option<Language>) -> Plan {
        if head.own_start {
            return Plan::Fixed(Start::plain(StartKind::Written));
        }
        match setup {
            Some(SetupRef::NewGame) => return Plan::Fixed(Start::plain(StartKind::Initial)),
            Some(SetupRef::Fen { text, span }) => {
                return Plan::Fixed(Start {
                    fen: Some(fen_for(text, head.first_ply)),
                    fen_span: span.clone(),
                    ..Start::plain(StartKind::Position)
                });
            }
            None => {}
        }
        let ply = head.first_ply.unwrap_or(0);
        if ply == 0 {
            return Plan::MoveOne;
        }
        // (A line read in a language its letters are only look-alikes of,
        // `Kf3` as the Russian `Кf3`, goes on in that language.)
        let fits = |l: &LineRecord| {
            chosen.is_some()
                || head.fits(&l.letters)
                || l.language.is_some_and(|language| {
                    l.letters.only_as_lookalikes(language) && head.mostly_read_by(head::language_index(language))
                })
        };
        let mut out: Vec<Pick> = Vec::new();
        let add = |out: &mut Vec<Pick>, kind: StartKind, i: usize, pos: &Chess| {
            let same = |p: &Pick| p.position() == pos && p.position().fullmoves() == pos.fullmoves();
            if out.len() < MAX_CANDIDATES && !out.iter().any(same) {
                out.push(Pick { line: self.lines[i].clone(), kind, ply, older: i + 1 < self.lines.len(), lost: false });
            }
        };
        let ending: &[usize] = self.by_end.get(ply);
        let goes_on = |i: usize| {
            let line = &self.lines[i];
            (line.complete && line.end_ply() == ply && fits(line)).then(|| {
                let end = line.positions.last().expect("a record has a position");
                let taken = {
                    let starting = self.by_first.get(ply);
                    let after = starting.partition_point(|&j| j <= i);
                    starting[after..].iter().any(|&j| !self.lines[j].variation && self.lines[j].positions[0] == *end)
                };
                (if taken { StartKind::Variation } else { StartKind::Continues }, end)
            })
        };
        // The games of the manuscript, the latest first: `lo..hi` of the
        // lines.
        let mut hi = self.lines.len();
        for &lo in self.fresh.iter().rev().take(GAMES_BACK) {
            if out.len() >= MAX_CANDIDATES {
                break;
            }
            let game = &ending[ending.partition_point(|&i| i < lo)..ending.partition_point(|&i| i < hi)];
            let recent = hi.saturating_sub(RECENT_LINES).max(lo);
            // A run that goes on in the sentence of a variation: that
            // variation's end first (the moves still decide: a move that
            // fails there is tried from the main line's end next).
            if head.in_sentence
                && hi == self.lines.len()
                && let Some(i) = hi.checked_sub(1).filter(|&i| i >= lo && self.lines[i].variation)
                && let Some((kind, end)) = goes_on(i)
            {
                add(&mut out, kind, i, end);
            }
            // The end of a main line first...
            for &i in game.iter().rev().filter(|&&i| !self.lines[i].variation) {
                if let Some((kind, end)) = goes_on(i) {
                    add(&mut out, kind, i, end);
                }
            }
            // ...then the latest run that the moves go on from or branch
            // off (a variation's end, or inside any run).
            for i in (recent..hi).rev() {
                let line = &self.lines[i];
                if line.variation
                    && let Some((kind, end)) = goes_on(i)
                {
                    add(&mut out, kind, i, end);
                    continue;
                }
                let inside =
                    line.first_ply <= ply && (ply < line.end_ply() || (!line.complete && ply == line.end_ply()));
                if inside
                    && fits(line)
                    && let Some(pos) = line.position_at(ply)
                {
                    add(&mut out, StartKind::Variation, i, pos);
                }
            }
            // A variation's end further back.
            for &i in game.iter().rev().filter(|&&i| i < recent && self.lines[i].variation) {
                if let Some((kind, end)) = goes_on(i) {
                    add(&mut out, kind, i, end);
                }
            }
            hi = lo;
        }
        // `9. Nc3 . . . (a comment) 9 Nxc3`: Black's move under White's
        // number, after a main line that stopped at White's move of that
        // number to comment on it (tried last).
        if out.len() < MAX_CANDIDATES
            && ply.is_multiple_of(2)
            && let Some(&i) = self.by_end.get(ply + 1).last()
            && i + 1 == self.lines.len()
            && !self.lines[i].variation
            && self.lines[i].complete
            && fits(&self.lines[i])
        {
            out.push(Pick {
                line: self.lines[i].clone(),
                kind: StartKind::Continues,
                ply: ply + 1,
                older: false,
                lost: false,
            });
        }
        // `4. d2-d3` then `5. Sb1-c3 d7-d6`: Black's 4th move left out.
        // A game on a line of its own (a book's line of moves; prose names
        // moves in words: `on 18 Rd8 comes 19. Qe2+`) after the latest of
        // the recent lines that ends one ply short of it: after a move of
        // the side to move there, tried last (`Plan::starts`).
        if out.len() < MAX_CANDIDATES
            && !head.variation
            && head.own_line
            && let Some(line) =
                self.lines.iter().rev().take(RECENT_LINES).find(|l| l.complete && l.end_ply() + 1 == ply && fits(l))
        {
            out.push(Pick { line: line.clone(), kind: StartKind::Continues, ply: ply - 1, older: false, lost: true });
        }
        let lost_only = out.iter().all(|p| p.lost);
        if !out.is_empty() && !lost_only {
            return Plan::Picks(out);
        }
        let number = number_of(ply);
        let stopped =
            self.lines.iter().rev().take(RECENT_LINES).any(|l| !l.complete && l.written_end == ply && fits(l));
        let note = if stopped {
            format!(
                "these moves were not replayed: they go on from a game above at {number}, but that game could not be replayed to its end; only their syntax and numbering were checked"
            )
        } else {
            format!(
                "these moves were not replayed: they start at {number} with no position known there (no game above reaches it, and no position is given before them); only their syntax and numbering were checked"
            )
        };
        let unknown = Start { note: Some(note), ..Start::plain(StartKind::Unknown) };
        if lost_only && !out.is_empty() {
            // Only a guess of a move left out: tried, else no position.
            return Plan::Guess(out, unknown);
        }
        Plan::Fixed(unknown)
    }
}

/// Where a game may start, before the starts are written out: cheap to make
/// and to compare (the language server keeps a piece as it is when the
/// plans of its games are as before).
#[derive(Clone, Debug)]
pub enum Plan {
    /// One start, known without the games before (tags, a position given,
    /// move 1) or not known at all.
    Fixed(Start),
    /// Positions in earlier games, best first.
    Picks(Vec<Pick>),
    /// Only a position after a move the text left out (a pick with
    /// `lost`), and the start with no position known when no guess of that
    /// move lets the game replay.
    Guess(Vec<Pick>, Start),
    /// Move 1 with no position given: the initial position; or, when its
    /// very first move cannot be played there, a position the text does not
    /// give (a diagram's: `1. Qh7+ Kxh7 2. Rh3+` under a puzzle), checked for
    /// syntax and numbering only.
    MoveOne,
}

/// Why a game at move 1 was not replayed.
const DIAGRAM_NOTE: &str = "these moves were not replayed: they start at 1., but their first move cannot be played \
                            from the initial position and no position is given before them (a diagram's?); only \
                            their syntax and numbering were checked";

/// A position in an earlier game.
#[derive(Clone, Debug)]
pub struct Pick {
    line: Arc<LineRecord>,
    kind: StartKind,
    ply: u32,
    /// The line is not the latest one of the chain: a place inside it is
    /// a weaker guess than one in the line the prose has just given.
    older: bool,
    /// The game goes on after a move the text left out, made at `ply`.
    lost: bool,
}

impl Pick {
    fn position(&self) -> &Chess {
        self.line.position_at(self.ply).expect("a pick is inside its line")
    }
}

fn same_picks(a: &[Pick], b: &[Pick]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            Arc::ptr_eq(&x.line, &y.line)
                && x.kind == y.kind
                && x.ply == y.ply
                && x.older == y.older
                && x.lost == y.lost
        })
}

impl PartialEq for Plan {
    fn eq(&self, other: &Plan) -> bool {
        match (self, other) {
            (Plan::Fixed(a), Plan::Fixed(b)) => a == b,
            (Plan::MoveOne, Plan::MoveOne) => true,
            (Plan::Guess(a, x), Plan::Guess(b, y)) => x == y && same_picks(a, b),
            (Plan::Picks(a), Plan::Picks(b)) => same_picks(a, b),
            _ => false,
        }
    }
}

impl Plan {
    /// The starts, written out (a FEN for each position), for a game of a
    /// document in `document`'s language ([`document_language`]): a game
    /// read in no language given (one that starts afresh, or goes on from a
    /// game of no decided language with letters of its own that do not
    /// decide either) is read in it where its letters leave a choice.
    ///
    /// An unknown start (nothing to replay) is given the document's
    /// language as it is: its moves are read in no language, but a piece
    /// letter that is a look-alike of that language's own is still said to
    /// be one (`start::unknown`).
    pub fn starts(&self, head: &Head, document: Option<Language>) -> Vec<Start> {
        let mut starts = self.starts_read_in(head, document);
        for start in &mut starts {
            if start.kind == StartKind::Unknown && start.document_language.is_none() {
                start.document_language = document;
            }
        }
        starts
    }

    fn starts_read_in(&self, head: &Head, document: Option<Language>) -> Vec<Start> {
        let document = head.document_language(document);
        let picks = match self {
            Plan::Fixed(start) if start.kind == StartKind::Unknown => return vec![start.clone()],
            Plan::Fixed(start) => return vec![Start { document_language: document, ..start.clone() }],
            Plan::MoveOne => {
                let initial = Start { document_language: document, ..Start::plain(StartKind::Initial) };
                let unseen = Start { note: Some(DIAGRAM_NOTE.to_owned()), ..Start::plain(StartKind::Unknown) };
                return vec![initial, unseen];
            }
            Plan::Picks(picks) => picks,
            Plan::Guess(picks, unknown) => {
                let mut out = Plan::Picks(picks.clone()).starts_read_in(head, document);
                out.push(unknown.clone());
                return out;
            }
        };
        let start = |p: &Pick, language: Option<Language>| Start {
            kind: if head.variation { StartKind::Variation } else { p.kind },
            fen: Some(Fen::from_position(p.position(), EnPassantMode::Legal).to_string()),
            fen_span: head.first_span.start..head.first_span.start,
            language,
            on_variation: p.line.variation || p.kind == StartKind::Variation || head.variation || head.aside,
            inside_variation: p.kind == StartKind::Variation && p.older && !head.variation,
            note: None,
            before: p.line.letters,
            lost: None,
            document_language: if language.is_none() { document } else { None },
        };
        // After each move the side to move has where a move was left out,
        // tried last: the one the game replays after without a finding is
        // taken (`start::choose`).
        let after_lost = |p: &Pick, language: Option<Language>| -> Vec<Start> {
            let before = start(p, language);
            p.position()
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let mut pos = p.position().clone();
                    pos.play_unchecked(mv);
                    Start {
                        fen: Some(Fen::from_position(&pos, EnPassantMode::Legal).to_string()),
                        lost: Some(p.ply),
                        ..before.clone()
                    }
                })
                .collect()
        };
        // Each place in the language the letters so far say; then, where
        // other languages read those letters as well (a `K` and an `R`:
        // English or Icelandic), in each of them, tried only when the
        // first readings all fail.
        let mut out: Vec<Start> = Vec::with_capacity(picks.len());
        let mut others = Vec::new();
        let mut lost = Vec::new();
        for p in picks {
            if p.lost {
                lost.extend(after_lost(p, continued_languages(&p.line, head, document).into_iter().next().flatten()));
                continue;
            }
            let mut languages = continued_languages(&p.line, head, document).into_iter();
            let first = languages.next().flatten();
            // One reading of several goes on in its own language first; in
            // another, the reading in that language goes first.
            if p.line.one_of_readings && first != p.line.language {
                others.push((p, first));
            } else {
                out.push(start(p, first));
            }
            others.extend(languages.map(|l| (p, l)));
        }
        out.extend(others.into_iter().map(|(p, l)| start(p, l)));
        out.extend(lost);
        out
    }
}

/// The language a game that goes on from `line` is read in: the line's,
/// unless its own letters show which of the languages that read the line's
/// letters it is (a game whose knights `К` read as Russian or Ukrainian
/// goes on with a rook `Т`: Ukrainian); for a line of no language, the
/// document's where it is one of those that read the letters best.
fn continued_languages(line: &LineRecord, head: &Head, document: Option<Language>) -> Vec<Option<Language>> {
    if head.letters == 0 {
        return vec![line.language];
    }
    let both = line.letters.plus(&head.own_letters());
    // The languages that read most letters, and of those the ones that read
    // most as written (a Latin `T` is a Ukrainian rook only as a look-alike).
    let score = |l: usize| (both.read_by[l], both.exact_by[l]);
    let best = (0..Language::ALL.len()).map(score).max().unwrap_or_default();
    let readers: Vec<Language> =
        (0..Language::ALL.len()).filter(|&l| score(l) == best).map(|l| Language::ALL[l]).collect();
    let first = match line.language {
        Some(l) if readers.contains(&l) => Some(l),
        _ => document.filter(|d| readers.contains(d)).or_else(|| readers.first().copied()).or(line.language),
    };
    let mut out = vec![first];
    out.extend(readers.into_iter().filter(|&l| Some(l) != first).map(Some));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_alone_gets_the_side_and_number_of_its_first_move() {
        assert_eq!(fen_for("6k1/8/8/8/8/8/8/K7", Some(23)), "6k1/8/8/8/8/8/8/K7 b - - 0 12");
        assert_eq!(fen_for("6k1/8/8/8/8/8/8/K7 w - - 0 1", Some(40)), "6k1/8/8/8/8/8/8/K7 w - - 0 21");
        assert_eq!(fen_for("6k1/8/8/8/8/8/8/K7 w - - 3 9", Some(40)), "6k1/8/8/8/8/8/8/K7 w - - 3 9");
    }
}
