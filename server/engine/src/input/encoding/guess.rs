//! Guesses the 8-bit encoding of a file that is not UTF-8: Windows-1251,
//! CP866, KOI8-R (Russian and Ukrainian files) or Latin-1/Windows-1252
//! (Western files).
//!
//! Only the words that hold bytes above 0x7F tell the encodings apart, so
//! only they are read, under each candidate, and scored:
//!
//! - a chess move with a Cyrillic piece letter (`Кf3`, `Крe1`, `Л:d1`,
//!   `e8Ф`) is strong evidence for the reading that produces it;
//! - a word of Cyrillic letters scores the log-ratio of each letter's
//!   frequency in Russian to the uniform one (right readings give common
//!   letters, wrong ones a scrambled mix), plus whether its case pattern is
//!   one people write (`белые`, `Белые`, `БЕЛЫЕ`, not `бЕЛЫЕ`);
//! - in the Latin reading, a word that mixes accented and plain letters
//!   (`Réti`, `Müller`) is evidence, a word of accented letters only
//!   (`Ëîâóøêà`) or an accented letter before a square (`Êf3`) is not;
//! - box-drawing characters, control characters and letters of the wrong
//!   script count against a reading.
//!
//! The best reading must score above zero and clearly above the next one;
//! otherwise the encoding is undecided and the file is not read (a wrong
//! guess would be checked, fixed and written back in the wrong encoding).

use super::Encoding;

/// How many words with high bytes are enough to decide.
const MAX_WORDS: usize = 20_000;
/// How far the best reading must be ahead of the next one.
const MARGIN: f64 = 2.0;
/// Reading stops early once this many words put the best reading this far
/// ahead: a file of Russian games is decided by its first few dozen moves,
/// and scoring every word of a 100 MB file would cost more than checking it.
const EARLY_WORDS: usize = 64;
const EARLY_MARGIN: f64 = 100.0;

const CANDIDATES: [Encoding; 4] = [Encoding::Windows1251, Encoding::Koi8R, Encoding::Cp866, Encoding::Windows1252];

/// The encoding of bytes that are not UTF-8, or why it cannot be decided.
pub(super) fn guess_8bit(bytes: &[u8]) -> Result<Encoding, String> {
    let scores = score_all(bytes);
    let mut ranked: Vec<(Encoding, f64)> = CANDIDATES.into_iter().zip(scores).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, score) = ranked[0];
    let (next, next_score) = ranked[1];
    if score <= 0.0 {
        return Err("no 8-bit reading (windows-1251, cp866, koi8-r, latin-1) makes sense of it".into());
    }
    if score - next_score < MARGIN {
        return Err(format!("{} and {} read it about equally well", latin_name(best, bytes), latin_name(next, bytes)));
    }
    Ok(if best == Encoding::Windows1252 { latin_family(bytes) } else { best })
}

