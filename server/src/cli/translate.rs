//! `chess-ls --translate LANG`: rewrites the moves of every game into
//! another notation language (any of notation.md section 3, or figurines),
//! keeping comments, variations, tags, move numbers and layout byte for
//! byte. The text goes to stdout (UTF-8), or back into each file with
//! `--write` (in the file's own encoding), or as a unified diff with `--diff`.
//!
//! Only piece letters change (`analysis::rewrite`): each move keeps its
//! style, marks and mistakes. The moves of a game after one that cannot be
//! read are translated letter by letter, as written; such
//! games are named on stderr and the exit status is 1.

use std::io::Write;

use rayon::prelude::*;

use super::Session;
use super::check::{internal_error, test_panic};
use super::fix::diff_in_encoding;
use super::output::plural;
use super::progress::Progress;
use super::write::write_back;
use chess_ls_engine::analysis::Language;
use chess_ls_engine::analysis::rewrite::Rewrite;
use chess_ls_engine::ide::document::Kind;
use chess_ls_engine::ide::line_index::{LineIndex, Unit};
use chess_ls_engine::ide::rewrite::Rewritten;

/// Runs `--translate`; returns the exit status (0 done, 1 some games could
/// not be translated whole, 2 a file could not be read or written).
pub fn run(session: &Session, language: Language, write: bool, diff: bool) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    let results: Vec<(Rewritten, Option<String>)> = sources
        .par_iter()
        .map(|source| {
            let kind = Kind::from_manuscript(source.manuscript);
            // A panic while translating one file (a bug) leaves that file
            // as it was (nothing is written or printed of it), and is a
            // failure of that file (exit 2); the others are translated.
            let translated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                test_panic(&source.name);
                source.effective.batch().rewrite(&source.text, kind, Rewrite::Translate(language))
            }));
            progress.advance(source.text.len());
            progress.file_done();
            let translated = match translated {
                Ok(translated) => translated,
                Err(_) => return (Rewritten::default(), Some(internal_error("translation", &source.name))),
            };
            // The writer undoes its own steps after a panic (`write_back`).
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
            super::output::say(&format!(
                "warning: {}:{}:{}: this game has {}; from there its piece letters were \
                 translated one by one, as written (see chess-ls --check)",
                source.name,
                line + 1,
                column + 1,
                plural(errors, "error")
            ));
        }
        let printed = if diff {
            if translated.text == source.text {
                Ok(())
            } else {
                out.write_all(&diff_in_encoding(source, &translated.text, &translated.differ))
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
        super::output::say(&format!("error: {failure}"));
    }
    let verb = if write {
        "rewrote"
    } else if diff {
        "would rewrite"
    } else {
        "translated"
    };
    super::output::say(&format!(
        "{verb} {} in {} of {} ({}) into {}{} in {:.2} s",
        plural(moves, "move"),
        plural(changed, "file"),
        plural(sources.len(), "file"),
        plural(games, "game"),
        language.name(),
        if failures.is_empty() { String::new() } else { format!("; {} failed", plural(failures.len(), "file")) },
        session.started.elapsed().as_secs_f64()
    ));
    if !failures.is_empty() {
        2
    } else if incomplete > 0 {
        1
    } else {
        0
    }
}
