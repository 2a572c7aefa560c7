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

use super::document::{Document, Kind};
use super::intake;
use crate::analysis::{self, Diagnostic, Options};
use crate::syntax::{self, GameSyntax};

/// Texts longer than this are split at game boundaries so that several
/// threads share one big text. Small sections are also faster on one
/// thread: a section's tree and lowered games stay in the CPU caches, and
/// tree-sitter balances shorter lists (on 10 MB of games, one core: 256 KB
/// sections take about 20 % more CPU time than 32 KB ones; `check-stages`
/// measures it).
const SECTION_LEN: usize = 32 * 1024;

/// A section of bare games longer than this (no tag sections to cut it at)
/// is cut after a result, so that a file on one line or a million bare
/// games is not parsed and lowered at once (see `split::cut_after_results`).
const LONG_SECTION: usize = 64 * 1024;

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

/// Checks a whole text of a kind (notation or a manuscript).
pub fn check_text(text: &str, kind: Kind, options: &Options, progress: &dyn Progress) -> Findings {
    if kind != Kind::Pgn {
        let doc = Document::open_as(kind, text.to_owned(), 0, options);
        progress.advance(text.len());
        return Findings { games: doc.game_count(), diagnostics: doc.diagnostics().collect() };
    }
    let (view, hidden) = intake::checked_view(text);
    let sections = per_section(&view, |parser, section, base| {
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        let games = for_each_game(parser, section, |game, source, offset| {
            let mut found = analysis::analyze_game(game, source, options).diagnostics;
            for d in &mut found {
                d.shift((base + offset) as isize);
            }
            diagnostics.extend(found);
        });
        progress.advance(section.len());
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

/// Cuts `view` (notation as the parser reads it: `intake::checked_view`)
/// into sections of whole games and runs `f` on each in parallel, with a
/// parser of the thread, the section's text and its offset in `view`; the
/// results come back in text order.
pub fn per_section<T: Send>(
    view: &str,
    f: impl Fn(&mut tree_sitter::Parser, &str, usize) -> T + Sync + Send,
) -> Vec<T> {
    thread_local! {
        // One parser per thread for the whole run (rayon's `map_init` would
        // make one per split of the work, thousands on many files).
        static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(syntax::parser());
    }
    let text = view;
    // Bare games without tag sections (a whole file on one line) are cut
    // after their results too, so that they still spread over the threads.
    let units: Vec<Range<usize>> = syntax::split::split_at_games(text, SECTION_LEN)
        .into_iter()
        .flat_map(|range| syntax::split::cut_after_results(text, range, SECTION_LEN))
        .collect();
    units
        .into_par_iter()
        .map(|range: Range<usize>| PARSER.with_borrow_mut(|parser| f(parser, &text[range.clone()], range.start)))
        .collect()
}

/// Turns a section of text (as the parser reads it) into games and hands
/// each to `each`, with the text its spans are relative to and that text's
/// offset in `text`; returns the number of games.
pub fn for_each_game<'a>(
    parser: &mut tree_sitter::Parser,
    text: &'a str,
    mut each: impl FnMut(&GameSyntax<'a>, &'a str, usize),
) -> usize {
    // Each game on its own (as the language server parses it), by the fast
    // path where it can.
    let mut games = 0;
    let sections = syntax::split::split_at_games(text, 0).into_iter();
    for section in sections.flat_map(|s| syntax::split::cut_after_results(text, s, LONG_SECTION)) {
        let base = section.start;
        let section_text = &text[section];
        syntax::lower_section(parser, section_text, |game| {
            games += 1;
            each(&game, section_text, base);
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
        let found = check_text(text, Kind::Pgn, &Options::default(), &());
        assert_eq!(found.games, 1);
        let codes: Vec<&str> = found.diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["illegal-move"]);
        assert_eq!(&text[found.diagnostics[0].span.clone()], "Kf3");
    }
}
