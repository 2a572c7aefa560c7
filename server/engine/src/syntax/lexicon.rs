//! The lexicon of the notation: every letter and sign that a reader of chess
//! notation knows, as data, in one place (notation.md sections 2 to 4): the
//! piece letters of every language and the figurines, pawn letters,
//! look-alike letters, capture signs, dashes, check marks, annotations,
//! castling letters, move-number forms, and the labels of position
//! descriptions (`Белые:`, `White:`, `пп.`, `pawns`).
//!
//! Every reader of the notation takes its letters from here: the fast path
//! ([`super::fast`]), the reader of runs in prose and of position
//! descriptions in manuscripts ([`super::manuscript`]) and the analysis
//! (`analysis::languages`, which adds the pieces' meaning, and
//! `analysis::setup`). The grammar (`grammar/grammar.js`) spells the same
//! sets as regular expressions, because tree-sitter needs them there; the
//! test `agrees_with_the_grammar` below reads the generated
//! `grammar/src/grammar.json` and checks that the grammar's token rules
//! accept exactly what this lexicon lists.
//!
//! The tables are data; the derived sets (every character that may start a
//! piece letter, the two-letter pieces with their mixed-keyboard forms, the
//! flat lists of labels) are computed from them at compile time, so the
//! readers' hot paths pay for a bit test or a short scan, not for a walk
//! over the languages.
//!
//! ```
//! use chess_ls_engine::syntax::lexicon;
//!
//! assert_eq!(lexicon::piece_len("Крg1"), Some("Кр".len()));
//! assert_eq!(lexicon::piece_len("Kpg1"), Some(2)); // Latin look-alikes of `Кр`
//! assert_eq!(lexicon::piece_len("♘f3"), Some("♘".len()));
//! assert_eq!(lexicon::piece_len("e4"), None);
//! assert_eq!(lexicon::side_of("Чёрные:"), Some(lexicon::Side::Black));
//! ```

/// The letters of one language of notation.md section 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageLexicon {
    /// The code used in settings and file overrides: the ISO 639-1 code, or
    /// `figurine`.
    pub code: &'static str,
    /// The canonical letters of king, queen, rook, bishop and knight, in the
    /// column order of notation.md's table (for figurines, the white glyphs).
    pub pieces: [&'static str; 5],
    /// Letters that read as the same pieces as [`pieces`](Self::pieces) (the
    /// black glyphs of figurines), never written by a rewrite.
    pub pieces_also: Option<[&'static str; 5]>,
    /// The (discouraged) pawn letters that are still read (and warned
    /// about as `pawn-letter`).
    ///
    /// Each is the initial of the language's word for pawn, and is listed
    /// only where that initial is not also one of the language's piece
    /// letters, so it can never change the reading of a piece move: en `P`
    /// (pawn), ru `п` (пешка), uk `п` (пішак), de `B` (Bauer), sv/da/no `B`
    /// (bonde), fr/ro `P` (pion), es `P` (peón), it `P` (pedone), ca `P`
    /// (peó), pt `P` (peão), cs `P` (pěšec), sk `P` (pešiak), pl `P` (pion),
    /// is `P` (peð), tr `P` (piyon), hu `G` (gyalog), fi `S` (sotilas). Dutch has none: its
    /// `P` is the knight (paard). The lower-case form is listed only where
    /// it cannot be a file letter: `b` and `g` are files, so `bc5` must stay
    /// a pawn capture. English `P`/`p`, Russian and Ukrainian `п`/`П` and
    /// German `B` come from notation.md; the other languages follow the same
    /// rule and are the least certain entries, since real texts in them
    /// rarely write a pawn letter. Figurines have the pawn glyphs.
    pub pawns: &'static [&'static str],
    /// Whether the piece letters are Cyrillic: where Latin look-alikes creep
    /// in, and where the Cyrillic `х` capture sign is normal.
    pub cyrillic: bool,
    /// Look-alikes of the characters of this language's letters, as
    /// (written, meant): the Latin `K` typed for the Cyrillic knight `К`.
    pub lookalikes: &'static [(char, char)],
    /// Latin letters that a machine transliteration of this language's
    /// letters puts for them, as (written, meant): `F` for `Ф`, `S` for `С`,
    /// the `r` of `Kr` for `Кр` (Wikidata's and other transliterated pages).
    /// Unlike look-alikes they are read only where a whole game's letters
    /// read so (notation.md section 7).
    pub transliterations: &'static [(char, char)],
    /// The labels of White's half of a position description (`Белые: Крс1,
    /// Фf2; пп. a3.`), without the colon.
    pub white: &'static [&'static str],
    /// The labels of Black's half (`Чёрные:`, `Black:`).
    pub black: &'static [&'static str],
    /// The labels of the pawn list of a position description (after `;`).
    pub pawn_labels: &'static [&'static str],
}

