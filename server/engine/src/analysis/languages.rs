//! The notation languages: what their piece letters mean, the look-alike letters that stand for them, and how a move is written in each.
//!
//! The letters themselves are data of the lexicon of the notation
//! ([`crate::syntax::lexicon`], one row per [`Language`]), which every
//! reader of the notation shares; this module gives them their pieces.
//!
//! The same letter means different pieces in different languages (`R` is the
//! king in French, the rook in English and the knight in Finnish), so nothing
//! here guesses a language from one token: [`languages_for_letter`] lists every
//! reading, and the analysis keeps the language under which the whole game
//! replays legally.
//!
//! ```
//! use chess_ls_engine::analysis::languages::{render_move, Language, MoveStyle};
//! use shakmaty::{Chess, Move, Position, Role, Square};
//!
//! let pos = Chess::default();
//! let knight = Move::Normal {
//!     role: Role::Knight, from: Square::G1, capture: None, to: Square::F3, promotion: None,
//! };
//! assert!(pos.is_legal(knight));
//! assert_eq!(render_move(&pos, &knight, &MoveStyle::for_language(Language::Ru)), "Кf3");
//! assert_eq!(Language::Fr.role_of("C"), Some(Role::Knight));
//! ```

use shakmaty::{Chess, Color, Move, Position, Role, Square};

use crate::syntax::lexicon::{self, FIGURINES_BLACK, LanguageLexicon};

/// A language in which chess moves are written (notation.md, section 3).
/// Its letters are its row of [`lexicon::LANGUAGES`], in the same order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    En,
    Ru,
    Uk,
    De,
    Sv,
    Da,
    No,
    Nl,
    Fr,
    Es,
    It,
    Ca,
    Pt,
    Ro,
    Cs,
    Sk,
    Pl,
    Hu,
    Fi,
    Is,
    Tr,
    /// Figurine algebraic notation: pieces are drawn as glyphs (`♘f3`).
    Figurine,
}

