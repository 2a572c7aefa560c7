//! Finds runs of notation in prose: a move number followed by a move, then
//! moves, numbers, glyphs and bracketed variations, up to the first word
//! that is not notation, a sentence's punctuation or a paragraph break.
//!
//! The reading of a move mirrors the grammar's tokens (`grammar/grammar.js`:
//! every language's piece letters, look-alike files and ranks, long
//! algebraic, castling with `O`, `0` or Cyrillic `О`), with the letters and
//! signs of [`lexicon`], which the grammar's are checked against; so a run
//! that is found here parses as moves there. Inside a run it also reads three kinds
//! of damage that scanned books have, where the intended move is certain,
//! and records each as a [`Repair`]: a space inside a move (`К f3`), a lost
//! move number (`1. Кf3 Кf6 .b3`) and a lower-case piece letter (`кf6`).

use std::ops::Range;

use super::{Repair, RepairKind};
use crate::syntax::lexicon;
use lexicon::{ELLIPSIS, is_capture_sign as is_capture, is_dash};

/// How deep bracketed variations inside a run may nest.
const MAX_DEPTH: usize = 8;

/// The character at byte `i`, if any.
fn ch(s: &str, i: usize) -> Option<char> {
    s.get(i..)?.chars().next()
}

/// A file letter or its look-alike.
fn is_file(c: char) -> bool {
    lexicon::file_of(c).is_some()
}

/// A rank digit or its look-alike.
fn is_rank(c: char) -> bool {
    lexicon::rank_of(c).is_some()
}

/// The file (0 for `a`) a file letter or its look-alike stands for.
fn file_index(c: char) -> Option<u8> {
    lexicon::file_of(c).map(|f| f as u8 - b'a')
}

/// After one character of class `class` at `i`.
fn one(s: &str, i: usize, class: fn(char) -> bool) -> Option<usize> {
    let c = ch(s, i)?;
    class(c).then_some(i + c.len_utf8())
}

/// The end of a piece letter at `i` (the grammar's `PIECE`: `Кр` and its
/// mixed forms, the letters of every language, pawn letters, figurines).
fn section_at(s: &str, i: usize) -> Option<usize> {
    lexicon::piece_len(s.get(i..)?).map(|n| i + n)
}

fn square_at(s: &str, i: usize) -> Option<usize> {
    let f = one(s, i, is_file)?;
    one(s, f, is_rank)
}

fn check_end(s: &str, i: usize) -> usize {
    lexicon::check_len(&s[i..]).map_or(i, |n| i + n)
}

fn annotation_end(s: &str, i: usize) -> usize {
    lexicon::annotation_len(&s[i..]).map_or(i, |n| i + n)
}

fn suffix_end(s: &str, i: usize) -> usize {
    annotation_end(s, check_end(s, i))
}

/// After a piece move, a glued `N` is Informant's novelty sign.
fn piece_suffix_end(s: &str, i: usize) -> usize {
    let j = check_end(s, i);
    if s[j..].starts_with(lexicon::NOVELTY) {
        return j + lexicon::NOVELTY.len();
    }
    annotation_end(s, j)
}

fn promotion_end(s: &str, i: usize) -> usize {
    let j = one(s, i, |c| lexicon::PROMOTION_SIGNS.contains(&c)).unwrap_or(i);
    section_at(s, j).or_else(|| one(s, j, |c| lexicon::UCI_PROMOTION_LETTERS.contains(&c))).unwrap_or(i)
}

/// `e.p.` glued to a pawn capture or after one space (`exd6 e.p.`).
fn en_passant_end(s: &str, i: usize) -> usize {
    let at = |start: usize| -> Option<usize> {
        let mut j = one(s, start, |c| lexicon::EN_PASSANT_LETTERS[0].contains(&c))?;
        j = one(s, j, |c| c == '.').unwrap_or(j);
        j = one(s, j, |c| c == ' ').unwrap_or(j);
        j = one(s, j, |c| lexicon::EN_PASSANT_LETTERS[1].contains(&c))?;
        Some(one(s, j, |c| c == '.').unwrap_or(j))
    };
    at(i).or_else(|| one(s, i, |c| c == ' ').and_then(at)).unwrap_or(i)
}

fn castling(s: &str) -> Option<usize> {
    let o = lexicon::is_castling_letter;
    let mut j = one(s, 0, o)?;
    j = one(s, j, is_dash)?;
    j = one(s, j, o)?;
    if let Some(k) = one(s, j, is_dash).and_then(|k| one(s, k, o)) {
        j = k;
    }
    Some(suffix_end(s, j))
}

/// The longest piece move at the start of `s`: letter, origin (file, rank
/// or square), capture sign or dash, a captured piece's letter, the
/// destination, marks.
fn piece_move(s: &str) -> Option<usize> {
    let p = section_at(s, 0)?;
    let mut best = None;
    let origin_rank = |c| lexicon::origin_rank_of(c).is_some();
    for o in [Some(p), one(s, p, is_file), one(s, p, origin_rank), square_at(s, p)].into_iter().flatten() {
        for q in [Some(o), one(s, o, is_capture), one(s, o, is_dash), one(s, o, |c| c == '@')].into_iter().flatten() {
            for r in [Some(q), section_at(s, q)].into_iter().flatten() {
                if let Some(d) = square_at(s, r) {
                    best = best.max(Some(piece_suffix_end(s, d)));
                }
            }
        }
    }
    best
}

/// The longest pawn move at the start of `s`: `e4`, `e2e4`, `e2-e4`,
/// `e4xd5`, `exd5`, `ed5`, naming the piece taken (`d4xSe5`, `exPd5`),
/// with a promotion, `e.p.` and marks.
fn pawn_move(s: &str) -> Option<usize> {
    let mut ends = Vec::new();
    let captured = |q: usize| [Some(q), section_at(s, q)].into_iter().flatten();
    if let Some(d) = square_at(s, 0) {
        ends.push(d);
        ends.extend(square_at(s, d));
        ends.extend(one(s, d, is_dash).and_then(|q| square_at(s, q)));
        if let Some(q) = one(s, d, is_capture) {
            ends.extend(captured(q).filter_map(|r| square_at(s, r)));
        }
    }
    if let Some(f) = one(s, 0, is_file) {
        ends.extend(square_at(s, f));
        if let Some(q) = one(s, f, is_capture) {
            ends.extend(captured(q).filter_map(|r| square_at(s, r)));
        }
    }
    ends.into_iter().map(|d| suffix_end(s, en_passant_end(s, promotion_end(s, d)))).max()
}

/// `xg7`: a capture whose piece letter was lost (the analysis reads it
/// as the capture on that square that the game bears out).
fn lost_letter_capture(s: &str) -> Option<usize> {
    let q = one(s, 0, is_capture)?;
    square_at(s, q).map(|d| suffix_end(s, d))
}

/// `ed`, `e:d`: a pawn capture written with its two files only (the old
/// Soviet short form), neighbouring files in Latin letters: its length.
fn files_only_capture(s: &str) -> Option<usize> {
    let latin = |c: char| ('a'..='h').contains(&c);
    let from = ch(s, 0).filter(|&c| latin(c))?;
    let mut j = 1;
    j = one(s, j, is_capture).unwrap_or(j);
    let to = ch(s, j).filter(|&c| latin(c))?;
    ((from as u8).abs_diff(to as u8) == 1).then(|| suffix_end(s, j + 1))
}

/// `Nbxd4Rbb7`, `a3Qh4+`: a piece move glued to the end of the move
/// before it, at `n` of `s`. Only where its letter is followed by a
/// square's letter: the grammar reads such a pair as one move naming a
/// piece it takes, a novelty sign or a promotion, which the slips reader
/// (`syntax::slips`) parts; `Lf1K-e2` or `Kd8♘-c7` it cannot read.
fn glued_piece_move(s: &str, n: usize) -> bool {
    if !ch(s, n).is_some_and(|c| c.is_uppercase() || lexicon::is_figurine(c)) {
        return false;
    }
    let Some(p) = section_at(s, n) else { return false };
    // A letter and a square: the grammar takes the letter for the piece
    // the move before takes (`Bc4Bc5`), a novelty sign (`Nf3Nc6`) or a
    // promotion (`a3Qh4+`).
    if square_at(s, p).is_some_and(|d| ends_word(s, piece_suffix_end(s, d))) {
        return true;
    }
    // Any piece move after a piece move whose destination ends it (an
    // origin or a capture before it: `Nbxd4Rbb7`); after `Sf4` the grammar
    // would still read a letter as the piece taken (`Sf4Se:f2`).
    // `O-ONbd7`: after castling too.
    let first = section_at(s, 0).filter(|&p0| n > p0 + 2).or_else(|| castling(s).filter(|&c| c == n));
    first.is_some() && piece_move(&s[n..]).is_some_and(|m| ends_word(&s[n..], m))
}

/// Whether `t` is all the origin of a move in long algebraic (`e2`,
/// `Kg1`, `Кg1`, `♘g1`): the byte where its square starts.
fn lan_origin(t: &str) -> Option<usize> {
    let upper = t.starts_with(|c: char| c.is_uppercase() || lexicon::is_figurine(c));
    let p = if upper { section_at(t, 0)? } else { 0 };
    (square_at(t, p) == Some(t.len())).then_some(p)
}

/// A move in long algebraic with its dash between blanks (`e2 - e4`,
/// `Кg1 - f3`), read as one move.
struct SpacedDash {
    /// Its length in the text.
    end: usize,
    /// The move written without the blanks.
    joined: String,
    /// The bytes of `joined` before the last blank (the origin and the
    /// dash).
    letter_len: usize,
    /// A pawn's move: the ranks it goes from and to.
    pawn_ranks: Option<(char, char)>,
}

/// `e2 - e4`, `Кg1 - f3+` at the start of `s`: an origin, one or two
/// blanks, a dash alone, one or two blanks and a destination square (with
/// its marks) that ends a word. A pawn's origin and destination are on one
/// file, one or two ranks apart (a capture has its sign, `e5 : d4`).
fn spaced_dash_move(s: &str) -> Option<SpacedDash> {
    // Most words are no such move: a dash after one or two blanks first.
    let b = s.as_bytes();
    let first_end = b.iter().take(8).position(|&c| c == b' ' || c == b'\t')?;
    let gap = b[first_end..].iter().take(3).take_while(|&&c| c == b' ' || c == b'\t').count();
    if !(1..=2).contains(&gap) || !ch(s, first_end + gap).is_some_and(is_dash) {
        return None;
    }
    let words = words_apart(s, 3, false);
    let [origin, dash, destination] = words.as_slice() else { return None };
    let p = lan_origin(&s[origin.clone()])?;
    let mut dash_chars = s[dash.clone()].chars();
    if !dash_chars.next().is_some_and(is_dash) || dash_chars.next().is_some() {
        return None;
    }
    let t = &s[destination.start..];
    let d = square_at(t, 0)?;
    let n = if p == 0 { suffix_end(t, promotion_end(t, d)) } else { piece_suffix_end(t, d) };
    if !ends_word(t, n) {
        return None;
    }
    let pawn_ranks = if p == 0 {
        let (from, to) = (&s[origin.clone()], &t[..d]);
        let file = |x: &str| ch(x, 0).and_then(lexicon::file_of);
        let rank = |x: &str| x.chars().nth(1).and_then(lexicon::rank_of);
        let (Some(f0), Some(f1), Some(r0), Some(r1)) = (file(from), file(to), rank(from), rank(to)) else {
            return None;
        };
        if f0 != f1 || !(1..=2).contains(&(r0 as u8).abs_diff(r1 as u8)) {
            return None;
        }
        Some((r0, r1))
    } else {
        None
    };
    let joined = format!("{}{}{}", &s[origin.clone()], &s[dash.clone()], &t[..n]);
    Some(SpacedDash { end: destination.start + n, letter_len: origin.len() + dash.len(), joined, pawn_ranks })
}

/// A move in long algebraic with its dash or capture sign (`Bf8-e7`,
/// `e5xd4`) at the start of `s`, ending a word.
fn long_move(s: &str) -> bool {
    let Some(n) = move_len(s).filter(|&n| ends_word(s, n)) else { return false };
    s[..n].char_indices().any(|(o, c)| (is_dash(c) || is_capture(c)) && lan_origin(&s[..o]).is_some())
}

/// `Nf64. Bg5`: a move number at `n` of `s`, glued to the move before
/// it, with a blank and a move after it.
fn number_glued(s: &str, n: usize) -> bool {
    move_number_at(s, n).is_some_and(|(e, _, _)| {
        let k = e + s[e..].bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        k > e && move_len(&s[k..]).is_some_and(|m| ends_word(&s[k..], m))
    })
}

/// The length of the move at the start of `s`, if one starts there.
pub(super) fn move_len(s: &str) -> Option<usize> {
    [castling(s), piece_move(s), pawn_move(s), lost_letter_capture(s)].into_iter().flatten().max()
}

/// The first words of `s` (at most `max`) that stand one or two spaces or
/// tabs apart on one line: where a move broken by spaces, or long algebraic
/// written with them, has its parts.
fn words_apart(s: &str, max: usize, across_lines: bool) -> Vec<Range<usize>> {
    let mut words = Vec::with_capacity(max);
    let mut at = 0;
    while words.len() < max {
        let end = s[at..].find(char::is_whitespace).map_or(s.len(), |k| at + k);
        if end == at {
            break;
        }
        words.push(at..end);
        let gap = s[end..].bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        if (1..=2).contains(&gap) {
            at = end + gap;
            continue;
        }
        // A line break (not a blank line) with at most a little
        // indentation around it: `N` at the end of a line, `f3` at the
        // start of the next.
        let blank = s[end..].bytes().take_while(|b| b.is_ascii_whitespace()).count();
        let newlines = s[end..end + blank].bytes().filter(|&b| b == b'\n').count();
        if !across_lines || newlines != 1 || blank > 6 {
            break;
        }
        at = end + blank;
    }
    words
}

/// Whether a token may end at `i`: the text ends, or a character follows
/// that is not a letter or a digit (space, punctuation, a bracket).
fn ends_word(s: &str, i: usize) -> bool {
    ch(s, i).is_none_or(|c| !c.is_alphanumeric())
}

/// Whether the word at the start of `s` has a character no move has
/// inside it, before a letter or digit (`N?6`, `N■6`; not the signs after
/// a move, `Nf6?!`, nor a dash, a capture or a promotion sign).
fn mangled(s: &str) -> bool {
    let word = &s[..s.find(char::is_whitespace).unwrap_or(s.len())];
    word.char_indices().any(|(k, c)| {
        !c.is_alphanumeric()
            && !matches!(c, '-' | '—' | '–' | 'x' | '×' | ':' | '=' | '/')
            && word[k + c.len_utf8()..].contains(char::is_alphanumeric)
    })
}

/// Whether a token may start at `i`: after nothing, a space or an opening
/// bracket or quote, not inside a word or a number such as `3.14`.
fn starts_word(s: &str, i: usize) -> bool {
    s[..i].chars().next_back().is_none_or(|c| {
        !(c.is_alphanumeric() || matches!(c, '.' | ',' | '/' | ':' | '-' | '+' | '=' | '@' | '$' | '%' | '&'))
    })
}

