//! Damaged games: a clean random game (PGN from [`crate::generate`], or a
//! manuscript paragraph of prose and runs of moves) with one damage, or a
//! few far apart, of the kinds a careful reader must read as the intended
//! move and report (notation.md section 7), each recorded with the byte span
//! of the damaged token in the final text, its kind, and the text it
//! stands for (the fix).
//!
//! A damage replaces one piece of the clean text (a move, a move number,
//! two moves of a pair) by its damaged writing; [`Damage::intended`] is the
//! clean piece. Where each kind applies, and why it stays readable:
//!
//! - [`Kind::LookAlike`] (section 4): in every language a Cyrillic `а`,
//!   `с`, `е` for the file letter of a square, and in Russian and Ukrainian
//!   the Cyrillic `З` for the rank `3`.
//! - [`Kind::LookAlikeLetter`] (section 4): in Russian and Ukrainian the
//!   Latin `K`, `C`, `T`, `p` in a piece letter (`Kf3`, `Kpe2`); in the
//!   languages of Latin letters the Cyrillic look-alike of a piece letter
//!   (`К` `В` `С` `Н` `Т` `Р` `А` for `K` `B` `C` `H` `T` `P` `A`), as a
//!   mixed keyboard types them. The game's language is decided by the other
//!   moves, so the letter has one reading.
//! - [`Kind::OneAsL`], [`Kind::OneAsI`], [`Kind::OneAsBar`],
//!   [`Kind::FiveAsS`], [`Kind::EightAsB`], [`Kind::TwoAsZ`]: `l`, `I`,
//!   `|`, `S`, `B`, `Z` for the digit of a rank
//!   (destination, or origin in long algebraic), in every language: after a
//!   file letter only a rank can stand, even where `S` or `B` is a piece
//!   letter. Not on promotions (`e8Q` as `eBQ` would put two letters
//!   where one piece is named).
//! - [`Kind::ZeroAsO`], [`Kind::ZeroAsLowerO`]: one `0` of a castling
//!   written with zeros (`0-0`) turned into `O` or `o` (`0-O`, `O-0-0`,
//!   `0-o`), so that the token mixes two styles; the fix may write either
//!   consistent style. A castling written with letters only is not made
//!   here (all zeros are never replaced): `O-O` is PGN's convention, and
//!   `o-o` with small letters, which the check reports as a look-alike
//!   (`analysis::tests::castling_with_the_small_letter_o_...`), is a
//!   typist's habit rather than damage a scanner does.
//! - [`Kind::CaptureX`]: `X` for the Latin capture sign `x` (styles that
//!   write `x`).
//! - [`Kind::PdfFigurine`]: figurine notation only: the code points a PDF's
//!   figurine font leaves in a copy, `¢` king, `£` queen, `¦` rook, `¥`
//!   bishop, `¤` knight. (The pawn's `§` is not generated: the generated
//!   games never write a pawn figurine.)
//! - [`Kind::NumberLookAlike`]: `I` (or `l`) for every `1` and `O` for every
//!   `0` of a move number that has one (`I.`, `II.`, `1O.`), White's numbers
//!   and the `12...` that starts a manuscript run with Black.
//! - [`Kind::LostLetter`]: a piece move's letter lost (`xg7` for `Kxg7`,
//!   `d2` for `Qd2`), short algebraic only (in long algebraic the origin
//!   square still names the piece) and only where the token is then no legal
//!   pawn move, names no origin, and exactly one legal piece move goes to
//!   that square (with a capture exactly when the token has the sign): the
//!   played one. Where several fit the generator does not damage the move.
//! - [`Kind::LostNumber`]: the digits of White's move number lost, its dot
//!   kept and glued to the move (`.b3`). A number lost whole is how PGN import format and
//!   many texts write, not damage; Black's `12...` without digits is the
//!   `...` convention.
//! - [`Kind::DoubledNumber`]: White's move number written twice (`9. 9. h3`).
//! - [`Kind::Glued`]: White's move and Black's reply with the blank between
//!   them lost (`Nf3Nc6`, `Кf3Кc6`), where Black's move starts with a piece
//!   letter (a pawn move after a square would read as long algebraic).
//! - [`Kind::SpaceSplit`]: a blank after the piece letter (`N f3`, `К f3`,
//!   `N g1-f3`); [`Kind::SpaceCapture`]: blanks around the capture sign
//!   (`e x d4`, `N x d4`, `e : d4`, `d4 х c5`). Quiet pawn moves and
//!   castling are not split.
//! - [`Kind::LineBreak`]: a move split by a line break at one of those
//!   places (`N` at the end of a line, `f3` at the start of the next; `ex`
//!   and `d4`).
//! - [`Kind::StrayChar`]: a character stuck to the end of a move: an em dash
//!   (`Lf1—`), or after a check mark the rank's digit again (`Qe3+3`).
//! - [`Kind::FileDigit`]: OCR's digit for the file letter of a long-algebraic
//!   move's destination (`0` for a round letter, `1` for a tall one, `9`
//!   for `g`: `Ng8-06`), in manuscripts only (a PGN file is written by a
//!   program), and only where the piece on the origin has one legal move to
//!   that rank: the played one.