/// The pieces that have a letter, in the column order of the table in
/// notation.md so that [`Language::letters`] reads like that table.
const LETTERED_ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Language {
    /// Every language, English first because it is the PGN default.
    pub const ALL: [Language; 22] = [
        Language::En,
        Language::Ru,
        Language::Uk,
        Language::De,
        Language::Sv,
        Language::Da,
        Language::No,
        Language::Nl,
        Language::Fr,
        Language::Es,
        Language::It,
        Language::Ca,
        Language::Pt,
        Language::Ro,
        Language::Cs,
        Language::Sk,
        Language::Pl,
        Language::Hu,
        Language::Fi,
        Language::Is,
        Language::Tr,
        Language::Figurine,
    ];

    /// The letters of this language in the lexicon of the notation.
    pub const fn lexicon(self) -> &'static LanguageLexicon {
        &lexicon::LANGUAGES[self as usize]
    }

    /// The code used in settings and file overrides: the ISO 639-1 code, or
    /// `figurine`.
    pub const fn code(self) -> &'static str {
        self.lexicon().code
    }

    /// The language with this code. Case is ignored because settings and
    /// tags are typed by people (`RU`, `Figurine`).
    pub fn from_code(code: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|language| language.code().eq_ignore_ascii_case(code))
    }

    /// The English name, for messages such as "assumed language: Russian".
    pub const fn name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Ru => "Russian",
            Language::Uk => "Ukrainian",
            Language::De => "German",
            Language::Sv => "Swedish",
            Language::Da => "Danish",
            Language::No => "Norwegian",
            Language::Nl => "Dutch",
            Language::Fr => "French",
            Language::Es => "Spanish",
            Language::It => "Italian",
            Language::Ca => "Catalan",
            Language::Pt => "Portuguese",
            Language::Ro => "Romanian",
            Language::Cs => "Czech",
            Language::Sk => "Slovak",
            Language::Pl => "Polish",
            Language::Hu => "Hungarian",
            Language::Fi => "Finnish",
            Language::Is => "Icelandic",
            Language::Tr => "Turkish",
            Language::Figurine => "Figurine",
        }
    }

    /// Whether the language writes its piece letters in Cyrillic, which is
    /// where Latin look-alikes creep in and where the Cyrillic `х` capture
    /// sign is normal rather than a look-alike (notation.md, section 4).
    pub const fn is_cyrillic(self) -> bool {
        self.lexicon().cyrillic
    }

    /// The canonical letters of king, queen, rook, bishop and knight, as in
    /// the table of notation.md section 3 (white glyphs for figurines).
    pub const fn letters(self) -> [&'static str; 5] {
        self.lexicon().pieces
    }

    /// The canonical letter of a piece. A pawn gets the empty string because
    /// FIDE writes pawn moves without a letter; see [`Language::pawn_letters`]
    /// for the discouraged ones that are still read.
    pub const fn letter(self, role: Role) -> &'static str {
        let letters = self.letters();
        match role {
            Role::Pawn => "",
            Role::King => letters[0],
            Role::Queen => letters[1],
            Role::Rook => letters[2],
            Role::Bishop => letters[3],
            Role::Knight => letters[4],
        }
    }

    /// The piece a letter stands for, comparing the text exactly as written:
    /// Latin `K` is not the Russian knight here, because reporting it as a
    /// look-alike is [`Language::lookalike_letter`]'s job. Pawn letters are
    /// not pieces and give `None`; ask [`Language::is_pawn_letter`].
    pub fn role_of(self, letter: &str) -> Option<Role> {
        let row = self.lexicon();
        let index = row
            .pieces
            .iter()
            .position(|&l| same_letter(l, letter))
            .or_else(|| row.pieces_also.and_then(|also| also.iter().position(|&l| same_letter(l, letter))))?;
        Some(LETTERED_ROLES[index])
    }

    /// The pawn letters that are read (and warned about as `pawn-letter`);
    /// [`LanguageLexicon::pawns`] says how they are chosen.
    pub const fn pawn_letters(self) -> &'static [&'static str] {
        self.lexicon().pawns
    }

    /// Whether the text is a pawn letter of this language, exactly as written.
    pub fn is_pawn_letter(self, letter: &str) -> bool {
        self.pawn_letters().iter().any(|&p| same_letter(p, letter))
    }

    /// If `written` is a look-alike of one of this language's letters (piece
    /// or pawn), the letter it stands for: (`K`, ru) gives `К`, the knight;
    /// (`Kp`, ru) gives `Кр`, the king. A letter that is already right, or
    /// that stands for nothing in this language, gives `None`.
    pub fn lookalike_letter(self, written: &str) -> Option<&'static str> {
        if self.role_of(written).is_some() || self.is_pawn_letter(written) {
            return None;
        }
        let (normalized, lookalikes, transliterated) = self.respelled(written);
        // A transliteration is no look-alike (`Kr` is read only where a
        // whole game's letters are transliterated).
        if lookalikes == 0 || transliterated > 0 {
            return None;
        }
        self.letters().into_iter().chain(self.pawn_letters().iter().copied()).find(|&letter| letter == normalized)
    }

    /// The letter of this language that a Latin transliteration stands for
    /// (`F` for `Ф`, `Kr` for `Кр`, `S` for `С` in Russian and Ukrainian):
    /// `None` unless some character of it is a transliteration rather than
    /// a look-alike, and for languages that are not written in Cyrillic.
    pub fn transliterated_letter(self, written: &str) -> Option<&'static str> {
        let (normalized, _, transliterated) = self.respelled(written);
        if transliterated == 0 {
            return None;
        }
        self.letters().into_iter().find(|&letter| letter == normalized)
    }

    /// A piece-letter text with its look-alikes of this language's letters
    /// and (where it has them) its transliterations read as the letters
    /// they stand for, and how many characters were each.
    fn respelled(self, written: &str) -> (String, usize, usize) {
        let row = self.lexicon();
        let (mut lookalikes, mut transliterated) = (0, 0);
        let normalized = written
            .chars()
            .map(|ch| {
                if let Some(right) = lexicon::lookalike(row.lookalikes, ch) {
                    lookalikes += 1;
                    right
                } else if let Some(right) = lexicon::lookalike(row.transliterations, ch) {
                    transliterated += 1;
                    right
                } else {
                    ch
                }
            })
            .collect();
        (normalized, lookalikes, transliterated)
    }

    /// How the letters of this language are written in a Latin
    /// transliteration (`K = К, Kr = Кр, F = Ф, L = Л, S = С`), for messages.
    pub fn transliteration_table(self) -> String {
        let row = self.lexicon();
        let latin = |meant: char| {
            row.transliterations
                .iter()
                .chain(row.lookalikes)
                .find(|&&(written, right)| right == meant && written.is_ascii())
                .map_or(meant, |&(written, _)| written)
        };
        let mut letters = self.letters();
        // The knight first, then the king: `K` before `Kr`.
        letters.reverse();
        letters
            .iter()
            .map(|letter| format!("{} = {letter}", letter.chars().map(latin).collect::<String>()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// How this language reads a piece-letter text as written: the exact
    /// piece letter first, then the pawn letter, then a look-alike.
    pub fn read_letter(self, written: &str) -> Option<PieceReading> {
        if let Some(role) = self.role_of(written) {
            return Some(PieceReading { role, lookalike_of: None });
        }
        if self.is_pawn_letter(written) {
            return Some(PieceReading { role: Role::Pawn, lookalike_of: None });
        }
        let right = self.lookalike_letter(written)?;
        let role = self.role_of(right).unwrap_or(Role::Pawn);
        Some(PieceReading { role, lookalike_of: Some(right) })
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether two piece-letter texts are the same: `a == b`, with the usual
/// one-byte letters compared without a call to `memcmp` (the replay and
/// the language inference compare letters for every move).
#[inline]
pub fn same_letter(a: &str, b: &str) -> bool {
    match (a.as_bytes(), b.as_bytes()) {
        ([x], [y]) => x == y,
        (a, b) => a == b,
    }
}

/// What a piece-letter text means in one language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceReading {
    /// The piece; [`Role::Pawn`] means the text is a (discouraged) pawn letter.
    pub role: Role,
    /// `Some(right letter)` when the text is a look-alike of that letter and
    /// should be reported with a fix (`homoglyph`).
    pub lookalike_of: Option<&'static str>,
}

/// Every language that reads `letter` as a piece or pawn letter, with the
/// reading, so that the analysis can narrow down the language of a game:
/// `R` is the rook in English, the king in French, Spanish, ..., and the
/// knight in Finnish and Icelandic. Look-alike readings are included and
/// flagged, so that a Russian game typed with Latin `K` still counts as
/// Russian.
pub fn languages_for_letter(letter: &str) -> impl Iterator<Item = (Language, PieceReading)> + '_ {
    Language::ALL
        .into_iter()
        .filter_map(move |language| language.read_letter(letter).map(|reading| (language, reading)))
}

/// Which languages read `letter` (as [`languages_for_letter`] lists them):
/// bit `k` of the first mask for `Language::ALL[k]`, of the second where it
/// reads the letter as written (not as a look-alike). Remembered per thread
/// by the letter's text: a book uses a handful of letters, and reading each
/// in every language, for every run's letters, was a fifth of checking a
/// manuscript (a third once its language was counted from them too).
pub fn letter_readers(letter: &str) -> (u32, u32) {
    const _: () = assert!(Language::ALL.len() <= 32, "a bit for each language");
    thread_local! {
        static KNOWN: std::cell::RefCell<std::collections::HashMap<String, (u32, u32)>> =
            std::cell::RefCell::default();
    }
    KNOWN.with_borrow_mut(|known| {
        if let Some(&masks) = known.get(letter) {
            return masks;
        }
        let mut masks = (0, 0);
        for (k, language) in Language::ALL.into_iter().enumerate() {
            if let Some(reading) = language.read_letter(letter) {
                masks.0 |= 1 << k;
                if reading.lookalike_of.is_none() {
                    masks.1 |= 1 << k;
                }
            }
        }
        // Hostile text may write many letters: stay small.
        if known.len() >= 4096 {
            known.clear();
        }
        known.insert(letter.to_owned(), masks);
        masks
    })
}

/// Where a look-alike character stands, because the same glyph means
/// different things in different places (`l` is a rank digit, `р` is part
/// of the Russian king).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LookalikeContext {
    /// The file letter of a square (`е5` with a Cyrillic `е`).
    File,
    /// The rank digit of a square (`Лdl` with a letter `l`).
    Rank,
    /// A piece letter in a game of this language.
    PieceLetter(Language),
    /// The letters of castling (`О-О` with Cyrillic `О`).
    Castling,
    /// The capture sign between piece and square.
    CaptureSign,
}

/// What a look-alike character stands for in its context, or `None` when it
/// is not a look-alike there (either right already, or not notation at all).
///
/// The Cyrillic `х` capture sign maps to `x`, but it is normal in Russian
/// and Ukrainian games, so the caller does not report it when
/// [`Language::is_cyrillic`] holds. In castling both `O` (PGN) and `0`
/// (FIDE) are right; only the Cyrillic `О` is a look-alike.
pub fn normalize_lookalike(ch: char, context: LookalikeContext) -> Option<char> {
    match context {
        LookalikeContext::File => lexicon::lookalike(&lexicon::FILE_LOOKALIKES, ch),
        LookalikeContext::Rank => lexicon::lookalike(&lexicon::RANK_LOOKALIKES, ch),
        // Only Cyrillic languages have Latin look-alikes of their letters;
        // in a Latin-letter language a Latin `K` is simply a letter.
        LookalikeContext::PieceLetter(language) => lexicon::lookalike(language.lexicon().lookalikes, ch),
        LookalikeContext::Castling => lexicon::lookalike(&lexicon::CASTLING_LOOKALIKES, ch),
        LookalikeContext::CaptureSign => lexicon::lookalike(&lexicon::CAPTURE_LOOKALIKES, ch),
    }
}

/// How moves are written: the knobs in which real texts differ. The default
/// is PGN's SAN (English, `x`, `+`/`#`, `O-O`, `=Q`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveStyle {
    pub language: Language,
    /// `Some("x")`, the Cyrillic `Some("х")`, the old `Some(":")`, or `None`
    /// to omit the sign (FIDE 19 does not require it).
    pub capture_sign: Option<&'static str>,
    /// Write `+` after a check and `#` after a mate.
    pub check_marks: bool,
    /// Long algebraic: `Ng1-f3`, `e2-e4`, `e4xd5`.
    pub long: bool,
    /// `0-0` (the FIDE text) instead of `O-O` (PGN).
    pub castling_zeros: bool,
    /// `d8=Q` instead of `d8Q`.
    pub promotion_equals: bool,
    /// In figurine notation, write Black's pieces with the black glyphs
    /// (`♞f6`) instead of the white ones that most books use for both sides.
    pub figurine_black: bool,
}

