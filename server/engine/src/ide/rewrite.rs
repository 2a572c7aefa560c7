//! Rewriting the moves of a text or an open document: translation into
//! another notation language and normalisation to canonical SAN
//! (`analysis::rewrite` does one game). `--translate` and the editors'
//! source actions both call here, so they write the same moves.
//!
//! Each game is replayed once, for its findings and its trace together
//! (`analysis::analyze_traced`). A game with errors is rewritten as far as
//! it replays and its errors are counted, so that the front end can say
//! which games were left partly as written; a game whose start is unknown
//! (a manuscript run with no position before it) is not rewritten.

use super::cancel::Token;
use super::check::{for_each_game, per_section};
use super::document::{Document, Kind, Section};
use crate::analysis::rewrite::{Castling, Rewrite, apply_edits, rewrite_traced};
use crate::analysis::{self, Options, Severity, TextEdit};
use crate::syntax;

/// What a rewrite of a whole text made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rewritten {
    pub text: String,
    pub games: usize,
    /// The moves rewritten.
    pub moves: usize,
    /// Where the first error of each game that has errors is (byte offset
    /// in the text), and how many errors the game has.
    pub incomplete: Vec<(usize, usize)>,
    /// The ranges that differ, each in the original and in the rewritten
    /// text, in order (as [`super::fixes::Fixed::differ`]): a diff is made
    /// from them without comparing the texts.
    pub differ: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
}

/// The edits of a rewrite of a document, spans in its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edits {
    pub edits: Vec<TextEdit>,
    pub games: usize,
    pub incomplete: Vec<(usize, usize)>,
}

/// Which games a rewrite of a document covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Document,
    /// The game around a byte offset.
    GameAt(usize),
}

/// Rewrites every game of a text of a kind (`--translate`): notation on
/// every core, a manuscript through the document model.
pub(crate) fn rewrite_text(text: &str, kind: Kind, options: &Options, rewrite: Rewrite) -> Rewritten {
    let mut found = if kind == Kind::Pgn {
        rewrite_notation(text, options, rewrite)
    } else {
        let doc = Document::open_as(kind, text.to_owned(), 0, options);
        rewrite_document(&doc, rewrite, Scope::Document, Castling::Keep, &Token::never())
    };
    found.edits.sort_by_key(|e| e.span.start);
    Rewritten {
        text: apply_edits(text, &found.edits),
        games: found.games,
        moves: found.edits.len(),
        incomplete: found.incomplete,
        differ: super::fixes::compose(&[], &found.edits),
    }
}

/// Notation, section by section in parallel.
fn rewrite_notation(text: &str, options: &Options, rewrite: Rewrite) -> Edits {
    let (view, _) = super::intake::checked_view(text);
    let sections = per_section(&view, |parser, unit| {
        let mut found = Edits::default();
        found.games = for_each_game(parser, unit, |game, source, shift| {
            let (report, trace) = analysis::analyze_traced(game, source, options);
            if let Some((first, errors)) = errors_of(&report) {
                found.incomplete.push((first + shift, errors));
            }
            for mut edit in rewrite_traced(game, &trace, source, rewrite, Castling::Keep) {
                edit.span = edit.span.start + shift..edit.span.end + shift;
                found.edits.push(edit);
            }
        });
        found
    });
    let mut all = Edits::default();
    for mut found in sections {
        all.games += found.games;
        all.edits.append(&mut found.edits);
        all.incomplete.append(&mut found.incomplete);
    }
    all
}

/// Where a game's first error is (in its source) and how many it has, if
/// it has any.
fn errors_of(report: &analysis::GameReport) -> Option<(usize, usize)> {
    let mut errors = report.diagnostics.iter().filter(|d| d.severity == Severity::Error);
    let first = errors.next()?;
    Some((first.span.start, 1 + errors.count()))
}

/// Rewrites the games of an open document in `scope`, each from the start
/// the document gives it, with the options it was analysed with; edits in
/// the document's text, notation only.
pub(crate) fn rewrite_document(
    doc: &Document,
    rewrite: Rewrite,
    scope: Scope,
    castling: Castling,
    token: &Token,
) -> Edits {
    let options = doc.options();
    let mut found = Edits::default();
    // In a manuscript a game may be told in several runs (each one going
    // on from the one before): "this game" is all of them.
    let told = match scope {
        Scope::GameAt(offset) if doc.kind() != Kind::Pgn => Some(runs_of_game_at(doc, offset)),
        _ => None,
    };
    let sections: Vec<&Section> = match (&told, scope) {
        (_, Scope::Document) => doc.sections.iter().collect(),
        (Some(runs), _) => {
            let mut starts: Vec<usize> = runs.iter().map(|(section, _)| *section).collect();
            starts.dedup();
            doc.sections.iter().filter(|s| starts.contains(&s.start)).collect()
        }
        (None, Scope::GameAt(offset)) => vec![doc.section_at(offset)],
    };
    for section in sections {
        token.check();
        let text = section.text(doc);
        let tree = section.tree(doc);
        for game in syntax::lower(&tree, text) {
            let (start, end) = (section.start + game.span.start, section.start + game.span.end);
            if let Some(runs) = &told {
                if !runs.contains(&(section.start, game.span.start)) {
                    continue;
                }
            } else if let Scope::GameAt(offset) = scope
                && !(start <= offset && offset <= end)
            {
                continue;
            }
            found.games += 1;
            let Some((game, options)) = doc.replayable(section, game, options) else { continue };
            let (report, trace) = analysis::analyze_traced(&game, text, &options);
            if let Some((first, errors)) = errors_of(&report) {
                let at = section.start + first;
                found.incomplete.push((doc.to_original(&(at..at)).start, errors));
            }
            for edit in rewrite_traced(&game, &trace, text, rewrite, castling) {
                let span = doc.to_original(&(edit.span.start + section.start..edit.span.end + section.start));
                if doc.in_notation_span(&span) {
                    found.edits.push(TextEdit { span, new_text: edit.new_text });
                }
            }
        }
    }
    found.edits.sort_by_key(|e| e.span.start);
    found
}