/// A move number at `i`: its end, its number and whether it marks Black's
/// move (`12...`, `12…`).
pub(crate) fn move_number_at(s: &str, i: usize) -> Option<(usize, u32, bool)> {
    let digits = s[i..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let number: u32 = s[i..i + digits].parse().ok()?;
    if number == 0 {
        return None;
    }
    let mut j = i + digits;
    if s[j..].starts_with(ELLIPSIS) {
        return Some((j + ELLIPSIS.len_utf8(), number, true));
    }
    if !s[j..].starts_with('.') {
        // `12)`: a number closed by a bracket, as in old books and forums.
        return s[j..].starts_with(')').then_some((j + 1, number, false));
    }
    let dots = s[j..].bytes().take_while(|&b| b == b'.').count();
    j += dots;
    if s[j..].starts_with(ELLIPSIS) {
        return Some((j + ELLIPSIS.len_utf8(), number, true));
    }
    Some((j, number, dots >= 2))
}

/// `IO.`, `I6.`, `l.`, `I2...`: a move number written with `I`, `l` or
/// `|` for 1 and `O` for 0 (as OCR reads them) at the start of `s`: its
/// length and the number written with digits (as many bytes).
pub(crate) fn look_alike_number(s: &str) -> Option<(usize, String)> {
    let digits = s.find(|c: char| !matches!(c, '0'..='9' | 'I' | 'l' | '|' | 'O')).unwrap_or(s.len());
    let dots = s[digits..].bytes().take_while(|&b| b == b'.').count();
    if !(dots == 1 || dots == 3) || digits == 0 || digits > 3 {
        return None;
    }
    let number: String = s[..digits]
        .chars()
        .map(|c| match c {
            'I' | 'l' | '|' => '1',
            'O' => '0',
            c => c,
        })
        .collect();
    if number == s[..digits] || number.starts_with('0') {
        return None;
    }
    Some((digits + dots, format!("{number}{}", &s[digits..digits + dots])))
}

/// `I.`, `IV.`, `a)`, `B.` at the start of `s`: a label of an outline (a
/// Roman numeral or a letter, with a dot or a bracket) before a blank; its
/// length.
fn outline_label(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let roman = b.iter().take_while(|c| matches!(c, b'I' | b'V' | b'X')).count();
    let letters = if roman > 0 { roman } else { usize::from(b.first().is_some_and(u8::is_ascii_alphabetic)) };
    if letters == 0 || letters > 4 || !matches!(b.get(letters), Some(b'.' | b')')) {
        return None;
    }
    matches!(b.get(letters + 1), Some(b' ' | b'\t')).then_some(letters + 1)
}

/// Where the first paragraph break of `text` starts: a line of blanks only
/// between two line ends.
fn paragraph_break(text: &str) -> Option<usize> {
    let mut start = text.find('\n')? + 1;
    while let Some(len) = text[start..].find('\n') {
        if text[start..start + len].trim().is_empty() {
            return Some(start);
        }
        start += len + 1;
    }
    None
}

/// How far on from a run at a number without a dot Black's answer of
/// that number is looked for ([`Runs::answered_by_black`]).
const ANSWER_REACH: usize = 300;

/// A move number without a dot at `i` (`1 d4 Cf6 2 c4`): its end and its
/// number, when a space or a tab follows it.
fn bare_number_at(s: &str, i: usize) -> Option<(usize, u32)> {
    let digits = s[i..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 || !matches!(s.as_bytes().get(i + digits), Some(b' ' | b'\t')) {
        return None;
    }
    let number: u32 = s[i..i + digits].parse().ok()?;
    (number > 0).then_some((i + digits, number))
}

pub(crate) fn ply_of(number: u32, black: bool) -> u32 {
    (number - 1) * 2 + u32::from(black)
}

/// `2.` for White's move at `ply`, `2...` for Black's.
pub(crate) fn number_text(ply: u32) -> String {
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) { format!("{number}.") } else { format!("{number}...") }
}

/// A move found in the text, with the repair it needed.
struct FoundMove {
    end: usize,
    repair: Vec<Repair>,
}

/// The move at `i` of `s` as a run reads it: its end and the repairs it
/// needed (none for a move as written). For readers of other text: the
/// slips of PGN movetext (`syntax::slips`).
pub(crate) fn move_at(s: &str, i: usize) -> Option<(usize, Vec<Repair>)> {
    Runs::new(s, s.len(), false).found_move(i).map(|m| (m.end, m.repair))
}

/// The ply of an unnumbered move at `i` of `s`, from the move number that
/// follows it within a few moves (`.Nf3 d5 2. d3`: the dot of a lost `1.`).
pub(crate) fn unnumbered_ply(s: &str, i: usize) -> Option<u32> {
    Runs::new(s, s.len(), false).unnumbered_start(i)
}

/// What a run token was, for trimming a run's end.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token {
    Number,
    Move,
    Other,
}

/// The scanner of one stretch of text (a prose segment, or the content of a
/// notation macro).
pub(super) struct Runs<'s> {
    s: &'s str,
    /// Where the stretch ends.
    limit: usize,
    /// Inside a notation macro every word is notation: a word that is not
    /// moves does not end the run (the parser will report it), nor does a
    /// blank line.
    forced: bool,
    pub repairs: Vec<Repair>,
    /// The last move number read by the run being read, and how many of
    /// its numbers followed the one before: a run that starts at a number
    /// without a dot must go on to the next number to be taken for moves.
    numbers: (u32, usize),
    /// Where the repairs of the run being read start.
    run_repairs: usize,
    /// Whether the run being read has shown long algebraic with its dash
    /// between blanks (`1. e2 - e4 e7 - e5`): its other moves so written
    /// are read so too.
    spaced_dashes: bool,
    /// Where the last run of moves numbered without dots ended (`1 Cf3 d5
    /// 2 g3`), while no paragraph break is known after it: in its paragraph
    /// a run at one such number is a move too (`16 Af4 Ch5?! (diagrama)`).
    bare_game: Option<usize>,
    /// How far the text after `bare_game` was searched for a paragraph
    /// break.
    bare_searched: usize,
}

impl<'s> Runs<'s> {
    pub(super) fn new(s: &'s str, limit: usize, forced: bool) -> Runs<'s> {
        Runs {
            s,
            limit,
            forced,
            repairs: Vec::new(),
            numbers: (0, 0),
            run_repairs: 0,
            spaced_dashes: false,
            bare_game: None,
            bare_searched: 0,
        }
    }

    /// The text of the stretch from `i` (a token never runs past `limit`).
    fn at(&self, i: usize) -> &'s str {
        &self.s[i..self.limit]
    }

    /// The end of the blank space from `i`, and whether it holds a blank
    /// line (a paragraph break).
    fn blank(&self, i: usize) -> (usize, bool) {
        let mut newlines = 0;
        let mut j = i;
        for c in self.at(i).chars() {
            if !c.is_whitespace() {
                break;
            }
            if c == '\n' {
                newlines += 1;
            }
            j += c.len_utf8();
        }
        (j, newlines >= 2)
    }

    /// Whether a move, a move number or a result follows `i` after one or
    /// two blanks.
    fn notation_after(&self, i: usize) -> bool {
        let s = self.at(i);
        let gap = s.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        (1..=2).contains(&gap) && notation_at(&s[gap..])
    }

    /// A move at `i`, as written or with a certain repair.
    fn found_move(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        // `el`, `al`: a pawn's move to the last rank with a letter for the
        // digit of its rank and no promotion is never a move; it is a word
        // (Spanish `cxb5 el error`).
        if let Some(d) = square_at(s, 0).filter(|&d| ends_word(s, d))
            && s[..d]
                .chars()
                .nth(1)
                .is_some_and(|r| r.is_alphabetic() && matches!(lexicon::rank_of(r), Some('1' | '8')))
        {
            return None;
        }
        // `e2--e4`, `Sg8-06`, `d4-e5:`, `Dh5-f77`: old long algebraic as
        // OCR reads it (its first part alone would read as a move).
        let first = move_len(s);
        if first
            .is_none_or(|n| matches!(s.as_bytes().get(n), Some(b'-' | b':' | b'x' | b'X' | b'7' | 0xC3 | 0xD1 | 0xE2)))
            && let Some(read) = self.old_long_algebraic(i)
        {
            return Some(read);
        }
        // `Nbxd4Rbb7`: two moves with the blank between them lost, the
        // second a piece move (`syntax::slips` reports them).
        let glued = |n: usize| glued_piece_move(s, n);
        let plain = first.filter(|&n| ends_word(s, n) || glued(n) || number_glued(s, n));
        if let Some(n) = plain {
            if let Some(repair) = self.lower_case_letter(i, Some(n)) {
                return Some(repair);
            }
            // `He5:, de: 12. He5:`: the capture sign after a piece move
            // (Hungarian), not the start of the next move.
            if let Some(read) = self.capture_after(i, n) {
                return Some(read);
            }
            // `c3: d4`, `Lf1— b5`: a capture sign or a dash glued to a move
            // and the rest of the move after a space; `d4 х c5`: a capture
            // sign standing alone between two parts.
            let sign_next = || {
                let gap = s[n..].bytes().take_while(|&b| b == b' ' || b == b'\t').count();
                (1..=2).contains(&gap)
                    && ch(s, n + gap).is_some_and(is_capture)
                    && ch(s, n + gap + 1).is_some_and(|c| c == ' ' || c == '\t')
            };
            if (ch(s, n).is_some_and(|c| is_capture(c) || is_dash(c)) || sign_next())
                && let Some(joined) = self.space_in_move(i).filter(|m| m.end > i + n)
            {
                return Some(joined);
            }
            if let Some(joined) = self.dash_glued_to_destination(i, n) {
                return Some(joined);
            }
            // `Lf1— 7. Cf3`, `Tg6+—`: a dash stuck to the end of a move, a
            // blank after it.
            // `b:c4—. Black must`: before a sentence's stop too.
            let after_dash = |k: usize| {
                ch(s, k).is_none_or(char::is_whitespace)
                    || (ch(s, k).is_some_and(|c| matches!(c, '.' | ',' | ';'))
                        && ch(s, k + 1).is_none_or(char::is_whitespace))
            };
            if let Some(dash) = ch(s, n).filter(|&c| is_dash(c))
                && after_dash(n + dash.len_utf8())
            {
                let letter_len = section_at(s, 0).unwrap_or(0);
                return Some(FoundMove {
                    end: i + n + dash.len_utf8(),
                    repair: vec![Repair {
                        span: i..i + n + dash.len_utf8(),
                        kind: RepairKind::Stray { letter_len, joined: s[..n].to_owned() },
                    }],
                });
            }
            // `К::d5`: the capture sign written twice.
            if ch(s, n).is_some_and(is_capture)
                && let Some(read) = self.doubled_sign(i).filter(|m| m.end > i + n)
            {
                return Some(read);
            }
            // `Lc3^d4f`: OCR's sign for the capture inside the move.
            if ch(s, n) == Some('^')
                && let Some(read) = self.ocr_signs(i)
            {
                return Some(read);
            }
            // `Db1 + 22 Rh2`: the check sign after a blank, standing alone
            // (not `+-`, `+/=`), and moves after it (`3. exd5 + toutes les
            // variantes` is French prose's plus): one move broken by a
            // space, read with its sign, so the game goes on.
            if let Some(end) = detached_check(s, n).filter(|&end| self.notation_after(i + end)) {
                let letter_len = section_at(s, 0).unwrap_or(0);
                let joined = format!("{}{}", &s[..n], s[n..end].trim_start());
                return Some(FoundMove {
                    end: i + end,
                    repair: vec![Repair {
                        span: i..i + end,
                        kind: RepairKind::SpaceInMove { letter_len, joined, glued: false },
                    }],
                });
            }
            return Some(FoundMove { end: i + n, repair: Vec::new() });
        }
        // `a3Qh4+`, `exd5Nf6`: a pawn move glued to a piece move (read
        // whole, the piece letter would be a promotion).
        let square = square_at(s, 0);
        let pawn = [
            square,
            square.and_then(|d| one(s, d, is_dash).or_else(|| one(s, d, is_capture))).and_then(|q| square_at(s, q)),
            one(s, 0, is_file).and_then(|f| one(s, f, is_capture)).and_then(|q| square_at(s, q)),
        ];
        if let Some(n) = pawn.into_iter().flatten().filter(|&n| glued(n)).max() {
            return Some(FoundMove { end: i + n, repair: Vec::new() });
        }
        self.lower_case_letter(i, None)
            .or_else(|| self.space_in_move(i))
            .or_else(|| self.ocr_signs(i))
            .or_else(|| self.stray_character(i))
            .or_else(|| self.doubled_sign(i))
            .or_else(|| self.unfinished(i))
            .or_else(|| self.files_only(i))
            .or_else(|| self.transliterated_file(i))
    }

