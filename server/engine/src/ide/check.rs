//! Checking a whole text at once, as the command line does (`--check`,
//! `--fix`, `--translate`): the games of a text and what is wrong in them,
//! with every core at work.
//!
//! Notation is cut into sections of whole games (`syntax::split`), which
//! are parsed and analysed in parallel on rayon's pool and come back in
//! text order; each game is analysed as soon as it is lowered, then
//! dropped, so memory follows the largest section, not the text. A
//! manuscript is read through the same [`Document`] the language server
//! keeps, so the two front ends find each game's start by one chain of
//! games and cannot disagree. Every text is read through
//! [`intake::parser_view`](super::intake::parser_view).

use std::cell::RefCell;
use std::ops::Range;

use rayon::prelude::*;

use super::document::Kind;
use super::intake;
use super::settings::Filter;
use crate::analysis::{self, Diagnostic, Options};
use crate::syntax::{self, GameSyntax};

/// Texts longer than this are split at game boundaries so that several
/// threads share one big text. Small sections are also faster on one
/// thread: a section's tree and lowered games stay in the CPU caches, and
/// tree-sitter balances shorter lists (on 10 MB of games, one core: 256 KB
/// sections take about 20 % more CPU time than 32 KB ones; `check-stages`
/// measures it).
const SECTION_LEN: usize = 32 * 1024;

/// Told how many bytes of a text are done (the command line's progress bar).
pub trait Progress: Sync {
    fn advance(&self, bytes: usize);
}

/// No progress to show.
impl Progress for () {
    fn advance(&self, _: usize) {}
}

/// What a text holds: its games and the findings in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    pub games: usize,
    /// In text order, spans in the text.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks a whole text of a kind (notation or a manuscript): its findings
/// as the project's `filter` reports them, as an open [`Document`] of the
/// same text with the same filter gives them out.
///
/// [`Document`]: super::document::Document
pub(crate) fn check_text(
    text: &str,
    kind: Kind,
    options: &Options,
    filter: &Filter,
    progress: &dyn Progress,
) -> Findings {
    let mut findings = check_unfiltered(text, kind, options, progress);
    filter.apply(&mut findings.diagnostics);
    findings
}

fn check_unfiltered(text: &str, kind: Kind, options: &Options, progress: &dyn Progress) -> Findings {
    if kind != Kind::Pgn {
        // The sections the editor's document holds, each dropped once read.
        let (games, diagnostics) = super::document::check_manuscript(kind, text, options);
        progress.advance(text.len());
        return Findings { games, diagnostics };
    }
    let (view, hidden) = intake::checked_view(text);
    let sections = per_section(&view, |parser, unit| {
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        let games = for_each_game(parser, unit, |game, source, offset| {
            let mut found = analysis::analyze_game(game, source, options).diagnostics;
            for d in &mut found {
                d.shift(offset as isize);
            }
            diagnostics.extend(found);
        });
        progress.advance(unit.len());
        (games, diagnostics)
    });
    let mut findings = Findings::default();
    for (games, mut found) in sections {
        findings.games += games;
        findings.diagnostics.append(&mut found);
    }
    // What the parser was not shown (`intake::checked_view`).
    for (span, message) in hidden {
        let at = findings.diagnostics.partition_point(|d| d.span.start <= span.start);
        findings.diagnostics.insert(at, Diagnostic::new(analysis::Code::Syntax, span, message));
    }
    findings
}

/// A run of whole games of a view that one thread reads: the pieces of
/// the view (ranges in it) that are each lowered on their own, in order.
#[derive(Debug)]
pub struct Unit<'a> {
    view: &'a str,
    pieces: Vec<Range<usize>>,
}

impl Unit<'_> {
    /// How many bytes of the view the unit covers.
    pub fn len(&self) -> usize {
        self.pieces.iter().map(Range::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Cuts `view` (notation as the parser reads it: `intake::checked_view`)
/// into units of whole games and runs `f` on each in parallel, with a
/// parser of the thread; the results come back in text order.
///
/// The view is cut once, at each tag section (`split::section_starts`):
/// those pieces are what [`for_each_game`] lowers one by one, and
/// consecutive pieces are grouped into units of about [`SECTION_LEN`]
/// bytes. A piece of bare games longer than that (no tag sections to cut it
/// at: a whole file on one line, a million bare games) is cut after its
/// results too, so that it still spreads over the threads and is not
/// parsed and lowered at once (see `split::cut_after_results`).
pub fn per_section<T: Send>(view: &str, f: impl Fn(&mut tree_sitter::Parser, &Unit<'_>) -> T + Sync + Send) -> Vec<T> {
    thread_local! {
        // One parser per thread for the whole run (rayon's `map_init` would
        // make one per split of the work, thousands on many files).
        static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(syntax::parser());
    }
    let starts = syntax::split::section_starts(view);
    let ends = starts.iter().skip(1).copied().chain([view.len()]);
    let pieces = starts.iter().copied().zip(ends).flat_map(|(start, end)| {
        if end - start > SECTION_LEN {
            syntax::split::cut_after_results(view, start..end, SECTION_LEN)
        } else {
            std::iter::once(start..end).collect()
        }
    });
    let mut units: Vec<Unit<'_>> = Vec::new();
    let mut len = 0;
    for piece in pieces {
        match units.last_mut() {
            Some(unit) if len < SECTION_LEN => {
                len += piece.len();
                unit.pieces.push(piece);
            }
            _ => {
                len = piece.len();
                units.push(Unit { view, pieces: vec![piece] });
            }
        }
    }
    units.into_par_iter().map(|unit| PARSER.with_borrow_mut(|parser| f(parser, &unit))).collect()
}

/// Lowers the games of a unit piece by piece (by the fast path where it
/// can, each piece on its own as the language server parses it) and hands
/// each to `each`, with the text its spans are relative to (its piece) and
/// that text's offset in the view; returns the number of games.
pub fn for_each_game<'a>(
    parser: &mut tree_sitter::Parser,
    unit: &Unit<'a>,
    mut each: impl FnMut(&GameSyntax<'a>, &'a str, usize),
) -> usize {
    let mut games = 0;
    for piece in &unit.pieces {
        let text = &unit.view[piece.clone()];
        syntax::lower_section(parser, text, |game| {
            games += 1;
            each(&game, text, piece.start);
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_carriage_returns_end_comments() {
        let text = "1. e4 e5 ; a comment\r2. Nf3 Nc6 3. Ke2 Ke7 4. Kf3 *\r";
        let found = check_text(text, Kind::Pgn, &Options::default(), &Filter::default(), &());
        assert_eq!(found.games, 1);
        let codes: Vec<&str> = found.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["illegal-move"]);
        assert_eq!(&text[found.diagnostics[0].span.clone()], "Kf3");
    }
}
