//! What is at a position of a document: the game around it (replayed from
//! the start the document gives it, with its trace), the line and the move
//! there, the position before and after, and the diagnostics that touch it.
//! Hover, completion and the editors' board view all ask here, so they
//! agree on which game, line and move the cursor is in; only the game at
//! the cursor is replayed, whatever the document's size.

use std::ops::Range;

use shakmaty::{CastlingMode, Chess, Color, Position};

use super::document::{Document, Section};
use super::settings::Filter;
use crate::analysis::languages::{MoveStyle, render_move};
use crate::analysis::{Diagnostic, GameReport, Language, LanguageSource, Options, Severity, Trace, TracedMove};

/// The game around a cursor, replayed.
pub struct GameAt<'d> {
    pub section: &'d Section,
    /// The game's span, relative to the section.
    pub span: Range<usize>,
    /// The cursor relative to the section, kept inside the game (a cursor
    /// after its last move is at its end).
    pub local: usize,
    /// Every move of the game with the positions around it (spans relative
    /// to the section).
    pub trace: Trace,
    /// The game's analysis (language, how it was decided, findings as
    /// analysed: [`GameAt::findings`] gives them as reported).
    pub report: Option<&'d GameReport>,
    /// The document's filter of findings.
    filter: &'d Filter,
    /// The section's text as the parser reads it (the spans' text).
    source: &'d str,
}

/// The game that holds `offset`, or the last one that starts before it.
pub fn game_at<'d>(doc: &'d Document, offset: usize, options: &Options) -> Option<GameAt<'d>> {
    let (section, span) = doc.game_before(offset)?;
    let local = (offset - section.start).min(span.end);
    let tree = section.tree(doc);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let node = root.children(&mut cursor).find(|n| n.byte_range() == span)?;
    let trace = doc.trace_game(section, node, options);
    let report = section.games.iter().find(|g| g.span.start == span.start);
    Some(GameAt { section, span, local, trace, report, filter: doc.filter(), source: section.text(doc) })
}

impl GameAt<'_> {
    /// The language the game is read in.
    pub fn language(&self) -> Language {
        self.report.map(|r| r.language).or(self.trace.language).unwrap_or(Language::En)
    }

    /// The innermost line (main line or variation) around the cursor: its
    /// index in `trace.lines`.
    pub fn line(&self) -> Option<usize> {
        self.trace
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.span.start <= self.local && self.local <= l.span.end)
            .min_by_key(|(_, l)| l.span.end - l.span.start)
            .map(|(i, _)| i)
    }

    /// The move under the cursor, else the last one before it, in the
    /// cursor's line.
    pub fn move_at(&self) -> Option<&TracedMove> {
        let line = self.line()?;
        self.trace.moves.iter().rfind(|m| m.line == line && m.span.start <= self.local)
    }

    /// The last move that ends at or before the cursor, in its line.
    pub fn move_before(&self) -> Option<&TracedMove> {
        let line = self.line()?;
        self.trace.moves.iter().rfind(|m| m.line == line && m.span.end <= self.local)
    }

    /// The move written exactly at `span` (relative to the section).
    pub fn move_written_at(&self, span: &Range<usize>) -> Option<&TracedMove> {
        self.trace.moves.iter().find(|m| m.span.end == span.end && m.span.start >= span.start)
    }

    /// The position at the cursor: after the move there (or before it),
    /// else where the line starts.
    pub fn position(&self) -> Option<&Chess> {
        let line = self.line()?;
        Some(self.move_at().map_or(&self.trace.lines[line].start, |m| &m.after))
    }

    /// The position in which the move typed at the cursor would be played.
    pub fn position_for_next_move(&self) -> Option<&Chess> {
        let line = self.line()?;
        Some(self.move_before().map_or(&self.trace.lines[line].start, |m| &m.after))
    }

    /// The game's findings as the project reports them (its filter
    /// applied), with spans relative to the section.
    pub fn findings(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.report.iter().flat_map(|r| &r.diagnostics).filter_map(|d| self.filter.reported(d.clone()))
    }

    /// The diagnostics of the game that touch the cursor, with spans in the
    /// document.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let at = self.local;
        self.findings()
            .filter(|d| d.span.start <= at && at <= d.span.end)
            .map(|mut d| {
                d.shift(self.section.start as isize);
                d
            })
            .collect()
    }
}

/// A move that is wrong as written, at the cursor: what the hover and the
/// board view show first, so that both show the same move, position and
/// findings.
#[derive(Clone, Debug)]
pub struct WrongMove {
    /// Where it is written, in the document.
    pub span: Range<usize>,
    /// The move as written (a manuscript's broken move as it was read:
    /// `Кf3` for `К f3`).
    pub written: String,
    /// The position it was tried in.
    pub before: Chess,
    /// The findings on it, as the project reports them (spans in the
    /// document).
    pub findings: Vec<Diagnostic>,
    /// The reading the check went on with, if it went on.
    pub guess: Option<Guess>,
}

