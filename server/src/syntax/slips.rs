//! Slips in movetext that the grammar cannot read as written, read as a
//! careful reader reads them (notation.md section 7):
//!
//! - a move broken by a space or a line break (`N f3`, `B x b5`, `e x d4`,
//!   `Ng x f7`, `d4 x c5`, `Q` at the end of a line and `e2` on the next),
//!   and a dash stuck to a move before the next one (`16.b4— Nh6`): the
//!   grammar makes errors of them, and the run scanner of manuscripts
//!   (`manuscript::runs`) reads them, so the same reading serves PGN;
//! - two moves with the blank between them lost (`Bc4Bc5`, `Nf3Nc6`,
//!   `Ng1-f3Nb8-c6`), which the grammar reads as one odd move, a move and
//!   Informant's novelty sign, or two moves side by side;
//! - a move number with letters for its digits (`I.`, `IO.`, `2O.`).
//!
//! Each becomes, in the lowered game, the moves it stands for, and one
//! [`SyntaxError`] that carries the [`Repair`]: the analysis reports it
//! with the mended text as its fix. Only the tree path needs this: the fast
//! path gives up on all of these.

use super::manuscript::{Repair, RepairKind, move_at};
use super::{GameSyntax, Item, Line, Origin, SyntaxError, Token, WrittenMove, fast};

/// How many moves one mended stretch may hold (`16.b4— Nh6`: two).
const MAX_MOVES: usize = 3;

/// Mends the slips of `game`, lowered from `source`.
pub(super) fn mend<'a>(game: &mut GameSyntax<'a>, source: &'a str) {
    split_glued(&mut game.mainline, source, &mut game.errors);
    if game.errors.is_empty() {
        return;
    }
    let spans: Vec<_> = game.errors.iter().map(|e| e.span.clone()).collect();
    for span in spans {
        // Mended with an earlier error, or no longer there.
        let Some(at) = game.errors.iter().position(|e| e.span == span && e.repair.is_none()) else { continue };
        if let Some(number) = look_alike_number(source, &span) {
            let message = format!("\"{}\" is a move number with letters for its digits", &source[span.clone()]);
            game.errors[at] = SyntaxError {
                span: span.clone(),
                message,
                repair: Some(Repair { span, kind: RepairKind::LookAlikeNumber { number } }),
            };
            continue;
        }
        if !stray_at_end(source, &span) {
            join_broken(&mut game.mainline, source, &span, &mut game.errors);
        }
    }
}

/// `Nc6—`, `Qe3+3`: one stray character glued to the end of a move, a
/// blank after it; its error's fix takes it away (`analysis::replay`).
pub fn stray_at_end(source: &str, span: &std::ops::Range<usize>) -> bool {
    let text = source.get(span.clone()).unwrap_or_default();
    let mut chars = text.chars();
    let stray = chars.next().is_some_and(|c| matches!(c, '—' | '–' | '-' | '0'..='9' | '.' | ',' | '\'' | '`'))
        && chars.next().is_none();
    let glued = source[..span.start].chars().next_back().is_some_and(|c| c.is_alphanumeric() || matches!(c, '+' | '#'));
    let alone = source[span.end..].chars().next().is_none_or(char::is_whitespace);
    stray && glued && alone
}