use std::ops::Range;

use chess_ls::analysis::languages::{Language, MoveStyle, disambiguation, render_move};
use shakmaty::{Chess, Color, Move, Position, Role};

use crate::generate::{RenderOptions, SplitMix64, render_game};

/// The kinds of damage of notation.md section 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    LookAlike,
    LookAlikeLetter,
    OneAsL,
    OneAsI,
    OneAsBar,
    ZeroAsO,
    ZeroAsLowerO,
    FiveAsS,
    EightAsB,
    TwoAsZ,
    CaptureX,
    PdfFigurine,
    NumberLookAlike,
    LostLetter,
    LostNumber,
    DoubledNumber,
    Glued,
    SpaceSplit,
    SpaceCapture,
    LineBreak,
    StrayChar,
    FileDigit,
    /// Issue 29's kinds, in [`Kind::RESYNC`]: damage that a reader reads
    /// past by the position (the game must go on after it), not all of it
    /// with one certain repair.
    ///
    /// A move replaced by junk that reads as no move (`%#?`, `Qj9`).
    Junk,
    /// Two damages in one move: a rank's look-alike letter and a stray
    /// character (`Nf3` as `Nf3`..., `Qd1` as `Qdl—`).
    TwoInOne,
    /// In a manuscript, Black's move that starts a run written with White's
    /// number (`14. Qd2` for `14...Qd2`).
    BlackWithWhiteNumber,
    /// A run of moves interrupted by a sentence of prose between two moves
    /// (no damage to find: the game must go on).
    Prose,
    /// A blank inside the destination square (`Lxg 7`, `f 3`).
    SpaceInSquare,
    /// Black's move glued to White's next number (`exd48.`).
    GluedNumber,
    /// `f` for the check sign (`Qh5f`).
    CheckAsF,
    /// A piece letter lost in long algebraic (`g1-f3` for `Ng1-f3`).
    LostLetterLong,
}

impl Kind {
    pub const ALL: [Kind; 22] = [
        Kind::LookAlike,
        Kind::LookAlikeLetter,
        Kind::OneAsL,
        Kind::OneAsI,
        Kind::OneAsBar,
        Kind::ZeroAsO,
        Kind::ZeroAsLowerO,
        Kind::FiveAsS,
        Kind::EightAsB,
        Kind::TwoAsZ,
        Kind::CaptureX,
        Kind::PdfFigurine,
        Kind::NumberLookAlike,
        Kind::LostLetter,
        Kind::LostNumber,
        Kind::DoubledNumber,
        Kind::Glued,
        Kind::SpaceSplit,
        Kind::SpaceCapture,
        Kind::LineBreak,
        Kind::StrayChar,
        Kind::FileDigit,
    ];