    /// Long algebraic as old magazines print it and OCR reads it: the dash
    /// doubled (`e2--e4`), a digit for the destination's file (`Sg8-06`,
    /// `Lf1--15`), the capture mark after the move (`d4-e5:`). A move with
    /// its origin square written in full, and at least one of these.
    fn old_long_algebraic(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let b = s.as_bytes();
        // `a 7-a6`: a blank inside a pawn's origin square.
        if b.len() > 4
            && b[1] == b' '
            && (b'a'..=b'h').contains(&b[0])
            && (b'1'..=b'8').contains(&b[2])
            && let Some(d) = ch(s, 3)
            && (is_dash(d) || is_capture(d))
        {
            let f = char::from(b[0]);
            let rest = &s[2..];
            let joined = format!("{f}{}", &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())]);
            let n = move_len(&joined).filter(|&n| n > 3 && ends_word(&joined, n))?;
            return Some(FoundMove {
                end: i + n + 1,
                repair: vec![Repair {
                    span: i..i + n + 1,
                    kind: RepairKind::SpaceInMove { letter_len: 1, joined: joined[..n].to_owned(), glued: false },
                }],
            });
        }
        // Most words are no long algebraic: a rank digit right before a
        // dash or a capture sign within the first bytes, or none of this.
        let shaped = (1..b.len().min(7)).any(|k| {
            (b'1'..=b'8').contains(&b[k])
                && matches!(b.get(k + 1), Some(b'-' | b':' | b'x' | b'X' | 0xC3 | 0xD1 | 0xE2))
        });
        if !shaped {
            return None;
        }
        let word = &s[..s.find(char::is_whitespace).unwrap_or(s.len())];
        let p = section_at(word, 0).unwrap_or(0);
        let o = square_at(word, p)?;
        let sign = ch(word, o)?;
        let mut k = o + sign.len_utf8();
        let doubled = is_dash(sign) && ch(word, k).is_some_and(is_dash);
        if doubled {
            k += ch(word, k)?.len_utf8();
        } else if !is_dash(sign) && !is_capture(sign) {
            return None;
        }
        let file = ch(word, k)?;
        let digit = file.is_ascii_digit();
        let rank = ch(word, k + file.len_utf8()).filter(|&c| is_rank(c));
        let (true, Some(rank)) = (digit || is_file(file), rank) else {
            return None;
        };
        // (Either may be a look-alike of two bytes: Cyrillic `З` for `3`.)
        let after = k + file.len_utf8() + rank.len_utf8();
        let colon = word[after..].starts_with(':') && !is_capture(sign);
        // `Dh5-f77`: OCR's `7` for the check sign `†` after the square.
        let dagger = !colon
            && word[after..].starts_with('7')
            && lexicon::annotation_len(&word[after + 1..]).map_or(0, |n| n) + after + 1 == word.len();
        if !(doubled || digit || colon || dagger) {
            return None;
        }
        let rest = if colon {
            &word[after + 1..]
        } else if dagger {
            &format!("+{}", &word[after + 1..])
        } else {
            &word[after..]
        };
        // What the parser reads: one dash, a file letter, no colon. For the
        // digit, the origin's file (a pawn's push, a rook's move along its
        // file); for a pawn's capture, a file beside it (the replay reads
        // the other side where this one captures nothing).
        // (A look-alike origin file, Cyrillic `с`, stands for its Latin one.)
        let origin_file = lexicon::file_of(ch(word, p)?)?;
        let placeholder = match (digit, p == 0 && (colon || is_capture(sign))) {
            (false, _) => file,
            (true, false) => origin_file,
            (true, true) => char::from(if origin_file == 'a' { b'b' } else { origin_file as u8 - 1 }),
        };
        let read = format!("{}{sign}{placeholder}{}{rest}", &word[..o], &word[k + file.len_utf8()..after]);
        let n = move_len(&read).filter(|&n| n >= o + 3 && ends_word(&read, n))?;
        // Where the move ends in the text: past the second dash and the
        // colon (the marks after the destination follow the colon).
        let end = n + (k - o) - sign.len_utf8() + usize::from(colon);
        let mut repair = Vec::new();
        if doubled {
            let joined = format!("{}{}", &word[..o], &word[o + sign.len_utf8()..after]);
            repair.push(Repair { span: i..i + after, kind: RepairKind::DoubledDash { letter_len: o, joined } });
        }
        if digit {
            repair.push(Repair { span: i + k..i + k + 1, kind: RepairKind::FileDigit { placeholder } });
        }
        if colon {
            repair.push(Repair { span: i + after..i + after + 1, kind: RepairKind::CaptureAfter });
        }
        if dagger {
            repair.push(Repair { span: i + after..i + after + 1, kind: RepairKind::Sign { meant: '+' } });
        }
        Some(FoundMove { end: i + end, repair })
    }

    /// `Ks3`, `Fs5`: a piece move whose destination's file is the Latin `s`
    /// that a transliteration of Cyrillic text puts for `с` (c). Only after
    /// a Latin capital piece letter, where the word is then a piece move.
    fn transliterated_file(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let p = section_at(s, 0)?;
        if !s[..p].chars().all(|c| c.is_ascii_alphabetic()) || !ch(s, 0)?.is_ascii_uppercase() {
            return None;
        }
        let k = s[p..].find('s').map(|k| p + k)?;
        let word_end = s.find(char::is_whitespace).unwrap_or(s.len());
        if k >= word_end || !ch(s, k + 1).is_some_and(is_rank) {
            return None;
        }
        let respelled = format!("{}c{}", &s[..k], &s[k + 1..word_end]);
        let n = piece_move(&respelled).filter(|&n| n > k && ends_word(&respelled, n))?;
        Some(FoundMove {
            end: i + n,
            repair: vec![Repair { span: i + k..i + k + 1, kind: RepairKind::TransliteratedFile { meant: 'c' } }],
        })
    }

    /// `10 de fe 11 fe`: a pawn capture with its files only, taken for a
    /// move only where more of the run follows it on the line (a move, a
    /// move number or a result), since such pairs are words in prose
    /// (`de`, `be`).
    fn files_only(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let n = files_only_capture(s).filter(|&n| ends_word(s, n))?;
        // `11. de:, He5:`: the Hungarian short form, its capture sign after.
        if ch(s, n) == Some(':') && sign_ends(s, n + 1) {
            return Some(FoundMove {
                end: i + n + 1,
                repair: vec![Repair { span: i + n..i + n + 1, kind: RepairKind::CaptureAfter }],
            });
        }
        let (k, paragraph) = self.blank(i + n);
        if paragraph || k == i + n || k >= self.limit || self.s[i + n..k].contains('\n') {
            return None;
        }
        notation_at(self.at(k)).then_some(FoundMove { end: i + n, repair: Vec::new() })
    }

    /// `He5:`: a piece move ending at `n` with the capture sign after its
    /// square (Hungarian and old books), a convention read as written (the
    /// sign is blanked for the parser, never reported). Not where a bare
    /// square follows after a blank (`Фd4: d6`, long algebraic broken by
    /// a space, which `space_in_move` reads) unless a comma parts them.
    fn capture_after(&self, i: usize, n: usize) -> Option<FoundMove> {
        let s = self.at(i);
        if ch(s, n) != Some(':') || !sign_ends(s, n + 1) {
            return None;
        }
        let letter = ch(s, 0).is_some_and(|c| c.is_uppercase() || lexicon::is_figurine(c));
        if !letter || section_at(s, 0).is_none() || piece_move(s) != Some(n) {
            return None;
        }
        // Notation must follow (`Nf6: La intención es...` is a move and its
        // comment, a colon before prose).
        let comma = usize::from(ch(s, n + 1) == Some(','));
        let (k, _) = self.blank(i + n + 1 + comma);
        let t = self.at(k);
        if !(t.is_empty() || t.starts_with('(') || notation_at(t)) {
            return None;
        }
        if comma == 0 && square_at(t, 0).is_some_and(|d| ends_word(t, d) && !t[d..].starts_with(['.', ':'])) {
            return None;
        }
        Some(FoundMove {
            end: i + n + 1,
            repair: vec![Repair { span: i + n..i + n + 1, kind: RepairKind::CaptureAfter }],
        })
    }

    /// `K.d8`: a stray dot, comma or quote between a piece letter and the
    /// rest of its move.
    fn stray_character(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let p = section_at(s, 0)?;
        let c = ch(s, p).filter(|c| matches!(c, '.' | ',' | '\'' | '`'))?;
        let rest_start = p + c.len_utf8();
        let rest_end = s[rest_start..].find(char::is_whitespace).map_or(s.len(), |k| rest_start + k);
        let joined = format!("{}{}", &s[..p], &s[rest_start..rest_end]);
        let n = piece_move(&joined)?;
        if n <= p || !ends_word(&joined, n) || !ch(s, 0)?.is_uppercase() {
            return None;
        }
        let end = i + rest_start + (n - p);
        Some(FoundMove {
            end,
            repair: vec![Repair {
                span: i..end,
                kind: RepairKind::Stray { letter_len: p, joined: joined[..n].to_owned() },
            }],
        })
    }

    /// `К::d5`, `exxd5`: a capture sign written twice (a stray character,
    /// the second sign), in a word that is a move without it.
    fn doubled_sign(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let word = &s[..s.find(char::is_whitespace).unwrap_or(s.len())];
        let (k, c) = word.char_indices().find(|&(k, c)| is_capture(c) && word[k + c.len_utf8()..].starts_with(c))?;
        let second = k + c.len_utf8();
        let joined = format!("{}{}", &word[..second], &word[second + c.len_utf8()..]);
        let n = move_len(&joined).filter(|&n| n > second && ends_word(&joined, n))?;
        let end = i + n + c.len_utf8();
        Some(FoundMove {
            end,
            repair: vec![Repair {
                span: i..end,
                kind: RepairKind::Stray { letter_len: second, joined: joined[..n].to_owned() },
            }],
        })
    }

    /// `13) Sx` at the very end of an excerpt: a piece letter with part of
    /// its move, cut off by the end of the text, of its paragraph or of
    /// its line.
    fn unfinished(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let p = section_at(s, 0)?;
        if !ch(s, 0)?.is_uppercase() {
            return None;
        }
        let mut end = p;
        for class in [is_file as fn(char) -> bool, is_rank, is_capture] {
            end = one(s, end, class).unwrap_or(end);
        }
        let (k, paragraph) = self.blank(i + end);
        // At the end of a line too, before a line that starts a sentence
        // or with a number (`Кf` then a line of prose; `La` then `partie`
        // is a sentence wrapped).
        let line_end =
            self.s[i + end..k].contains('\n') && ch(self.s, k).is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
        // A letter alone is no unfinished move (Informant's `N`, a word).
        if end == p || !(paragraph || line_end || k >= self.limit) || !ends_word(s, end) {
            return None;
        }
        Some(FoundMove { end: i + end, repair: vec![Repair { span: i..i + end, kind: RepairKind::Unfinished }] })
    }

    /// `Lc3^d4f`: OCR's signs for the capture sign (`^`) and for the check
    /// sign `†` (`f` or `t` after the square), in a word that is a move once they
    /// are read so.
    fn ocr_signs(&self, i: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let word = &s[..s.find(char::is_whitespace).unwrap_or(s.len())];
        let mut respelled = word.to_owned();
        let mut repairs = Vec::new();
        if let Some(k) = word.find('^') {
            respelled.replace_range(k..k + 1, "x");
            repairs.push(Repair { span: i + k..i + k + 1, kind: RepairKind::Sign { meant: 'x' } });
        }
        let n = move_len(&respelled)?;
        let rest = &respelled[n..];
        let before = respelled[..n].chars().next_back();
        // (`t` too, `He7t`, after a rank's own digit only: `Haalt` is a word.)
        let check = (rest.starts_with('f') && before.is_some_and(|c| lexicon::rank_of(c).is_some()))
            || (rest.starts_with('t') && before.is_some_and(|c| matches!(c, '1'..='8')));
        let end = if check {
            repairs.push(Repair { span: i + n..i + n + 1, kind: RepairKind::Sign { meant: '+' } });
            n + 1 + lexicon::annotation_len(&rest[1..]).unwrap_or(0)
        } else {
            n
        };
        if repairs.is_empty() || !ends_word(s, end) {
            return None;
        }
        Some(FoundMove { end: i + end, repair: repairs })
    }

    /// `кf6`, `nf3`: a lower-case letter whose capital is a piece letter and
    /// that makes a piece move. A file letter (`bf4`) is read so only where
    /// it cannot be a pawn capture, that is where the destination's file is
    /// not next to it (`bc4` stays a pawn capture).
    fn lower_case_letter(&self, i: usize, plain: Option<usize>) -> Option<FoundMove> {
        let s = self.at(i);
        let c = ch(s, 0)?;
        if !c.is_lowercase() || lexicon::is_lower_case_pawn_letter(c) {
            return None;
        }
        if plain.is_some() {
            // Read as written it is a move: only a pawn capture between
            // files that are not neighbours (`bf4`) may be a piece move.
            let from = file_index(c)?;
            let rest = &s[c.len_utf8()..];
            let rest = rest.strip_prefix(|x: char| is_capture(x)).unwrap_or(rest);
            let to = file_index(ch(rest, 0)?)?;
            if from.abs_diff(to) == 1 {
                return None;
            }
        }
        let mut upper = c.to_uppercase();
        let u = upper.next()?;
        if upper.next().is_some() || u.len_utf8() != c.len_utf8() {
            return None;
        }
        let word_end = s.find(char::is_whitespace).unwrap_or(s.len());
        let respelled = format!("{u}{}", &s[c.len_utf8()..word_end]);
        section_at(&respelled, 0)?;
        let n = piece_move(&respelled)?;
        if !ends_word(s, n) {
            return None;
        }
        // `tal`, `bel`: a lower-case letter and a letter for the rank's
        // digit too is a word, not a move damaged twice.
        let last = respelled[..n].chars().rfind(|c| c.is_alphanumeric());
        if last.is_some_and(|c| c.is_alphabetic() && lexicon::rank_of(c).is_some()) {
            return None;
        }
        if plain.is_some_and(|p| p != n) {
            return None;
        }
        let letter = i..i + c.len_utf8();
        Some(FoundMove {
            end: i + n,
            repair: vec![Repair { span: letter, kind: RepairKind::LowerCaseLetter { upper: u } }],
        })
    }

    /// `a7 —a6`, `Rg8 —f6` in a text that writes its long algebraic with
    /// spaced dashes (`e2 — e4`): the origin, a blank and the dash glued to
    /// the destination, as typeset or scanned text spaces it unevenly. Read
    /// as the text's convention, as `e2 — e4` is (a pawn's origin and
    /// destination on one file, one or two ranks apart). `n` is where the
    /// origin, read as a move of its own (`a7`), ends.
    fn dash_glued_to_destination(&self, i: usize, n: usize) -> Option<FoundMove> {
        let s = self.at(i);
        let gap = s[n..].bytes().take_while(|&b| b == b' ' || b == b'\t').count();
        if !(1..=2).contains(&gap) {
            return None;
        }
        let dash = ch(s, n + gap).filter(|&c| is_dash(c))?;
        let after = n + gap + dash.len_utf8();
        let destination = &s[after..after + s[after..].find(char::is_whitespace).unwrap_or(s.len() - after)];
        square_at(destination, 0)?;
        lan_origin(&s[..n])?;
        if !self.spaced_dashes_near(i) {
            return None;
        }
        // The same move with its dash between blanks, as the convention has it.
        let spaced = format!("{} {dash} {destination}", &s[..n]);
        let read = spaced_dash_move(&spaced)?;
        let end = read.end - 2 + gap;
        Some(FoundMove {
            end: i + end,
            repair: vec![Repair {
                span: i..i + end,
                kind: RepairKind::Spaced { letter_len: n + dash.len_utf8(), joined: read.joined },
            }],
        })
    }

    /// One move broken by spaces, as scanned text has it (one or two
    /// spaces or tabs in each gap, on one line): a piece letter and its
    /// square (`К f3`), a capture sign standing alone (`e x d4`, `N x d4`),
    /// a capture sign or a dash glued to the part before the gap (`c3: d4`,
    /// `Sx c2`, `Lf1— b5`). Never two moves side by side (`e2 e4`, `Kg1 f3`,
    /// the ` - ` between White's move and Black's): a part before the last
    /// that is a move as written is not joined.
    fn space_in_move(&self, i: usize) -> Option<FoundMove> {
        /// How many parts one broken move may have (`N x d4`).
        const MAX_PARTS: usize = 3;
        let s = self.at(i);
        let parts = words_apart(s, MAX_PARTS, true);
        let whole = |part: &str| move_len(part) == Some(part.len());
        let lone_sign = |t: &str| t.chars().count() == 1 && t.chars().next().is_some_and(is_capture);
        let joinable = |before: &str, next: &str| {
            let last = before.chars().next_back();
            if whole(before) {
                // `d4 х c5`, `Кf3 : d4`: long algebraic's origin, then a
                // capture sign standing alone.
                return lone_sign(next);
            }
            // `Nb x d4`, `Ng1 x f3`: a piece letter and its origin, then a
            // capture sign standing alone.
            if lone_sign(next)
                && let Some(p) = section_at(before, 0)
                && [one(before, p, is_file), one(before, p, is_rank), square_at(before, p)]
                    .contains(&Some(before.len()))
            {
                return ch(before, 0).is_some_and(|c| c.is_uppercase() || lexicon::is_figurine(c));
            }
            if lexicon::piece_len(before) == Some(before.len()) {
                let c = before.chars().next().unwrap_or(' ');
                return c.is_uppercase() || lexicon::is_figurine(c) || !c.is_alphabetic();
            }
            if before.chars().count() == 1 && last.is_some_and(is_capture) {
                return true;
            }
            // After a dash only a square goes on (`Lf1— b5`); a piece
            // letter starts the next move (`Kh3— Ng6`: a stray dash).
            if last.is_some_and(is_dash) && before.chars().count() > 1 {
                return square_at(next, 0).is_some();
            }
            if last.is_some_and(is_capture) && before.chars().count() > 1 {
                return true;
            }
            // A file letter alone, then a capture sign alone: `e x d4`.
            before.chars().count() == 1
                && last.is_some_and(is_file)
                && next.chars().count() == 1
                && next.chars().next().is_some_and(is_capture)
        };
        // A capture sign standing alone first is the middle of a spaced
        // capture (`e5 : d4`), not a capture that lost its piece (`xg7`,
        // which is glued).
        if parts.first().is_some_and(|p| s[p.clone()].chars().count() == 1 && ch(s, p.start).is_some_and(is_capture)) {
            return None;
        }
        let mut best = None;
        for k in 2..=parts.len() {
            let texts: Vec<&str> = parts[..k].iter().map(|r| &s[r.clone()]).collect();
            if !(0..k - 1).all(|j| joinable(texts[j], texts[j + 1])) {
                break;
            }
            let joined: String = texts.concat();
            let Some(n) = move_len(&joined) else { continue };
            let prefix: usize = texts[..k - 1].iter().map(|t| t.len()).sum();
            // `К f3К b4`: the next move glued to this one's end.
            let glued = || ch(&joined, n).is_some_and(char::is_uppercase) && section_at(&joined, n).is_some();
            if n <= prefix || !(ends_word(&joined, n) || glued()) {
                continue;
            }
            // The move ends inside the last part.
            let end = parts[k - 1].start + (n - prefix);
            let (letter_len, joined) = (prefix, joined[..n].to_owned());
            // `e5 : d4` in a text that writes `e2 - e4`: its convention.
            let kind = if whole(texts[0]) && self.spaced_dashes_near(i) {
                RepairKind::Spaced { letter_len, joined }
            } else {
                RepairKind::SpaceInMove { letter_len, joined, glued: false }
            };
            best = Some(FoundMove { end: i + end, repair: vec![Repair { span: i..i + end, kind }] });
        }
        best
    }

    /// Whether the text around `i` writes long algebraic with its dash
    /// between blanks (`e2 - e4`), so that a capture sign between blanks
    /// (`e5 : d4`) is its convention, not damage.
    fn spaced_dashes_near(&self, i: usize) -> bool {
        const NEAR: usize = 2000;
        let mut from = i.saturating_sub(NEAR);
        while !self.s.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (i + NEAR).min(self.s.len());
        while !self.s.is_char_boundary(to) {
            to += 1;
        }
        let around = &self.s[from..to];
        ["-", "–", "—"].into_iter().any(|dash| {
            around.match_indices(&format!(" {dash} ")).any(|(k, m)| {
                around[..k].chars().next_back().is_some_and(is_rank)
                    && ch(around, k + m.len()).is_some_and(is_file)
                    && ch(around, k + m.len() + 1).is_some_and(is_rank)
            })
        })
    }

    /// Finds the runs that start in `from..until`: each a range of the
    /// text (a run read from there may go on up to `limit`). In forced mode
    /// the whole stretch is one run, whatever it holds (its words that are
    /// not notation are left to the parser, which reports them).
    ///
    /// The scanner carries nothing from one run to the next but where it
    /// is; it looks back one character (whether a number starts a word),
    /// and a run or an attempt at one reads forward only up to a paragraph
    /// break, except after a `(` or before the dots of a number (`2.` then
    /// a blank line then `... Nf6`), which read across it. So the runs
    /// after such a break do not depend on the text before it, and
    /// `super::rescan` reads a stretch between two breaks on its own.
    pub(super) fn find(&mut self, from: usize, until: usize) -> Vec<Range<usize>> {
        if self.forced {
            let (i, _) = self.blank(from);
            let end = self.s[..self.limit].trim_end().len();
            if i >= end {
                return Vec::new();
            }
            // Read for its repairs only.
            let _ = self.line(i, 0, None);
            #[allow(clippy::single_range_in_vec_init)]
            return vec![i..end];
        }
        let mut runs = Vec::new();
        let mut i = from;
        while i < until.min(self.limit) {
            let Some(c) = ch(self.s, i) else { break };
            if (c.is_ascii_digit() || matches!(c, 'I' | 'l' | '|' | '.')) && starts_word(self.s, i) {
                let saved = self.repairs.len();
                if let Some(end) = self.run(i) {
                    runs.push(i..end);
                    i = end;
                    continue;
                }
                self.repairs.truncate(saved);
            }
            // `6.c3 (the idea of 6.d6?! is 7.Nf7) b5! 7.Bf1`: the main line
            // goes on after a bracket of prose with a move that has no
            // number, its ply told by the next number.
            if c == ')'
                && let Some((start, end)) = self.run_after_bracket(i)
            {
                runs.push(start..end);
                i = end;
                continue;
            }
            // A game printed in two columns and read line by line (OCR):
            // `1. e2-e4`, then a line `e7-e5 2. Sg1-f3`: Black's move
            // begins a line, the next number right after it.
            if i > 0
                && self.s.as_bytes()[i - 1] == b'\n'
                && c.is_alphabetic()
                && let Some((start, end)) = self.run_at_line_start(i)
            {
                runs.push(start..end);
                i = end;
                continue;
            }
            i += c.len_utf8();
        }
        runs
    }

    /// A run of moves without a number right after the bracket at `i`,
    /// their ply told by the number that follows them: where it starts and
    /// ends.
    fn run_after_bracket(&mut self, i: usize) -> Option<(usize, usize)> {
        let (k, paragraph) = self.blank(i + 1);
        if paragraph || k >= self.limit || !ch(self.s, k).is_some_and(char::is_alphabetic) {
            return None;
        }
        let ply = self.unnumbered_start(k)?;
        self.unnumbered_run(k, ply)
    }

    /// A run at the start of a line whose first move has no number and is
    /// followed at once by the next number on the same line: where it
    /// starts and ends.
    fn run_at_line_start(&mut self, k: usize) -> Option<(usize, usize)> {
        // A word, one or two blanks, a digit: else no such run (most lines).
        let b = self.s.as_bytes();
        let word_end = k + b[k..].iter().take(12).take_while(|&&c| !c.is_ascii_whitespace()).count();
        let digit = b[word_end..].iter().take(3).find(|&&c| c != b' ' && c != b'\t');
        if !digit.is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let first = self.found_move(k)?;
        let (next, paragraph) = self.blank(first.end);
        if paragraph || next == first.end || self.s[first.end..next].contains('\n') {
            return None;
        }
        let (n_len, number, black) = move_number_at(self.at(next), 0)?;
        let ply = ply_of(number, black).checked_sub(1)?;
        // The run must go on past the number (a number alone at its end
        // is trimmed, and the ply with it).
        let saved = self.repairs.len();
        let (start, end) = self.unnumbered_run(k, ply)?;
        if end <= next + n_len {
            self.repairs.truncate(saved);
            return None;
        }
        Some((start, end))
    }

    /// A run of moves without a number at `k`, its first move at `ply`.
    fn unnumbered_run(&mut self, k: usize, ply: u32) -> Option<(usize, usize)> {
        let saved = self.repairs.len();
        self.numbers = (0, 0);
        self.spaced_dashes = false;
        self.run_repairs = self.repairs.len();
        match self.line(k, 0, Some(ply)) {
            Some((end, _)) => Some((k, end)),
            None => {
                self.repairs.truncate(saved);
                None
            }
        }
    }

    fn skip_word(&self, i: usize) -> usize {
        let s = self.at(i);
        i + s.find(char::is_whitespace).unwrap_or(s.len()).max(ch(s, 0).map_or(0, char::len_utf8))
    }

    /// A run starting at the move number at `i`: its end, or `None` when no
    /// move follows the number.
    fn run(&mut self, i: usize) -> Option<usize> {
        // `White played .♕h5 ♛f8 16. ♕c5+`: a run that starts at a number
        // whose digits were lost, told by the next number.
        if ch(self.s, i) == Some('.') {
            let ply = self.lost_number_start(i)?;
            self.numbers = (0, 0);
            self.spaced_dashes = false;
            self.run_repairs = self.repairs.len();
            return self.line(i, 0, Some(ply)).map(|(end, _)| end);
        }
        let bare = move_number_at(self.at(i), 0).is_none();
        // `l. b3 f6 2. e4`: a first number with letters for its digits,
        // taken so when the run goes on to the next number.
        // (Never both: a look-alike number has a letter before its dots.)
        let look_alike = look_alike_number(self.at(i));
        let (n_end, number, black) = match (move_number_at(self.at(i), 0), &look_alike) {
            (Some((e, n, b)), _) => (i + e, n, b),
            (None, Some((e, written))) => {
                let (_, n, b) = move_number_at(written, 0)?;
                (i + e, n, b)
            }
            (None, None) => bare_number_at(self.at(i), 0).map(|(e, n)| (i + e, n, false))?,
        };
        let (j, paragraph) = self.blank(n_end);
        if paragraph && !self.forced {
            return None;
        }
        // `12. ... Nf6`: Black's move with the dots apart.
        let (j, black) = match self.spaced_dots(j) {
            Some(k) => (k, true),
            None => (j, black),
        };
        // `4. I. Bb5Xc6`: an outline's label after the number (`token`
        // blanks it when the line is read).
        let label = outline_label(self.at(j)).map(|n| self.blank(j + n).0).filter(|&k| self.found_move(k).is_some());
        self.found_move(label.unwrap_or(j))?;
        self.numbers = (0, 0);
        self.spaced_dashes = false;
        self.run_repairs = self.repairs.len();
        let end = self.line(i, 0, Some(ply_of(number, black))).map(|(end, _)| end)?;
        // (`token` records its repair.)
        if look_alike.is_some() && self.numbers.1 == 0 {
            return None;
        }
        // `3 e4` in prose may be anything; `1 d4 Cf6 2 c4` is a game, and
        // so is a line that holds nothing else (`9 Pe4xc3`), Black's move
        // after its dots (`14 ..f5`), and White's move that Black's of its
        // number answers (`13 e3 ... 13 ..Axe3`).
        let whole_line = self.s[..i].chars().next_back().is_none_or(|c| c == '\n')
            && self.s[end..self.limit].chars().next().is_none_or(|c| c == '\n' || c == '\r');
        let taken = !bare
            || black
            || self.numbers.1 >= 1
            || whole_line
            || self.in_bare_game(i)
            || self.answered_by_black(end, number);
        if bare && taken {
            self.bare_game = Some(end);
            self.bare_searched = end;
        }
        taken.then_some(end)
    }

    /// The end of a damaged move at `j` ([`Runs::line`]): a short word
    /// with something of a move in it (a rank's digit, a dash, a capture
    /// sign) that no move reads, followed (after a blank or a comma) by a
    /// move, or by a move number and a move.
    fn damaged_move(&self, j: usize) -> Option<usize> {
        let s = self.at(j);
        let len = s.find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')')).unwrap_or(s.len());
        let word = &s[..len];
        if !(2..=12).contains(&len)
            || !word.contains(|c: char| matches!(c, '1'..='8' | '-' | '—' | '–' | 'x' | ':'))
            || !word.chars().all(|c| {
                c.is_ascii() || matches!(c, '—' | '–' | '×') || lexicon::piece_len(c.encode_utf8(&mut [0; 4])).is_some()
            })
        {
            return None;
        }
        let mut k = self.blank(j + len).0;
        if self.at(k).starts_with(',') {
            k = self.blank(k + 1).0;
        }
        let next_move = |k: usize| self.found_move(k).is_some();
        let numbered = move_number_at(self.at(k), 0).is_some_and(|(e, ..)| next_move(self.blank(k + e).0));
        (k < self.limit && (next_move(k) || numbered)).then_some(j + len)
    }

    /// [`Runs::damaged_in_blacks_place`] where the run stands at Black's
    /// move after White's (`ply` odd, a move the last token).
    fn damaged_after_white(&self, j: usize, tokens: &[(usize, Token)], ply: Option<u32>) -> Option<usize> {
        if self.forced || !tokens.last().is_some_and(|&(_, k)| k == Token::Move) {
            return None;
        }
        self.damaged_in_blacks_place(j, ply.filter(|p| p % 2 == 1)?)
    }

    /// The end of a damaged move at `j` in Black's place (`ply`, odd):
    /// a short word that starts with a piece letter or a file and holds a
    /// rank (`N?6`, `N■6`, `f■5`), then White's next number and a move.
    fn damaged_in_blacks_place(&self, j: usize, ply: u32) -> Option<usize> {
        let s = self.at(j);
        let len = s.find(char::is_whitespace).unwrap_or(s.len());
        let word = &s[..len];
        let first = word.chars().next()?;
        let letter = lexicon::piece_len(word) == Some(first.len_utf8()) || matches!(first, 'a'..='h');
        // A sign the grammar reads as part of the game's structure (`*` a
        // result, a bracket, a comment) would break more than the word.
        if !letter
            || word.chars().count() > 6
            || !word.contains(|c: char| matches!(c, '1'..='8'))
            || word.contains(['*', '(', ')', '{', '}', '[', ']', ';', '"', '$'])
        {
            return None;
        }
        let k = self.blank(j + len).0;
        let (e, number, black) = move_number_at(self.at(k), 0)?;
        (k < self.limit && !black && ply_of(number, false) == ply + 1 && self.found_move(self.blank(k + e).0).is_some())
            .then_some(j + len)
    }

    /// Whether a run at `i` stands in the paragraph of a game numbered
    /// without dots ([`Runs::bare_game`]): no blank line since it ended
    /// (the text between is searched once, however many runs follow).
    fn in_bare_game(&mut self, i: usize) -> bool {
        let Some(end) = self.bare_game else { return false };
        let from = self.bare_searched.max(end);
        if from < i {
            if paragraph_break(&self.s[from..i]).is_some() {
                self.bare_game = None;
                return false;
            }
            self.bare_searched = i;
        }
        true
    }

    /// Whether Black's move of `number` is written after `from` in the
    /// same sentence of its paragraph (at most [`ANSWER_REACH`] bytes on):
    /// `contra 13 e3 existiría 13 ..Axe3!` (so `13 e3` is White's move).
    fn answered_by_black(&self, from: usize, number: u32) -> bool {
        let rest = self.at(from);
        let mut cut = rest.len().min(ANSWER_REACH);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let window = &rest[..paragraph_break(&rest[..cut]).unwrap_or(cut)];
        let needle = number.to_string();
        window.match_indices(&needle).any(|(at, _)| {
            let after = &window[at + needle.len()..];
            let after = after.strip_prefix('.').unwrap_or(after).trim_start_matches([' ', '\t']);
            !window[..at].ends_with(|c: char| c.is_ascii_digit())
                && !after.starts_with("....")
                && (after.starts_with("..") || after.starts_with(ELLIPSIS))
        })
    }

    /// The ply of the move after a lone `.` at `i`, from the move number
    /// that follows it within a few moves on the same paragraph.
    fn lost_number_start(&self, i: usize) -> Option<u32> {
        if self.at(i).starts_with("..") {
            return None;
        }
        self.unnumbered_start(i + 1)
    }

    /// The ply of a move at `k` that has no number, from the move number
    /// that follows it within a few moves on the same paragraph.
    fn unnumbered_start(&self, mut k: usize) -> Option<u32> {
        for moves in 1..=4 {
            k = self.found_move(k)?.end;
            let (next, paragraph) = self.blank(k);
            if paragraph || next == k {
                return None;
            }
            if let Some((_, number, black)) = move_number_at(self.at(next), 0) {
                return ply_of(number, black).checked_sub(moves);
            }
            k = next;
        }
        None
    }

    fn spaced_dots(&self, j: usize) -> Option<usize> {
        let s = self.at(j);
        let n = if s.starts_with("...") {
            3
        } else if s.starts_with("..") {
            // `7 ..Dxd1`: a newspaper's two dots (`BlackDots`), before a
            // move only.
            let (k, _) = self.blank(j + 2);
            self.found_move(k)?;
            2
        } else if s.starts_with(ELLIPSIS) {
            ELLIPSIS.len_utf8()
        } else if let Some(rest) = s.strip_prefix(lexicon::SPACED_DOTS) {
            // `6. . . Fb4`: a typeset book's spaced dots (the number's own
            // the first of them), as the grammar reads them.
            3 + 2 * rest.as_bytes().chunks_exact(2).take_while(|pair| pair == b" .").count()
        } else {
            return None;
        };
        let (mut k, _) = self.blank(j + n);
        // `9. ...0-0`: the dots glued to Black's move.
        if !(k > j + n || self.found_move(j + n).is_some()) {
            return None;
        }
        // `19. ... . Lc3xd4`: old print's spaced dots, one more of them.
        while self.at(k).starts_with('.') && ch(self.s, k + 1).is_some_and(|c| c == ' ' || c == '\t') {
            k = self.blank(k + 1).0;
        }
        Some(k)
    }

    /// Reads a line of play from `i`: returns the end of its last token
    /// (trailing move numbers left out) and, inside a variation, where its
    /// `)` stands. `None` when it holds no move (or, for a variation, no
    /// closing bracket).
    fn line(&mut self, mut i: usize, depth: usize, mut ply: Option<u32>) -> Option<(usize, Option<usize>)> {
        let mut tokens: Vec<(usize, Token)> = Vec::new();
        let mut closed = None;
        let mut first = true;
        loop {
            let (j, paragraph) = self.blank(i);
            if j >= self.limit || (paragraph && !self.forced && !first) {
                break;
            }
            if depth > 0 && ch(self.s, j) == Some(')') {
                closed = Some(j);
                break;
            }
            // `... 21.Db3#` and on the next line `4.c3`: a line of analysis
            // written out on lines of its own, then the game goes on at a
            // number two moves or more back: a run of its own.
            if depth == 0
                && !first
                && !self.forced
                && self.s[i..j].contains('\n')
                && let (Some(next), Some((_, number, black))) = (ply, move_number_at(self.at(j), 0))
                && number > 0
                && ply_of(number, black) + 4 <= next
            {
                break;
            }
            // `1) e4 - e5, 2) d4`: a dash between White's move and Black's.
            if let Some(next) = self.dash_between(j, &tokens) {
                i = next;
                continue;
            }
            // `3. Hbl—c3! a) d5Xe4. 4. Hc3Xe4`: the label of an old
            // magazine's line a) of the analysis before Black's move,
            // blanked for the parser, silently.
            if let Some(n) = outline_label(self.at(j)).filter(|&n| self.s[j..j + n].ends_with(')'))
                && tokens.last().is_some_and(|&(_, k)| k == Token::Move)
                && ply.is_some_and(|p| p % 2 == 1)
                && self.found_move(self.blank(j + n).0).is_some()
            {
                self.repairs.push(Repair { span: j..j + n, kind: RepairKind::Separator });
                i = j + n;
                continue;
            }
            // A piece letter standing alone is a glyph (Informant's novelty
            // `N`) after a move, but the grammar reads one after a move
            // number as the start of a move that lost its square: an error,
            // so it is no part of a run.
            let after_number = tokens.last().is_some_and(|&(_, k)| k == Token::Number);
            // `1 e2 e4 e7 e5 2 Kg1 f3`: both moves of a number in long
            // algebraic with a space between the squares.
            if after_number && let Some(end) = self.spaced_pair(j, &mut ply) {
                tokens.push((end, Token::Move));
                first = false;
                i = end;
                continue;
            }
            // `1. e2 - e4 e7 - e5`, `4. ... Кg8 - f6`: long algebraic with
            // its dash between blanks.
            if let Some(end) = self.spaced_dash_moves(j, after_number, &mut ply) {
                tokens.push((end, Token::Move));
                first = false;
                i = end;
                continue;
            }
            // `4. Ba4 N?6 5. O-O`, `N■6`: the same, where the grammar
            // would read a piece of the word (the novelty sign `N`).
            if mangled(self.at(j))
                && self.found_move(j).is_none()
                && let Some(next) = self.damaged_after_white(j, &tokens, ply)
            {
                self.repairs.push(Repair { span: j..next, kind: RepairKind::Damaged });
                tokens.push((next, Token::Move));
                first = false;
                i = next;
                continue;
            }
            let (ply_before, repairs_before, numbers_before) = (ply, self.repairs.len(), self.numbers);
            let token = self.token(j, depth, &mut ply).filter(|&(end, kind)| {
                !(after_number && kind == Token::Other && lexicon::piece_len(&self.s[j..end]) == Some(end - j))
            });
            let Some((end, kind)) = token else {
                if self.forced && depth == 0 {
                    let next = self.skip_word(j);
                    tokens.push((next, Token::Other));
                    i = next;
                    first = false;
                    continue;
                }
                // `7. Fn—d3, b7—b6. 8.`: a word no move reads, right after
                // a move number and before a move: a damaged move (OCR's,
                // a typist's), kept in the run for the replay to read by
                // the position.
                if after_number
                    && !self.forced
                    && let Some(next) = self.damaged_move(j)
                {
                    self.repairs.push(Repair { span: j..next, kind: RepairKind::Damaged });
                    tokens.push((next, Token::Move));
                    first = false;
                    // `Fn—d3, b7—b6`: the comma before Black's move.
                    i = self.past_comma(next);
                    continue;
                }
                // `4. Ba4 N6 5. O-O`: a word no move reads in Black's
                // place, between White's move and White's next number, with
                // a letter and a rank as a move has: a damaged move too.
                if let Some(next) = self.damaged_after_white(j, &tokens, ply) {
                    self.repairs.push(Repair { span: j..next, kind: RepairKind::Damaged });
                    tokens.push((next, Token::Move));
                    first = false;
                    i = next;
                    continue;
                }
                // `(4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 and White wins) Be7`.
                if let Some((next, closes)) = self.variation_prose(j, depth, &tokens, ply) {
                    if closes {
                        closed = Some(next);
                        break;
                    }
                    i = next;
                    continue;
                }
                break;
            };
            // `4. c3? 4. b4!? 4...Bb6`: a number that restates the ply of
            // the move before it starts an alternative to that move. One
            // move before the main line's next number or the run's end is a
            // variation (`Runs::alternative`), and the main line goes on;
            // otherwise in prose the run ends before it (the next run starts
            // there and branches off where it says, as a variation), and
            // inside brackets the rest of the variation is left unread.
            let restated = kind == Token::Number
                && !self.forced
                && tokens.iter().any(|&(_, k)| k == Token::Move)
                && ply_before.zip(ply).is_some_and(|(before, now)| now + 1 == before);
            if restated {
                self.repairs.truncate(repairs_before);
                self.numbers = numbers_before;
                ply = ply_before;
                if depth == 0
                    && let Some((next, ends)) = self.alternative(j, ply_before)
                {
                    first = false;
                    tokens.push((next, Token::Other));
                    if ends {
                        break;
                    }
                    i = next;
                    continue;
                }
                if let Some((next, true)) = self.variation_prose(j, depth, &tokens, None) {
                    closed = Some(next);
                }
                break;
            }
            // In prose, `1.` after moves starts another game (`... 4. Qxf7#
            // 1. e2-e4 e7-e5`: the same game again in other notation).
            if kind == Token::Number
                && depth == 0
                && !self.forced
                && ply == Some(0)
                && tokens.iter().any(|&(_, k)| k == Token::Move)
            {
                break;
            }
            first = false;
            tokens.push((end, kind));
            if kind == Token::Other && is_result(&self.s[j..end]) {
                break;
            }
            match ch(self.s, end) {
                Some(c) if c.is_whitespace() => i = end,
                None => break,
                Some(_) if end >= self.limit => break,
                // A number glued to its move: `12.Nf3`.
                Some(_) if kind == Token::Number => i = end,
                // Two moves glued (`К f3К b4`): the second starts at once.
                Some(c) if kind == Token::Move && c.is_uppercase() && self.found_move(end).is_some() => i = end,
                Some(_) if kind == Token::Move && glued_piece_move(self.at(j), end - j) => i = end,
                // `Nf6!4. Bg5`, `Nf64. Bg5`: the next number glued to the
                // move (the parser reads it so); reported with the blank.
                Some(c) if kind == Token::Move && c.is_ascii_digit() && number_glued(self.at(j), end - j) => {
                    let (e, _, _) = move_number_at(self.s, end)?;
                    self.repairs.push(Repair { span: end..e, kind: RepairKind::GluedNumber });
                    i = end;
                }
                Some(')') if depth > 0 => {
                    closed = Some(end);
                    break;
                }
                // `1.f4: Sin comentario |` then `e5: ...|` on the next line:
                // a table of a move and its comment in each row, the rows
                // in the game's order. The comment is blanked (never
                // reported) and the run goes on at the next row.
                Some(':')
                    if kind == Token::Move
                        && depth == 0
                        && let Some(next) = self.table_row_end(end) =>
                {
                    self.repairs.push(Repair { span: end..next, kind: RepairKind::Separator });
                    i = next;
                }
                // `6. He4Xf6-f, Hd7Xf6`: the check sign `+` as OCR reads it
                // in old print, glued to the move.
                Some('-')
                    if kind == Token::Move
                        && self.s[end..].starts_with("-f")
                        && end + 2 <= self.limit
                        && ch(self.s, end + 2).is_none_or(|c| !c.is_alphanumeric()) =>
                {
                    self.repairs.push(Repair { span: end..end + 2, kind: RepairKind::Sign { meant: '+' } });
                    if let Some(last) = tokens.last_mut() {
                        last.0 = end + 2;
                    }
                    i = self.past_comma(end + 2);
                }
                // `1. e4, e5 2. Nf3`: a comma after a move, then the next.
                Some(',') if kind == Token::Move && self.comma_between(end) => i = self.past_comma(end),
                // A sentence's punctuation after a move ends the run (and
                // in brackets, the moves of a variation before prose).
                Some(_) => {
                    if self.forced && depth == 0 {
                        i = self.skip_word(end);
                        continue;
                    }
                    if let Some((next, closes)) = self.variation_prose(end, depth, &tokens, ply) {
                        if closes {
                            closed = Some(next);
                            break;
                        }
                        i = next;
                        continue;
                    }
                    break;
                }
            }
        }
        while tokens.last().is_some_and(|&(_, k)| k == Token::Number) {
            tokens.pop();
        }
        if !tokens.iter().any(|&(_, k)| k == Token::Move) || (depth > 0 && closed.is_none()) {
            return None;
        }
        let end = tokens.last().map(|&(e, _)| e)?;
        Some((end, closed))
    }

    /// White's and Black's move after a number at `j`, each written as
    /// its two squares apart (`e2 e4 e7 e5`, `Kg1 f3 Kg8 f6`): four words
    /// on the line, then the next number, a result or the end of the run.
    /// Two squares alone are never taken so (`e4 e5` is two moves); four
    /// square words after one number cannot be short algebraic. Records
    /// each move as joined (silently: it is the text's convention) and
    /// returns where the second one ends.
    fn spaced_pair(&mut self, j: usize, ply: &mut Option<u32>) -> Option<usize> {
        let s = self.at(j);
        let words = words_apart(s, 5, false);
        if words.len() < 4 {
            return None;
        }
        let w = |k: usize| &s[words[k].clone()];
        let origin = |t: &str| lan_origin(t).is_some();
        let destination = |t: &str| square_at(t, 0).is_some_and(|d| suffix_end(t, d) == t.len());
        if !(origin(w(0)) && destination(w(1)) && origin(w(2)) && destination(w(3))) {
            return None;
        }
        if let Some(next) = words.get(4) {
            let t = &s[next.start..];
            let more = move_number_at(t, 0).is_some() || bare_number_at(t, 0).is_some() || result_len(t).is_some();
            if !more {
                return None;
            }
        }
        for k in [0, 2] {
            let joined = format!("{}{}", w(k), w(k + 1));
            self.repairs.push(Repair {
                span: j + words[k].start..j + words[k + 1].end,
                kind: RepairKind::Spaced { letter_len: w(k).len(), joined },
            });
        }
        *ply = ply.map(|p| p + 2);
        Some(j + words[3].end)
    }

    /// Long algebraic with its dash between blanks at `j`, where the text
    /// shows that convention: both moves of a number so written (`1. e2 -
    /// e4 e7 - e5`), Black's move after its number (`4. ... Кg8 - f6`: no
    /// White move stands before that dash), a pawn's first move (`3. d2 -
    /// d4`, `5. 0-0 f7 - f6`: no White move ends on its second rank, no
    /// Black move on its seventh), or any such move in a run that has
    /// shown the convention.
    /// Elsewhere `1) e4 - e5` is White's move and Black's with the dash
    /// between them (`dash_between`). Records each move as joined
    /// (silently: it is the text's convention) and returns where the last
    /// one ends.
    fn spaced_dash_moves(&mut self, j: usize, after_number: bool, ply: &mut Option<u32>) -> Option<usize> {
        let first = spaced_dash_move(self.at(j))?;
        let (k, paragraph) = self.blank(j + first.end);
        let second = (!paragraph && k > j + first.end && k < self.limit)
            .then(|| spaced_dash_move(self.at(k)))
            .flatten()
            .filter(|_| !self.s[j + first.end..k].contains('\n'));
        let black = ply.is_some_and(|p| p % 2 == 1);
        // `d2 - d4` as White's move, `f7 - f5` as Black's: no move of that
        // side ends on that rank, so the dash is the move's.
        let pawn_start = match (*ply, first.pawn_ranks) {
            (Some(_), Some((from, to))) if !black => from == '2' && to > from,
            (Some(_), Some((from, to))) => from == '7' && to < from,
            _ => false,
        };
        // `6. Rbl — c3 Bf8-e7`: Black's move after it in long algebraic
        // (written without the blanks), so the dash is White's move's.
        let long_follows = || {
            after_number
                && second.is_none()
                && !paragraph
                && k > j + first.end
                && k < self.limit
                && !self.s[j + first.end..k].contains('\n')
                && long_move(self.at(k))
        };
        let taken: Vec<(usize, SpacedDash)> = match second {
            Some(second) if after_number && !black => vec![(j, first), (k, second)],
            _ if self.spaced_dashes || pawn_start || (after_number && black) || long_follows() => vec![(j, first)],
            _ => return None,
        };
        self.spaced_dashes = true;
        let mut end = j;
        for (at, m) in taken {
            self.repairs.push(Repair {
                span: at..at + m.end,
                kind: RepairKind::Spaced { letter_len: m.letter_len, joined: m.joined },
            });
            *ply = ply.map(|p| p + 1);
            end = at + m.end;
        }
        Some(end)
    }

    fn count_number(&mut self, number: u32) {
        let (last, steps) = self.numbers;
        self.numbers = (number, steps + usize::from(last > 0 && number == last + 1));
    }

    /// `e5: ¡Una Bird! ... |`: a colon after a move, a comment up to a `|`
    /// that ends its line (the comment may run over more lines, not over a
    /// blank one), and a move or a move number at the start of the next
    /// row: the end of the `|`.
    fn table_row_end(&self, colon: usize) -> Option<usize> {
        if !self.at(colon).starts_with(": ") {
            return None;
        }
        let rest = self.at(colon);
        let mut at = 0;
        loop {
            let bar = at + rest[at..].find('|')?;
            let comment = &rest[..bar];
            if comment.contains("\n\n") || comment.contains("\n\r\n") {
                return None;
            }
            let after = &rest[bar + 1..];
            let line_end = after.find('\n')?;
            if after[..line_end].trim().is_empty() {
                let row = colon + bar + 1 + line_end + 1;
                let (next, paragraph) = self.blank(row);
                let t = self.at(next);
                let starts = move_number_at(t, 0).is_some() || move_len(t).is_some_and(|n| ch(t, n) == Some(':'));
                return (!paragraph && starts).then_some(colon + bar + 1);
            }
            at = bar + 1;
        }
    }

    /// Prose inside a variation's brackets after its moves (`(4. Ng5 d5 5.
    /// exd5 Nxd5 6. Nxf7 and White wins)`, `(8. Ne4 or 8. Nf7 is
    /// possible.)`), from `at` up to the closing bracket, or with `resume`
    /// up to the move number of the ply `resume` names, where the moves go
    /// on (`(4. Ng5 d5 and then 5. exd5 Nxd5)`): blanked as a comment (a
    /// separator, never reported), so that the variation closes and the
    /// main line goes on after it. Only in a variation that has moves:
    /// where the prose goes on, and whether it closes the variation there.
    fn variation_prose(
        &mut self,
        at: usize,
        depth: usize,
        tokens: &[(usize, Token)],
        resume: Option<u32>,
    ) -> Option<(usize, bool)> {
        if depth == 0 || self.forced || !tokens.iter().any(|&(_, k)| k == Token::Move) {
            return None;
        }
        let close = self.prose_close(at)?;
        if let Some(k) = resume.and_then(|ply| self.number_at_ply(at, close, ply)) {
            self.repairs.push(Repair { span: at..k, kind: RepairKind::Separator });
            return Some((k, false));
        }
        self.repairs.push(Repair { span: at..close, kind: RepairKind::Separator });
        Some((close, true))
    }

    /// `4. c3? 4. b4!? 4...Bb6`, `6. f3?! 6. f3 was a surprise`: an
    /// alternative at `j`, a number that restates the ply of the move
    /// before it and one move (with its glyphs), followed by the main
    /// line's next number (`main_next`) or by the end of the run. Its blank
    /// before and the character after are read as a variation's brackets
    /// (a variation never moves the main line): where it ends, and whether
    /// the run ends there.
    fn alternative(&mut self, j: usize, main_next: Option<u32>) -> Option<(usize, bool)> {
        let open = j.checked_sub(1).filter(|&o| self.s.as_bytes()[o].is_ascii_whitespace())?;
        let (repairs, numbers) = (self.repairs.len(), self.numbers);
        let read = self.alternative_move(j);
        let Some(end) = read else {
            self.repairs.truncate(repairs);
            self.numbers = numbers;
            return None;
        };
        let (k, paragraph) = self.blank(end);
        let t = self.at(k.min(self.limit));
        let main_goes_on = !paragraph
            && k > end
            && k < self.limit
            && move_number_at(t, 0)
                .filter(|_| t.starts_with(|c: char| c.is_ascii_digit()))
                .is_some_and(|(_, n, black)| Some(ply_of(n, black)) == main_next);
        let more = !paragraph
            && k < self.limit
            && (move_number_at(t, 0).is_some()
                || bare_number_at(t, 0).is_some()
                || t.starts_with('(')
                || self.found_move(k).is_some());
        // The character after it becomes the closing bracket: a blank, or
        // a sentence's punctuation where the run ends.
        let ends = match self.s.as_bytes().get(end).copied() {
            Some(b) if main_goes_on && b.is_ascii_whitespace() => false,
            Some(b) if !more && (b.is_ascii_whitespace() || matches!(b, b'.' | b',' | b';' | b':')) => true,
            _ => {
                self.repairs.truncate(repairs);
                self.numbers = numbers;
                return None;
            }
        };
        self.repairs.push(Repair { span: open..open + 1, kind: RepairKind::Bracket { open: true } });
        self.repairs.push(Repair { span: end..end + 1, kind: RepairKind::Bracket { open: false } });
        Some((end + 1, ends))
    }

    /// The number at `j` and the move after it, with the glyphs that stand
    /// apart after it: where they end.
    fn alternative_move(&mut self, j: usize) -> Option<usize> {
        let mut ply = None;
        let (number_end, kind) = self.token(j, 1, &mut ply)?;
        if kind != Token::Number {
            return None;
        }
        let (k, _) = self.blank(number_end);
        let (mut end, kind) = self.token(k, 1, &mut ply)?;
        if kind != Token::Move {
            return None;
        }
        loop {
            let (k, paragraph) = self.blank(end);
            if paragraph || k == end || k >= self.limit {
                break;
            }
            let s = self.at(k);
            match glyph_len(s).filter(|&n| ends_word(s, n)) {
                Some(n) => end = k + n,
                None => break,
            }
        }
        Some(end)
    }

    /// `Nf6 (an interesting try) Be7 5. O-O`: a bracket of prose with no
    /// move number in it, then a move without a number: blanked whole as a
    /// comment, and the run goes on. Where the bracket ends. (A bracket
    /// whose prose names numbered moves, `(the idea of 6. d4 is 7. Qxd4)`,
    /// ends the run: its moves are runs of the prose, and the main line
    /// goes on after it as a run of its own, `Runs::find`; so does a
    /// numbered move after a bracket.)
    fn bracketed_comment(&mut self, j: usize) -> Option<usize> {
        let close = self.prose_close(j + 1)?;
        let numbered = self.s[j + 1..close].char_indices().any(|(k, c)| {
            c.is_ascii_digit() && starts_word(self.s, j + 1 + k) && move_number_at(self.s, j + 1 + k).is_some()
        });
        let (k, paragraph) = self.blank(close + 1);
        let goes_on = !paragraph && k < self.limit && self.found_move(k).is_some();
        if numbered || !goes_on {
            return None;
        }
        self.repairs.push(Repair { span: j..close + 1, kind: RepairKind::Separator });
        Some(close + 1)
    }

    /// The closing bracket of prose from `at` inside brackets: within a few
    /// hundred bytes and the paragraph, with no bracket opened before it.
    fn prose_close(&self, at: usize) -> Option<usize> {
        /// How long the prose in brackets may be.
        const MAX_PROSE: usize = 400;
        let mut newlines = 0;
        for (k, c) in self.at(at).char_indices() {
            if k > MAX_PROSE {
                return None;
            }
            match c {
                '(' | '[' | '{' => return None,
                ')' => return Some(at + k),
                '\n' => {
                    newlines += 1;
                    if newlines >= 2 {
                        return None;
                    }
                }
                c if !c.is_whitespace() => newlines = 0,
                _ => {}
            }
        }
        None
    }

    /// The first move number in `from..to` that starts a word and has a
    /// move after it, if it stands for `ply`.
    fn number_at_ply(&self, from: usize, to: usize, ply: u32) -> Option<usize> {
        let (k, number, black) = self.s[from..to].char_indices().map(|(k, c)| (from + k, c)).find_map(|(k, c)| {
            let (e, number, black) =
                move_number_at(self.s, k).filter(|_| c.is_ascii_digit() && starts_word(self.s, k))?;
            self.found_move(self.blank(e).0).map(|_| (k, number, black))
        })?;
        (ply_of(number, black) == ply).then_some(k)
    }

    /// Whether the comma at `comma` stands between two moves: a space
    /// follows it, then a move or a move number.
    /// Past a comma at `i` between a move and the next (blanked for the
    /// parser as a separator), or `i` itself.
    fn past_comma(&mut self, i: usize) -> usize {
        if ch(self.s, i) == Some(',') && self.comma_between(i) {
            self.repairs.push(Repair { span: i..i + 1, kind: RepairKind::Separator });
            i + 1
        } else {
            i
        }
    }

    fn comma_between(&self, comma: usize) -> bool {
        let after = comma + 1;
        if !ch(self.s, after).is_some_and(char::is_whitespace) {
            return false;
        }
        let (k, paragraph) = self.blank(after);
        if paragraph || k >= self.limit {
            return false;
        }
        let s = self.at(k);
        move_number_at(s, 0).is_some() || bare_number_at(s, 0).is_some() || self.found_move(k).is_some()
    }

    /// A dash standing alone at `j` between White's move after its number
    /// and Black's move (`1) e4 - e5, 2) d4 - exd4`), recorded as a
    /// separator: where the next token starts. Not in long algebraic with
    /// spaces (`1. e2 - e4 e7 - e5`), where a move follows Black's.
    fn dash_between(&mut self, j: usize, tokens: &[(usize, Token)]) -> Option<usize> {
        let c = ch(self.s, j).filter(|&c| is_dash(c))?;
        let after = j + c.len_utf8();
        // Spaced, or glued to Black's move (`12) f4 -Dxf4`).
        if !ch(self.s, after).is_some_and(char::is_whitespace) && self.found_move(after).is_none() {
            return None;
        }
        let [.., (_, Token::Number), (_, Token::Move)] = tokens else { return None };
        let (k, paragraph) = self.blank(after);
        if paragraph || k >= self.limit {
            return None;
        }
        let m = self.found_move(k)?;
        let (n, _) = self.blank(m.end);
        let rest = self.s.get(m.end..self.limit).unwrap_or("");
        let next_pair = rest.starts_with(',')
            || (n > m.end && {
                let t = self.at(n);
                move_number_at(t, 0).is_some() || bare_number_at(t, 0).is_some() || result_len(t).is_some()
            });
        // At the end of the run, only where the run has shown its style.
        let run_end = rest.is_empty() || n >= self.limit || !ch(self.s, m.end).is_some_and(char::is_whitespace);
        let shown = self.repairs[self.run_repairs..].iter().any(|r| r.kind == RepairKind::Separator);
        if !(next_pair || (run_end && shown)) {
            return None;
        }
        self.repairs.push(Repair { span: j..after, kind: RepairKind::Separator });
        Some(k)
    }

    /// One token of a run at `j`: a move number, a move (perhaps repaired),
    /// the dots of a lost move number, a glyph, a NAG, a result or a
    /// bracketed variation.
    fn token(&mut self, j: usize, depth: usize, ply: &mut Option<u32>) -> Option<(usize, Token)> {
        let s = self.at(j);
        let c = ch(s, 0)?;
        if c.is_ascii_digit()
            && let Some(r) = result_len(s).filter(|&n| ends_word(s, n))
        {
            return Some((j + r, Token::Other));
        }
        if c.is_ascii_digit()
            && move_number_at(s, 0).is_none()
            && let Some((e, number)) = bare_number_at(s, 0)
            && self.found_move(self.blank(j + e).0).is_some()
        {
            self.count_number(number);
            *ply = Some(ply_of(number, false));
            return Some((j + e, Token::Number));
        }
        // `2 ...Cc6`, `7 ..Dxd1`: Black's move after a number without a dot.
        let bare = c.is_ascii_digit() && move_number_at(s, 0).is_none();
        if let Some((e, number, black)) = move_number_at(s, 0)
            .filter(|_| c.is_ascii_digit())
            .or_else(|| bare_number_at(s, 0).filter(|_| bare).map(|(e, n)| (e, n, false)))
            .filter(|&(e, ..)| !bare || self.spaced_dots(self.blank(j + e).0).is_some())
        {
            self.count_number(number);
            let (k, _) = self.blank(j + e);
            let black = black || self.spaced_dots(k).is_some();
            *ply = Some(ply_of(number, black));
            let end = match self.spaced_dots(k) {
                Some(next) => {
                    let two = self.at(k).starts_with("..") && !self.at(k).starts_with("...");
                    let dots_end = k + if self.at(k).starts_with(ELLIPSIS) {
                        ELLIPSIS.len_utf8()
                    } else if two {
                        2
                    } else {
                        3
                    };
                    if two {
                        // The number and its two dots, given to the parser
                        // as a number and three dots (as many bytes).
                        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
                        let number =
                            format!("{}{}...", &s[..digits], " ".repeat((dots_end - j).saturating_sub(digits + 3)));
                        self.repairs.push(Repair { span: j..dots_end, kind: RepairKind::BlackDots { number } });
                    }
                    // Stray dots after them (`19. ... . Lc3xd4`) are blanked
                    // for the parser, silently.
                    for (at, c) in self.s[dots_end..next].char_indices() {
                        if c == '.' {
                            let at = dots_end + at;
                            self.repairs.push(Repair { span: at..at + 1, kind: RepairKind::Separator });
                        }
                    }
                    self.s[..next].trim_end().len().max(dots_end)
                }
                // `4. I. Bb5Xc6`, `4. a) Bb5xc6`: an outline's label between
                // the number and its move, blanked for the parser, silently.
                None => match outline_label(self.at(k)).filter(|&n| self.found_move(self.blank(k + n).0).is_some()) {
                    Some(n) if k > j + e && k + n <= self.limit => {
                        self.repairs.push(Repair { span: k..k + n, kind: RepairKind::Separator });
                        k + n
                    }
                    _ => j + e,
                },
            };
            return Some((end, Token::Number));
        }
        // `3, Nc3`: a comma for the dot, where the run's next number
        // stands.
        if c.is_ascii_digit()
            && let digits = s.bytes().take_while(u8::is_ascii_digit).count()
            && digits <= 3
            && s[digits..].starts_with(", ")
            && let Ok(number) = s[..digits].parse::<u32>()
            && number > 0
            && *ply == Some(ply_of(number, false))
            && self.found_move(self.blank(j + digits + 1).0).is_some()
        {
            self.count_number(number);
            let number_text = format!("{number}.");
            self.repairs.push(Repair { span: j..j + digits + 1, kind: RepairKind::NumberSign { number: number_text } });
            return Some((j + digits + 1, Token::Number));
        }
        // `IO.` where the run's next number stands.
        if let Some((e, written)) = look_alike_number(s)
            && let Some((_, number, black)) = move_number_at(&written, 0)
            && *ply == Some(ply_of(number, black))
            && self.found_move(self.blank(j + e).0).is_some()
        {
            self.count_number(number);
            self.repairs.push(Repair { span: j..j + e, kind: RepairKind::LookAlikeNumber { number: written } });
            return Some((j + e, Token::Number));
        }
        if let Some(m) = self.found_move(j) {
            // `e5 : d4` read as the text's convention: so is `c6 - c5`.
            self.spaced_dashes |= m.repair.iter().any(|r| matches!(r.kind, RepairKind::Spaced { .. }));
            self.repairs.extend(m.repair);
            *ply = ply.map(|p| p + 1);
            return Some((m.end, Token::Move));
        }
        // `.b3`: the dots of a move number whose digits were lost.
        if matches!(c, '.' | ELLIPSIS) {
            let dots = s.find(|x: char| x != '.' && x != ELLIPSIS).unwrap_or(s.len());
            if let (Some(p), Some(m)) = (*ply, self.found_move(j + dots)) {
                let expected_black = p % 2 == 1;
                let written_black = dots > 1 || s.starts_with(ELLIPSIS);
                if expected_black == written_black || !written_black {
                    self.repairs.push(Repair {
                        span: j..j + dots,
                        kind: RepairKind::LostMoveNumber { number: number_text(p) },
                    });
                    self.repairs.extend(m.repair);
                    *ply = Some(p + 1);
                    return Some((m.end, Token::Move));
                }
            }
            return None;
        }
        if c == '$' {
            let digits = s[1..].bytes().take_while(u8::is_ascii_digit).count();
            return (digits > 0 && ends_word(s, 1 + digits)).then_some((j + 1 + digits, Token::Other));
        }
        if c == '(' && depth < MAX_DEPTH {
            let saved = self.repairs.len();
            let (k, _) = self.blank(j + 1);
            // A variation replaces the move before it.
            let var_ply = ply.map(|p| p.saturating_sub(1));
            if let Some((_, Some(close))) = self.line(k, depth + 1, var_ply) {
                return Some((close + 1, Token::Other));
            }
            self.repairs.truncate(saved);
            if !self.forced
                && let Some(end) = self.bracketed_comment(j)
            {
                return Some((end, Token::Other));
            }
            return None;
        }
        if let Some(g) = glyph_len(s).filter(|&n| ends_word(s, n) && !s[n..].starts_with(['-', '+', '='])) {
            return Some((j + g, Token::Other));
        }
        if c == '½' || c == '*' {
            let r = result_len(s)?;
            return Some((j + r, Token::Other));
        }
        None
    }
}