/// The white figurines ♔ ♕ ♖ ♗ ♘ (king, queen, rook, bishop, knight).
pub const FIGURINES_WHITE: [&str; 5] = ["♔", "♕", "♖", "♗", "♘"];
/// The black figurines ♚ ♛ ♜ ♝ ♞, read like the white ones.
pub const FIGURINES_BLACK: [&str; 5] = ["♚", "♛", "♜", "♝", "♞"];

const fn row(code: &'static str, pieces: [&'static str; 5], pawns: &'static [&'static str]) -> LanguageLexicon {
    LanguageLexicon {
        code,
        pieces,
        pieces_also: None,
        pawns,
        cyrillic: false,
        lookalikes: &[],
        transliterations: &[],
        white: &[],
        black: &[],
        pawn_labels: &[],
    }
}

const PAWN_P: &[&str] = &["P", "p"];
const GERMANIC: [&str; 5] = ["K", "D", "T", "L", "S"];
const ROMANCE: [&str; 5] = ["R", "D", "T", "A", "C"];
const WEST_SLAVIC: [&str; 5] = ["K", "D", "V", "S", "J"];
/// Latin letters typed for the Cyrillic ones (notation.md section 4): `K` for
/// `К`, `C` for `С`, and the `p` of a Latin or mixed `Kp` king.
const CYRILLIC_LOOKALIKES: &[(char, char)] = &[('K', 'К'), ('C', 'С'), ('p', 'р')];
/// Ukrainian also writes the rook `Т`, which a Latin `T` stands for; in
/// Russian a `T` is nothing.
const UKRAINIAN_LOOKALIKES: &[(char, char)] = &[('K', 'К'), ('C', 'С'), ('p', 'р'), ('T', 'Т')];
/// A Russian text transliterated to Latin letters writes `Kr` for `Кр`, `F`
/// for `Ф`, `L` for `Л` and `S` for `С` (the knight's `K` is a look-alike).
const RUSSIAN_TRANSLITERATIONS: &[(char, char)] = &[('F', 'Ф'), ('L', 'Л'), ('S', 'С'), ('r', 'р')];
/// A Ukrainian one the same, with its rook `Т` (a look-alike) for `Л`.
const UKRAINIAN_TRANSLITERATIONS: &[(char, char)] = &[('F', 'Ф'), ('S', 'С'), ('r', 'р')];

/// Cyrillic letters typed for Latin piece letters on a mixed keyboard
/// (notation.md section 4 the other way round): `К` `Т` `С` `В` `Н` `Р`
/// `А` for `K` `T` `C` `B` `H` `P` `A`, each language listing those of its
/// piece letters (never of its pawn letter, so that no Cyrillic letter is a
/// pawn letter). A game in Cyrillic letters reads them natively, with no
/// look-alike, and so stays Russian or Ukrainian.
const EN_LOOKALIKES: &[(char, char)] = &[('К', 'K'), ('В', 'B')];
const GERMANIC_LOOKALIKES: &[(char, char)] = &[('К', 'K'), ('Т', 'T')];
const NL_LOOKALIKES: &[(char, char)] = &[('К', 'K'), ('Т', 'T'), ('Р', 'P')];
const FR_LOOKALIKES: &[(char, char)] = &[('Т', 'T'), ('С', 'C')];
const ROMANCE_LOOKALIKES: &[(char, char)] = &[('Т', 'T'), ('А', 'A'), ('С', 'C')];
const PT_LOOKALIKES: &[(char, char)] = &[('Т', 'T'), ('В', 'B'), ('С', 'C')];
const WEST_SLAVIC_LOOKALIKES: &[(char, char)] = &[('К', 'K')];
const PL_LOOKALIKES: &[(char, char)] = &[('К', 'K'), ('Н', 'H')];
const HU_LOOKALIKES: &[(char, char)] = &[('К', 'K'), ('В', 'B'), ('Н', 'H')];
const IS_LOOKALIKES: &[(char, char)] = &[('К', 'K'), ('Н', 'H'), ('В', 'B')];
/// Turkish: the king's `Ş` (şah) typed without its cedilla where a keyboard
/// or a font has none (`Se7` for `Şe7`). No Cyrillic look-alikes: they come
/// from keyboards that also type Cyrillic, which Turkish writers seldom
/// use, and reading Russian games' stray Latin `K` as a Turkish rook cost
/// every such game with an error another replay.
const TR_LOOKALIKES: &[(char, char)] = &[('S', 'Ş')];