    /// The kinds of issue 29 (a game must never stop at them).
    pub const RESYNC: [Kind; 8] = [
        Kind::Junk,
        Kind::TwoInOne,
        Kind::BlackWithWhiteNumber,
        Kind::Prose,
        Kind::SpaceInSquare,
        Kind::GluedNumber,
        Kind::CheckAsF,
        Kind::LostLetterLong,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::LookAlike => "look-alike-square",
            Kind::LookAlikeLetter => "look-alike-piece",
            Kind::OneAsL => "l-for-1",
            Kind::OneAsI => "I-for-1",
            Kind::OneAsBar => "|-for-1",
            Kind::ZeroAsO => "O-for-0",
            Kind::ZeroAsLowerO => "o-for-0",
            Kind::FiveAsS => "S-for-5",
            Kind::EightAsB => "B-for-8",
            Kind::TwoAsZ => "Z-for-2",
            Kind::CaptureX => "X-for-x",
            Kind::PdfFigurine => "pdf-figurine",
            Kind::NumberLookAlike => "I.-number",
            Kind::LostLetter => "lost-letter",
            Kind::LostNumber => "lost-number",
            Kind::DoubledNumber => "doubled-number",
            Kind::Glued => "glued",
            Kind::SpaceSplit => "space-after-piece",
            Kind::SpaceCapture => "space-at-capture",
            Kind::LineBreak => "line-break",
            Kind::StrayChar => "stray-char",
            Kind::FileDigit => "digit-for-file",
            Kind::Junk => "junk",
            Kind::TwoInOne => "two-in-one",
            Kind::BlackWithWhiteNumber => "black-white-number",
            Kind::Prose => "prose",
            Kind::SpaceInSquare => "space-in-square",
            Kind::GluedNumber => "glued-number",
            Kind::CheckAsF => "f-for-check",
            Kind::LostLetterLong => "lost-letter-long",
        }
    }

    /// The diagnostic codes that report this kind: the damage family of
    /// notation.md section 7 (`homoglyph`, `space-in-move`, `syntax`,
    /// `move-number`), and for a lost piece letter also `illegal-move`,
    /// which is what the token is as written.
    pub fn codes(self) -> &'static [&'static str] {
        const DAMAGE: &[&str] = &["homoglyph", "space-in-move", "syntax", "move-number"];
        const LOST: &[&str] = &["homoglyph", "space-in-move", "syntax", "move-number", "illegal-move"];
        const ANY: &[&str] =
            &["homoglyph", "space-in-move", "syntax", "move-number", "illegal-move", "check-mark", "pawn-letter"];
        match self {
            Kind::LostLetter => LOST,
            Kind::Junk
            | Kind::TwoInOne
            | Kind::SpaceInSquare
            | Kind::GluedNumber
            | Kind::CheckAsF
            | Kind::LostLetterLong => ANY,
            _ => DAMAGE,
        }
    }

    /// Whether the kind can occur in this language at all (it may still
    /// find no move to damage in a given game).
    pub fn applies_to(self, language: Language) -> bool {
        match self {
            Kind::PdfFigurine => language == Language::Figurine,
            _ => true,
        }
    }

    /// Whether the kind occurs in PGN (OCR's digit for a file comes from
    /// scanned pages, not from programs).
    pub fn in_pgn(self) -> bool {
        !matches!(self, Kind::FileDigit | Kind::BlackWithWhiteNumber | Kind::Prose)
    }

    /// Whether the kind leaves something to find at its token (prose
    /// between moves is no damage: the game must only go on after it).
    pub fn is_finding(self) -> bool {
        self != Kind::Prose
    }

    /// `style` with the knobs this kind needs: `X` needs the sign `x`, `O`
    /// for `0` a castling written with zeros, a lost letter short algebraic.
    pub fn adapt(self, style: MoveStyle) -> MoveStyle {
        match self {
            Kind::CaptureX => MoveStyle { capture_sign: Some("x"), ..style },
            Kind::ZeroAsO | Kind::ZeroAsLowerO => MoveStyle { castling_zeros: true, ..style },
            Kind::LostLetter => MoveStyle { long: false, ..style },
            Kind::FileDigit | Kind::LostLetterLong => MoveStyle { long: true, ..style },
            Kind::SpaceInSquare => MoveStyle { long: false, ..style },
            Kind::CheckAsF => MoveStyle { check_marks: true, ..style },
            _ => style,
        }
    }
}

/// How the clean game is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// A PGN game (with or without tags).
    Pgn,
    /// A plain-text chapter: a title and paragraphs of prose with runs of
    /// moves.
    Text,
    /// The same as Markdown, under headings.
    Markdown,
}

/// One move of a clean game.
#[derive(Clone, Debug)]
pub struct Token {
    pub ply: usize,
    /// The move's text in [`CleanGame::text`].
    pub range: Range<usize>,
    pub san: String,
    pub chess_move: Move,
    /// The move number right before the move (`12.`, `12...`), without the
    /// blank after it.
    pub number: Option<Range<usize>>,
    /// The position before the move.
    pub before: Chess,
}

/// A clean game and where its moves are.
#[derive(Clone, Debug)]
pub struct CleanGame {
    pub text: String,
    pub format: Format,
    pub style: MoveStyle,
    pub moves: Vec<Token>,
}

