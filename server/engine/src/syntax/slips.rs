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
//! - a move number with letters for its digits (`I.`, `IO.`, `2O.`);
//! - a comment closed with `)` for `}`, moves after it and the next
//!   comment's `{` (`{comment) 9...e6 10. Bg2 {comment}`), which the
//!   grammar reads as one comment holding the moves.
//!
//! Each becomes, in the lowered game, the moves it stands for, and one
//! [`SyntaxError`] that carries the [`Repair`]: the analysis reports it
//! with the mended text as its fix. Only the tree path needs this: the fast
//! path gives up on all of these.

use super::manuscript::{
    Repair, RepairKind, look_alike_number as runs_look_alike_number, move_at, move_number_at, number_text, ply_of,
    unnumbered_ply,
};
use super::{GameSyntax, Item, Line, Origin, SyntaxError, Token, WrittenMove, fast};

/// How many of a game's syntax errors are tried as slips.
const MAX_MENDED: usize = 64;

/// How many moves and numbers one mended stretch may hold (`c5-d4 IO.Bf1`:
/// three).
const MAX_TOKENS: usize = 4;

/// Mends the slips of `game`, lowered from `source`.
pub(super) fn mend<'a>(game: &mut GameSyntax<'a>, source: &'a str) {
    mend_comment_brackets(game, source);
    unread_words(&mut game.mainline, source, &mut game.errors);
    split_glued(&mut game.mainline, source, &mut game.errors);
    join_lone_letters(&mut game.mainline, source, &mut game.errors);
    if game.errors.is_empty() {
        return;
    }
    // Each mend walks the game's items: junk of thousands of errors (a
    // binary file, hostile input) is left as it is past the first few.
    let spans: Vec<_> = game.errors.iter().take(MAX_MENDED).map(|e| e.span.clone()).collect();
    for span in spans {
        // Mended with an earlier error, or no longer there.
        if !game.errors.iter().any(|e| e.span == span && e.repair.is_none()) {
            continue;
        }
        if !stray_at_end(source, &span) {
            join_broken(&mut game.mainline, source, &span, &mut game.errors);
        }
    }
}

/// `{comment) 9...e6 10. Bg2 Bd6 12. Ne5 {comment}`: a comment closed
/// with a `)` that no `(` in it opens, then moves from a move number on,
/// then the next comment's `{` before any `}`: the grammar reads it all as
/// one comment (PGN's comments do not nest), and the moves are lost. The
/// moves are put in the line, and an error carries the bracket's fix.
/// Only moves and move numbers may stand between the `)` and the `{`.
fn mend_comment_brackets<'a>(game: &mut GameSyntax<'a>, source: &'a str) {
    let end = game.span.end.min(source.len());
    let mut i = game.tags.last().map_or(game.span.start, |t| t.span.end).min(end);
    let bytes = source.as_bytes();
    let find = |b: u8, from: usize, to: usize| memchr::memchr(b, &bytes[from..to]).map(|k| from + k);
    while let Some(at) = memchr::memchr2(b'{', b';', &bytes[i..end]).map(|k| i + k) {
        if bytes[at] == b';' {
            i = find(b'\n', at, end).unwrap_or(end);
            continue;
        }
        let Some(close) = find(b'}', at + 1, end) else { return };
        // `{a {b} c}`: the grammar reads one level of braces inside a
        // comment when the outer one closes before another opens; then the
        // text is one comment as written.
        let nested = memchr::memchr2(b'{', b'}', &bytes[close + 1..end]).is_some_and(|k| bytes[close + 1 + k] == b'}');
        let mended = find(b'{', at + 1, close).filter(|_| !nested).and_then(|inner| {
            let paren = unmatched_close(&source[at + 1..inner])? + at + 1;
            Some((paren, inner, moves_between(source, paren + 1, inner)?))
        });
        let Some((paren, inner, items)) = mended else {
            i = close + 1;
            continue;
        };
        let line = line_at(&mut game.mainline, at);
        let k = line.items.partition_point(|it| it.start() < at);
        line.items.splice(k..k, items);
        let span = at..paren + 1;
        let message = format!("\"{}\" closes a comment with \")\"", &source[span.clone()]);
        game.errors.push(SyntaxError {
            span: span.clone(),
            message,
            repair: Some(Repair { span, kind: RepairKind::CommentBracket }),
        });
        game.errors.sort_by_key(|e| e.span.start);
        // The `{` inside starts the comment that the `}` closes.
        i = inner;
    }
}