/// The scores of the candidates, in the order of `CANDIDATES`.
fn score_all(bytes: &[u8]) -> [f64; 4] {
    let mut scores = [0.0; 4];
    let mut words = 0;
    let mut i = 0;
    while i < bytes.len() && words < MAX_WORDS {
        if !in_run(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && in_run(bytes[i]) {
            i += 1;
        }
        let run = &bytes[start..i];
        if run.is_ascii() {
            continue;
        }
        words += 1;
        let before = start.checked_sub(1).map(|j| char::from(bytes[j]));
        let after = bytes.get(i).map(|&b| char::from(b));
        for (score, encoding) in scores.iter_mut().zip(CANDIDATES) {
            let text = decode_lossy(run, encoding);
            *score += score_run(&text, before, after, encoding == Encoding::Windows1252);
        }
        if words >= EARLY_WORDS && words % 16 == 0 {
            let mut sorted = scores;
            sorted.sort_by(|a, b| b.total_cmp(a));
            if sorted[0] - sorted[1] >= EARLY_MARGIN {
                break;
            }
        }
    }
    scores
}

/// Bytes that may belong to a word in some candidate: ASCII letters and
/// digits, and every high byte (a letter in at least one of them).
fn in_run(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

fn decode_lossy(run: &[u8], encoding: Encoding) -> String {
    let table = encoding.table().expect("8-bit candidates have tables");
    run.iter().map(|&b| table.decode(b).unwrap_or('\u{FFFD}')).collect()
}

/// Latin-1 when no byte is in 0x80-0x9F (where the two differ), else
/// Windows-1252, whose typographic characters live there.
fn latin_family(bytes: &[u8]) -> Encoding {
    if bytes.iter().any(|&b| (0x80..=0x9F).contains(&b)) { Encoding::Windows1252 } else { Encoding::Latin1 }
}

fn latin_name(encoding: Encoding, bytes: &[u8]) -> &'static str {
    if encoding == Encoding::Windows1252 { latin_family(bytes).name() } else { encoding.name() }
}

/// Scores one run of a decoded text: its words and the other characters
/// between them.
fn score_run(text: &str, before: Option<char>, after: Option<char>, latin: bool) -> f64 {
    let chars: Vec<char> = text.chars().collect();
    let mut score = 0.0;
    let mut i = 0;
    // Letters and ASCII digits make words; `½`, `²` and the like are symbols.
    let in_word = |c: char| c.is_alphabetic() || c.is_ascii_digit();
    while i < chars.len() {
        if !in_word(chars[i]) {
            score += symbol_score(chars[i], latin);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && in_word(chars[i]) {
            i += 1;
        }
        let word = &chars[start..i];
        if word.iter().all(char::is_ascii) {
            continue;
        }
        let prev = if start == 0 { before } else { Some(chars[start - 1]) };
        let next = if i == chars.len() { after } else { Some(chars[i]) };
        score += if latin { latin_word(word) } else { cyrillic_word(word, prev, next) };
    }
    score
}

/// A character that is not a letter or digit: typographic punctuation is
/// neutral, control characters and box drawing count against the reading.
fn symbol_score(ch: char, latin: bool) -> f64 {
    const COMMON: &str = "\u{A0}«»–—…‘’“”„•°±·§©®™€‰‹›";
    if ch.is_ascii() || COMMON.contains(ch) {
        0.0
    } else if ch == '\u{FFFD}' || ch.is_control() {
        -5.0
    } else if latin && "¡¿½¼¾×÷¢£¥¬¦¨¯´¸¶†‡ˆ˜ƒªº²³¹µ".contains(ch) {
        // `½` in results (`½-½`), `×` and the rest in Western texts.
        if ch == '½' { 1.0 } else { 0.0 }
    } else if !latin && ch == '№' {
        0.0
    } else {
        -3.0
    }
}

/// The piece letters of the languages written in Cyrillic (Russian and
/// Ukrainian, notation.md section 3), from the lexicon.
fn cyrillic_pieces() -> impl Iterator<Item = &'static str> {
    crate::syntax::lexicon::LANGUAGES.iter().filter(|row| row.cyrillic).flat_map(|row| row.pieces)
}

fn is_square_part(c: char) -> bool {
    matches!(c, 'a'..='h' | '1'..='8' | 'x' | 'х')
}

fn has_square(chars: &[char]) -> bool {
    chars.windows(2).any(|w| matches!(w[0], 'a'..='h') && matches!(w[1], '1'..='8'))
}

/// `Кf3`, `Кbd2`, `Крxe2`, `Л` before `:d1`, `Ф` after `e8=`, `e8Ф`.
fn is_cyrillic_move(word: &[char], prev: Option<char>, next: Option<char>) -> bool {
    let text: String = word.iter().collect();
    for piece in cyrillic_pieces() {
        if let Some(rest) = text.strip_prefix(piece) {
            let rest: Vec<char> = rest.chars().collect();
            if rest.is_empty() {
                return next == Some(':') || prev == Some('=');
            }
            if rest.iter().all(|&c| is_square_part(c)) && has_square(&rest) {
                return true;
            }
        }
        if let Some(pawn) = text.strip_suffix(piece) {
            let pawn: Vec<char> = pawn.chars().collect();
            if !pawn.is_empty() && pawn.iter().all(|&c| is_square_part(c)) && has_square(&pawn) {
                return true;
            }
        }
    }
    false
}

fn is_cyrillic(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

fn cyrillic_word(word: &[char], prev: Option<char>, next: Option<char>) -> f64 {
    if is_cyrillic_move(word, prev, next) {
        return 4.0;
    }
    let foreign = word.iter().filter(|&&c| !c.is_ascii() && !is_cyrillic(c)).count();
    if foreign > 0 {
        return -3.0 * foreign as f64;
    }
    if word.iter().any(char::is_ascii) {
        // `е4`, `с5`: a Cyrillic look-alike in a square (OCR, keyboards).
        let lookalike_square = word.len() == 2 && matches!(word[0], 'а' | 'с' | 'е') && matches!(word[1], '1'..='8');
        return if lookalike_square { 1.0 } else { -2.0 };
    }
    let letters: f64 = word.iter().map(|&c| letter_log_ratio(c)).sum();
    letters + if natural_case(word) { 0.5 } else { -2.0 }
}

/// `белые`, `Белые` and `БЕЛЫЕ` are written; `бЕЛЫЕ` and `БеЛЫе` are not.
fn natural_case(word: &[char]) -> bool {
    let rest = &word[1..];
    rest.iter().all(|c| c.is_lowercase()) || word.iter().all(|c| c.is_uppercase())
}

/// ln(frequency in Russian text / uniform frequency of 33 letters).
fn letter_log_ratio(c: char) -> f64 {
    let lower = c.to_lowercase().next().unwrap_or(c);
    // Per mille, from the Russian National Corpus; Ukrainian letters from
    // Ukrainian texts.
    let per_mille: f64 = match lower {
        'о' => 109.7,
        'е' => 84.5,
        'а' => 80.1,
        'и' => 73.5,
        'н' => 67.0,
        'т' => 62.6,
        'с' => 54.7,
        'р' => 47.3,
        'в' => 45.4,
        'л' => 44.0,
        'к' => 34.9,
        'м' => 32.1,
        'д' => 29.8,
        'п' => 28.1,
        'у' => 26.2,
        'я' => 20.1,
        'ы' => 19.0,
        'ь' => 17.4,
        'г' => 17.0,
        'з' => 16.5,
        'б' => 15.9,
        'ч' => 14.4,
        'й' => 12.1,
        'х' => 9.7,
        'ж' => 9.4,
        'ш' => 7.3,
        'ю' => 6.4,
        'ц' => 4.8,
        'щ' => 3.6,
        'э' => 3.2,
        'ф' => 2.6,
        'і' => 40.0,
        'ї' => 6.0,
        'є' => 4.0,
        'ґ' => 0.5,
        'ъ' | 'ё' => 0.4,
        _ => 0.1,
    };
    (per_mille / (1000.0 / 33.0)).ln()
}

fn latin_word(word: &[char]) -> f64 {
    let accented = |c: &char| !c.is_ascii() && c.is_alphabetic() && !is_cyrillic(*c);
    let high = word.iter().filter(|c| !c.is_ascii()).count();
    if word.iter().filter(|c| !c.is_ascii()).any(|c| !accented(c)) {
        return -3.0;
    }
    // `Êf3`: a Cyrillic piece letter read as an accented capital.
    let lead = word.iter().take_while(|c| !c.is_ascii()).count();
    if (1..=2).contains(&lead) && word[lead..].iter().all(|&c| is_square_part(c)) && has_square(&word[lead..]) {
        return -4.0;
    }
    if word.iter().any(char::is_ascii_alphabetic) {
        2.0
    } else if high == 1 && word.len() == 1 {
        // `à`, `é` alone are words in French and Portuguese.
        0.5
    } else {
        -2.0
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Detection, decode_as, detect, encode};
    use super::*;

    const RUSSIAN: &str = "[Event \"Ловушка\"]\n[White \"Белые\"]\n[Black \"Чёрные\"]\n\n\
        1. e4 e5 2. Кf3 Кc6 3. Сc4 Кd4 4. Кxe5 Фg5 5. Кxf8 Фxg2 6. Лf1 Фxe4+ 7. Сe2 Крd8 *\n";

    fn round_trip(text: &str, encoding: Encoding) {
        let bytes = encode(text, encoding, false).unwrap();
        let decoded = detect(&bytes).unwrap_or_else(|e| panic!("{encoding}: {e}"));
        assert_eq!((decoded.encoding, decoded.detection), (encoding, Detection::Guessed), "{text}");
        assert_eq!(decoded.text, text);
    }

    #[test]
    fn russian_in_each_cyrillic_encoding() {
        for encoding in [Encoding::Windows1251, Encoding::Koi8R, Encoding::Cp866] {
            round_trip(RUSSIAN, encoding);
            // Moves alone, and words alone.
            round_trip("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. Л:e1 *\n", encoding);
            round_trip("{Партия Иванова с Петровым, матч на первенство города} 1. e4 *\n", encoding);
            round_trip("1. e4 e5 2. Крe2 *", encoding);
        }
        round_trip("[Event \"Чемпіонат України\"] 1. d4 Кf6 2. c4 e6 3. Кc3 Сb4 4. Фc2 Тe8 *", Encoding::Windows1251);
    }

    #[test]
    fn western_files_are_latin1_or_windows_1252() {
        round_trip("{Partie de Réti, écrite en Latin-1} 1. Nf3 d5 *\n", Encoding::Latin1);
        round_trip("[White \"Müller, Jürgen\"] 1. e4 e5 ½-½\n", Encoding::Latin1);
        round_trip("{Réti – „the hypermodern“} 1. Nf3 *\n", Encoding::Windows1252);
    }

    #[test]
    fn unclear_bytes_are_undecided() {
        // One byte above 0x7F, alone: Б, а, ┴ or Á.
        assert!(guess_8bit(b"1. e4 {\xC1} e5 *").is_err());
        // Binary noise.
        let noise: Vec<u8> = (0..200u8).map(|i| i.wrapping_mul(37) | 0x80).collect();
        assert!(guess_8bit(&noise).is_err());
        // A named encoding is read whatever it looks like.
        assert_eq!(decode_as(b"\xC1", Encoding::Koi8R).unwrap().text, "а");
    }
}
