//! Which notation language a game is written in, decided per game from the
//! piece letters it uses (notation.md section 3: the same letter means
//! different pieces in different languages).

use std::cell::RefCell;
use std::collections::HashMap;

use super::languages::{Language, PieceReading, same_letter};
use crate::syntax::{GameSyntax, Item, Line, Token};

/// The distinct piece-letter texts of a game, each with its first token.
pub fn letters<'g, 'a>(game: &'g GameSyntax<'a>) -> Vec<&'g Token<'a>> {
    let mut out: Vec<&Token<'a>> = Vec::new();
    // The one-byte letters met so far (almost every letter is one): a
    // game's every move is looked up here.
    let mut seen = [false; 256];
    each_letter(&game.mainline, &mut |token| {
        if let &[b] = token.text.as_bytes() {
            if !std::mem::replace(&mut seen[usize::from(b)], true) {
                out.push(token);
            }
        } else if !out.iter().any(|t| same_letter(t.text, token.text)) {
            out.push(token);
        }
    });
    out
}

/// The language that the letters alone decide: the one reading of them
/// when every language that reads them all (with the fewest look-alikes)
/// reads each letter as the same piece; `None` when none reads them all or
/// some read them differently (then the replays decide, see
/// [`readers`]). The same as `distinct_readings(&readers(letters))` having
/// one reader, remembered per thread by the letters' texts: the games of a
/// file use a handful of sets of letters, and reading one set in every
/// language was some 4 % of `--check`.
pub fn sole_reading(letters: &[&Token<'_>]) -> Option<Language> {
    /// The sole reading of each list of letters met, by its key.
    type Known = HashMap<Vec<u8>, Option<Language>>;
    thread_local! {
        // The key of the latest letters (kept for its room), and the known.
        static SOLE: RefCell<(Vec<u8>, Known)> = RefCell::default();
    }
    SOLE.with_borrow_mut(|(key, known)| {
        key.clear();
        for t in letters {
            // Each text with its length before it, so that no two lists of
            // texts make the same key.
            key.extend_from_slice(&(t.text.len() as u32).to_le_bytes());
            key.extend_from_slice(t.text.as_bytes());
        }
        if let Some(&sole) = known.get(key.as_slice()) {
            return sole;
        }
        let readers = readers(letters);
        let distinct = distinct_readings(&readers);
        let sole = (distinct.len() == 1).then(|| distinct[0].language);
        // Hostile text may use many sets of letters: stay small.
        if known.len() >= 4096 {
            known.clear();
        }
        known.insert(key.clone(), sole);
        sole
    })
}

/// Calls `f` with every piece-letter token of a line and its variations,
/// in the order written.
fn each_letter<'g, 'a>(line: &'g Line<'a>, f: &mut impl FnMut(&'g Token<'a>)) {
    for item in &line.items {
        match item {
            Item::Move(m) => {
                // The letter of a piece taken (`exPd5`, `Sd7xLe5`) is not
                // counted: a pawn's is written in languages that have no
                // pawn letter of their own, and the piece's is enough.
                if let Some(t) = &m.piece {
                    f(t);
                }
                // Lower-case promotion letters (`d8q`) come from UCI-minded
                // programs and say nothing about the language.
                if let Some(t) = &m.promotion
                    && !t.text.chars().all(|c| c.is_ascii_lowercase())
                {
                    f(t);
                }
            }
            Item::Variation(v) => each_letter(v, f),
            Item::PositionDescription(d) => {
                for p in &d.placements {
                    if let Some(t) = &p.piece {
                        f(t);
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
    let mut out = all_readers(letters);
    if let Some(best) = out.first().map(|r| r.lookalikes) {
        out.retain(|r| r.lookalikes == best);
    }
    out
}

/// The languages that read every letter, look-alikes included, fewest
/// look-alikes first.
pub fn all_readers(letters: &[&Token<'_>]) -> Vec<Reader> {
    let mut out: Vec<Reader> = Language::ALL
        .into_iter()
        .filter_map(|language| {
            let readings: Option<Vec<PieceReading>> = letters.iter().map(|t| language.read_letter(t.text)).collect();
            let readings = readings?;
            let lookalikes = readings.iter().filter(|r| r.lookalike_of.is_some()).count();
            Some(Reader { language, lookalikes, readings })
        })
        .collect();
    out.sort_by_key(|r| r.lookalikes);
    out
}

/// Readers that differ in what some letter means (en and pt read `B` the
/// same; en and fr read `R` differently): only those need a replay to
/// decide between them.
pub fn distinct_readings(readers: &[Reader]) -> Vec<&Reader> {
    let mut out: Vec<&Reader> = Vec::new();
    for r in readers {
        let same_as_earlier = out.iter().any(|o| o.readings.iter().zip(&r.readings).all(|(a, b)| a.role == b.role));
        if !same_as_earlier {
            out.push(r);
        }
    }
    out
}

/// Whether `language` reads every letter as `like` does: each as the same
/// piece, with as many look-alikes in all. Such languages tell nothing
/// apart in the game (German and Polish both read `S` and `K` as the
/// knight and the king), so the game may be read in either; they differ
/// only in the letters it does not use, which its fixes write.
pub fn reads_alike(letters: &[&Token<'_>], language: Language, like: Language) -> bool {
    if language == like {
        return true;
    }
    let mut lookalikes = 0isize;
    for t in letters {
        let (Some(a), Some(b)) = (language.read_letter(t.text), like.read_letter(t.text)) else { return false };
        if a.role != b.role {
            return false;
        }
        lookalikes += isize::from(a.lookalike_of.is_some()) - isize::from(b.lookalike_of.is_some());
    }
    lookalikes == 0
}

/// `distinct` (from [`distinct_readings`] of `readers`) with the reader of
/// `preferred` standing for its class of alike readers, when it is one of
/// `readers`: the document's language, among those that read a game alike.
pub fn prefer<'r>(distinct: &mut [&'r Reader], readers: &'r [Reader], preferred: Option<Language>) {
    let Some(reader) = preferred.and_then(|p| readers.iter().find(|r| r.language == p)) else { return };
    if let Some(slot) =
        distinct.iter_mut().find(|d| d.readings.iter().zip(&reader.readings).all(|(a, b)| a.role == b.role))
    {
        *slot = reader;
    }
}

/// The language that reads the most of a game's letters, for a game whose
/// letters no single language reads (a text that mixes two): the moves it
/// reads as its own letters count first, look-alikes after, then the order
/// of [`Language::ALL`]. Occurrences count, not distinct letters, so that a
/// French game with one English `N` stays French.
pub fn best_partial(game: &GameSyntax<'_>) -> Language {
    let mut all: Vec<&Token<'_>> = Vec::new();
    each_letter(&game.mainline, &mut |t| all.push(t));
    Language::ALL
        .into_iter()
        .enumerate()
        .max_by_key(|&(index, language)| {
            let (mut exact, mut lookalike) = (0, 0);
            for t in &all {
                match language.read_letter(t.text) {
                    Some(reading) if reading.lookalike_of.is_none() => exact += 1,
                    Some(_) => lookalike += 1,
                    None => {}
                }
            }
            // `max_by_key` keeps the last of equals; reverse the index so
            // that the first language of ALL wins ties.
            (exact, lookalike, usize::MAX - index)
        })
        .map_or(Language::En, |(_, language)| language)
}