/// One injected damage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    pub kind: Kind,
    /// The ply of the (first) move damaged.
    pub ply: usize,
    /// The damaged text in [`DamagedGame::text`].
    pub span: Range<usize>,
    /// What the span holds (`N f3`).
    pub written: String,
    /// What it stands for (`Nf3`): the clean text it replaced.
    pub intended: String,
    /// Other writings of the same move that are as right as `intended`:
    /// for a castling that mixes `0` and `O`, both consistent styles.
    pub also: Vec<String>,
}

/// A game with its damages, in text order.
#[derive(Clone, Debug)]
pub struct DamagedGame {
    pub text: String,
    pub clean: String,
    pub damages: Vec<Damage>,
}

fn positions(moves: &[Move]) -> Vec<Chess> {
    let mut pos = Chess::default();
    moves
        .iter()
        .map(|m| {
            let before = pos.clone();
            pos.play_unchecked(*m);
            before
        })
        .collect()
}

/// The move number before a move at `start`, if the text has one right
/// there (`12.`, `12. `, `12...`).
fn number_before(text: &str, start: usize) -> Option<Range<usize>> {
    let head = text[..start].trim_end_matches(' ');
    let dots = head.len() - head.trim_end_matches('.').len();
    if dots == 0 {
        return None;
    }
    let digits_end = head.len() - dots;
    let digits = head[..digits_end].len() - head[..digits_end].trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0).then(|| digits_end - digits..head.len())
}

/// A PGN game of `moves` in `style`.
pub fn clean_pgn(moves: &[Move], style: &MoveStyle, opts: &RenderOptions) -> CleanGame {
    let game = render_game(moves, style, opts);
    let before = positions(moves);
    let tokens = game
        .moves
        .iter()
        .map(|m| Token {
            ply: m.ply,
            range: m.byte_range.clone(),
            san: m.san.clone(),
            chess_move: m.chess_move,
            number: number_before(&game.text, m.byte_range.start),
            before: before[m.ply].clone(),
        })
        .collect();
    CleanGame { text: game.text, format: Format::Pgn, style: *style, moves: tokens }
}

/// A manuscript chapter (plain text or Markdown) holding `moves` as runs of
/// 4 to 16 plies in paragraphs of prose, lines broken at 80 characters.
///
/// # Panics
///
/// Panics if `format` is [`Format::Pgn`].
pub fn clean_manuscript(moves: &[Move], style: &MoveStyle, format: Format, seed: u64) -> CleanGame {
    assert_ne!(format, Format::Pgn, "a manuscript is text or Markdown");
    let (leads, sentences) = crate::manuscript::prose_words(style.language);
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    match format {
        Format::Markdown => text.push_str("# Games\n\n## Game 1\n\n"),
        _ => text.push_str("Game 1\n\n"),
    }
    let before = positions(moves);
    let mut tokens = Vec::with_capacity(moves.len());
    let mut paragraph = String::from(sentences[rng.below(sentences.len())]);
    // Moves of the paragraph being written, with ranges in it.
    let mut pending: Vec<Token> = Vec::new();
    let mut ply = 0;
    let flush = |text: &mut String, paragraph: &mut String, pending: &mut Vec<Token>, tokens: &mut Vec<Token>| {
        let offset = text.len();
        text.push_str(&wrap_in_place(paragraph));
        text.push_str("\n\n");
        for mut t in pending.drain(..) {
            t.range = t.range.start + offset..t.range.end + offset;
            t.number = t.number.map(|n| n.start + offset..n.end + offset);
            tokens.push(t);
        }
        paragraph.clear();
    };
    while ply < moves.len() {
        let len = (4 + rng.below(13)).min(moves.len() - ply);
        paragraph.push(' ');
        paragraph.push_str(leads[rng.below(leads.len())]);
        for k in 0..len {
            let pos = &before[ply];
            let number_start = paragraph.len() + 1;
            if pos.turn() == Color::White {
                paragraph.push_str(&format!(" {}. ", pos.fullmoves()));
            } else if k == 0 {
                paragraph.push_str(&format!(" {}...", pos.fullmoves()));
            } else {
                paragraph.push(' ');
            }
            let number =
                (pos.turn() == Color::White || k == 0).then(|| number_start..paragraph.trim_end_matches(' ').len());
            let san = render_move(pos, &moves[ply], style);
            let start = paragraph.len();
            paragraph.push_str(&san);
            pending.push(Token {
                ply,
                range: start..paragraph.len(),
                san,
                chess_move: moves[ply],
                number,
                before: pos.clone(),
            });
            ply += 1;
        }
        paragraph.push_str([",", ".", ";"][rng.below(3)]);
        paragraph.push(' ');
        paragraph.push_str(sentences[rng.below(sentences.len())]);
        if rng.below(3) == 0 || ply == moves.len() {
            flush(&mut text, &mut paragraph, &mut pending, &mut tokens);
            paragraph.push_str(sentences[rng.below(sentences.len())]);
        }
    }
    CleanGame { text, format, style: *style, moves: tokens }
}