/// The code points that a figurine font (ChessBase's, in PDFs of its books
/// and magazines) puts where its glyphs show figurines: a text copied from
/// such a PDF reads `2.¤f3 £b6 ¥c5` for `2.♘f3 ♕b6 ♗c5` (notation.md
/// section 7). Each is a Latin-1 sign that never stands before a square in
/// prose, so it is read as the figurine it shows and reported as a
/// look-alike.
const FIGURINE_FONT: &[(char, char)] = &[('¢', '♔'), ('£', '♕'), ('¦', '♖'), ('¥', '♗'), ('¤', '♘'), ('§', '♙')];

/// Every language, in the order of `analysis::languages::Language::ALL`
/// (English first because it is the PGN default).
pub const LANGUAGES: [LanguageLexicon; 22] = [
    LanguageLexicon {
        white: &["White"],
        black: &["Black"],
        pawn_labels: &["pawns", "Pawns"],
        lookalikes: EN_LOOKALIKES,
        ..row("en", ["K", "Q", "R", "B", "N"], PAWN_P)
    },
    LanguageLexicon {
        cyrillic: true,
        lookalikes: CYRILLIC_LOOKALIKES,
        transliterations: RUSSIAN_TRANSLITERATIONS,
        white: &["Белые"],
        black: &["Чёрные", "Черные"],
        pawn_labels: &["пп.", "п.", "пешки"],
        ..row("ru", ["Кр", "Ф", "Л", "С", "К"], &["п", "П"])
    },
    LanguageLexicon {
        cyrillic: true,
        lookalikes: UKRAINIAN_LOOKALIKES,
        transliterations: UKRAINIAN_TRANSLITERATIONS,
        white: &["Білі"],
        black: &["Чорні"],
        pawn_labels: &["пішаки"],
        ..row("uk", ["Кр", "Ф", "Т", "С", "К"], &["п", "П"])
    },
    LanguageLexicon {
        white: &["Weiß", "Weiss"],
        black: &["Schwarz"],
        pawn_labels: &["Bauern"],
        lookalikes: GERMANIC_LOOKALIKES,
        ..row("de", GERMANIC, &["B"])
    },
    LanguageLexicon { lookalikes: GERMANIC_LOOKALIKES, ..row("sv", GERMANIC, &["B"]) },
    LanguageLexicon { lookalikes: GERMANIC_LOOKALIKES, ..row("da", GERMANIC, &["B"]) },
    LanguageLexicon { lookalikes: GERMANIC_LOOKALIKES, ..row("no", GERMANIC, &["B"]) },
    LanguageLexicon { lookalikes: NL_LOOKALIKES, ..row("nl", ["K", "D", "T", "L", "P"], &[]) },
    LanguageLexicon {
        white: &["Blancs"],
        black: &["Noirs"],
        pawn_labels: &["pions"],
        lookalikes: FR_LOOKALIKES,
        ..row("fr", ["R", "D", "T", "F", "C"], PAWN_P)
    },
    LanguageLexicon {
        white: &["Blancas"],
        black: &["Negras"],
        pawn_labels: &["peones"],
        lookalikes: ROMANCE_LOOKALIKES,
        ..row("es", ROMANCE, PAWN_P)
    },
    LanguageLexicon { lookalikes: ROMANCE_LOOKALIKES, ..row("it", ROMANCE, PAWN_P) },
    LanguageLexicon { lookalikes: ROMANCE_LOOKALIKES, ..row("ca", ROMANCE, PAWN_P) },
    LanguageLexicon { lookalikes: PT_LOOKALIKES, ..row("pt", ["R", "D", "T", "B", "C"], PAWN_P) },
    LanguageLexicon { lookalikes: FR_LOOKALIKES, ..row("ro", ["R", "D", "T", "N", "C"], PAWN_P) },
    LanguageLexicon { lookalikes: WEST_SLAVIC_LOOKALIKES, ..row("cs", WEST_SLAVIC, PAWN_P) },
    LanguageLexicon { lookalikes: WEST_SLAVIC_LOOKALIKES, ..row("sk", WEST_SLAVIC, PAWN_P) },
    LanguageLexicon { lookalikes: PL_LOOKALIKES, ..row("pl", ["K", "H", "W", "G", "S"], PAWN_P) },
    LanguageLexicon { lookalikes: HU_LOOKALIKES, ..row("hu", ["K", "V", "B", "F", "H"], &["G"]) },
    LanguageLexicon { lookalikes: GERMANIC_LOOKALIKES, ..row("fi", ["K", "D", "T", "L", "R"], &["S"]) },
    LanguageLexicon { lookalikes: IS_LOOKALIKES, ..row("is", ["K", "D", "H", "B", "R"], PAWN_P) },
    LanguageLexicon { lookalikes: TR_LOOKALIKES, ..row("tr", ["Ş", "V", "K", "F", "A"], PAWN_P) },
    LanguageLexicon {
        pieces_also: Some(FIGURINES_BLACK),
        lookalikes: FIGURINE_FONT,
        ..row("figurine", FIGURINES_WHITE, &["♙", "♟"])
    },
];