/// `IO.` for `10.`: the digits an error's text stands for, when it is a
/// move number written with `I`, `l`, `|` for 1 and `O` for 0 and a move
/// follows it.
fn look_alike_number(source: &str, span: &std::ops::Range<usize>) -> Option<String> {
    let text = &source[span.clone()];
    let digits = text.trim_end_matches('.');
    let dots = text.len() - digits.len();
    if !(dots == 1 || dots == 3) || digits.is_empty() || digits.len() > 3 {
        return None;
    }
    let number: String = digits
        .chars()
        .map(|c| match c {
            'I' | 'l' | '|' => Some('1'),
            'O' => Some('0'),
            '0'..='9' => Some(c),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if number == digits || number.starts_with('0') {
        return None;
    }
    // A move after it, as the run scanner reads one.
    let after = span.end + source[span.end..].len() - source[span.end..].trim_start().len();
    move_at(source, after)?;
    Some(format!("{number}{}", &text[digits.len()..]))
}

/// The innermost line of `line` that holds `at`.
fn line_at<'l, 'a>(mut line: &'l mut Line<'a>, at: usize) -> &'l mut Line<'a> {
    loop {
        let inner = line.items.iter().position(|i| matches!(i, Item::Variation(v) if v.span.contains(&at)));
        match inner {
            Some(k) => {
                let Item::Variation(v) = &mut line.items[k] else { unreachable!() };
                line = v;
            }
            None => return line,
        }
    }
}

/// Reads the stretch around the error at `error` as moves broken by
/// blanks or with a stray character, as the run scanner does: from the
/// move the error is part of (or the error itself), else from the move
/// before. The stretch must cover whole items and errors, and need at
/// least one repair.
fn join_broken<'a>(
    mainline: &mut Line<'a>,
    source: &'a str,
    error: &std::ops::Range<usize>,
    errors: &mut Vec<SyntaxError>,
) {
    let line = line_at(mainline, error.start);
    let limit = line.span.end.max(error.end).min(source.len());
    let text = &source[..limit];
    let containing =
        line.items.iter().position(|i| i.start() <= error.start && error.start < i.end().max(i.start() + 1));
    // From the item that holds the error, or the error itself; then from
    // each of the two items before (`B x f3`: a glyph, a capture with its
    // square missing, a pawn move).
    let (mut starts, before) = match containing {
        Some(k) => (vec![line.items[k].start()], k),
        None => (vec![error.start], line.items.iter().rposition(|i| i.end() <= error.start).map_or(0, |b| b + 1)),
    };
    starts.extend(line.items[before.saturating_sub(2)..before].iter().rev().map(Item::start));
    for start in starts {
        let Some((moves, repairs)) = read_moves(text, start, error.end) else { continue };
        let end = moves.last().map_or(start, |m| m.span.end);
        let inside = |s: usize, e: usize| start <= s && e <= end;
        let overlaps = |s: usize, e: usize| s < end && start < e.max(s + 1);
        let items_fit = line.items.iter().all(|i| {
            !overlaps(i.start(), i.end())
                || (inside(i.start(), i.end()) && matches!(i, Item::Move(_) | Item::Glyph(_) | Item::NullMove(_)))
        });
        let errors_fit = errors.iter().all(|e| !overlaps(e.span.start, e.span.end) || inside(e.span.start, e.span.end));
        if !items_fit || !errors_fit {
            continue;
        }
        let first = line
            .items
            .iter()
            .position(|i| overlaps(i.start(), i.end()))
            .unwrap_or_else(|| line.items.iter().position(|i| i.start() >= end).unwrap_or(line.items.len()));
        line.items.retain(|i| !overlaps(i.start(), i.end()));
        line.items.splice(first..first, moves.into_iter().map(Item::Move));
        errors.retain(|e| !overlaps(e.span.start, e.span.end));
        for repair in repairs {
            let message = format!("\"{}\" is a broken move", &source[repair.span.clone()]);
            errors.push(SyntaxError { span: repair.span.clone(), message, repair: Some(repair) });
        }
        errors.sort_by_key(|e| e.span.start);
        return;
    }
}

/// The moves from `start` on, as the run scanner reads them, up to the
/// first one that ends at or after `until`; with their repairs (at least
/// one, each a join of broken parts or a stray character taken away).
fn read_moves<'a>(text: &'a str, start: usize, until: usize) -> Option<(Vec<WrittenMove<'a>>, Vec<Repair>)> {
    let mut moves = Vec::new();
    let mut repairs = Vec::new();
    let mut at = start;
    while moves.len() < MAX_MOVES {
        let (end, mut found) = move_at(text, at)?;
        let joined = match found.as_slice() {
            [] => text[at..end].to_owned(),
            [Repair { span, kind: RepairKind::SpaceInMove { joined, .. } | RepairKind::Stray { joined, .. } }]
                if *span == (at..end) =>
            {
                joined.clone()
            }
            _ => return None,
        };
        moves.push(lowered(&joined, text, at..end)?);
        repairs.append(&mut found);
        if end >= until {
            return (!repairs.is_empty()).then_some((moves, repairs));
        }
        // The next move after one or two blanks or a line break.
        let gap = text[end..].len() - text[end..].trim_start().len();
        if gap == 0 || gap > 6 || text[end..end + gap].matches('\n').count() > 1 {
            return None;
        }
        at = end + gap;
    }
    None
}