/// Where the first `)` of `text` stands that no `(` before it opens.
fn unmatched_close(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (k, b) in text.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' if depth == 0 => return Some(k),
            b')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The moves and move numbers of `source[from..to]`, blank-separated, as
/// written (no slip in them): a move number first, at least one move, and
/// nothing else; `None` otherwise.
fn moves_between<'a>(source: &'a str, from: usize, to: usize) -> Option<Vec<Item<'a>>> {
    let text = &source[..to];
    let mut items = Vec::new();
    let mut at = from + source[from..to].len() - source[from..to].trim_start().len();
    while at < to {
        let end = if let Some((end, _, _)) = move_number_at(text, at) {
            items.push(Item::MoveNumber(Token { text: &source[at..end], span: at..end }));
            end
        } else {
            if items.is_empty() {
                return None;
            }
            let (end, repairs) = move_at(text, at)?;
            if !repairs.is_empty() || end > to {
                return None;
            }
            items.push(Item::Move(lowered(&source[at..end], source, at..end)?));
            end
        };
        let gap = text[end..].len() - text[end..].trim_start().len();
        if gap == 0 && end < to && !matches!(items.last(), Some(Item::MoveNumber(_))) {
            return None;
        }
        at = end + gap;
    }
    items.iter().any(|i| matches!(i, Item::Move(_))).then_some(items)
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

/// `IO.`, `I6.`, `l.`: a move number with letters for its digits at `at`
/// (as the run scanner reads one), a move after it: its end and its
/// digits.
fn look_alike_number(text: &str, at: usize) -> Option<(usize, String)> {
    let (len, number) = runs_look_alike_number(&text[at..])?;
    let end = at + len;
    move_at(text, end + text[end..].len() - text[end..].trim_start().len())?;
    Some((end, number))
}

/// The ply of the move after the items `items` of a line: from the last
/// move number among them and the moves after it.
fn ply_after(items: &[Item<'_>]) -> Option<u32> {
    let k = items.iter().rposition(|i| matches!(i, Item::MoveNumber(_)))?;
    let Item::MoveNumber(t) = &items[k] else { return None };
    let (_, number, black) = move_number_at(t.text, 0)?;
    let moves = items[k + 1..].iter().filter(|i| matches!(i, Item::Move(_))).count() as u32;
    Some(ply_of(number, black) + moves)
}

/// The innermost line of `line` that holds `at`.
fn line_at<'l, 'a>(mut line: &'l mut Line<'a>, at: usize) -> &'l mut Line<'a> {
    loop {
        let inner = line.items.iter().position(|i| matches!(i, Item::Variation(v) if v.span.contains(&at)));
        match inner {
            Some(k) => {
                // `k` was just found to be a variation.
                let Item::Variation(v) = &mut line.items[k] else { unreachable!() };
                line = v;
            }
            None => return line,
        }
    }
}

/// Reads the stretch around the error at `error` as moves and numbers
/// with slips, as the run scanner reads them: from the item the error is
/// part of (or the error itself), else from one of the two items before.
/// The stretch must cover whole items and errors, and need at least one
/// repair.
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
        Some(k) => (vec![(line.items[k].start(), k)], k),
        None => {
            let b = line.items.iter().rposition(|i| i.end() <= error.start).map_or(0, |b| b + 1);
            (vec![(error.start, b)], b)
        }
    };
    starts.extend((before.saturating_sub(2)..before).rev().map(|k| (line.items[k].start(), k)));
    for (start, first) in starts {
        let ply = ply_after(&line.items[..first]);
        // The stretch goes on to the end of every item and error it
        // reaches into.
        let reach = |end: usize| {
            let items = line.items.iter().filter(|i| i.start() < end && start < i.end()).map(Item::end);
            let errs = errors.iter().filter(|e| e.span.start < end && start < e.span.end.max(e.span.start + 1));
            items.chain(errs.map(|e| e.span.end)).fold(error.end, usize::max)
        };
        let Some((read, repairs)) = read_stretch(text, start, reach, ply) else { continue };
        let end = read.last().map_or(start, Item::end).max(repairs.iter().map(|r| r.span.end).max().unwrap_or(start));
        let inside = |s: usize, e: usize| start <= s && e <= end;
        let overlaps = |s: usize, e: usize| s < end && start < e.max(s + 1);
        let items_fit = line.items.iter().all(|i| {
            !overlaps(i.start(), i.end())
                || (inside(i.start(), i.end())
                    && matches!(i, Item::Move(_) | Item::Glyph(_) | Item::NullMove(_) | Item::MoveNumber(_)))
        });
        let errors_fit = errors.iter().all(|e| !overlaps(e.span.start, e.span.end) || inside(e.span.start, e.span.end));
        if !items_fit || !errors_fit {
            continue;
        }
        line.items.retain(|i| !overlaps(i.start(), i.end()));
        let at = line.items.partition_point(|i| i.start() < start);
        line.items.splice(at..at, read);
        errors.retain(|e| !overlaps(e.span.start, e.span.end));
        let mut repairs = repairs;
        super::manuscript::mark_glued(source, &mut repairs);
        for repair in repairs {
            let message = format!("\"{}\" is a slip", &source[repair.span.clone()]);
            errors.push(SyntaxError { span: repair.span.clone(), message, repair: Some(repair) });
        }
        errors.sort_by_key(|e| e.span.start);
        return;
    }
}