/// The files of squares, `a` to `h`.
pub const FILES: std::ops::RangeInclusive<char> = 'a'..='h';
/// The ranks of squares, `1` to `8`.
pub const RANKS: std::ops::RangeInclusive<char> = '1'..='8';
/// Letters typed for files, as (written, meant): Cyrillic ones (`е5`,
/// `с4`) and the `ç` of a French keyboard (`Cç3`, `ç6` in a French blog).
pub const FILE_LOOKALIKES: [(char, char); 5] = [('а', 'a'), ('с', 'c'), ('е', 'e'), ('һ', 'h'), ('ç', 'c')];
/// Characters typed or read by OCR for rank digits (`Лdl`, `glЛ`, `RaI`,
/// `Bf|`, `З` for `3`, `Z` for `2`, `S` for `5`, `B` for `8`: notation.md
/// section 7). After a file letter only a rank can stand, so `S` and `B`
/// there are never the piece letters they are elsewhere.
pub const RANK_LOOKALIKES: [(char, char); 7] =
    [('l', '1'), ('I', '1'), ('|', '1'), ('Z', '2'), ('З', '3'), ('S', '5'), ('B', '8')];
/// The look-alikes read for a rank that stands alone, as the origin of a
/// piece move (`Лlа3`): not the capitals, which there are the letter of a
/// captured piece (`Sd7xSe5`) or of the next move.
pub const ORIGIN_RANK_LOOKALIKES: [(char, char); 2] = [('l', '1'), ('З', '3')];