/// Lines of at most 80 characters, broken by turning blanks into line
/// breaks (so that every byte stays where it was).
fn wrap_in_place(paragraph: &str) -> String {
    let mut out = String::with_capacity(paragraph.len());
    let mut column = 0;
    for (k, word) in paragraph.split(' ').enumerate() {
        let len = word.chars().count();
        if k > 0 {
            if column > 0 && column + 1 + len > 80 {
                out.push('\n');
                column = 0;
            } else {
                out.push(' ');
                column += 1;
            }
        }
        out.push_str(word);
        column += len;
    }
    out
}

/// A replacement of `range` of the clean text.
#[derive(Clone, Debug)]
struct Edit {
    kind: Kind,
    ply: usize,
    range: Range<usize>,
    new: String,
}

/// The move without its check or mate mark.
fn core(san: &str) -> &str {
    san.trim_end_matches(['+', '#'])
}

/// The byte length of the piece letter or figurine at the start of a move
/// (0 for a pawn move or castling).
fn piece_len(san: &str) -> usize {
    if san.starts_with(['O', '0', 'o']) {
        return 0;
    }
    san.char_indices().find(|(_, c)| matches!(c, 'a'..='h' | '1'..='8')).map_or(0, |(i, _)| i)
}

/// Byte offsets (in the move) of the file letters of its squares.
fn squares(san: &str) -> Vec<usize> {
    let b = san.as_bytes();
    (0..b.len().saturating_sub(1))
        .filter(|&i| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]))
        .filter(|&i| i >= piece_len(san))
        .collect()
}

fn replace_at(s: &str, at: Range<usize>, new: &str) -> String {
    format!("{}{new}{}", &s[..at.start], &s[at.end..])
}

fn pick<'a, T>(rng: &mut SplitMix64, options: &'a [T]) -> Option<&'a T> {
    (!options.is_empty()).then(|| &options[rng.below(options.len())])
}

/// The Cyrillic look-alike of a Latin letter, and back.
fn cyrillic_of(c: char) -> Option<char> {
    Some(match c {
        'a' => 'а',
        'c' => 'с',
        'e' => 'е',
        'K' => 'К',
        'B' => 'В',
        'C' => 'С',
        'H' => 'Н',
        'T' => 'Т',
        'P' => 'Р',
        'A' => 'А',
        _ => return None,
    })
}

fn latin_of(c: char) -> Option<char> {
    Some(match c {
        'К' => 'K',
        'С' => 'C',
        'Т' => 'T',
        'р' => 'p',
        _ => return None,
    })
}

