//! `chess-ls --translate LANG`: rewrites the moves of every game into
//! another notation language (any of notation.md section 3, or figurines),
//! keeping comments, variations, tags, move numbers and layout byte for
//! byte. The text goes to stdout (UTF-8), or back into each file with
//! `--write` (in the file's own encoding), or as a unified diff with `--diff`.
//!
//! The moves of a game after one that cannot be read stay as written; such
//! games are named on stderr and the exit status is 1.

use std::io::Write;

use rayon::prelude::*;

use super::Session;
use super::check::{for_each_game, per_section};
use super::fix::unified_diff;
use super::output::plural;
use super::progress::Progress;
use super::write::write_back;
use crate::analysis::rewrite::{Rewrite, apply_edits, rewrite_game};
use crate::analysis::{self, Language, Options, Severity, TextEdit};
use crate::line_index::{LineIndex, Unit};
use crate::syntax::manuscript::Format as ManuscriptFormat;

/// A text in another language.
pub struct Translated {
    pub text: String,
    pub games: usize,
    pub moves: usize,
    /// Where the first error of each game that has errors is (byte offset),
    /// and how many errors the game has.
    pub incomplete: Vec<(usize, usize)>,
}

/// Translates the games of a manuscript (the notation only; prose and
/// markup stay as they are).
pub fn translate_manuscript(text: &str, format: ManuscriptFormat, options: &Options, language: Language) -> Translated {
    let (games, edits, incomplete) =
        analysis::manuscript::rewrite_text(text, format, options, Rewrite::Translate(language));
    Translated { text: apply_edits(text, &edits), games, moves: edits.len(), incomplete }
}

/// Translates every game of a text.
pub fn translate_text(text: &str, options: &Options, language: Language) -> Translated {
    let pieces = per_section(text, |parser, piece, base| {
        let mut edits: Vec<TextEdit> = Vec::new();
        let mut incomplete = Vec::new();
        let games = for_each_game(parser, piece, |game, source, offset| {
            let shift = base + offset;
            let report = analysis::analyze_game(game, source, options);
            let mut errors = report.diagnostics.iter().filter(|d| d.severity == Severity::Error);
            if let Some(first) = errors.next() {
                incomplete.push((first.span.start + shift, 1 + errors.count()));
            }
            for mut edit in rewrite_game(game, source, options, Rewrite::Translate(language)) {
                edit.span = edit.span.start + shift..edit.span.end + shift;
                edits.push(edit);
            }
        });
        (games, edits, incomplete)
    });
    let mut edits = Vec::new();
    let mut incomplete = Vec::new();
    let mut games = 0;
    for (n, mut e, mut i) in pieces {
        games += n;
        edits.append(&mut e);
        incomplete.append(&mut i);
    }
    Translated { text: apply_edits(text, &edits), games, moves: edits.len(), incomplete }
}

/// Runs `--translate`; returns the exit status (0 done, 1 some games could
/// not be translated whole, 2 a file could not be read or written).
pub fn run(session: &Session, language: Language, write: bool, diff: bool) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    let results: Vec<(Translated, Option<String>)> = sources
        .par_iter()
        .map(|source| {
            let translated = match source.manuscript {
                None => translate_text(&source.text, &session.options, language),
                Some(format) => translate_manuscript(&source.text, format, &session.options, language),
            };
            progress.advance(source.text.len());
            progress.file_done();
            let failure = (write && translated.text != source.text)
                .then(|| write_back(source, &translated.text).err().map(|e| e.to_string()))
                .flatten();
            (translated, failure)
        })
        .collect();
    progress.finish();

    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut moves, mut games, mut changed, mut incomplete) = (0, 0, 0, 0);
    for (source, (translated, failure)) in sources.iter().zip(&results) {
        games += translated.games;
        if let Some(failure) = failure {
            failures.push(failure.clone());
            continue;
        }
        moves += translated.moves;
        if translated.text != source.text {
            changed += 1;
        }
        let index = LineIndex::new(&source.text);
        for &(start, errors) in &translated.incomplete {
            incomplete += 1;
            let (line, column) = index.position(&source.text, start, Unit::Char);
            eprintln!(
                "warning: {}:{}:{}: this game has {}; the moves after one that cannot be read \
                 are left as written (see chess-ls --check)",
                source.name,
                line + 1,
                column + 1,
                plural(errors, "error")
            );
        }
        let printed = if diff {
            if translated.text == source.text {
                Ok(())
            } else {
                out.write_all(unified_diff(&source.name, &source.text, &translated.text).as_bytes())
            }
        } else if write {
            Ok(())
        } else {
            out.write_all(translated.text.as_bytes())
        };
        if let Err(e) = printed {
            return super::output::output_failed(&e);
        }
    }
    if let Err(e) = out.flush() {
        return super::output::output_failed(&e);
    }
    failures.sort();
    for failure in &failures {
        eprintln!("error: {failure}");
    }
    let verb = if write {
        "rewrote"
    } else if diff {
        "would rewrite"
    } else {
        "translated"
    };
    eprintln!(
        "{verb} {} in {} of {} ({}) into {}{} in {:.2} s",
        plural(moves, "move"),
        plural(changed, "file"),
        plural(sources.len(), "file"),
        plural(games, "game"),
        language.name(),
        if failures.is_empty() { String::new() } else { format!("; {} failed", plural(failures.len(), "file")) },
        session.started.elapsed().as_secs_f64()
    );
    if !failures.is_empty() {
        2
    } else if incomplete > 0 {
        1
    } else {
        0
    }
}