/// The moves and numbers from `start` on, read as the run scanner reads
/// them, up to the first that ends at or after `until(its end)`; with their repairs
/// (at least one: broken parts joined, a stray character taken away, a
/// number with letters for digits, the dot of a lost number). `ply` is
/// the ply of the move at `start`, if known.
fn read_stretch<'a>(
    text: &'a str,
    start: usize,
    until: impl Fn(usize) -> usize,
    mut ply: Option<u32>,
) -> Option<(Vec<Item<'a>>, Vec<Repair>)> {
    let mut items = Vec::new();
    let mut repairs = Vec::new();
    let mut at = start;
    for _ in 0..MAX_TOKENS {
        let mut number_read = true;
        let end = if let Some((end, number)) = look_alike_number(text, at) {
            repairs.push(Repair { span: at..end, kind: RepairKind::LookAlikeNumber { number } });
            end
        } else if let Some((end, number, black)) = move_number_at(text, at) {
            items.push(Item::MoveNumber(Token { text: &text[at..end], span: at..end }));
            ply = Some(ply_of(number, black));
            end
        } else {
            number_read = false;
            // `.b4`: the dot of a move number whose digits were lost.
            let dots = text[at..].bytes().take_while(|&b| b == b'.').count();
            let from = if matches!(dots, 1 | 3) && move_at(text, at + dots).is_some() {
                // Its number from the numbers before, else from the next
                // (`.Nf3 d5 2. d3` at a game's start).
                let here = ply.or_else(|| unnumbered_ply(text, at + dots));
                let number = number_text(here?);
                ply = here;
                repairs.push(Repair { span: at..at + dots, kind: RepairKind::LostMoveNumber { number } });
                at + dots
            } else {
                at
            };
            let (end, mut found) = move_at(text, from)?;
            let joined = match found.as_slice() {
                [] => text[from..end].to_owned(),
                [Repair { span, kind: RepairKind::SpaceInMove { joined, .. } | RepairKind::Stray { joined, .. } }]
                    if *span == (from..end) =>
                {
                    joined.clone()
                }
                _ => return None,
            };
            items.push(Item::Move(lowered(&joined, text, from..end)?));
            repairs.append(&mut found);
            ply = ply.map(|p| p + 1);
            end
        };
        if end >= until(end) {
            return (!repairs.is_empty()).then_some((items, repairs));
        }
        // The next token after one or two blanks or a line break, or glued
        // to a number.
        let gap = text[end..].len() - text[end..].trim_start().len();
        if (gap == 0 && !number_read) || gap > 6 || text[end..end + gap].matches('\n').count() > 1 {
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

/// Calls `f` on each item of `line` that is no variation, and on the items
/// of its variations, in order: `f(line, k)` may replace items from `k` on
/// and says where to go on.
fn each_item<'a>(line: &mut Line<'a>, f: &mut impl FnMut(&mut Line<'a>, usize) -> usize) {
    let mut k = 0;
    while k < line.items.len() {
        if let Item::Variation(v) = &mut line.items[k] {
            each_item(v, f);
            k += 1;
        } else {
            k = f(line, k);
        }
    }
}

/// `K e7`, `Кр` at the end of a line and `e7` on the next: a piece
/// letter standing alone (the grammar's glyph), then a move without a
/// letter, in `line` and its variations: one move broken by a blank.
/// Informant's novelty sign (`N`, `TN`) is left alone: the analysis tells
/// it from a knight.
fn join_lone_letters<'a>(line: &mut Line<'a>, source: &'a str, errors: &mut Vec<SyntaxError>) {
    each_item(line, &mut |line, k| {
        let (Item::Glyph(letter), Some(Item::Move(next))) = (&line.items[k], line.items.get(k + 1)) else {
            return k + 1;
        };
        let lone = super::lexicon::piece_len(letter.text) == Some(letter.text.len())
            && !matches!(letter.text, "N" | "TN")
            && next.piece.is_none()
            && next.castling.is_none()
            && next.destination.is_some();
        let (start, end) = (letter.span.start, next.span.end);
        let read = lone.then(|| read_stretch(&source[..end], start, |_| end, ply_after(&line.items[..k]))).flatten();
        match read {
            Some((items, mut repairs)) if items.len() == 1 && matches!(items[0], Item::Move(_)) => {
                line.items.splice(k..=k + 1, items);
                super::manuscript::mark_glued(source, &mut repairs);
                for repair in repairs {
                    let message = format!("\"{}\" is a slip", &source[repair.span.clone()]);
                    errors.push(SyntaxError { span: repair.span.clone(), message, repair: Some(repair) });
                }
                errors.sort_by_key(|e| e.span.start);
            }
            _ => {}
        }
        k + 1
    });
}

/// `N?6`, `N■6`: a word that starts with a piece letter and goes on, with
/// no blank, with what makes no move (a sign, a number without its dot,
/// text the grammar could not read): OCR or a typist damaged the move.
/// The grammar reads pieces of it (Informant's novelty sign `N`, the sign
/// `?`, a move number `6`), and the next move number then seems to come a
/// move early. The word becomes one syntax error, which the replay reads
/// on from as a move it could not read (`analysis::replay::resync`, where
/// the letter and the rank it keeps make the likeliest reading).
fn unread_words<'a>(line: &mut Line<'a>, source: &'a str, errors: &mut Vec<SyntaxError>) {
    each_item(line, &mut |line, k| {
        let Item::Glyph(letter) = &line.items[k] else {
            return k + 1;
        };
        let start = letter.span.start;
        if super::lexicon::piece_len(letter.text) != Some(letter.text.len())
            || !source[..start].chars().next_back().is_none_or(char::is_whitespace)
        {
            return k + 1;
        }
        // The items and errors glued one to the next after the letter.
        let mut end = letter.span.end;
        let mut taken = k + 1;
        let mut damaged = false;
        loop {
            if let Some(e) = errors.iter().find(|e| e.span.start == end && e.repair.is_none() && !e.span.is_empty()) {
                end = e.span.end;
                damaged = true;
                continue;
            }
            match line.items.get(taken) {
                Some(Item::Glyph(t)) if t.span.start == end => {
                    end = t.span.end;
                    taken += 1;
                }
                Some(Item::MoveNumber(t)) if t.span.start == end && t.text.bytes().all(|b| b.is_ascii_digit()) => {
                    end = t.span.end;
                    taken += 1;
                    damaged = true;
                }
                _ => break,
            }
        }
        if !damaged || !source[end..].chars().next().is_none_or(char::is_whitespace) {
            return k + 1;
        }
        let span = start..end;
        line.items.drain(k..taken);
        errors.retain(|e| !(span.start <= e.span.start && e.span.end <= span.end));
        let message = format!("\"{}\" is not chess notation", &source[span.clone()]);
        errors.push(SyntaxError { span, message, repair: None });
        errors.sort_by_key(|e| e.span.start);
        k
    });
}

/// Two moves with the blank between them lost, in `line` and its
/// variations: each pair becomes two moves and an error with the blank
/// as its fix.
fn split_glued<'a>(line: &mut Line<'a>, source: &'a str, errors: &mut Vec<SyntaxError>) {
    each_item(line, &mut |line, k| {
        let Item::Move(mv) = &line.items[k] else {
            return k + 1;
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
            k + 2
        } else if let Some(novelty) = mv.annotation.clone().filter(|a| a.text == "N" && next_start == Some(a.span.end))
            && matches!(line.items.get(k + 1), Some(Item::Move(next)) if takes_letter(next))
        {
            // `Nf3Nc6`: the grammar took the second knight's letter for
            // Informant's novelty sign and the rest for a pawn move.
            give_letter(line, k, novelty, source, errors);
            k + 2
        } else if let Some(letter) = mv.promotion.clone().filter(|p| next_start == Some(p.span.end))
            && mv.promotion_sign.is_none()
            && mv.piece.is_none()
            && mv.destination.as_ref().is_some_and(|d| !d.text.ends_with(['1', '8']))
            && matches!(line.items.get(k + 1), Some(Item::Move(next)) if takes_letter(next))
        {
            // `b4Nf6`: a pawn move that reaches no last rank, glued to a
            // piece move: the grammar took the piece letter for a
            // promotion.
            give_letter(line, k, letter, source, errors);
            k + 2
        } else if next_start == Some(mv.span.end) && !mv.span.is_empty() {
            // `Ng1-f3Bf8-c5`: two moves side by side.
            let span = mv.span.start..line.items.get(k + 1).map_or(mv.span.end, Item::end);
            push_glued(errors, source, span, mv.span.len());
            k + 2
        } else {
            k + 1
        }
    });
}