/// The damaged writing of move `t` (or of the piece of text around it)
/// for `kind`, if the kind fits that move.
fn damage_of(game: &CleanGame, kind: Kind, ply: usize, rng: &mut SplitMix64) -> Option<Edit> {
    let t = &game.moves[ply];
    let san = t.san.as_str();
    let core_len = core(san).len();
    let start = t.range.start;
    let style = &game.style;
    let promotion = t.chess_move.promotion().is_some();
    let edit = |range: Range<usize>, new: String| Some(Edit { kind, ply, range, new });
    let whole = |new: String| edit(t.range.clone(), new);
    let rank_swap = |digit: u8, with: &[&str], rng: &mut SplitMix64| {
        if promotion {
            return None;
        }
        let at: Vec<usize> =
            squares(san).into_iter().filter(|&i| san.as_bytes()[i + 1] == digit).map(|i| i + 1).collect();
        let &i = pick(rng, &at)?;
        let &letter = pick(rng, with)?;
        Some(replace_at(san, i..i + 1, letter))
    };
    match kind {
        Kind::LookAlike => {
            let mut options: Vec<(Range<usize>, char)> = Vec::new();
            for i in squares(san) {
                if let Some(c) = cyrillic_of(char::from(san.as_bytes()[i])) {
                    options.push((i..i + 1, c));
                }
                if style.language.is_cyrillic() && san.as_bytes()[i + 1] == b'3' && !promotion {
                    options.push((i + 1..i + 2, 'З'));
                }
            }
            let (at, c) = pick(rng, &options)?.clone();
            whole(replace_at(san, at, &c.to_string()))
        }
        Kind::LookAlikeLetter => {
            let mut options: Vec<(Range<usize>, char)> = Vec::new();
            for (i, c) in san[..piece_len(san)].char_indices() {
                let other = if style.language.is_cyrillic() { latin_of(c) } else { cyrillic_of(c) };
                if let Some(other) = other {
                    options.push((i..i + c.len_utf8(), other));
                }
            }
            let (at, c) = pick(rng, &options)?.clone();
            whole(replace_at(san, at, &c.to_string()))
        }
        Kind::OneAsL => whole(rank_swap(b'1', &["l"], rng)?),
        Kind::OneAsI => whole(rank_swap(b'1', &["I"], rng)?),
        Kind::OneAsBar => whole(rank_swap(b'1', &["|"], rng)?),
        Kind::FiveAsS => whole(rank_swap(b'5', &["S"], rng)?),
        Kind::EightAsB => whole(rank_swap(b'8', &["B"], rng)?),
        Kind::TwoAsZ => whole(rank_swap(b'2', &["Z"], rng)?),
        Kind::ZeroAsO | Kind::ZeroAsLowerO => {
            if !t.chess_move.is_castle() || !san.starts_with('0') {
                return None;
            }
            let zeros: Vec<usize> = san.match_indices('0').map(|(i, _)| i).collect();
            // One zero, or two of the three of a long castling: never all.
            let mut new = san.to_owned();
            let count = 1 + rng.below(zeros.len() - 1);
            let letter = if kind == Kind::ZeroAsO { "O" } else { "o" };
            for &i in zeros.iter().skip(rng.below(zeros.len() - count + 1)).take(count) {
                new = replace_at(&new, i..i + 1, letter);
            }
            whole(new)
        }
        Kind::CaptureX => {
            if style.capture_sign != Some("x") || !core(san).contains('x') {
                return None;
            }
            let i = san.find('x')?;
            whole(replace_at(san, i..i + 1, "X"))
        }
        Kind::PdfFigurine => {
            if style.language != Language::Figurine || piece_len(san) == 0 {
                return None;
            }
            let glyph = san.chars().next()?;
            let pdf = match glyph {
                '♔' | '♚' => "¢",
                '♕' | '♛' => "£",
                '♖' | '♜' => "¦",
                '♗' | '♝' => "¥",
                '♘' | '♞' => "¤",
                _ => return None,
            };
            whole(replace_at(san, 0..glyph.len_utf8(), pdf))
        }
        Kind::NumberLookAlike => {
            let number = t.number.clone()?;
            let written = &game.text[number.clone()];
            if !written.contains(['1', '0']) {
                return None;
            }
            let one = if rng.below(3) == 0 { "l" } else { "I" };
            edit(number, written.replace('1', one).replace('0', "O"))
        }
        Kind::LostLetter => {
            let Move::Normal { role, to, capture, .. } = t.chess_move else { return None };
            let plen = piece_len(san);
            if role == Role::Pawn || style.long || promotion || plen == 0 {
                return None;
            }
            let need = disambiguation(&t.before, &t.chess_move);
            if need.file || need.rank {
                return None;
            }
            let sign = capture.is_some() && style.capture_sign.is_some();
            let fitting: Vec<Move> = t
                .before
                .legal_moves()
                .into_iter()
                // Without the sign the token may still be a capture (the
                // sign is optional).
                .filter(|m| m.to() == to && (!sign || m.is_capture()))
                .collect();
            if fitting.iter().any(|m| m.role() == Role::Pawn) || fitting != [t.chess_move] {
                return None;
            }
            whole(san[plen..].to_owned())
        }
        Kind::LostNumber => {
            let number = t.number.clone()?;
            if t.before.turn() != Color::White {
                return None;
            }
            // The dot stays, glued to the move as OCR leaves it (`.b3`).
            edit(number.start..start, ".".to_owned())
        }
        Kind::DoubledNumber => {
            let number = t.number.clone()?;
            if t.before.turn() != Color::White {
                return None;
            }
            let written = &game.text[number.clone()];
            let gap = if game.text[number.end..].starts_with(' ') { " " } else { "" };
            edit(number, format!("{written}{gap}{written}"))
        }
        Kind::Glued => {
            let next = game.moves.get(ply + 1)?;
            if t.before.turn() != Color::White || next.number.is_some() || piece_len(&next.san) == 0 {
                return None;
            }
            let between = &game.text[t.range.end..next.range.start];
            if !between.chars().all(char::is_whitespace) {
                return None;
            }
            edit(start..next.range.end, format!("{san}{}", next.san))
        }
        Kind::SpaceSplit | Kind::SpaceCapture | Kind::LineBreak => {
            let mut points: Vec<(usize, usize)> = Vec::new();
            let plen = piece_len(san);
            if plen > 0 && kind != Kind::SpaceCapture {
                points.push((plen, plen));
            }
            if kind != Kind::SpaceSplit
                && let Some(sign) = style.capture_sign
                && t.chess_move.is_capture()
                && let Some(i) = core(san).find(sign)
            {
                points.push((i, i + sign.len()));
            }
            let &(before, after) = pick(rng, &points)?;
            let new = if kind == Kind::LineBreak {
                format!("{}\n{}", &san[..after], &san[after..])
            } else if before == after {
                format!("{} {}", &san[..before], &san[before..])
            } else {
                format!("{} {} {}", &san[..before], &san[before..after], &san[after..])
            };
            whole(new)
        }
        Kind::FileDigit => {
            if game.format == Format::Pgn || !style.long || promotion || t.chess_move.is_castle() {
                return None;
            }
            // The destination's file, after the origin's.
            let at = squares(san);
            let (&dest, true) = (at.last()?, at.len() == 2) else { return None };
            let from = t.chess_move.from()?;
            let rank = t.chess_move.to().rank();
            let to_rank =
                t.before.legal_moves().iter().filter(|m| m.from() == Some(from) && m.to().rank() == rank).count();
            if to_rank != 1 {
                return None;
            }
            let digit = match san.as_bytes()[dest] {
                b'b' | b'f' | b'h' => "1",
                b'g' if rng.below(2) == 0 => "9",
                _ => "0",
            };
            whole(replace_at(san, dest..dest + 1, digit))
        }
        Kind::Junk => {
            const JUNK: &[&str] = &["%#?", "Qj9", "&*", "xx0", "@@"];
            whole((*pick(rng, JUNK)?).to_owned())
        }
        Kind::TwoInOne => {
            if promotion {
                return None;
            }
            let swap = |d: u8| match d {
                b'1' => Some("l"),
                b'5' => Some("S"),
                b'8' => Some("B"),
                b'2' => Some("Z"),
                _ => None,
            };
            let &i = squares(san).last()?;
            let new = swap(san.as_bytes()[i + 1])?;
            whole(format!("{}—", replace_at(core(san), i + 1..i + 2, new)))
        }
        Kind::BlackWithWhiteNumber => {
            let number = t.number.clone()?;
            if game.format == Format::Pgn || t.before.turn() != Color::Black {
                return None;
            }
            let written = &game.text[number.clone()];
            edit(number.start..start, format!("{}. ", written.trim_end_matches('.')))
        }
        Kind::Prose => {
            // Between this move and the next one of the same run.
            let next = game.moves.get(ply + 1)?;
            if game.format == Format::Pgn || next.number.is_some() {
                return None;
            }
            let between = &game.text[t.range.end..next.range.start];
            if between != " " {
                return None;
            }
            let (_, sentences) = crate::manuscript::prose_words(style.language);
            let sentence = sentences[rng.below(sentences.len())];
            edit(t.range.end..next.range.start, format!(". {sentence} "))
        }
        Kind::SpaceInSquare => {
            if promotion || style.long || t.chess_move.is_castle() {
                return None;
            }
            let &i = squares(core(san)).last()?;
            whole(format!("{} {}", &san[..=i], &san[i + 1..]))
        }
        Kind::GluedNumber => {
            let next = game.moves.get(ply + 1)?;
            let number = next.number.clone()?;
            if t.before.turn() != Color::Black || !game.text[t.range.end..number.start].chars().all(|c| c == ' ') {
                return None;
            }
            edit(start..number.end, format!("{san}{}", &game.text[number]))
        }
        Kind::CheckAsF => {
            if !san.ends_with('+') || san.ends_with("++") {
                return None;
            }
            whole(format!("{}f", core(san)))
        }
        Kind::LostLetterLong => {
            let plen = piece_len(san);
            if !style.long || plen == 0 || promotion || squares(san).len() != 2 {
                return None;
            }
            whole(san[plen..].to_owned())
        }
        Kind::StrayChar => {
            let checked = san.len() > core_len;
            if checked && rng.below(2) == 0 {
                let rank = core(san).chars().rev().find(char::is_ascii_digit)?;
                whole(format!("{san}{rank}"))
            } else {
                whole(format!("{san}—"))
            }
        }
    }
}