/// Whether `t` starts with notation: a move number (with or without its
/// dot), a result, a move or a pawn capture written with its files.
fn notation_at(t: &str) -> bool {
    move_number_at(t, 0).is_some()
        || bare_number_at(t, 0).is_some()
        || result_len(t).is_some()
        || move_len(t).is_some_and(|m| ends_word(t, m))
        || files_only_capture(t).is_some_and(|m| ends_word(t, m))
}

/// `Db1 +`: where a check or mate sign standing alone one or two blanks
/// after the move ending at `n` ends; `None` when the move has its sign
/// already or the sign is part of a glyph (`+-`, `+/=`).
fn detached_check(s: &str, n: usize) -> Option<usize> {
    if s[..n].ends_with(['+', '#', '†', '‡']) {
        return None;
    }
    let gap = s[n..].bytes().take_while(|&b| b == b' ' || b == b'\t').count();
    if !(1..=2).contains(&gap) {
        return None;
    }
    let rest = &s[n + gap..];
    let sign = ["++", "+", "#", "†", "‡"].into_iter().find(|sign| rest.starts_with(sign))?;
    let after = rest[sign.len()..].chars().next();
    after.is_none_or(|c| c.is_whitespace() || matches!(c, ',' | ';' | ')' | ']' | '}')).then_some(n + gap + sign.len())
}

