//! Which notation language a game is written in, decided per game from the
//! piece letters it uses (notation.md section 3: the same letter means
//! different pieces in different languages).

use super::languages::{Language, PieceReading};
use crate::syntax::{GameSyntax, Item, Line, Token};

/// The distinct piece-letter texts of a game, each with its first token.
///
/// Figurines read in every language, so they decide nothing when letters
/// stand beside them and are left out then.
pub fn letters<'g, 'a>(game: &'g GameSyntax<'a>) -> Vec<&'g Token<'a>> {
    let mut out: Vec<&Token<'a>> = Vec::new();
    collect(&game.mainline, &mut out);
    let is_figurine = |t: &&Token<'_>| Language::Figurine.read_letter(t.text).is_some();
    if !out.iter().all(is_figurine) {
        out.retain(|t| !is_figurine(t));
    }
    out
}

fn push<'g, 'a>(token: &'g Token<'a>, out: &mut Vec<&'g Token<'a>>) {
    if !out.iter().any(|t| t.text == token.text) {
        out.push(token);
    }
}

fn collect<'g, 'a>(line: &'g Line<'a>, out: &mut Vec<&'g Token<'a>>) {
    for item in &line.items {
        match item {
            Item::Move(m) => {
                for t in [&m.piece, &m.captured].into_iter().flatten() {
                    push(t, out);
                }
                // Lower-case promotion letters (`d8q`) come from UCI-minded
                // programs and say nothing about the language.
                if let Some(t) = &m.promotion
                    && !t.text.chars().all(|c| c.is_ascii_lowercase())
                {
                    push(t, out);
                }
            }
            Item::Variation(v) => collect(v, out),
            Item::PositionDescription(d) => {
                for p in &d.placements {
                    if let Some(t) = &p.piece {
                        push(t, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A language that reads every letter of the game, and how many of them
/// only as look-alikes.
#[derive(Clone, Debug)]
pub struct Reader {
    pub language: Language,
    pub lookalikes: usize,
    pub readings: Vec<PieceReading>,
}

/// The languages that read every letter, best first (fewest look-alikes,
/// then the order of [`Language::ALL`], English first).
pub fn readers(letters: &[&Token<'_>]) -> Vec<Reader> {
    let mut out: Vec<Reader> = Language::ALL
        .into_iter()
        .filter_map(|language| {
            let readings: Option<Vec<PieceReading>> =
                letters.iter().map(|t| language.read_letter(t.text)).collect();
            let readings = readings?;
            let lookalikes = readings.iter().filter(|r| r.lookalike_of.is_some()).count();
            Some(Reader { language, lookalikes, readings })
        })
        .collect();
    out.sort_by_key(|r| r.lookalikes);
    if let Some(best) = out.first().map(|r| r.lookalikes) {
        out.retain(|r| r.lookalikes == best);
    }
    out
}

/// Readers that differ in what some letter means (en and pt read `B` the
/// same; en and fr read `R` differently): only those need a replay to
/// decide between them.
pub fn distinct_readings(readers: &[Reader]) -> Vec<&Reader> {
    let mut out: Vec<&Reader> = Vec::new();
    for r in readers {
        let same_as_earlier = out.iter().any(|o| {
            o.readings.iter().zip(&r.readings).all(|(a, b)| a.role == b.role)
        });
        if !same_as_earlier {
            out.push(r);
        }
    }
    out
}

/// The language that reads the most letters, for a game whose letters no
/// single language reads.
pub fn best_partial(letters: &[&Token<'_>]) -> Language {
    Language::ALL
        .into_iter()
        .max_by_key(|language| {
            // `max_by_key` keeps the last of equals; reverse the index so
            // that the first language of ALL wins ties.
            let read = letters.iter().filter(|t| language.read_letter(t.text).is_some()).count();
            let index = Language::ALL.iter().position(|l| l == language).unwrap_or(0);
            (read, usize::MAX - index)
        })
        .unwrap_or(Language::En)
}