impl MoveStyle {
    /// PGN conventions in the given language. The capture sign stays the
    /// Latin `x` even in Russian, because that is what PGN files and most
    /// current books use; set `capture_sign` for the Cyrillic `х`.
    pub const fn for_language(language: Language) -> MoveStyle {
        MoveStyle {
            language,
            capture_sign: Some("x"),
            check_marks: true,
            long: false,
            castling_zeros: false,
            promotion_equals: true,
            figurine_black: false,
        }
    }

    /// The text of a piece for the side that moves it.
    fn piece_text(&self, role: Role, color: Color) -> &'static str {
        if self.language == Language::Figurine && self.figurine_black && color == Color::Black {
            match role {
                Role::Pawn => "",
                Role::King => FIGURINES_BLACK[0],
                Role::Queen => FIGURINES_BLACK[1],
                Role::Rook => FIGURINES_BLACK[2],
                Role::Bishop => FIGURINES_BLACK[3],
                Role::Knight => FIGURINES_BLACK[4],
            }
        } else {
            self.language.letter(role)
        }
    }
}

impl Default for MoveStyle {
    fn default() -> MoveStyle {
        MoveStyle::for_language(Language::En)
    }
}

/// Which parts of the departure square a short move must name (FIDE 18.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Disambiguation {
    pub file: bool,
    pub rank: bool,
}