/// The reading the check went on with after a move wrong as written.
#[derive(Clone, Debug)]
pub struct Guess {
    /// The move in the game's language (`Кbd2`) and in English SAN.
    pub own: String,
    pub english: String,
    /// The position after it.
    pub after: Chess,
}

impl GameAt<'_> {
    /// The move at the cursor if it is wrong as written: a guessed reading
    /// in the trace (an illegal or undecided move the check read on from,
    /// tried in the position before it), or a move no reading saves (not
    /// in the trace; shown where an error is reported on it, tried in the
    /// position after the move before it in its line).
    pub fn wrong_move(&self) -> Option<WrongMove> {
        let line = self.line()?;
        let local = self.local;
        let shift = |d: Diagnostic| {
            let mut d = d;
            d.shift(self.section.start as isize);
            d
        };
        let touching = |span: &Range<usize>| -> Vec<Diagnostic> {
            self.findings().filter(|d| d.span.start <= span.end && span.start <= d.span.end).map(shift).collect()
        };
        let here = self.trace.moves.iter().find(|m| m.line == line && m.span.start <= local && local <= m.span.end);
        let (span, before, findings, guess) = match here {
            Some(m) if m.guessed => {
                let language = self.language();
                let guess = Guess {
                    own: render_move(&m.before, &m.played, &MoveStyle::for_language(language)),
                    english: render_move(&m.before, &m.played, &MoveStyle::default()),
                    after: m.after.clone(),
                };
                (m.span.clone(), m.before.clone(), touching(&m.span), Some(guess))
            }
            Some(_) => return None,
            None => {
                let error = self
                    .findings()
                    .find(|d| d.severity == Severity::Error && d.span.start <= local && local <= d.span.end)?;
                let span = error.span.clone();
                let before = self
                    .trace
                    .moves
                    .iter()
                    .rfind(|m| m.line == line && m.span.end <= span.start)
                    .map_or(&self.trace.lines[line].start, |m| &m.after);
                (span.clone(), before.clone(), touching(&span), None)
            }
        };
        let start = self.section.start;
        let written = self.source.get(span.clone()).unwrap_or_default().trim().to_owned();
        Some(WrongMove { span: start + span.start..start + span.end, written, before, findings, guess })
    }
}

/// The move that led to the position at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAt {
    /// `7.` or `7...`.
    pub number: String,
    /// The move in the game's language (`Кbd2`) and in English SAN.
    pub san: String,
    pub english: String,
    /// In UCI (`b1d2`; castling as the king's move, `e1g1`).
    pub uci: String,
    /// Where it is written, in the document.
    pub span: Range<usize>,
    /// The move as written is illegal or undecided: this is the reading
    /// the check went on with.
    pub guessed: bool,
}

/// What a board view shows for the cursor: the game's language and how it
/// was decided, the position there and the move that led to it, and the
/// move wrong as written at the cursor, if any.
#[derive(Clone, Debug)]
pub struct BoardAt {
    pub language: Language,
    /// `None` for a game with no analysis of its own.
    pub language_source: Option<LanguageSource>,
    /// `None` where the game cannot be replayed (an unknown variant, an
    /// illegal FEN).
    pub position: Option<Chess>,
    pub last_move: Option<MoveAt>,
    pub wrong: Option<WrongMove>,
}

/// The board at `offset`: the position after the move there (or the last
/// move before it). A move number with no move (`18.` typed after a
/// game's result) is no game: the board is then the game's before it.
pub fn board_at(doc: &Document, offset: usize, options: &Options) -> Option<BoardAt> {
    let mut at = game_at(doc, offset, options)?;
    while at.trace.moves.is_empty()
        && super::outline::is_bare_move_number(
            &doc.text[at.section.start + at.span.start..at.section.start + at.span.end],
        )
    {
        let before = (at.section.start + at.span.start).checked_sub(1)?;
        at = game_at(doc, before, options)?;
    }
    let language = at.language();
    let start = at.section.start;
    let last_move = at.move_at().map(|m| {
        let number = m.before.fullmoves();
        MoveAt {
            number: if m.before.turn() == Color::White { format!("{number}.") } else { format!("{number}...") },
            san: render_move(&m.before, &m.played, &MoveStyle::for_language(language)),
            english: render_move(&m.before, &m.played, &MoveStyle::default()),
            uci: m.played.to_uci(CastlingMode::Standard).to_string(),
            span: start + m.span.start..start + m.span.end,
            guessed: m.guessed,
        }
    });
    Some(BoardAt {
        language,
        language_source: at.report.map(|r| r.language_source),
        position: at.position().cloned(),
        last_move,
        wrong: at.wrong_move(),
    })
}