/// The capture signs: `x` (PGN), the Cyrillic `х` (normal in Russian and
/// Ukrainian texts, a look-alike elsewhere), `X` (damage), the old `:` and
/// the typographic `×`. Writing one is optional (FIDE 19).
pub const CAPTURE_SIGNS: [char; 5] = ['x', 'х', 'X', ':', '×'];
/// Capture signs that stand for `x` and are reported as look-alikes (except
/// the Cyrillic `х` in a Cyrillic-letter game): the typographic `×` too,
/// which a copy from a printed page or a figurine font brings (PGN and the
/// FIDE text write `x`).
pub const CAPTURE_LOOKALIKES: [(char, char); 3] = [('х', 'x'), ('X', 'x'), ('×', 'x')];
/// The dash of long algebraic (`e2-e4`) and of castling, also en and em dash.
pub const DASHES: [char; 3] = ['-', '–', '—'];
/// The letters of castling: `O` (PGN), `0` (the FIDE text), `o`, and the
/// Cyrillic look-alike `О`.
pub const CASTLING_LETTERS: [char; 4] = ['O', 'o', '0', 'О'];
/// Castling letters that are look-alikes, as (written, meant).
pub const CASTLING_LOOKALIKES: [(char, char); 1] = [('О', 'O')];
/// Check and mate marks glued to a move, longest first: `++` (mate, or a
/// double check in some Russian texts), `+`, `#` and the typographic `†`
/// (check) and `‡` (mate).
pub const CHECK_MARKS: [&str; 5] = ["++", "+", "#", "†", "‡"];
/// The marks of mate among [`CHECK_MARKS`].
pub const MATE_MARKS: [&str; 2] = ["#", "‡"];
/// Move annotations glued to a move (or standing alone), longest first.
pub const ANNOTATIONS: [&str; 10] = ["!!", "??", "!?", "?!", "!", "?", "‼", "⁇", "⁉", "⁈"];
/// Informant's novelty sign glued to a piece move (`Qd1N`).
pub const NOVELTY: &str = "N";
/// What may stand between a pawn move and its promoted piece (`d8=Q`,
/// `d8/Q`); `d8Q` needs none.
pub const PROMOTION_SIGNS: [char; 2] = ['=', '/'];
/// Lower-case promoted pieces of UCI-minded programs (`d8q`), which say
/// nothing about the language.
pub const UCI_PROMOTION_LETTERS: [char; 5] = ['q', 'r', 'b', 'n', 'k'];
/// The two letters of the en-passant mark `e.p.` (Latin or Cyrillic `е.р.`),
/// each followed by an optional dot, with one optional space between.
pub const EN_PASSANT_LETTERS: [[char; 2]; 2] = [['e', 'е'], ['p', 'р']];
/// The full stop after a move number's digits (`12.`), with its look-alikes
/// from other scripts (Lisu U+A4F8, Syriac U+0702, one-dot leader,
/// fullwidth full stop).
pub const MOVE_NUMBER_DOTS: [char; 5] = ['.', 'ꓸ', '܂', '․', '．'];
/// The ellipsis that marks Black's move (`12…`, or alone `…`); three dots
/// (`12...`) do the same.
pub const ELLIPSIS: char = '…';
/// A typeset book's spaced dots after a move number's own (`6. . . Fb4`,
/// and more of them, `8. . . . Fb4`): Black's move, as `6...` says.
pub const SPACED_DOTS: &str = ". .";
/// The bracket after a move number of old texts (`12)`).
pub const MOVE_NUMBER_BRACKET: char = ')';
/// Bidi marks tolerated between a move number's digits and its dot.
pub const BIDI_MARKS: [char; 2] = ['\u{200E}', '\u{200F}'];

/// The side a position description's label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    White,
    Black,
}

// --- Derived sets, computed at compile time -------------------------------

/// A small set of characters, filled at compile time.
#[derive(Debug, Clone, Copy)]
pub struct CharSet<const N: usize> {
    chars: [char; N],
    len: usize,
}

impl<const N: usize> CharSet<N> {
    const fn new() -> Self {
        CharSet { chars: ['\0'; N], len: 0 }
    }

    const fn has(&self, c: char) -> bool {
        let mut i = 0;
        while i < self.len {
            if self.chars[i] == c {
                return true;
            }
            i += 1;
        }
        false
    }

    const fn with(mut self, c: char) -> Self {
        if !self.has(c) {
            assert!(self.len < N, "a CharSet is too small");
            self.chars[self.len] = c;
            self.len += 1;
        }
        self
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: char) -> bool {
        self.chars[..self.len].contains(&c)
    }

    /// The characters, in the order first met.
    pub fn as_slice(&self) -> &[char] {
        &self.chars[..self.len]
    }
}

/// The first character of `s[i..]` and its length (UTF-8 decoded by hand,
/// for const fns).
const fn decode(s: &[u8], i: usize) -> (char, usize) {
    let b0 = s[i] as u32;
    let (code, len) = if b0 < 0x80 {
        (b0, 1)
    } else if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | (s[i + 1] as u32 & 0x3F), 2)
    } else if b0 < 0xF0 {
        (((b0 & 0x0F) << 12) | ((s[i + 1] as u32 & 0x3F) << 6) | (s[i + 2] as u32 & 0x3F), 3)
    } else {
        (
            ((b0 & 0x07) << 18)
                | ((s[i + 1] as u32 & 0x3F) << 12)
                | ((s[i + 2] as u32 & 0x3F) << 6)
                | (s[i + 3] as u32 & 0x3F),
            4,
        )
    };
    match char::from_u32(code) {
        Some(c) => (c, len),
        None => panic!("not UTF-8"),
    }
}