/// The disambiguation a move needs in `pos`: none when no other LEGAL move
/// of the same piece kind reaches the same square (a pinned knight does not
/// count); the file when it decides, which 18.9.3 prefers even when the rank
/// would do too; the rank when the pieces share the file; both when neither
/// alone is enough (three queens). Pawn moves and castling never need any,
/// since a pawn capture names its file anyway.
pub fn disambiguation(pos: &Chess, m: &Move) -> Disambiguation {
    let Move::Normal { role, from, to, .. } = *m else {
        return Disambiguation::default();
    };
    if role == Role::Pawn {
        return Disambiguation::default();
    }
    let mut ambiguous = false;
    let mut shares_file = false;
    let mut shares_rank = false;
    let mut candidates = super::replay::candidates::Matches::new();
    super::replay::candidates::san_candidates(pos, role, to, &mut candidates);
    for other in candidates {
        if let Move::Normal { role: r, from: f, .. } = other
            && r == role
            && f != from
        {
            ambiguous = true;
            shares_file |= f.file() == from.file();
            shares_rank |= f.rank() == from.rank();
        }
    }
    Disambiguation { file: ambiguous && (!shares_file || shares_rank), rank: shares_file }
}

/// The move written in `style`. In the default style this is exactly
/// shakmaty's SAN with check suffix. `m` should be legal in `pos`; for an
/// illegal move the text is still produced but carries no check mark.
pub fn render_move(pos: &Chess, m: &Move, style: &MoveStyle) -> String {
    let mut out = String::with_capacity(12);
    let color = pos.turn();
    match *m {
        Move::Castle { king, rook } => {
            let letter = if style.castling_zeros { "0" } else { "O" };
            out.push_str(letter);
            out.push('-');
            out.push_str(letter);
            if rook.file() < king.file() {
                out.push('-');
                out.push_str(letter);
            }
        }
        Move::Normal { role, from, capture, to, promotion } => {
            let (file, rank) = if style.long {
                (true, true)
            } else if role == Role::Pawn {
                (capture.is_some(), false)
            } else {
                let needed = disambiguation(pos, m);
                (needed.file, needed.rank)
            };
            out.push_str(style.piece_text(role, color));
            push_departure(&mut out, from, file, rank);
            push_separator(&mut out, capture.is_some(), style);
            push_square(&mut out, to);
            if let Some(promotion) = promotion {
                if style.promotion_equals {
                    out.push('=');
                }
                out.push_str(style.piece_text(promotion, color));
            }
        }
        Move::EnPassant { from, to } => {
            push_departure(&mut out, from, true, style.long);
            push_separator(&mut out, true, style);
            push_square(&mut out, to);
        }
        // Drops exist only in variants, which the notation does not cover;
        // they are written the way PGN writes them for crazyhouse.
        Move::Put { role, to } => {
            out.push_str(style.piece_text(role, color));
            out.push('@');
            push_square(&mut out, to);
        }
    }
    if style.check_marks
        && let Some(mark) = check_mark_after(pos, m)
    {
        out.push(mark);
    }
    out
}

fn push_square(out: &mut String, square: Square) {
    out.push(square.file().char());
    out.push(square.rank().char());
}

fn push_departure(out: &mut String, from: Square, file: bool, rank: bool) {
    if file {
        out.push(from.file().char());
    }
    if rank {
        out.push(from.rank().char());
    }
}

/// The capture sign, or in long notation the hyphen of a quiet move. A long
/// capture written without a sign keeps the hyphen, because `e4d5` with
/// nothing between the squares is UCI, not notation anyone writes.
fn push_separator(out: &mut String, capture: bool, style: &MoveStyle) {
    match (capture, style.capture_sign) {
        (true, Some(sign)) => out.push_str(sign),
        _ if style.long => out.push('-'),
        _ => {}
    }
}