/// Whether a capture sign written after a move may end at `i`: the text
/// ends, or a blank, a separator, a closing bracket or a mark follows.
fn sign_ends(s: &str, i: usize) -> bool {
    ch(s, i).is_none_or(|c| c.is_whitespace() || matches!(c, ',' | ';' | ')' | ']' | '!' | '?' | '+' | '#'))
}

/// The standalone evaluation and annotation symbols a run may hold.
fn glyph_len(s: &str) -> Option<usize> {
    const GLYPHS: [&str; 22] = [
        "+/-", "-/+", "+/=", "=/+", "=/∞", "∞/=", "+-", "-+", "!!", "??", "!?", "?!", "!", "?", "‼", "⁇", "⁉", "⁈",
        "±", "∓", "⩲", "⩱",
    ];
    const MORE: [&str; 5] = ["∞", "=", "□", "TN", "N"];
    GLYPHS.iter().chain(MORE.iter()).find(|g| s.starts_with(**g)).map(|g| g.len())
}

/// The length of a result at the start of `s` (`1-0`, `0-1`, `1/2-1/2`,
/// `½-½`, each dash also `–` or `—`).
fn result_len(s: &str) -> Option<usize> {
    for (left, right) in [("1", "0"), ("0", "1"), ("1/2", "1/2"), ("½", "½")] {
        let Some(rest) = s.strip_prefix(left) else { continue };
        let Some(dash) = rest.chars().next().filter(|&c| is_dash(c)) else { continue };
        let rest = &rest[dash.len_utf8()..];
        if rest.starts_with(right) {
            return Some(s.len() - rest.len() + right.len());
        }
    }
    None
}