/// `joined`, the text of one move, lowered, with its tokens mapped to
/// where they stand in `source[span]` (each token must be written there
/// in one piece).
fn lowered<'a>(joined: &str, source: &'a str, span: std::ops::Range<usize>) -> Option<WrittenMove<'a>> {
    let games = match fast::lower_fast(joined) {
        Some(games) => games,
        None => super::lower(&super::parse(joined, None), joined),
    };
    let [game] = games.as_slice() else { return None };
    let [Item::Move(mv)] = game.mainline.items.as_slice() else { return None };
    if !game.errors.is_empty() || game.result.is_some() {
        return None;
    }
    // Where each byte of `joined` stands in the source: its characters in
    // order, skipping what the repair left out (blanks, a stray sign).
    let mut map = Vec::with_capacity(joined.len() + 1);
    let mut chars = source[span.clone()].char_indices();
    for c in joined.chars() {
        let (k, _) = chars.by_ref().find(|&(_, s)| s == c)?;
        map.extend((0..c.len_utf8()).map(|b| span.start + k + b));
    }
    let token = |t: &Option<Token<'_>>| -> Option<Option<Token<'a>>> {
        let Some(t) = t else { return Some(None) };
        if t.span.is_empty() {
            return None;
        }
        let start = map[t.span.start];
        let end = map[t.span.end - 1] + 1;
        (end - start == t.span.len()).then(|| Some(Token { text: &source[start..end], span: start..end }))
    };
    let origin = match &mv.origin {
        None => None,
        Some(Origin::File(t)) => Some(Origin::File(token(&Some(t.clone()))??)),
        Some(Origin::Rank(t)) => Some(Origin::Rank(token(&Some(t.clone()))??)),
        Some(Origin::Square(t)) => Some(Origin::Square(token(&Some(t.clone()))??)),
    };
    Some(WrittenMove {
        span,
        piece: token(&mv.piece)?,
        origin,
        capture: token(&mv.capture)?,
        dash: token(&mv.dash)?,
        drop: token(&mv.drop)?,
        captured: token(&mv.captured)?,
        destination: token(&mv.destination)?,
        to_file: token(&mv.to_file)?,
        castling: token(&mv.castling)?,
        promotion_sign: token(&mv.promotion_sign)?,
        promotion: token(&mv.promotion)?,
        en_passant: token(&mv.en_passant)?,
        check: token(&mv.check)?,
        annotation: token(&mv.annotation)?,
    })
}

/// Two moves with the blank between them lost, in `line` and its
/// variations: each pair becomes two moves and an error with the blank
/// as its fix.
fn split_glued<'a>(line: &mut Line<'a>, source: &'a str, errors: &mut Vec<SyntaxError>) {
    let mut k = 0;
    while k < line.items.len() {
        if let Item::Variation(v) = &mut line.items[k] {
            split_glued(v, source, errors);
            k += 1;
            continue;
        }
        let Item::Move(mv) = &line.items[k] else {
            k += 1;
            continue;
        };
        let next_start = match line.items.get(k + 1) {
            Some(Item::Move(next)) => Some(next.span.start),
            _ => None,
        };
        if let Some((first, second)) = glued_in_one(mv) {
            let span = mv.span.clone();
            let first_len = first.span.len();
            line.items.splice(k..=k, [Item::Move(first), Item::Move(second)]);
            push_glued(errors, source, span, first_len);
            k += 2;
        } else if let Some(novelty) = mv.annotation.clone().filter(|a| a.text == "N" && next_start == Some(a.span.end))
            && let Some(Item::Move(next)) = line.items.get(k + 1)
            && next.piece.is_none()
            && next.castling.is_none()
            && next.destination.is_some()
        {
            // `Nf3Nc6`: the grammar took the second knight's letter for
            // Informant's novelty sign and the rest for a pawn move.
            let span = mv.span.start..next.span.end;
            let Some(Item::Move(mut next)) = line.items.get(k + 1).cloned() else { break };
            let Item::Move(first) = &mut line.items[k] else { break };
            first.annotation = None;
            first.span.end = novelty.span.start;
            let first_len = first.span.len();
            next.span.start = novelty.span.start;
            next.piece = Some(novelty);
            line.items[k + 1] = Item::Move(next);
            push_glued(errors, source, span, first_len);
            k += 2;
        } else if next_start == Some(mv.span.end) && !mv.span.is_empty() {
            // `Ng1-f3Bf8-c5`: two moves side by side.
            let span = mv.span.start..line.items.get(k + 1).map_or(mv.span.end, Item::end);
            push_glued(errors, source, span, mv.span.len());
            k += 2;
        } else {
            k += 1;
        }
    }
}

fn push_glued(errors: &mut Vec<SyntaxError>, source: &str, span: std::ops::Range<usize>, first_len: usize) {
    let message = format!("\"{}\" is two moves written together", &source[span.clone()]);
    let at = errors.partition_point(|e| e.span.start <= span.start);
    errors.insert(
        at,
        SyntaxError {
            span: span.clone(),
            message,
            repair: Some(Repair { span, kind: RepairKind::Glued { first_len } }),
        },
    );
}