/// `#` for mate, `+` for check, computed by playing the move on a copy.
fn check_mark_after(pos: &Chess, m: &Move) -> Option<char> {
    if !pos.is_legal(*m) {
        return None;
    }
    let mut after = pos.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        Some('#')
    } else if after.is_check() {
        Some('+')
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::san::SanPlus;
    use shakmaty::{CastlingMode, Square};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("test FEN parses")
            .into_position(CastlingMode::Standard)
            .expect("test FEN is a legal position")
    }

    /// The legal move from `from` to `to` (the first one, i.e. any
    /// promotion, when the move promotes; tests that care pick their own).
    fn legal(pos: &Chess, from: Square, to: Square) -> Move {
        pos.legal_moves()
            .into_iter()
            .find(|m| m.from() == Some(from) && m.to() == to)
            .unwrap_or_else(|| panic!("no legal move {from}{to}"))
    }

    fn en(pos: &Chess, m: &Move) -> String {
        render_move(pos, m, &MoveStyle::default())
    }

    /// A splitmix64 generator, so the random-game tests are reproducible
    /// without a dependency (the tests crate has its own for the corpus).
    struct SplitMix(u64);

    impl SplitMix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Positions along random games, plus a few that random games rarely
    /// reach: promotions, both castlings, en passant, three queens.
    fn test_positions() -> Vec<Chess> {
        let mut positions = vec![
            position("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1"),
            position("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R b KQkq - 0 1"),
            position("1n2k3/P1P3P1/8/8/8/8/1p3p1p/3K2N1 w - - 0 1"),
            position("1n2k3/P1P3P1/8/8/8/8/1p3p1p/3K2N1 b - - 0 1"),
            position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"),
            position("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1"),
            position("6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1"),
        ];
        let mut rng = SplitMix(7);
        for _ in 0..12 {
            let mut pos = Chess::default();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                positions.push(pos.clone());
                let m = moves[rng.below(moves.len())];
                pos.play_unchecked(m);
            }
        }
        positions
    }

    /// Reads a rendered move back into English SAN, using only this module's
    /// table, so that every language is checked against shakmaty.
    fn to_english(text: &str, language: Language) -> String {
        if text.starts_with(['O', '0']) {
            return text.replace('0', "O");
        }
        let (body, promotion) = match text.split_once('=') {
            Some((body, rest)) => (body, Some(rest)),
            None => (text, None),
        };
        let translate = |letter: &str| -> Option<char> { language.role_of(letter).map(|role| role.upper_char()) };
        let mut out = String::new();
        let mut rest = body;
        if !body.starts_with(|c: char| ('a'..='h').contains(&c)) {
            // Piece letters are one or two characters (`Кр`); try the
            // longer one first so that `Кр` is not read as `К` plus `р`.
            let ends: Vec<usize> = body.char_indices().map(|(i, _)| i).skip(1).take(2).collect();
            let end = ends
                .into_iter()
                .rev()
                .find(|&end| translate(&body[..end]).is_some())
                .unwrap_or_else(|| panic!("no piece letter at the start of {text:?} in {language:?}"));
            out.extend(translate(&body[..end]));
            rest = &body[end..];
        }
        out.push_str(rest);
        if let Some(promotion) = promotion {
            let letter = promotion.trim_end_matches(['+', '#']);
            let marks = &promotion[letter.len()..];
            out.push('=');
            out.push(translate(letter).expect("promotion letter"));
            out.push_str(marks);
        }
        out
    }

    #[test]
    fn languages_are_the_rows_of_the_lexicon() {
        assert_eq!(Language::ALL.len(), lexicon::LANGUAGES.len());
        for (index, language) in Language::ALL.into_iter().enumerate() {
            assert_eq!(language as usize, index);
            assert_eq!(language.lexicon(), &lexicon::LANGUAGES[index]);
        }
        let codes = ["en", "ru", "uk", "de", "sv", "da", "no", "nl", "fr", "es", "it", "ca", "pt", "ro", "cs", "sk"];
        for (language, code) in Language::ALL.into_iter().zip(codes.into_iter().chain(["pl", "hu", "fi", "is", "tr"])) {
            assert_eq!(language.code(), code);
        }
        assert_eq!(Language::Figurine.code(), "figurine");
    }

    #[test]
    fn codes_and_names_round_trip() {
        assert_eq!(Language::ALL.len(), 22);
        for language in Language::ALL {
            assert_eq!(Language::from_code(language.code()), Some(language));
            assert!(!language.name().is_empty());
        }
        let mut codes: Vec<_> = Language::ALL.iter().map(|l| l.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), 22);
        assert_eq!(Language::from_code("RU"), Some(Language::Ru));
        assert_eq!(Language::from_code("figurine"), Some(Language::Figurine));
        assert_eq!(Language::from_code("xx"), None);
        assert_eq!(Language::Ru.name(), "Russian");
        assert_eq!(Language::Figurine.to_string(), "Figurine");
    }

    #[test]
    fn table_is_the_one_in_notation_md() {
        // Written out again, row by row, so that a slip in `letters` shows
        // up as a difference against the documented table.
        let table: [(Language, &str); 22] = [
            (Language::En, "K Q R B N"),
            (Language::Ru, "Кр Ф Л С К"),
            (Language::Uk, "Кр Ф Т С К"),
            (Language::De, "K D T L S"),
            (Language::Sv, "K D T L S"),
            (Language::Da, "K D T L S"),
            (Language::No, "K D T L S"),
            (Language::Nl, "K D T L P"),
            (Language::Fr, "R D T F C"),
            (Language::Es, "R D T A C"),
            (Language::It, "R D T A C"),
            (Language::Ca, "R D T A C"),
            (Language::Pt, "R D T B C"),
            (Language::Ro, "R D T N C"),
            (Language::Cs, "K D V S J"),
            (Language::Sk, "K D V S J"),
            (Language::Pl, "K H W G S"),
            (Language::Hu, "K V B F H"),
            (Language::Fi, "K D T L R"),
            (Language::Is, "K D H B R"),
            (Language::Tr, "Ş V K F A"),
            (Language::Figurine, "♔ ♕ ♖ ♗ ♘"),
        ];
        for (language, row) in table {
            let letters: Vec<&str> = row.split(' ').collect();
            for (role, letter) in LETTERED_ROLES.into_iter().zip(letters) {
                assert_eq!(language.letter(role), letter, "{language:?} {role:?}");
                assert_eq!(language.role_of(letter), Some(role), "{language:?} {letter}");
            }
            assert_eq!(language.letter(Role::Pawn), "");
        }
    }

    #[test]
    fn russian_king_is_two_letters_and_knight_one() {
        assert_eq!(Language::Ru.role_of("Кр"), Some(Role::King));
        assert_eq!(Language::Ru.role_of("К"), Some(Role::Knight));
        assert_eq!(Language::Uk.role_of("Кр"), Some(Role::King));
        assert_eq!(Language::Uk.role_of("Т"), Some(Role::Rook));
        assert_eq!(Language::Ru.role_of("Т"), None);
        // Exact comparison: the Latin letters are look-alikes, not letters.
        assert_eq!(Language::Ru.role_of("K"), None);
        assert_eq!(Language::Ru.role_of("Kp"), None);
    }

    #[test]
    fn figurines_accept_both_colours() {
        for (white, black) in lexicon::FIGURINES_WHITE.into_iter().zip(FIGURINES_BLACK) {
            let role = Language::Figurine.role_of(white);
            assert!(role.is_some());
            assert_eq!(Language::Figurine.role_of(black), role);
        }
        assert_eq!(Language::Figurine.role_of("♞"), Some(Role::Knight));
        assert_eq!(Language::Figurine.letter(Role::Knight), "♘");
        assert_eq!(Language::En.role_of("♘"), None);
    }

    #[test]
    fn pawn_letters() {
        assert!(Language::En.is_pawn_letter("P"));
        assert!(Language::En.is_pawn_letter("p"));
        assert!(Language::Ru.is_pawn_letter("п"));
        assert!(Language::Uk.is_pawn_letter("П"));
        assert!(Language::De.is_pawn_letter("B"));
        // `b` is a file: `bc5` is a pawn capture, never a pawn letter.
        assert!(!Language::De.is_pawn_letter("b"));
        assert!(!Language::Hu.is_pawn_letter("g"));
        for letter in ["P", "p"] {
            assert!(!Language::Nl.is_pawn_letter(letter));
        }
        assert_eq!(Language::Nl.role_of("P"), Some(Role::Knight));
        // No pawn letter may shadow a piece letter of the same language.
        for language in Language::ALL {
            for letter in language.pawn_letters() {
                assert_eq!(language.role_of(letter), None, "{language:?} {letter}");
            }
        }
    }

    fn readers(letter: &str) -> Vec<(Language, Role)> {
        languages_for_letter(letter)
            .filter(|(_, reading)| reading.lookalike_of.is_none())
            .map(|(language, reading)| (language, reading.role))
            .collect()
    }

    #[test]
    fn r_means_rook_king_or_knight() {
        let r = readers("R");
        assert!(r.contains(&(Language::En, Role::Rook)));
        for language in [Language::Fr, Language::Es, Language::It, Language::Ca, Language::Pt, Language::Ro] {
            assert!(r.contains(&(language, Role::King)), "{language:?}");
        }
        assert!(r.contains(&(Language::Fi, Role::Knight)));
        assert!(r.contains(&(Language::Is, Role::Knight)));
        assert!(!r.iter().any(|(language, _)| *language == Language::De));
    }

    #[test]
    fn b_means_bishop_rook_or_pawn() {
        let b = readers("B");
        assert!(b.contains(&(Language::En, Role::Bishop)));
        assert!(b.contains(&(Language::Pt, Role::Bishop)));
        assert!(b.contains(&(Language::Is, Role::Bishop)));
        assert!(b.contains(&(Language::Hu, Role::Rook)));
        assert!(b.contains(&(Language::De, Role::Pawn)));
        assert!(!b.iter().any(|(language, _)| *language == Language::Fr));
    }

    #[test]
    fn p_is_a_pawn_except_in_dutch() {
        let p = readers("P");
        assert!(p.contains(&(Language::Nl, Role::Knight)));
        assert!(p.contains(&(Language::En, Role::Pawn)));
        assert!(p.contains(&(Language::Fr, Role::Pawn)));
    }

    #[test]
    fn latin_k_reads_as_russian_knight_through_a_lookalike() {
        let readings: Vec<_> = languages_for_letter("K").collect();
        assert!(readings.contains(&(Language::Ru, PieceReading { role: Role::Knight, lookalike_of: Some("К") })));
        assert!(readings.contains(&(Language::En, PieceReading { role: Role::King, lookalike_of: None })));
        let kp: Vec<_> = languages_for_letter("Kp").collect();
        assert_eq!(
            kp,
            vec![
                (Language::Ru, PieceReading { role: Role::King, lookalike_of: Some("Кр") }),
                (Language::Uk, PieceReading { role: Role::King, lookalike_of: Some("Кр") }),
            ]
        );
    }

    #[test]
    fn lookalike_characters() {
        use LookalikeContext::*;
        assert_eq!(normalize_lookalike('а', File), Some('a'));
        assert_eq!(normalize_lookalike('с', File), Some('c'));
        assert_eq!(normalize_lookalike('е', File), Some('e'));
        assert_eq!(normalize_lookalike('һ', File), Some('h'));
        assert_eq!(normalize_lookalike('e', File), None);
        assert_eq!(normalize_lookalike('l', Rank), Some('1'));
        assert_eq!(normalize_lookalike('З', Rank), Some('3'));
        assert_eq!(normalize_lookalike('3', Rank), None);
        assert_eq!(normalize_lookalike('К', PieceLetter(Language::Ru)), None);
        assert_eq!(normalize_lookalike('K', PieceLetter(Language::Ru)), Some('К'));
        assert_eq!(normalize_lookalike('C', PieceLetter(Language::Uk)), Some('С'));
        assert_eq!(normalize_lookalike('p', PieceLetter(Language::Ru)), Some('р'));
        assert_eq!(normalize_lookalike('T', PieceLetter(Language::Uk)), Some('Т'));
        assert_eq!(normalize_lookalike('T', PieceLetter(Language::Ru)), None);
        assert_eq!(normalize_lookalike('K', PieceLetter(Language::En)), None);
        assert_eq!(normalize_lookalike('О', Castling), Some('O'));
        assert_eq!(normalize_lookalike('O', Castling), None);
        assert_eq!(normalize_lookalike('0', Castling), None);
        assert_eq!(normalize_lookalike('х', CaptureSign), Some('x'));
        assert_eq!(normalize_lookalike('x', CaptureSign), None);
    }

    #[test]
    fn lookalike_letters() {
        assert_eq!(Language::Ru.lookalike_letter("K"), Some("К"));
        assert_eq!(Language::Ru.lookalike_letter("C"), Some("С"));
        assert_eq!(Language::Ru.lookalike_letter("Kp"), Some("Кр"));
        assert_eq!(Language::Ru.lookalike_letter("Кp"), Some("Кр"));
        assert_eq!(Language::Ru.lookalike_letter("Kр"), Some("Кр"));
        assert_eq!(Language::Uk.lookalike_letter("T"), Some("Т"));
        assert_eq!(Language::Ru.lookalike_letter("T"), None);
        assert_eq!(Language::Ru.lookalike_letter("К"), None);
        assert_eq!(Language::Ru.lookalike_letter("Кр"), None);
        assert_eq!(Language::En.lookalike_letter("K"), None);
        assert_eq!(Language::En.lookalike_letter("Q"), None);
        assert_eq!(Language::Ru.read_letter("C"), Some(PieceReading { role: Role::Bishop, lookalike_of: Some("С") }));
    }

    #[test]
    fn transliterated_letters() {
        assert_eq!(Language::Uk.transliterated_letter("F"), Some("Ф"));
        assert_eq!(Language::Uk.transliterated_letter("S"), Some("С"));
        assert_eq!(Language::Uk.transliterated_letter("Kr"), Some("Кр"));
        assert_eq!(Language::Ru.transliterated_letter("L"), Some("Л"));
        // Look-alikes alone and the right letters are no transliteration.
        assert_eq!(Language::Ru.transliterated_letter("K"), None);
        assert_eq!(Language::Ru.transliterated_letter("Ф"), None);
        assert_eq!(Language::Uk.transliterated_letter("L"), None);
        assert_eq!(Language::En.transliterated_letter("F"), None);
        assert_eq!(Language::Uk.transliteration_table(), "K = К, S = С, T = Т, F = Ф, Kr = Кр");
    }

    #[test]
    fn fide_18_9_file_first() {
        // Knights on b1 and f3 both reach d2: the file decides.
        let pos = position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(en(&pos, &legal(&pos, Square::B1, Square::D2)), "Nbd2");
        assert_eq!(en(&pos, &legal(&pos, Square::F3, Square::D2)), "Nfd2");
        let ru = MoveStyle::for_language(Language::Ru);
        assert_eq!(render_move(&pos, &legal(&pos, Square::B1, Square::D2), &ru), "Кbd2");
    }

    #[test]
    fn fide_18_9_rank_on_the_same_file() {
        // Knights on g1 and g5 both reach f3 and share the g-file.
        let pos = position("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1");
        assert_eq!(en(&pos, &legal(&pos, Square::G1, Square::F3)), "N1f3");
        assert_eq!(en(&pos, &legal(&pos, Square::G5, Square::F3)), "N5f3");
        let de = MoveStyle::for_language(Language::De);
        assert_eq!(render_move(&pos, &legal(&pos, Square::G5, Square::F3), &de), "S5f3");
    }

    #[test]
    fn fide_18_9_file_preferred_over_rank() {
        // Knights on g1 and e5 reach f3 from different files and ranks:
        // 18.9.3 prefers the file.
        let pos = position("4k3/8/8/4N3/8/8/8/4K1N1 w - - 0 1");
        assert_eq!(en(&pos, &legal(&pos, Square::G1, Square::F3)), "Ngf3");
        assert_eq!(
            disambiguation(&pos, &legal(&pos, Square::G1, Square::F3)),
            Disambiguation { file: true, rank: false }
        );
    }

    #[test]
    fn fide_18_9_both_with_three_queens() {
        // Queens on a2, a4 and c4 all reach b3: a4 shares the file with a2
        // and the rank with c4, so only the whole square decides.
        let pos = position("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1");
        assert_eq!(en(&pos, &legal(&pos, Square::A4, Square::B3)), "Qa4b3");
        assert_eq!(en(&pos, &legal(&pos, Square::A2, Square::B3)), "Q2b3");
        assert_eq!(en(&pos, &legal(&pos, Square::C4, Square::B3)), "Qcb3");
    }

    #[test]
    fn fide_18_9_pinned_piece_does_not_count() {
        // The f3 knight is pinned to the h1 king by the d5 bishop, so only
        // the b1 knight can go to d2 and no disambiguation is written.
        let pos = position("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1");
        assert_eq!(en(&pos, &legal(&pos, Square::B1, Square::D2)), "Nd2");
        assert_eq!(disambiguation(&pos, &legal(&pos, Square::B1, Square::D2)), Disambiguation::default());
    }

    #[test]
    fn capture_with_disambiguation() {
        let pos = position("4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1");
        let pos2 = position("4k3/8/8/4N3/8/5p2/8/4K1N1 w - - 0 1");
        assert_eq!(en(&pos, &legal(&pos, Square::G1, Square::F3)), "Nxf3");
        assert_eq!(en(&pos2, &legal(&pos2, Square::G1, Square::F3)), "Ngxf3");
        let no_sign = MoveStyle { capture_sign: None, ..MoveStyle::default() };
        assert_eq!(render_move(&pos2, &legal(&pos2, Square::G1, Square::F3), &no_sign), "Ngf3");
    }

    #[test]
    fn russian_style() {
        let pos = position("r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1");
        let ru = MoveStyle {
            capture_sign: Some("х"),
            castling_zeros: true,
            promotion_equals: false,
            ..MoveStyle::for_language(Language::Ru)
        };
        assert_eq!(render_move(&pos, &legal(&pos, Square::E1, Square::H1), &ru), "0-0");
        assert_eq!(render_move(&pos, &legal(&pos, Square::E1, Square::A1), &ru), "0-0-0");
        assert_eq!(render_move(&pos, &legal(&pos, Square::E1, Square::E2), &ru), "Крe2");
        assert_eq!(render_move(&pos, &legal(&pos, Square::F3, Square::E5), &ru), "Кхe5");
        assert_eq!(render_move(&pos, &legal(&pos, Square::D4, Square::E5), &ru), "dхe5");
        assert_eq!(render_move(&pos, &legal(&pos, Square::D2, Square::G5), &ru), "Фg5");
        assert_eq!(render_move(&pos, &legal(&pos, Square::A1, Square::D1), &ru), "Лd1");
        let colon = MoveStyle { capture_sign: Some(":"), ..ru };
        assert_eq!(render_move(&pos, &legal(&pos, Square::F3, Square::E5), &colon), "К:e5");
    }

    #[test]
    fn promotions_in_languages() {
        let pos = position("1n2k3/P1P3P1/8/8/8/8/1p3p1p/3K2N1 w - - 0 1");
        let promote = |from: Square, to: Square, role: Role| -> Move {
            pos.legal_moves()
                .into_iter()
                .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == Some(role))
                .expect("promotion is legal")
        };
        let c8q = promote(Square::C7, Square::C8, Role::Queen);
        assert_eq!(en(&pos, &c8q), "c8=Q+");
        let ru = MoveStyle { promotion_equals: false, ..MoveStyle::for_language(Language::Ru) };
        assert_eq!(render_move(&pos, &c8q, &ru), "c8Ф+");
        assert_eq!(render_move(&pos, &promote(Square::G7, Square::G8, Role::Knight), &ru), "g8К");
        let de = MoveStyle::for_language(Language::De);
        assert_eq!(render_move(&pos, &promote(Square::A7, Square::B8, Role::Queen), &de), "axb8=D+");
        let black = position("1n2k3/P1P3P1/8/8/8/8/1p3p1p/3K2N1 b - - 0 1");
        let g1r = black
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::G1 && m.promotion() == Some(Role::Rook))
            .expect("hxg1=R is legal");
        assert_eq!(render_move(&black, &g1r, &ru), "hxg1Л+");
    }

    #[test]
    fn french_and_figurine() {
        let pos = Chess::default();
        let ng1f3 = legal(&pos, Square::G1, Square::F3);
        let fr = MoveStyle::for_language(Language::Fr);
        assert_eq!(render_move(&pos, &ng1f3, &fr), "Cf3");
        let figurine = MoveStyle::for_language(Language::Figurine);
        assert_eq!(render_move(&pos, &ng1f3, &figurine), "♘f3");
        let mut after = pos.clone();
        after.play_unchecked(ng1f3);
        let ng8f6 = legal(&after, Square::G8, Square::F6);
        assert_eq!(render_move(&after, &ng8f6, &figurine), "♘f6");
        let black_glyphs = MoveStyle { figurine_black: true, ..figurine };
        assert_eq!(render_move(&after, &ng8f6, &black_glyphs), "♞f6");
        // White keeps the white glyph even with black glyphs on.
        assert_eq!(render_move(&pos, &ng1f3, &black_glyphs), "♘f3");
        let king = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(render_move(&king, &legal(&king, Square::E1, Square::D2), &fr), "Rd2");
        assert_eq!(render_move(&king, &legal(&king, Square::A1, Square::A8), &fr), "Ta8+");
    }

    #[test]
    fn long_algebraic() {
        let long = MoveStyle { long: true, ..MoveStyle::default() };
        let pos = Chess::default();
        assert_eq!(render_move(&pos, &legal(&pos, Square::G1, Square::F3), &long), "Ng1-f3");
        assert_eq!(render_move(&pos, &legal(&pos, Square::E2, Square::E4), &long), "e2-e4");
        let capture = position("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(render_move(&capture, &legal(&capture, Square::E4, Square::D5), &long), "e4xd5");
        let no_sign = MoveStyle { capture_sign: None, ..long };
        assert_eq!(render_move(&capture, &legal(&capture, Square::E4, Square::D5), &no_sign), "e4-d5");
        let ep = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(render_move(&ep, &legal(&ep, Square::E5, Square::D6), &long), "e5xd6");
        assert_eq!(en(&ep, &legal(&ep, Square::E5, Square::D6)), "exd6");
        let ru_long = MoveStyle { long: true, ..MoveStyle::for_language(Language::Ru) };
        let queen = position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert_eq!(render_move(&queen, &legal(&queen, Square::D1, Square::H5), &ru_long), "Фd1-h5+");
        let castle = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(render_move(&castle, &legal(&castle, Square::E1, Square::H1), &long), "O-O");
    }

    #[test]
    fn check_and_mate_marks() {
        let pos = position("6k1/5ppp/8/8/8/8/5PPP/R3R1K1 w - - 0 1");
        let mate = legal(&pos, Square::E1, Square::E8);
        assert_eq!(en(&pos, &mate), "Re8#");
        let quiet = MoveStyle { check_marks: false, ..MoveStyle::default() };
        assert_eq!(render_move(&pos, &mate, &quiet), "Re8");
    }

    #[test]
    fn english_equals_shakmaty_san_on_random_positions() {
        let style = MoveStyle::default();
        let mut compared = 0;
        for pos in test_positions() {
            for m in pos.legal_moves() {
                let expected = SanPlus::from_move(pos.clone(), m).to_string();
                assert_eq!(
                    render_move(&pos, &m, &style),
                    expected,
                    "{}",
                    Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                compared += 1;
            }
        }
        assert!(compared > 10_000, "only {compared} moves compared");
    }

    #[test]
    fn every_language_reads_back_as_shakmaty_san() {
        let positions = test_positions();
        for language in Language::ALL {
            let style = MoveStyle { figurine_black: true, ..MoveStyle::for_language(language) };
            for pos in positions.iter().step_by(5) {
                for m in pos.legal_moves() {
                    let expected = SanPlus::from_move(pos.clone(), m).to_string();
                    let text = render_move(pos, &m, &style);
                    assert_eq!(to_english(&text, language), expected, "{language:?}: {text}");
                }
            }
        }
    }
}