/// A move that a letter glued before it would make whole: no letter, no
/// castling, a destination (`c6`, `xb7`, `b8-c6`).
fn takes_letter(next: &WrittenMove<'_>) -> bool {
    next.piece.is_none() && next.castling.is_none() && next.destination.is_some()
}

/// `Nf3Nc6`, `b4Nf6`: the grammar gave the move at `k` the letter of the
/// move after it (as a novelty sign, as a promotion): the letter goes to
/// that move, and the two are reported as glued.
fn give_letter<'a>(line: &mut Line<'a>, k: usize, letter: Token<'a>, source: &str, errors: &mut Vec<SyntaxError>) {
    let (Some(Item::Move(first)), Some(Item::Move(next))) = (line.items.get(k), line.items.get(k + 1)) else {
        return;
    };
    let span = first.span.start..next.span.end;
    let mut first = first.clone();
    let mut next = next.clone();
    if first.annotation.as_ref() == Some(&letter) {
        first.annotation = None;
    }
    if first.promotion.as_ref() == Some(&letter) {
        first.promotion = None;
    }
    first.span.end = letter.span.start;
    next.span.start = letter.span.start;
    let first_len = first.span.len();
    next.piece = Some(letter);
    line.items[k] = Item::Move(first);
    line.items[k + 1] = Item::Move(next);
    push_glued(errors, source, span, first_len);
}