/// The game with `kinds` injected, one each, at random moves at least
/// eight plies apart, in text order; `None` when the game has no room or
/// no move fits a kind.
pub fn damage(game: &CleanGame, kinds: &[Kind], rng: &mut SplitMix64) -> Option<DamagedGame> {
    let mut edits: Vec<Edit> = Vec::new();
    for &kind in kinds {
        let n = game.moves.len();
        if n == 0 {
            return None;
        }
        // Try the moves from a random one on, so that the first move that
        // fits is random.
        let first = rng.below(n);
        let found = (0..n).map(|k| (first + k) % n).find_map(|ply| {
            if edits.iter().any(|e| e.ply.abs_diff(ply) < 8) {
                return None;
            }
            damage_of(game, kind, ply, rng)
        })?;
        edits.push(found);
    }
    edits.sort_by_key(|e| e.range.start);
    let mut text = String::with_capacity(game.text.len() + 32);
    let mut damages = Vec::with_capacity(edits.len());
    let mut at = 0;
    for e in edits {
        text.push_str(&game.text[at..e.range.start]);
        let span = text.len()..text.len() + e.new.len();
        text.push_str(&e.new);
        at = e.range.end;
        damages.push(Damage {
            kind: e.kind,
            ply: e.ply,
            span,
            written: e.new,
            also: match e.kind {
                Kind::ZeroAsO | Kind::ZeroAsLowerO => vec![game.text[e.range.clone()].replace('0', "O")],
                _ => Vec::new(),
            },
            intended: game.text[e.range].to_owned(),
        });
    }
    text.push_str(&game.text[at..]);
    Some(DamagedGame { text, clean: game.text.clone(), damages })
}