/// `Bc4Bc5`, `Кf3Кc6`: a piece letter, a square, a piece letter and a
/// square, read by the grammar as one long-algebraic move naming the piece
/// it takes without a capture sign (which no notation writes): the two
/// moves.
fn glued_in_one<'a>(mv: &WrittenMove<'a>) -> Option<(WrittenMove<'a>, WrittenMove<'a>)> {
    let (Some(piece), Some(Origin::Square(origin)), Some(captured), Some(destination)) =
        (&mv.piece, &mv.origin, &mv.captured, &mv.destination)
    else {
        return None;
    };
    if mv.capture.is_some() || mv.dash.is_some() || mv.drop.is_some() {
        return None;
    }
    let first = WrittenMove {
        span: piece.span.start..origin.span.end,
        piece: Some(piece.clone()),
        destination: Some(origin.clone()),
        ..WrittenMove::default()
    };
    let second = WrittenMove {
        span: captured.span.start..mv.span.end,
        piece: Some(captured.clone()),
        destination: Some(destination.clone()),
        check: mv.check.clone(),
        annotation: mv.annotation.clone(),
        ..WrittenMove::default()
    };
    Some((first, second))
}

#[cfg(test)]
mod tests {
    use crate::syntax::{Item, lower, parse};

    /// The moves of `text`'s first game, as written, and its errors with
    /// the repair's kind.
    fn read(text: &str) -> (Vec<String>, Vec<String>) {
        let games = lower(&parse(text, None), text);
        let game = &games[0];
        let moves = game
            .mainline
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Move(m) => {
                    Some([&m.piece, &m.destination, &m.check].into_iter().flatten().map(|t| t.text).collect::<String>())
                }
                _ => None,
            })
            .collect();
        let errors = game
            .errors
            .iter()
            .map(|e| format!("{} {:?}", &text[e.span.clone()], e.repair.as_ref().map(|r| &r.kind)))
            .collect();
        (moves, errors)
    }

    #[test]
    fn moves_broken_by_blanks_are_read_joined() {
        let (moves, errors) = read("1. e4 e5 2. N f3 Nc6 3. B x b5 a6 4. Q\ne2 *");
        assert_eq!(moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Qe2"]);
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(errors.iter().all(|e| e.contains("SpaceInMove")), "{errors:?}");
        let (moves, errors) = read("1. e4 d5 2. e x d5 Qxd5 3. Nc3 Qd8 4. d4 Nf6 5. Nf3 Bg4 6. h3 B x f3 *");
        assert_eq!(moves.len(), 12, "{moves:?}");
        assert_eq!(errors.len(), 2, "{errors:?}");
        let (moves, errors) = read("1. e4 e5 2. d4 e x d4 3. c3 d x c3 4. Nb1 x c3 *");
        assert_eq!(moves.len(), 7, "{moves:?} {errors:?}");
        assert_eq!(errors.len(), 3, "{errors:?}");
        // Long algebraic's capture with the sign standing alone.
        let (moves, errors) = read("1. e2-e4 d7-d5 2. e4 x d5 Qd8 x d5 *");
        assert_eq!(moves.len(), 4, "{moves:?} {errors:?}");
        assert_eq!(errors.len(), 2, "{errors:?}");
    }

    #[test]
    fn a_dash_stuck_to_a_move_before_the_next_is_taken_away() {
        let (moves, errors) = read("1. e4 e5 2. d4— Nc6 *");
        assert_eq!(moves, ["e4", "e5", "d4", "Nc6"]);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("d4— Some(Stray"), "{errors:?}");
    }

    #[test]
    fn glued_moves_are_split() {
        for (text, want, count) in [
            ("1. e4 e5 2. Nf3 Nc6 3. Bc4Bc5 *", "Bc4Bc5", 6),
            ("1. e4 e5 2. Nf3Nc6 3. Bc4 *", "Nf3Nc6", 5),
            ("1. e2-e4 e7-e5 2. Ng1-f3Nb8-c6 *", "Ng1-f3Nb8-c6", 4),
            ("1. e2-e4 e7-e5 2. Ng1-f3Bf8-c5 *", "Ng1-f3Bf8-c5", 4),
        ] {
            let (moves, errors) = read(text);
            assert_eq!(moves.len(), count, "{text}: {moves:?}");
            assert_eq!(errors, [format!("{want} Some(Glued {{ first_len: {} }})", want.len() / 2)], "{text}");
        }
        // Informant's novelty sign after a move stays one.
        let (moves, errors) = read("1. e4 e5 2. Nf3N Nc6 *");
        assert_eq!((moves.len(), errors.len()), (4, 0));
    }

    #[test]
    fn move_numbers_with_letters_for_digits_are_read() {
        let (_, errors) = read("I. e4 e5 2. Nf3 Nc6 *");
        assert_eq!(errors, ["I. Some(LookAlikeNumber { number: \"1.\" })"]);
        let (_, errors) = read("9. Bb3 Bb7 IO. h3 *");
        assert_eq!(errors, ["IO. Some(LookAlikeNumber { number: \"10.\" })"]);
    }
}