/// The runs of a manuscript's game around `offset`, as (section start,
/// game start in the section): the run there, the runs before it that it
/// goes on from and the runs after it that go on from it (a run that
/// starts from the end of, or a place inside, the one before it).
fn runs_of_game_at(doc: &Document, offset: usize) -> Vec<(usize, usize)> {
    use crate::analysis::manuscript::StartKind;
    let mut games: Vec<Vec<(usize, usize, std::ops::Range<usize>)>> = Vec::new();
    for section in &doc.sections {
        for symbol in &section.outline.symbols {
            let goes_on = section.chain.as_ref().is_some_and(|chain| {
                chain.games.iter().any(|g| {
                    g.at == symbol.span.start && matches!(g.start().kind, StartKind::Continues | StartKind::Variation)
                })
            });
            let run =
                (section.start, symbol.span.start, section.start + symbol.span.start..section.start + symbol.span.end);
            match games.last_mut() {
                Some(game) if goes_on => game.push(run),
                _ => games.push(vec![run]),
            }
        }
    }
    games
        .into_iter()
        .find(|game| game.iter().any(|(_, _, span)| span.start <= offset && offset <= span.end))
        .map(|game| game.into_iter().map(|(section, at, _)| (section, at)).collect())
        .unwrap_or_default()
}

/// The same change in fewer edits: edits closer than `gap` bytes are joined
/// into one that writes the unchanged text between them too. A translation
/// rewrites nearly every move; as one edit per move its answer to an
/// editor is ten times the document.
pub fn coalesce(text: &str, edits: &[TextEdit], gap: usize) -> Vec<TextEdit> {
    let mut out: Vec<TextEdit> = Vec::new();
    for edit in edits {
        match out.last_mut() {
            Some(last) if edit.span.start >= last.span.end && edit.span.start - last.span.end < gap => {
                last.new_text.push_str(&text[last.span.end..edit.span.start]);
                last.new_text.push_str(&edit.new_text);
                last.span.end = edit.span.end;
            }
            _ => out.push(edit.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coalesced_edits_make_the_same_text() {
        let text = "1. Nf3 Nf6 2. Bb5 a6 3. Ke2 *";
        let edit = |at: &str, new: &str| {
            let start = text.find(at).unwrap();
            TextEdit { span: start..start + at.len(), new_text: new.to_owned() }
        };
        let edits = [edit("Nf3", "Кf3"), edit("Nf6", "Кf6"), edit("Bb5", "Сb5"), edit("Ke2", "Крe2")];
        for gap in [0, 4, 100] {
            let joined = coalesce(text, &edits, gap);
            assert_eq!(apply_edits(text, &joined), apply_edits(text, &edits));
            assert_eq!(
                joined.len(),
                if gap == 100 {
                    1
                } else if gap == 4 {
                    3
                } else {
                    4
                },
                "{joined:?}"
            );
        }
    }

    #[test]
    fn a_translation_says_which_ranges_differ() {
        let text = "[Event \"x\"]\n\n1. Nf3 Nf6 2. Bb5 a6\n3. Ke2 e6 *\n\n1. e4 e5 2. Qh5 Nc6 *\n";
        let options = Options::default();
        let done = rewrite_text(text, Kind::Pgn, &options, Rewrite::Translate(crate::analysis::Language::Ru));
        assert_ne!(done.text, text);
        assert!(!done.differ.is_empty());
        // Between the ranges, and before and after them, the texts are equal;
        // each range is a change.
        let (mut old_at, mut new_at) = (0, 0);
        for (old, new) in &done.differ {
            assert_eq!(text[old_at..old.start], done.text[new_at..new.start], "{:?}", done.differ);
            assert_ne!(text[old.clone()], done.text[new.clone()]);
            (old_at, new_at) = (old.end, new.end);
        }
        assert_eq!(text[old_at..], done.text[new_at..]);
    }
}
