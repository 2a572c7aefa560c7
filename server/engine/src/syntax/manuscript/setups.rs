//! Setups in the prose: a FEN (the board's eight ranks and as many of the
//! fields after it as are there) and position descriptions as the grammar
//! reads them (`Белые: Крс1, Фf2, Лe1; пп. a3, b2.`, `White: Kg1; pawns
//! f2.`), with the side and pawn labels and the letters of the lexicon.
//! LaTeX's setups (`\newchessgame[setfen=...]`) are the markup's.

use std::ops::Range;

use super::{Event, Setup};
use crate::syntax::lexicon;

/// The FENs and position descriptions in a stretch of prose.
pub(super) fn setups_in(view: &str, range: Range<usize>, events: &mut Vec<(usize, Event)>) {
    let mut i = range.start;
    while i < range.end {
        let Some(c) = view[i..range.end].chars().next() else { break };
        // Only a FEN's first rank or a side's label may start here.
        let may_start = matches!(c, 'r' | 'n' | 'b' | 'q' | 'k' | 'p' | 'R' | 'N' | 'B' | 'Q' | 'K' | 'P' | '1'..='8')
            || lexicon::SIDE_INITIALS.contains(c);
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
pub(super) fn descriptions_in(view: &str, range: Range<usize>) -> Vec<Range<usize>> {
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

/// A position description at `i`, as the grammar reads one: `Белые: Крс1,
/// Фf2, Лe1; пп. a3, b2.`
fn description_at(view: &str, i: usize, limit: usize) -> Option<usize> {
    let s = &view[i..limit];
    let side = lexicon::side_label_at(s)?;
    let mut j = side.len();
    j += blank_len(&s[j..]);
    j = s[j..].starts_with(':').then_some(j + 1)?;
    let placement = |k: usize| -> Option<usize> {
        let k = k + blank_len(&s[k..]);
        let p = k + lexicon::piece_len(&s[k..]).unwrap_or(0);
        let mut chars = s[p..].chars();
        let (f, r) = (chars.next()?, chars.next()?);
        if lexicon::file_of(f).is_none() || lexicon::rank_of(r).is_none() {
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
        if let Some(label) = lexicon::pawn_label_at(&s[k..]) {
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