fn is_result(s: &str) -> bool {
    result_len(s) == Some(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(text: &str) -> Vec<&str> {
        let mut scanner = Runs::new(text, text.len(), false);
        scanner.find(0, text.len()).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn moves_in_every_style() {
        for m in [
            "e4", "Nf3", "Кf3", "Крg1", "Kpg1", "♘f3", "Ng1-f3", "e2-e4", "e4xd5", "exd5", "ed5", "e4:d5", "Sd7xSe5",
            "O-O", "0-0-0", "О-О", "Qxd8+", "e8=Q", "d8Ф", "exd6e.p.", "Nbd2", "R1e2", "Qd1N", "Фхс3+", "Кel", "Nf3!?",
            "Qh7#",
        ] {
            assert_eq!(move_len(m), Some(m.len()), "{m}");
        }
        for m in ["Chess", "Be", "a", "the", "1-0", "x4"] {
            assert_ne!(move_len(m), Some(m.len()), "{m}");
        }
    }

    #[test]
    fn runs_stop_at_prose_punctuation_and_paragraphs() {
        let text = "After 1. e4 e5 2. Nf3 Nc6 3. Bb5, the Spanish. Then 3...Nf6 4.O-O is the Berlin; see 12. (a note) and 20. Qd2 =.\n\n21. Qh6 Qf6 22.\n\n23. Rd1 1-0 and more";
        assert_eq!(
            runs(text),
            ["1. e4 e5 2. Nf3 Nc6 3. Bb5", "3...Nf6 4.O-O", "20. Qd2 =", "21. Qh6 Qf6", "23. Rd1 1-0"]
        );
    }

    #[test]
    fn prose_numbers_are_not_runs() {
        let text = "In 1995. The year 3.14 and 12.03.1995, chapter 2. A quiet move, p. 12. Ke is no move.";
        assert!(runs(text).is_empty(), "{:?}", runs(text));
    }

    #[test]
    fn a_lone_piece_letter_after_a_number_is_no_glyph() {
        // After a move, `N` is Informant's novelty; after a number the
        // grammar reads it as a broken move, so the run ends before.
        assert_eq!(runs("1. e4 N 2. d4"), ["1. e4 N 2. d4"]);
        assert_eq!(runs("1. e4 e5 2. N:a6!?Белые"), ["1. e4 e5"]);
        assert_eq!(runs("1. e4 e5 2. N is the novelty"), ["1. e4 e5"]);
        assert_eq!(runs("1. e4 e5 2. TN d4"), ["1. e4 e5 2. TN d4"]);
    }

    #[test]
    fn variations_in_brackets_belong_to_the_run() {
        // A bracket of prose alone is a comment.
        let text = "12. Nf3 (12. Nd2 Qh4 (12...Qe7) 13. g3) Nc6 13. d4 (the best move) e5 14. c4";
        assert_eq!(runs(text), [text]);
    }

    #[test]
    fn ocr_damage_is_read_and_recorded() {
        let text = "1. К f3 кf6 .b3 d5 3. bf4 bc4 4. Кel *";
        let mut scanner = Runs::new(text, text.len(), false);
        let found: Vec<&str> = scanner.find(0, text.len()).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["1. К f3 кf6 .b3 d5 3. bf4 bc4 4. Кel"]);
        let kinds: Vec<(&str, &RepairKind)> =
            scanner.repairs.iter().map(|r| (&text[r.span.clone()], &r.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("К f3", &RepairKind::SpaceInMove { letter_len: 2, joined: "Кf3".into(), glued: false }),
                ("к", &RepairKind::LowerCaseLetter { upper: 'К' }),
                (".", &RepairKind::LostMoveNumber { number: "2.".into() }),
                ("b", &RepairKind::LowerCaseLetter { upper: 'B' }),
            ]
        );
    }

    /// The runs of `text` and what its repairs read (`joined` moves, `,`
    /// for a separator).
    fn repaired(text: &str) -> (Vec<&str>, Vec<(&str, String)>) {
        let mut scanner = Runs::new(text, text.len(), false);
        let found = scanner.find(0, text.len()).into_iter().map(|r| &text[r]).collect();
        let repairs = scanner
            .repairs
            .iter()
            .map(|r| {
                let read = match &r.kind {
                    RepairKind::SpaceInMove { joined, .. } => joined.clone(),
                    RepairKind::LookAlikeNumber { number } => number.clone(),
                    RepairKind::Separator => ",".to_owned(),
                    other => format!("{other:?}"),
                };
                (&text[r.span.clone()], read)
            })
            .collect();
        (found, repairs)
    }

    #[test]
    fn old_long_algebraic_as_ocr_reads_it_keeps_the_run() {
        let text =
            "1. e2--e4 e7--05 2. Sg1-f3 Sb8-06 3. Lf1--15 a7-a6 12. d4-e5: Sc6-e5: 13. Sf3--e5: Te8x05 14. Кb3х04";
        let (found, repairs) = repaired(text);
        assert_eq!(found, [text]);
        let doubled = |letter_len: usize, joined: &str| {
            format!("{:?}", RepairKind::DoubledDash { letter_len, joined: joined.into() })
        };
        let digit = |placeholder: char| format!("{:?}", RepairKind::FileDigit { placeholder });
        let after = format!("{:?}", RepairKind::CaptureAfter);
        assert_eq!(
            repairs,
            [
                ("e2--e4", doubled(2, "e2-e4")),
                ("e7--05", doubled(2, "e7-05")),
                ("0", digit('e')),
                ("0", digit('b')),
                ("Lf1--15", doubled(3, "Lf1-15")),
                ("1", digit('f')),
                (":", after.clone()),
                (":", after.clone()),
                ("Sf3--e5", doubled(3, "Sf3-e5")),
                (":", after),
                ("0", digit('e')),
                ("0", digit('b')),
            ]
        );
        let (found, repairs) = repaired("4. Dh5-f77 Ke8-e7 5. Lc4-d5");
        assert_eq!(found, ["4. Dh5-f77 Ke8-e7 5. Lc4-d5"]);
        assert_eq!(repairs, [("7", format!("{:?}", RepairKind::Sign { meant: '+' }))]);
        let (found, repairs) = repaired("3. Lf1-b5 a 7-a6 4. Lb5-a4");
        assert_eq!(found, ["3. Lf1-b5 a 7-a6 4. Lb5-a4"]);
        assert_eq!(repairs, [("a 7-a6", "a7-a6".to_owned())]);
        // Plain long algebraic and a short move with a colon after it in a
        // sentence are left as they are.
        assert_eq!(repaired("1. e2-e4 e7-e5 2. Nf3: a good move").1, []);
        // Two dashes of two kinds (`-—`, found by the property test).
        let (found, repairs) = repaired("15… Bf8-—e7 16. g3-g4");
        assert_eq!(found, ["15… Bf8-—e7 16. g3-g4"]);
        assert_eq!(repairs, [("Bf8-—e7", doubled(3, "Bf8—e7"))]);
        // A look-alike origin file gives its Latin letter to the digit.
        let (_, repairs) = repaired("1. е2-04 e7-e5");
        assert_eq!(repairs, [("0", digit('e'))]);
        // A look-alike rank of two bytes after the digit (Cyrillic `З`
        // for `3`, found by the property test: it was cut inside).
        let (found, repairs) = repaired("21. Лg1-1З Лa8-a3 22. Лd1-d3");
        assert_eq!(found, ["21. Лg1-1З Лa8-a3 22. Лd1-d3"]);
        assert_eq!(repairs, [("1", digit('g'))]);
    }

    #[test]
    fn a_dash_stuck_to_the_end_of_a_move_is_a_stray_character() {
        let (found, repairs) = repaired("6. Kd2 b6— 7. Cf3 Tb8 28. Tg6+— hg6");
        assert_eq!(found, ["6. Kd2 b6— 7. Cf3 Tb8 28. Tg6+— hg6"]);
        let kinds: Vec<&str> = repairs.iter().map(|(written, _)| *written).collect();
        assert_eq!(kinds, ["b6—", "Tg6+—"]);
        // A table: a move and its comment in each row.
        let text = "BLANCAS |\n1.f4: Sin comentario |\ne5: ¡Una Bird! Me tentó 2-...,Ad6 3-fxe5.\nPero no. |\n2.d3: Sin comentario |\nexf4: Bien. |\n";
        let (found, repairs) = repaired(text);
        assert_eq!(
            found,
            [
                "1.f4: Sin comentario |\ne5: ¡Una Bird! Me tentó 2-...,Ad6 3-fxe5.\nPero no. |\n2.d3: Sin comentario |\nexf4"
            ]
        );
        assert_eq!(repairs.iter().filter(|(_, r)| r == ",").count(), 3, "{repairs:?}");
        // A run that starts at the dot of a lost number.
        let (found, repairs) = repaired("White played .Qh5 Kf8 16. Qc5+ Kg8 and won.");
        assert_eq!(found, [".Qh5 Kf8 16. Qc5+ Kg8"]);
        assert_eq!(repairs, [(".", format!("{:?}", RepairKind::LostMoveNumber { number: "15.".into() }))]);
        assert!(runs("The end. Qh5 was best.").is_empty());
        // Before the next move's piece letter, the dash is stray.
        let (found, repairs) = repaired("23. Qe3 Qe4+ 24. Kh3— Ng6; White is better.");
        assert_eq!(found, ["23. Qe3 Qe4+ 24. Kh3— Ng6"]);
        assert_eq!(repairs.iter().map(|(w, _)| *w).collect::<Vec<_>>(), ["Kh3—"]);
        // Before the stop that ends a sentence.
        let (found, repairs) = repaired("The game went on 22. b:c4—. Black must defend.");
        assert_eq!((found, repairs.len()), (vec!["22. b:c4—"], 1));
    }

    #[test]
    fn a_transliterated_file_letter_after_a_piece_letter_is_read_as_c() {
        // Machine transliteration of Ukrainian: `Кс3` became `Ks3`.
        let (runs, repairs) = repaired("7 f4 Kd7 8 Ks3 de 9 Kd5 Fd6 12 Sb5 Fs5 13 Se3");
        assert_eq!(runs, ["7 f4 Kd7 8 Ks3 de 9 Kd5 Fd6 12 Sb5 Fs5 13 Se3"]);
        let s = "TransliteratedFile { meant: 'c' }".to_owned();
        assert_eq!(repairs, [("s", s.clone()), ("s", s)]);
        // Not a pawn's square, nor a word that is no piece move then.
        assert_eq!(repaired("1. e4 s3 e5").1, []);
        assert_eq!(repaired("1. e4 e5 Kiss3").1, []);
    }

    #[test]
    fn moves_broken_around_a_capture_sign_or_a_dash_are_joined() {
        let text = "3. d4 e x d4 4. N x d4 Be7 5. c3: d4 Sx c2! 6. Lf1— b5 Kg1 f3";
        let (found, repairs) = repaired(text);
        assert_eq!(found, [text]);
        let want =
            [("e x d4", "exd4"), ("N x d4", "Nxd4"), ("c3: d4", "c3:d4"), ("Sx c2!", "Sxc2!"), ("Lf1— b5", "Lf1—b5")];
        assert_eq!(repairs, want.map(|(a, b)| (a, b.to_owned())));
        // Two moves side by side are never one broken move: `e2 e4`,
        // `Kg1 f3`, `e4 - e5`. Four squares after one number are long
        // algebraic written with spaces (a convention, not damage), two
        // are two moves.
        let (_, repairs) = repaired("1. e2 e4 e7 e5 2. Kg1 f3");
        let convention = |joined: &str| format!("{:?}", RepairKind::Spaced { letter_len: 2, joined: joined.into() });
        assert_eq!(repairs, [("e2 e4", convention("e2e4")), ("e7 e5", convention("e7e5"))]);
        let (_, repairs) = repaired("1. e4 e5 2. Kg1 f3 3. d4");
        assert!(repairs.is_empty(), "{repairs:?}");
    }

    #[test]
    fn lost_letters_short_captures_and_glued_moves_keep_the_run() {
        // `xg7` lost its piece letter, `К f3К b4` are two broken moves
        // glued together: the run goes on through both.
        let text = "10. Сxg7 xg7 11. d2 Кc6 23. К f3К b4 24. Кe1 Сxg2";
        let (found, repairs) = repaired(text);
        assert_eq!(found, [text]);
        assert_eq!(repairs, [("К f3", "Кf3".to_owned()), ("К b4", "Кb4".to_owned())]);
        // Pawn captures with their files only, inside a run.
        let text = "8 Kc3 de 9 Kd5 Fd6 10 de fe 11 fe Fc6";
        assert_eq!(repaired(text).0, [text]);
        // A pair of file letters that ends the run is a word of prose.
        assert_eq!(repaired("después de 5.Cf3 de Larsen").0, ["5.Cf3"]);
        assert_eq!(repaired("1. e4 e5 2. Nf3 be quick").0, ["1. e4 e5 2. Nf3"]);
        // `9. ...0-0`: the dots glued to Black's move.
        assert_eq!(repaired("Lub 9. ...0-0 10. 0-0 Sxc3 11. bc Ge7.").0, ["9. ...0-0 10. 0-0 Sxc3 11. bc Ge7"]);
        // A line that holds only a number without a dot and a move is a run;
        // such a number in a sentence is not.
        assert_eq!(repaired("Niet goed.\n\n9 Pe4xc3\n\n10. b2xc3").0, ["9 Pe4xc3", "10. b2xc3"]);
        assert_eq!(repaired("We had 9 Pe4xc3 then.").0, Vec::<&str>::new());
        // Old print's spaced dots, one too many, and `^` for the capture sign.
        let (found, repairs) = repaired("19. ... . Lc3^d4f");
        assert_eq!(found, ["19. ... . Lc3^d4f"]);
        assert_eq!(repairs.iter().map(|(t, _)| *t).collect::<Vec<_>>(), [".", "^", "f"]);
        // A capture sign standing alone is the middle of a spaced capture,
        // never a capture that lost its letter: long algebraic's origin
        // before it (`e5 : d4`, `Кf3 : d4`), or a piece letter and its
        // origin (`Nb x d4`).
        let (found, repairs) = repaired("3. ... e5 : d4 4. Кf3 : d4 Nb x d4");
        assert_eq!(found, ["3. ... e5 : d4 4. Кf3 : d4 Nb x d4"]);
        assert_eq!(
            repairs,
            [("e5 : d4", "e5:d4".to_owned()), ("Кf3 : d4", "Кf3:d4".to_owned()), ("Nb x d4", "Nbxd4".to_owned())]
        );
        // In a text that writes its dashes between blanks, that is its
        // convention for the capture sign too (never reported).
        let (_, repairs) = repaired("2. Кg1 - f3 Кb8 - c6\n\n3. ... e5 : d4 4. Кf3 : d4");
        let convention = |joined: &str| format!("{:?}", RepairKind::Spaced { letter_len: 3, joined: joined.into() });
        assert_eq!(
            repairs,
            [
                ("Кg1 - f3", format!("{:?}", RepairKind::Spaced { letter_len: 5, joined: "Кg1-f3".into() })),
                ("Кb8 - c6", format!("{:?}", RepairKind::Spaced { letter_len: 5, joined: "Кb8-c6".into() })),
                ("e5 : d4", convention("e5:d4")),
                ("Кf3 : d4", format!("{:?}", RepairKind::Spaced { letter_len: 5, joined: "Кf3:d4".into() }))
            ]
        );
        // Move numbers with letters for digits, where the run's numbers
        // stand (a run starts at one only when the next number follows).
        let (found, repairs) = repaired("The game went on l. b3 f6\n2. e4 g6 3. Ke2 Na6 9. Bb3 Bb7 IO. h3 IO... Kf8");
        assert_eq!(found, ["l. b3 f6\n2. e4 g6 3. Ke2 Na6 9. Bb3 Bb7 IO. h3 IO... Kf8"]);
        assert_eq!(repairs, [("l.", "1.".to_owned()), ("IO.", "10.".to_owned()), ("IO...", "10...".to_owned())],);
        assert!(runs("Part I. e4 openings").is_empty());
        // Two moves with the blank between them lost: the run goes on.
        assert_eq!(runs("12. Nbxd4Rbb7 13. a3Qh4+ 14. g3"), ["12. Nbxd4Rbb7 13. a3Qh4+ 14. g3"]);
        // A move broken by a line break, not by a blank line.
        let (found, repairs) = repaired("12. Q\nh7 Kf8 13. Bb3");
        assert_eq!(found, ["12. Q\nh7 Kf8 13. Bb3"]);
        assert_eq!(repairs, [("Q\nh7", "Qh7".to_owned())]);
        assert_eq!(repaired("12. Q\n\nh7 Kf8").0, Vec::<&str>::new());
    }

    #[test]
    fn conventions_of_real_texts_make_one_run() {
        // `1)` numbers, a dash between White's and Black's move, commas.
        let text = "1) e4 -  e5,   2) d4 - exd4,   3) Dxd4  -  Jc6,   4) De3  -  g6";
        let (found, repairs) = repaired(text);
        assert_eq!(found, [text]);
        assert_eq!(repairs.iter().filter(|(w, _)| *w == "-").count(), 4);
        assert_eq!(repairs.iter().filter(|(w, _)| *w == ",").count(), 3);
        assert_eq!(runs("1. e4, e5 2. Nf3, Nc6 3. Bb5, the Spanish"), ["1. e4, e5 2. Nf3, Nc6 3. Bb5"]);
        // Numbers without a dot, once the next number follows.
        assert_eq!(runs("Game: 1 d4 Cf6 2 c4 e6 3 Cc3 Fb4."), ["1 d4 Cf6 2 c4 e6 3 Cc3 Fb4"]);
        assert!(runs("He had 3 e4 pawns and 2 Nf3 knights").is_empty());
        assert!(runs("1 e2 e4 1 e7 e5 15 G e2 f3 15 W a8 b8").is_empty());
        // Long algebraic with spaced dashes is not a run of separators.
        let (_, repairs) = repaired("1. e2 - e4 e7 - e5 2. Кg1 - f3");
        assert!(repairs.iter().all(|(w, _)| *w != "-"), "{repairs:?}");
    }

    #[test]
    fn long_algebraic_with_spaced_dashes_is_one_move_each() {
        let spaced =
            |joined: &str, letter_len: usize| format!("{:?}", RepairKind::Spaced { letter_len, joined: joined.into() });
        // Both moves of a number so written: the text's convention.
        let text = "Then 1. d2 - d4 d7 - d5 2. Sg1 - f3 Sg8 - f6 3. c2 - c4 e7 - e6, as usual.";
        let (found, repairs) = repaired(text);
        assert_eq!(found, ["1. d2 - d4 d7 - d5 2. Sg1 - f3 Sg8 - f6 3. c2 - c4 e7 - e6"]);
        assert_eq!(
            repairs,
            [
                ("d2 - d4", spaced("d2-d4", 3)),
                ("d7 - d5", spaced("d7-d5", 3)),
                ("Sg1 - f3", spaced("Sg1-f3", 4)),
                ("Sg8 - f6", spaced("Sg8-f6", 4)),
                ("c2 - c4", spaced("c2-c4", 3)),
                ("e7 - e6", spaced("e7-e6", 3)),
            ]
        );
        // Black's move after its number, a pawn's first move after White's,
        // each in a paragraph of its own; a run that has shown the style.
        let (found, repairs) = repaired("5. c2 - c3\n\n5. ... Кb8 - d7\n\n6. Фd1 - c2 Сf8 - e7 7. Сf1 - d3 h7 - h6");
        assert_eq!(found, ["5. c2 - c3", "5. ... Кb8 - d7", "6. Фd1 - c2 Сf8 - e7 7. Сf1 - d3 h7 - h6"]);
        assert_eq!(repairs.len(), 6, "{repairs:?}");
        // White's move and Black's with a dash between them stay two moves.
        for text in ["1) d4 - d5, 2) c4 - e6", "1) d4 - d5 2) c4 - e6", "1. Nf3 - d5 2. g3"] {
            let (_, repairs) = repaired(text);
            assert!(repairs.iter().all(|(_, r)| r == ","), "{text}: {repairs:?}");
        }
        // A pawn that cannot go so is no move of long algebraic.
        assert_eq!(repaired("1. e2 - d4 e7 - e5").1, []);
    }

    #[test]
    fn a_variation_that_ends_in_prose_closes_and_the_main_line_goes_on() {
        let text = "9. Qe2 (9. Nd2 c5 10. dxc5 Bxc5, and Black is fine) Re8 10. Rd1 (10. g3 or 10. h3 is slower.) h6.";
        let (found, repairs) = repaired(text);
        assert_eq!(found, [&text[..text.len() - 1]]);
        let blanked: Vec<&str> = repairs.iter().map(|(w, _)| *w).collect();
        assert_eq!(blanked, [", and Black is fine", "or 10. h3 is slower."]);
        // The moves go on after prose at the number they are at.
        let (found, repairs) = repaired("5. Bd3 (5. Nf3 O-O and then 6. Bd3 d5) Nc6");
        assert_eq!(found, ["5. Bd3 (5. Nf3 O-O and then 6. Bd3 d5) Nc6"]);
        assert_eq!(repairs.iter().map(|(w, _)| *w).collect::<Vec<_>>(), ["and then "]);
        // Prose that opens a bracket, or a paragraph, is not read over:
        // the variation is a run of the prose.
        assert_eq!(runs("5. Bd3 (5. Nf3 O-O with (much) play) Nc6"), ["5. Bd3", "5. Nf3 O-O"]);
        assert_eq!(runs("5. Bd3 (5. Nf3 O-O with\n\nplay) Nc6"), ["5. Bd3", "5. Nf3 O-O"]);
    }

    #[test]
    fn a_bracket_of_prose_is_a_comment_or_ends_the_run() {
        // Words alone: a comment, where the run goes on after it with a
        // move that has no number.
        let (found, repairs) = repaired("5. Nc3 (interesting) e5 6. Ndb5 d6 (a pause) 7. c4 (and so on).");
        assert_eq!(found, ["5. Nc3 (interesting) e5 6. Ndb5 d6", "7. c4"]);
        assert_eq!(repairs.iter().map(|(w, _)| *w).collect::<Vec<_>>(), ["(interesting)"]);
        // Words and numbered moves: the moves are a run of the prose, and
        // the main line goes on after the bracket, its first move's ply
        // told by the next number.
        let text = "6. c3 (the point of 6. d4?! exd4 7. Qxd4 is a pin) b5 7. Bf1 Nd5";
        assert_eq!(runs(text), ["6. c3", "6. d4?! exd4 7. Qxd4", "b5 7. Bf1 Nd5"]);
        assert_eq!(runs("6. c3 (as in game 12. Qd2) b5 is bad. 7. Bf1"), ["6. c3", "12. Qd2", "7. Bf1"]);
    }

    #[test]
    fn a_number_that_restates_the_ply_before_it_starts_an_alternative() {
        // One move, then the main line's next number or the run's end: a
        // variation, its blanks read as its brackets.
        let brackets = |text: &str| {
            let (found, repairs) = repaired(text);
            let at: Vec<usize> = repairs
                .iter()
                .filter(|(_, r)| r.starts_with("Bracket"))
                .map(|(w, _)| w.as_ptr() as usize - text.as_ptr() as usize)
                .collect();
            (found.into_iter().map(str::to_owned).collect::<Vec<_>>(), at)
        };
        assert_eq!(
            brackets("7. Re1 Bb7 8. a3?! 8. a4! 8...b4 9. d3"),
            (vec!["7. Re1 Bb7 8. a3?! 8. a4! 8...b4 9. d3".to_owned()], vec![18, 25])
        );
        assert_eq!(brackets("7. Re1 Bb7 8. a4 Be7? 8...b4 9. d3").1, [21, 28]);
        assert_eq!(brackets("12. Qd2 12. Qd2 was new."), (vec!["12. Qd2 12. Qd2 ".to_owned()], vec![7, 15]));
        // An alternative that goes on is a run of its own, which branches
        // off where its number says.
        assert_eq!(runs("7. Re1 Bb7 8. a3?! 8. a4! b4 9. d3"), ["7. Re1 Bb7 8. a3?!", "8. a4! b4 9. d3"]);
    }

    #[test]
    fn a_word_that_reads_as_a_pawn_on_the_last_rank_is_prose() {
        assert_eq!(runs("14. Qe2 cxb5 el error fue 15. Bd3"), ["14. Qe2 cxb5", "15. Bd3"]);
        assert_eq!(runs("8. d5 al final"), ["8. d5"]);
        // Nor is a lower-case letter with a letter for the rank.
        assert_eq!(runs("12. Cbd7 tal vez 13. Cxc4"), ["12. Cbd7", "13. Cxc4"]);
        // A piece's move so written is a look-alike (`Кel`).
        assert_eq!(runs("12. Кel Кf6"), ["12. Кel Кf6"]);
    }

    #[test]
    fn a_capture_sign_written_twice_is_a_stray_character() {
        let (found, repairs) = repaired("7. Кf3::d4 Сe7 8. e5xxd6 Ф::d6");
        assert_eq!(found, ["7. Кf3::d4 Сe7 8. e5xxd6 Ф::d6"]);
        let stray =
            |letter_len: usize, joined: &str| format!("{:?}", RepairKind::Stray { letter_len, joined: joined.into() });
        assert_eq!(
            repairs,
            [("Кf3::d4", stray(5, "Кf3:d4")), ("e5xxd6", stray(3, "e5xd6")), ("Ф::d6", stray(3, "Ф:d6"))]
        );
    }

    #[test]
    fn slips_between_moves_and_numbers_keep_the_run() {
        fn kinds(text: &str) -> (Vec<&str>, Vec<String>) {
            let (found, repairs) = repaired(text);
            (found, repairs.into_iter().map(|(w, r)| format!("{w} {r}")).collect())
        }
        // A glyph or a move glued to the next number.
        let (found, repairs) = kinds("1. c4 e5 2. Nc3 Nf6!3. Nf3 Nc63. g3 d5");
        assert_eq!(found, ["1. c4 e5 2. Nc3 Nf6!3. Nf3 Nc63. g3 d5"]);
        assert_eq!(repairs, ["3. GluedNumber", "3. GluedNumber"]);
        // A comma for a number's dot, where the next number stands.
        let (found, repairs) = kinds("1. c4 e5 2, Nc3 Nf6 3. Nf3");
        assert_eq!(found, ["1. c4 e5 2, Nc3 Nf6 3. Nf3"]);
        assert_eq!(repairs, ["2, NumberSign { number: \"2.\" }"]);
        assert_eq!(runs("1. c4 e5 7, Nc3 Nf6"), ["1. c4 e5"]);
        // Castling glued to the next move.
        assert_eq!(runs("5. O-ONbd7 6. O-O-OKb8 7. a3"), ["5. O-ONbd7 6. O-O-OKb8 7. a3"]);
        // A pawn capture with its files only, and a glyph.
        assert_eq!(runs("2. ed? Qxd5 3. Nc3"), ["2. ed? Qxd5 3. Nc3"]);
        // A move cut off at the end of a line.
        let (found, repairs) = kinds("1.e4 e5 2.Кf3 Кc6 3.Сb5 Кf\nПервая партия.");
        assert_eq!(found, ["1.e4 e5 2.Кf3 Кc6 3.Сb5 Кf"]);
        assert_eq!(repairs, ["Кf Unfinished"]);
    }

    #[test]
    fn forced_stretches_keep_every_word() {
        let text = "1. e4 e5 junk 2. Nf3\n\n2... Nc6";
        let mut scanner = Runs::new(text, text.len(), true);
        let found: Vec<&str> = scanner.find(0, text.len()).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["1. e4 e5 junk 2. Nf3\n\n2... Nc6"]);
    }
}