/// `text` compared loosely: blanks collapsed to one, none after a move
/// number's dot (`9. h3` and `9.h3` are the same text), and the black
/// figurines read as the white ones (`♞f6` and `♘f6` are the same move).
pub fn normalized(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if ('♚'..='♟').contains(&c) { char::from_u32(c as u32 - 6).unwrap_or(c) } else { c })
        .collect();
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let glued = out.ends_with('.') && out[..out.len() - 1].ends_with(|c: char| c.is_ascii_digit());
        if !out.is_empty() && !glued {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random_game;

    #[test]
    fn numbers_and_ranges_point_at_the_text() {
        let moves = random_game(3, 60);
        let style = MoveStyle::for_language(Language::Ru);
        for game in [
            clean_pgn(&moves, &style, &RenderOptions::default()),
            clean_manuscript(&moves, &style, Format::Text, 1),
            clean_manuscript(&moves, &style, Format::Markdown, 2),
        ] {
            assert_eq!(game.moves.len(), moves.len());
            for t in &game.moves {
                assert_eq!(&game.text[t.range.clone()], t.san);
                if t.ply % 2 == 0 {
                    let number = t.number.clone().expect("White's moves are numbered");
                    assert_eq!(game.text[number].trim_end_matches('.'), (t.ply / 2 + 1).to_string());
                }
            }
        }
    }

    #[test]
    fn damage_is_where_it_says() {
        let moves = random_game(7, 80);
        let game = clean_pgn(&moves, &MoveStyle::for_language(Language::En), &RenderOptions::default());
        let mut rng = SplitMix64::new(5);
        let damaged = damage(&game, &[Kind::SpaceSplit, Kind::StrayChar], &mut rng).expect("room for two");
        assert_eq!(damaged.damages.len(), 2);
        for d in &damaged.damages {
            assert_eq!(damaged.text[d.span.clone()], d.written);
            assert_ne!(d.written, d.intended);
        }
        assert_eq!(normalized("9.  h3\nNc6"), "9.h3 Nc6");
        assert_eq!(normalized("♞f6 ♛d8 ♟"), "♘f6 ♕d8 ♙");
    }
}