/// The characters of a letter of one or two characters; the second is
/// `'\0'` for a one-character letter.
const fn letter_chars(letter: &str) -> (char, char) {
    let bytes = letter.as_bytes();
    let (first, len) = decode(bytes, 0);
    if len == bytes.len() {
        return (first, '\0');
    }
    let (second, len2) = decode(bytes, len);
    assert!(len + len2 == bytes.len(), "a letter has at most two characters");
    (first, second)
}

/// The letters of a row (pieces, the pieces read alike, pawns) as one list
/// of up to 17 and its length: const fns cannot collect into a `Vec`.
const fn row_letters(row: &LanguageLexicon) -> ([&'static str; 17], usize) {
    let mut out = [""; 17];
    let mut n = 0;
    let mut k = 0;
    while k < 5 {
        out[n] = row.pieces[k];
        n += 1;
        if let Some(also) = row.pieces_also {
            out[n] = also[k];
            n += 1;
        }
        k += 1;
    }
    let mut k = 0;
    while k < row.pawns.len() {
        out[n] = row.pawns[k];
        n += 1;
        k += 1;
    }
    (out, n)
}

/// The written forms of one character of a row's letters: itself, its
/// look-alikes and its transliterations in that row.
const fn forms(row: &LanguageLexicon, meant: char) -> ([char; 4], usize) {
    let mut out = ['\0'; 4];
    out[0] = meant;
    let mut n = 1;
    let mut k = 0;
    while k < row.lookalikes.len() {
        if row.lookalikes[k].1 == meant {
            out[n] = row.lookalikes[k].0;
            n += 1;
        }
        k += 1;
    }
    let mut k = 0;
    while k < row.transliterations.len() {
        if row.transliterations[k].1 == meant && n < out.len() {
            out[n] = row.transliterations[k].0;
            n += 1;
        }
        k += 1;
    }
    (out, n)
}

/// Every character that is a one-character piece or pawn letter in some
/// language, as written or as a look-alike (the grammar's one-character
/// `piece` alternatives).
const fn single_letters() -> CharSet<64> {
    let mut set = CharSet::new();
    let mut l = 0;
    while l < LANGUAGES.len() {
        let row = &LANGUAGES[l];
        let (letters, n) = row_letters(row);
        let mut k = 0;
        while k < n {
            let (first, second) = letter_chars(letters[k]);
            if second == '\0' {
                let (written, m) = forms(row, first);
                let mut j = 0;
                while j < m {
                    set = set.with(written[j]);
                    j += 1;
                }
            }
            k += 1;
        }
        l += 1;
    }
    set
}

/// The two-character piece letters (`Кр`) in every mix of their characters
/// and look-alikes (`Kp`, `Кp`, `Kр`).
const fn double_letters() -> ([(char, char); 16], usize) {
    let mut out = [('\0', '\0'); 16];
    let mut n = 0;
    let mut l = 0;
    while l < LANGUAGES.len() {
        let row = &LANGUAGES[l];
        let (letters, count) = row_letters(row);
        let mut k = 0;
        while k < count {
            let (first, second) = letter_chars(letters[k]);
            if second != '\0' {
                let (a, na) = forms(row, first);
                let (b, nb) = forms(row, second);
                let mut i = 0;
                while i < na {
                    let mut j = 0;
                    while j < nb {
                        let pair = (a[i], b[j]);
                        let mut seen = false;
                        let mut s = 0;
                        while s < n {
                            if out[s].0 == pair.0 && out[s].1 == pair.1 {
                                seen = true;
                            }
                            s += 1;
                        }
                        if !seen {
                            out[n] = pair;
                            n += 1;
                        }
                        j += 1;
                    }
                    i += 1;
                }
            }
            k += 1;
        }
        l += 1;
    }
    (out, n)
}

const fn ascii_mask(set: &CharSet<64>) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < set.len {
        let c = set.chars[i] as u32;
        if c < 128 {
            mask |= 1 << c;
        }
        i += 1;
    }
    mask
}

const fn non_ascii(set: &CharSet<64>) -> CharSet<64> {
    let mut out = CharSet::new();
    let mut i = 0;
    while i < set.len {
        if set.chars[i] as u32 >= 128 {
            out = out.with(set.chars[i]);
        }
        i += 1;
    }
    out
}

/// Every one-character piece or pawn letter, as written or as a look-alike.
pub const SINGLE_LETTERS: CharSet<64> = single_letters();
const SINGLE_ASCII: u128 = ascii_mask(&SINGLE_LETTERS);
const SINGLE_OTHER: CharSet<64> = non_ascii(&SINGLE_LETTERS);
const DOUBLE: ([(char, char); 16], usize) = double_letters();