fn push_glued(errors: &mut Vec<SyntaxError>, source: &str, span: std::ops::Range<usize>, first_len: usize) {
    // (A NUL byte ends the grammar's input: spans past one may fall inside
    // a character; found by fuzzing.)
    if source.get(span.clone()).is_none_or(|t| !t.is_char_boundary(first_len)) {
        return;
    }
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
    fn a_piece_letter_standing_alone_before_a_square_is_one_move() {
        let (moves, errors) = read("6. Ra2 K e7 7. a4 Кр\ne5 8. Q h5 N f6 *");
        assert_eq!(moves, ["Ra2", "Ke7", "a4", "Крe5", "Qh5", "f6"]);
        assert_eq!(errors.len(), 3, "{errors:?}");
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
        // A pawn move glued to a piece move.
        let (moves, errors) = read("1. e4 e5 2. b4Nf6 *");
        assert_eq!(moves, ["e4", "e5", "b4", "Nf6"]);
        assert_eq!(errors, ["b4Nf6 Some(Glued { first_len: 2 })"]);
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
        // Glued to the moves around it, and read by the grammar as a
        // letter then a number.
        let (moves, errors) = read("9. c5-d4 Bc8-b7 IO.Bf1-d3 Qd8-e7 *");
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert_eq!(errors, ["IO. Some(LookAlikeNumber { number: \"10.\" })"]);
        let (moves, errors) = read("15. Bxg7 Rg8 I6. Rfe1+ Kd8 *");
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert_eq!(errors, ["I6. Some(LookAlikeNumber { number: \"16.\" })"]);
    }

    #[test]
    fn the_dot_of_a_lost_move_number_is_read_with_its_number() {
        let (moves, errors) = read("1. e4 e5 2. Nf3 Kf6 .b4 Nh6 *");
        assert_eq!(moves.len(), 6, "{moves:?}");
        assert_eq!(errors, [". Some(LostMoveNumber { number: \"3.\" })"]);
    }

    #[test]
    fn the_dot_of_a_lost_first_number_takes_its_number_from_the_next() {
        let (moves, errors) = read(".Nf3 d5 2. d3 Bg4 *");
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert_eq!(errors, [". Some(LostMoveNumber { number: \"1.\" })"]);
        let (moves, errors) = read("1. e4 (.c5 2. Nf3) e5 *");
        assert_eq!(moves, ["e4", "e5"]);
        assert_eq!(errors, [". Some(LostMoveNumber { number: \"1...\" })"]);
    }
}