/// The ASCII characters that end a two-character piece letter (the `p` of
/// `Kp`, the `r` of `Kr`), as bits.
const DOUBLE_SECOND_ASCII: u128 = {
    let mut mask = 0u128;
    let mut i = 0;
    while i < DOUBLE.1 {
        let second = DOUBLE.0[i].1 as u32;
        if second < 128 {
            mask |= 1 << second;
        }
        i += 1;
    }
    mask
};

/// The two-character piece letters with their mixed-keyboard forms
/// (`Кр`, `Kp`, `Кp`, `Kр`).
pub fn double_letters_written() -> &'static [(char, char)] {
    &DOUBLE.0[..DOUBLE.1]
}

const fn count_sides() -> usize {
    let mut n = 0;
    let mut l = 0;
    while l < LANGUAGES.len() {
        n += LANGUAGES[l].white.len() + LANGUAGES[l].black.len();
        l += 1;
    }
    n
}

const fn collect_sides() -> [(&'static str, Side); count_sides()] {
    let mut out = [("", Side::White); count_sides()];
    let mut n = 0;
    let mut l = 0;
    while l < LANGUAGES.len() {
        let row = &LANGUAGES[l];
        let mut k = 0;
        while k < row.white.len() {
            out[n] = (row.white[k], Side::White);
            n += 1;
            k += 1;
        }
        let mut k = 0;
        while k < row.black.len() {
            out[n] = (row.black[k], Side::Black);
            n += 1;
            k += 1;
        }
        l += 1;
    }
    out
}

const fn count_pawn_labels() -> usize {
    let mut n = 0;
    let mut l = 0;
    while l < LANGUAGES.len() {
        n += LANGUAGES[l].pawn_labels.len();
        l += 1;
    }
    n
}

const fn collect_pawn_labels() -> [&'static str; count_pawn_labels()] {
    let mut out = [""; count_pawn_labels()];
    let mut n = 0;
    let mut l = 0;
    while l < LANGUAGES.len() {
        let mut k = 0;
        while k < LANGUAGES[l].pawn_labels.len() {
            out[n] = LANGUAGES[l].pawn_labels[k];
            n += 1;
            k += 1;
        }
        l += 1;
    }
    out
}

const fn side_initials() -> CharSet<16> {
    let mut set = CharSet::new();
    let mut i = 0;
    while i < SIDE_LABELS.len() {
        set = set.with(decode(SIDE_LABELS[i].0.as_bytes(), 0).0);
        i += 1;
    }
    set
}

/// The side labels of position descriptions in every language that has
/// them, with the side each names (the grammar's `side`, less its colon).
pub const SIDE_LABELS: [(&str, Side); count_sides()] = collect_sides();
/// The labels of pawn lists in every language that has them (the grammar's
/// `pawns_label`).
pub const PAWN_LABELS: [&str; count_pawn_labels()] = collect_pawn_labels();
/// The first characters of the side labels, for a quick test of where a
/// description may start.
pub const SIDE_INITIALS: CharSet<16> = side_initials();

// --- Readers ---------------------------------------------------------------

/// The length in bytes of the piece letter at the start of `s` (the
/// grammar's `piece`): a two-letter king such as `Кр` or its mixed forms,
/// else one letter of any language, a pawn letter, a look-alike or a
/// figurine.
pub fn piece_len(s: &str) -> Option<usize> {
    // An ASCII letter before a byte that ends no two-letter piece (`Nf3`,
    // `exd5`: nearly every move) is one letter or none.
    if let [first, rest @ ..] = s.as_bytes()
        && first.is_ascii()
        && rest.first().is_none_or(|&b| b.is_ascii() && DOUBLE_SECOND_ASCII & (1 << b) == 0)
    {
        return (SINGLE_ASCII & (1 << first) != 0).then_some(1);
    }
    let mut chars = s.chars();
    let first = chars.next()?;
    if let Some(second) = chars.next()
        && double_letters_written().contains(&(first, second))
    {
        return Some(first.len_utf8() + second.len_utf8());
    }
    is_single_letter(first).then(|| first.len_utf8())
}

/// Whether `c` is a one-character piece or pawn letter of some language, as
/// written or as a look-alike.
pub fn is_single_letter(c: char) -> bool {
    if c.is_ascii() { SINGLE_ASCII & (1 << c as u32) != 0 } else { SINGLE_OTHER.contains(c) }
}

/// Whether `c` is a figurine of either colour (pawns included).
pub fn is_figurine(c: char) -> bool {
    ('♔'..='♟').contains(&c)
}

/// Whether `c` is a lower-case pawn letter of some language (`p`, `п`).
pub fn is_lower_case_pawn_letter(c: char) -> bool {
    c.is_lowercase() && LANGUAGES.iter().any(|row| row.pawns.iter().any(|p| letter_chars(p) == (c, '\0')))
}

/// What a look-alike stands for in a table of (written, meant) pairs.
pub fn lookalike(table: &[(char, char)], c: char) -> Option<char> {
    table.iter().find(|&&(written, _)| written == c).map(|&(_, meant)| meant)
}

/// Whether `c` is a file letter `a` to `h` as written.
pub fn is_file(c: char) -> bool {
    FILES.contains(&c)
}

/// Whether `c` is a rank digit `1` to `8` as written.
pub fn is_rank(c: char) -> bool {
    RANKS.contains(&c)
}

/// The file a file letter or its look-alike stands for (the grammar's file).
pub fn file_of(c: char) -> Option<char> {
    if is_file(c) { Some(c) } else { lookalike(&FILE_LOOKALIKES, c) }
}

/// The rank a rank digit or its look-alike stands for (the grammar's rank).
pub fn rank_of(c: char) -> Option<char> {
    if is_rank(c) { Some(c) } else { lookalike(&RANK_LOOKALIKES, c) }
}

/// The rank an origin rank or its look-alike stands for (the grammar's
/// rank alone, after a piece letter).
pub fn origin_rank_of(c: char) -> Option<char> {
    if is_rank(c) { Some(c) } else { lookalike(&ORIGIN_RANK_LOOKALIKES, c) }
}

/// Whether `c` is a capture sign.
pub fn is_capture_sign(c: char) -> bool {
    CAPTURE_SIGNS.contains(&c)
}

/// Whether `c` is a dash.
pub fn is_dash(c: char) -> bool {
    DASHES.contains(&c)
}

/// Whether `c` is a castling letter.
pub fn is_castling_letter(c: char) -> bool {
    CASTLING_LETTERS.contains(&c)
}

/// The bytes that start one of `marks`: a quick test before comparing them.
const fn first_bytes(marks: &[&str]) -> [bool; 256] {
    let mut out = [false; 256];
    let mut i = 0;
    while i < marks.len() {
        out[marks[i].as_bytes()[0] as usize] = true;
        i += 1;
    }
    out
}

const CHECK_FIRST: [bool; 256] = first_bytes(&CHECK_MARKS);
const ANNOTATION_FIRST: [bool; 256] = first_bytes(&ANNOTATIONS);

/// The length of the longest of `marks` (listed longest first) at the start
/// of `s`.
fn mark_len(s: &str, first: &[bool; 256], marks: &[&str]) -> Option<usize> {
    if !first[*s.as_bytes().first()? as usize] {
        return None;
    }
    marks.iter().find(|m| s.starts_with(**m)).map(|m| m.len())
}

/// The length of the check mark at the start of `s`, if any.
pub fn check_len(s: &str) -> Option<usize> {
    mark_len(s, &CHECK_FIRST, &CHECK_MARKS)
}

/// The length of the annotation at the start of `s`, if any.
pub fn annotation_len(s: &str) -> Option<usize> {
    mark_len(s, &ANNOTATION_FIRST, &ANNOTATIONS)
}

/// The side a position description's label names: the label the text
/// starts with (`Чёрные:` is Black).
pub fn side_of(label: &str) -> Option<Side> {
    SIDE_LABELS.iter().find(|(l, _)| label.starts_with(l)).map(|&(_, side)| side)
}

/// The side label `s` starts with, if any.
pub fn side_label_at(s: &str) -> Option<&'static str> {
    SIDE_LABELS.iter().map(|&(l, _)| l).find(|l| s.starts_with(l))
}

/// The pawns label `s` starts with, if any.
pub fn pawn_label_at(s: &str) -> Option<&'static str> {
    PAWN_LABELS.iter().copied().find(|l| s.starts_with(l))
}

#[cfg(test)]
mod tests;
