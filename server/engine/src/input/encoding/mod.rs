//! The text encodings of notation files: which one a file is in (a byte
//! order mark, valid UTF-8, else a guess among the 8-bit encodings that
//! Russian and Western files use), decoding, and encoding back so that a
//! rewritten file differs from the original only where it was edited.
//!
//! Every encoding here decodes each byte sequence to exactly one text and
//! back: UTF-8 and UTF-16 strictly (an invalid sequence is an error, never a
//! replacement character), the 8-bit ones through a table of 256 characters
//! that is checked to be one-to-one. So a file whose text was edited is
//! written back with the bytes outside the edits unchanged, its line endings
//! (LF, CRLF, CR) included, since they are characters of the text.
//!
//! ```
//! use chess_ls_engine::input::encoding::{Encoding, detect, encode};
//! let bytes = b"1. e4 e5 2. \xCAf3 \xCAc6 *\n"; // Windows-1251
//! let decoded = detect(bytes).unwrap();
//! assert_eq!(decoded.encoding, Encoding::Windows1251);
//! assert_eq!(decoded.text, "1. e4 e5 2. Кf3 Кc6 *\n");
//! assert_eq!(encode(&decoded.text, decoded.encoding, decoded.bom).unwrap(), bytes);
//! ```

mod guess;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// An encoding chess-ls reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
    /// Cyrillic Windows, the usual 8-bit encoding of Russian files.
    Windows1251,
    /// Cyrillic DOS (IBM 866), in old Russian files.
    Cp866,
    /// KOI8-R, in old Russian files and mail.
    Koi8R,
    /// ISO 8859-1: byte n is the character U+00nn, exactly.
    Latin1,
    /// Western Windows: Latin-1 with typographic characters in 0x80-0x9F.
    Windows1252,
}

impl Encoding {
    pub const ALL: [Encoding; 8] = [
        Encoding::Utf8,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
        Encoding::Windows1251,
        Encoding::Cp866,
        Encoding::Koi8R,
        Encoding::Latin1,
        Encoding::Windows1252,
    ];

    /// The name used in messages and accepted by `--encoding`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
            Encoding::Windows1251 => "windows-1251",
            Encoding::Cp866 => "cp866",
            Encoding::Koi8R => "koi8-r",
            Encoding::Latin1 => "latin-1",
            Encoding::Windows1252 => "windows-1252",
        }
    }

    /// The encoding with this name or a common alias (`cp1251`, `ibm866`,
    /// `iso-8859-1`, ...); case, `-` and `_` are ignored.
    pub fn from_name(name: &str) -> Option<Encoding> {
        let key: String = name.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).collect::<String>();
        let key = key.to_ascii_lowercase();
        Some(match key.as_str() {
            "utf8" => Encoding::Utf8,
            "utf16le" => Encoding::Utf16Le,
            "utf16be" => Encoding::Utf16Be,
            "windows1251" | "cp1251" | "win1251" => Encoding::Windows1251,
            "cp866" | "ibm866" | "866" | "dos866" => Encoding::Cp866,
            "koi8r" | "koi8" => Encoding::Koi8R,
            "latin1" | "iso88591" | "l1" => Encoding::Latin1,
            "windows1252" | "cp1252" | "win1252" => Encoding::Windows1252,
            _ => return None,
        })
    }

    /// The 8-bit table, for the encodings that have one.
    fn table(self) -> Option<&'static SingleByte> {
        static TABLES: OnceLock<[SingleByte; 5]> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            [
                SingleByte::from_encoding_rs(encoding_rs::WINDOWS_1251),
                SingleByte::from_encoding_rs(encoding_rs::IBM866),
                SingleByte::from_encoding_rs(encoding_rs::KOI8_R),
                SingleByte::latin1(),
                SingleByte::from_encoding_rs(encoding_rs::WINDOWS_1252),
            ]
        });
        match self {
            Encoding::Utf8 | Encoding::Utf16Le | Encoding::Utf16Be => None,
            Encoding::Windows1251 => Some(&tables[0]),
            Encoding::Cp866 => Some(&tables[1]),
            Encoding::Koi8R => Some(&tables[2]),
            Encoding::Latin1 => Some(&tables[3]),
            Encoding::Windows1252 => Some(&tables[4]),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the encoding of a file was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detection {
    /// Named with `--encoding`.
    Named,
    /// A byte order mark.
    Bom,
    /// The bytes are valid UTF-8 (plain ASCII included).
    ValidUtf8,
    /// The statistical guess among the 8-bit encodings.
    Guessed,
}

/// A file's text and how to write it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text without the byte order mark.
    pub text: String,
    pub encoding: Encoding,
    /// The file starts with a byte order mark (kept when written back).
    pub bom: bool,
    pub detection: Detection,
    /// Bytes that are not valid in the encoding (a NUL, a stray `\xFF` in
    /// a UTF-8 file), each read as U+FFFD at this byte offset of `text`:
    /// the file is checked, each is reported, and it is never written.
    pub invalid: Vec<InvalidByte>,
}

/// A byte that is not text in its file's encoding, read as U+FFFD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidByte {
    /// The offset of its U+FFFD in the decoded text.
    pub offset: usize,
    pub byte: u8,
}

/// How many bytes that are not text a file may have for it still to be
/// read as text with those bytes reported (a few per ten thousand): more
/// than that is a binary file or one in another encoding.
pub fn invalid_allowed(len: usize) -> usize {
    8 + len / 10_000
}

/// Reads bytes that are UTF-8 but for a few bytes (NULs, stray bytes of
/// another encoding), each read as U+FFFD and listed; `None` when there
/// are more of them than [`invalid_allowed`].
pub fn lenient_utf8(bytes: &[u8]) -> Option<Decoded> {
    lenient_utf8_within(bytes, invalid_allowed(bytes.len()))
}

/// [`lenient_utf8`] with at most `allowed` such bytes (a stream's part,
/// which the bytes before it have spent some of the allowance of).
pub fn lenient_utf8_within(bytes: &[u8], allowed: usize) -> Option<Decoded> {
    let mut text = String::with_capacity(bytes.len() + 8);
    let mut invalid = Vec::new();
    let push_bad = |text: &mut String, byte: u8, invalid: &mut Vec<InvalidByte>| {
        invalid.push(InvalidByte { offset: text.len(), byte });
        text.push(char::REPLACEMENT_CHARACTER);
        invalid.len() <= allowed
    };
    for chunk in bytes.utf8_chunks() {
        for (i, part) in chunk.valid().split('\0').enumerate() {
            if i > 0 && !push_bad(&mut text, 0, &mut invalid) {
                return None;
            }
            text.push_str(part);
        }
        for &byte in chunk.invalid() {
            if !push_bad(&mut text, byte, &mut invalid) {
                return None;
            }
        }
    }
    Some(Decoded { text, encoding: Encoding::Utf8, bom: false, detection: Detection::ValidUtf8, invalid })
}

/// Why bytes could not be read as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes are not valid in the encoding that the BOM or the user named.
    Invalid { encoding: Encoding, offset: usize },
    /// No encoding could be decided; the reason says why.
    Undecided(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Invalid { encoding, offset } => {
                write!(f, "the bytes at offset {offset} are not valid {encoding}")
            }
            DecodeError::Undecided(why) => write!(
                f,
                "the encoding cannot be decided ({why}); name it with --encoding \
                 (utf-8, utf-16le, utf-16be, windows-1251, cp866, koi8-r, latin-1, windows-1252)"
            ),
        }
    }
}

/// A character that the file's encoding has no byte sequence for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unencodable {
    /// Byte offset of the character in the text.
    pub offset: usize,
    pub ch: char,
    pub encoding: Encoding,
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
const UTF16LE_BOM: &[u8] = b"\xFF\xFE";
const UTF16BE_BOM: &[u8] = b"\xFE\xFF";

/// Decides the encoding of a file and decodes it: a byte order mark
/// (UTF-8, UTF-16 LE or BE), else valid UTF-8, else a guess among
/// Windows-1251, CP866, KOI8-R and Latin-1/Windows-1252 that must be clear
/// (see `guess.rs`); anything else is an error, never a lossy reading.
pub fn detect(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    if bytes.starts_with(UTF8_BOM) {
        return decode_as(bytes, Encoding::Utf8).map(|d| Decoded { detection: Detection::Bom, ..d }).or_else(|e| {
            let decoded = lenient_utf8(&bytes[UTF8_BOM.len()..]).ok_or(e)?;
            Ok(Decoded { bom: true, detection: Detection::Bom, ..decoded })
        });
    }
    if bytes.starts_with(b"\xFF\xFE\x00\x00") {
        return Err(DecodeError::Undecided("a UTF-32 byte order mark: UTF-32 is not supported".into()));
    }
    for (bom, encoding) in [(UTF16LE_BOM, Encoding::Utf16Le), (UTF16BE_BOM, Encoding::Utf16Be)] {
        if bytes.starts_with(bom) {
            return decode_as(bytes, encoding).map(|d| Decoded { detection: Detection::Bom, ..d });
        }
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        // A few NULs in a text file are damage; many are UTF-16 or binary.
        return lenient_utf8(bytes).ok_or_else(|| {
            DecodeError::Undecided(format!("a NUL byte at offset {at}: UTF-16 without a byte order mark, or not text"))
        });
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Decoded {
            text: text.to_owned(),
            encoding: Encoding::Utf8,
            bom: false,
            detection: Detection::ValidUtf8,
            invalid: Vec::new(),
        });
    }
    guess_or_lenient(bytes)
}

/// An 8-bit encoding for bytes that are not UTF-8; but a UTF-8 file with a
/// stray byte or two (its multi-byte characters are valid UTF-8) is read
/// as UTF-8 with those bytes reported, not as another encoding's mojibake.
fn guess_or_lenient(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    let multibyte = bytes.utf8_chunks().any(|c| c.valid().bytes().any(|b| b >= 0x80));
    if multibyte && let Some(decoded) = lenient_utf8(bytes) {
        return Ok(decoded);
    }
    guess(bytes).or_else(|e| lenient_utf8(bytes).ok_or(e))
}

/// [`detect`] for bytes the caller gives away: a UTF-8 file (the usual
/// case) becomes its text without a copy.
pub fn detect_owned(bytes: Vec<u8>) -> Result<Decoded, DecodeError> {
    if bytes.starts_with(UTF8_BOM)
        || bytes.starts_with(UTF16LE_BOM)
        || bytes.starts_with(UTF16BE_BOM)
        || bytes.contains(&0)
    {
        return detect(&bytes);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Decoded {
            text,
            encoding: Encoding::Utf8,
            bom: false,
            detection: Detection::ValidUtf8,
            invalid: Vec::new(),
        }),
        Err(e) => guess_or_lenient(e.as_bytes()),
    }
}

fn guess(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    let encoding = guess::guess_8bit(bytes).map_err(DecodeError::Undecided)?;
    let mut decoded = decode_as(bytes, encoding)?;
    decoded.detection = Detection::Guessed;
    Ok(decoded)
}

/// Decodes bytes in the given encoding. A UTF-8 or UTF-16 byte order mark
/// of that encoding is taken off (and kept for writing back).
pub fn decode_as(bytes: &[u8], encoding: Encoding) -> Result<Decoded, DecodeError> {
    let named =
        |text: String, bom: bool| Decoded { text, encoding, bom, detection: Detection::Named, invalid: Vec::new() };
    match encoding {
        Encoding::Utf8 => {
            let (body, bom) = strip(bytes, UTF8_BOM);
            let skip = if bom { UTF8_BOM.len() } else { 0 };
            match std::str::from_utf8(body) {
                Ok(text) => Ok(named(text.to_owned(), bom)),
                Err(e) => Err(DecodeError::Invalid { encoding, offset: skip + e.valid_up_to() }),
            }
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let bom_bytes = if encoding == Encoding::Utf16Le { UTF16LE_BOM } else { UTF16BE_BOM };
            let (body, bom) = strip(bytes, bom_bytes);
            let skip = if bom { 2 } else { 0 };
            if body.len() % 2 == 1 {
                return Err(DecodeError::Invalid { encoding, offset: bytes.len() - 1 });
            }
            let units = body.chunks_exact(2).map(|pair| {
                let pair = [pair[0], pair[1]];
                if encoding == Encoding::Utf16Le { u16::from_le_bytes(pair) } else { u16::from_be_bytes(pair) }
            });
            let mut text = String::with_capacity(body.len() / 2);
            let mut at = skip;
            for unit in char::decode_utf16(units) {
                match unit {
                    Ok(ch) => {
                        text.push(ch);
                        at += ch.len_utf16() * 2;
                    }
                    Err(_) => return Err(DecodeError::Invalid { encoding, offset: at }),
                }
            }
            Ok(named(text, bom))
        }
        _ => {
            let table = encoding.table().expect("an 8-bit encoding has a table");
            let mut text = String::with_capacity(bytes.len() + bytes.len() / 2);
            for (offset, &b) in bytes.iter().enumerate() {
                match table.decode(b) {
                    Some(ch) => text.push(ch),
                    None => return Err(DecodeError::Invalid { encoding, offset }),
                }
            }
            Ok(named(text, false))
        }
    }
}

fn strip<'a>(bytes: &'a [u8], bom: &[u8]) -> (&'a [u8], bool) {
    match bytes.strip_prefix(bom) {
        Some(rest) => (rest, true),
        None => (bytes, false),
    }
}

/// Encodes a text (with a byte order mark if `bom`), or names the first
/// character the encoding cannot hold.
pub fn encode(text: &str, encoding: Encoding, bom: bool) -> Result<Vec<u8>, Unencodable> {
    match encoding {
        Encoding::Utf8 => {
            let mut out = Vec::with_capacity(text.len() + 3);
            if bom {
                out.extend_from_slice(UTF8_BOM);
            }
            out.extend_from_slice(text.as_bytes());
            Ok(out)
        }
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let mut out = Vec::with_capacity(text.len() * 2 + 2);
            let le = encoding == Encoding::Utf16Le;
            if bom {
                out.extend_from_slice(if le { UTF16LE_BOM } else { UTF16BE_BOM });
            }
            for unit in text.encode_utf16() {
                out.extend_from_slice(&if le { unit.to_le_bytes() } else { unit.to_be_bytes() });
            }
            Ok(out)
        }
        _ => {
            let table = encoding.table().expect("an 8-bit encoding has a table");
            let mut out = Vec::with_capacity(text.len());
            for (offset, ch) in text.char_indices() {
                match table.encode(ch) {
                    Some(b) => out.push(b),
                    None => return Err(Unencodable { offset, ch, encoding }),
                }
            }
            Ok(out)
        }
    }
}

/// An ASCII-compatible 8-bit encoding: the characters of bytes 0x80-0xFF
/// (`None` where the encoding has none) and the way back.
struct SingleByte {
    high: [Option<char>; 128],
    back: HashMap<char, u8>,
}

impl SingleByte {
    fn from_encoding_rs(encoding: &'static encoding_rs::Encoding) -> SingleByte {
        let mut high = [None; 128];
        for (i, slot) in high.iter_mut().enumerate() {
            let byte = [0x80 + u8::try_from(i).expect("i < 128")];
            let (text, had_errors) = encoding.decode_without_bom_handling(&byte);
            let mut chars = text.chars();
            if let (false, Some(ch), None) = (had_errors, chars.next(), chars.next()) {
                *slot = Some(ch);
            }
        }
        SingleByte::new(high)
    }

    /// True ISO 8859-1 (encoding_rs reads that label as Windows-1252).
    fn latin1() -> SingleByte {
        let mut high = [None; 128];
        for (i, slot) in high.iter_mut().enumerate() {
            *slot = char::from_u32(0x80 + u32::try_from(i).expect("i < 128"));
        }
        SingleByte::new(high)
    }

    fn new(mut high: [Option<char>; 128]) -> SingleByte {
        let mut back = HashMap::new();
        for (i, slot) in high.iter_mut().enumerate() {
            if let Some(ch) = *slot {
                // A character that two bytes decode to, or an ASCII one,
                // could not be written back to the same byte: such a byte
                // counts as having no character.
                let byte = 0x80 + u8::try_from(i).expect("i < 128");
                if ch.is_ascii() || back.insert(ch, byte).is_some() {
                    *slot = None;
                }
            }
        }
        SingleByte { high, back }
    }

    fn decode(&self, b: u8) -> Option<char> {
        if b < 0x80 { Some(char::from(b)) } else { self.high[usize::from(b - 0x80)] }
    }

    fn encode(&self, ch: char) -> Option<u8> {
        if ch.is_ascii() { u8::try_from(ch).ok() } else { self.back.get(&ch).copied() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_of_every_8bit_encoding_round_trips() {
        for encoding in Encoding::ALL.into_iter().filter(|e| e.table().is_some()) {
            let bytes: Vec<u8> = (0..=255).collect();
            match decode_as(&bytes, encoding) {
                Ok(decoded) => assert_eq!(encode(&decoded.text, encoding, false).unwrap(), bytes),
                Err(DecodeError::Invalid { offset, .. }) => {
                    panic!("{encoding}: byte {offset:#x} has no character")
                }
                Err(e) => panic!("{encoding}: {e}"),
            }
        }
    }

    #[test]
    fn boms_and_utf16() {
        let text = "[Event \"Ловушка\"]\r\n1. ♘f3 😀 *\r";
        for encoding in [Encoding::Utf8, Encoding::Utf16Le, Encoding::Utf16Be] {
            let bytes = encode(text, encoding, true).unwrap();
            let decoded = detect(&bytes).unwrap();
            assert_eq!((decoded.encoding, decoded.bom, decoded.detection), (encoding, true, Detection::Bom));
            assert_eq!(decoded.text, text);
            assert_eq!(encode(&decoded.text, encoding, true).unwrap(), bytes);
        }
        let no_bom = encode(text, Encoding::Utf16Le, false).unwrap();
        assert!(matches!(detect(&no_bom), Err(DecodeError::Undecided(_))));
        assert_eq!(decode_as(&no_bom, Encoding::Utf16Le).unwrap().text, text);
        // A lone surrogate is an error, not a replacement character.
        assert!(matches!(
            decode_as(b"\xFF\xFE\x00\xD8a\x00", Encoding::Utf16Le),
            Err(DecodeError::Invalid { offset: 2, .. })
        ));
        // A stray byte after a UTF-8 byte order mark is read as U+FFFD and
        // listed (the checker reports it and never writes the file).
        let stray = detect(b"\xEF\xBB\xBF1. e4 \xFF").unwrap();
        assert_eq!((stray.text.as_str(), stray.bom), ("1. e4 \u{FFFD}", true));
        assert_eq!(stray.invalid, [InvalidByte { offset: 6, byte: 0xFF }]);
        assert!(matches!(
            decode_as(b"\xEF\xBB\xBF1. e4 \xFF", Encoding::Utf8),
            Err(DecodeError::Invalid { encoding: Encoding::Utf8, offset: 9 })
        ));
    }

    #[test]
    fn true_latin1_differs_from_windows_1252_in_0x80_to_0x9f() {
        assert_eq!(decode_as(b"\x80\x93", Encoding::Latin1).unwrap().text, "\u{80}\u{93}");
        assert_eq!(decode_as(b"\x80\x93", Encoding::Windows1252).unwrap().text, "€“");
        let e = encode("♘", Encoding::Windows1251, false).unwrap_err();
        assert_eq!((e.offset, e.ch), (0, '♘'));
        assert!(encode("é", Encoding::Latin1, false).is_ok());
        assert!(encode("€", Encoding::Latin1, false).is_err());
    }

    #[test]
    fn names() {
        for encoding in Encoding::ALL {
            assert_eq!(Encoding::from_name(encoding.name()), Some(encoding));
        }
        assert_eq!(Encoding::from_name("CP1251"), Some(Encoding::Windows1251));
        assert_eq!(Encoding::from_name("ISO-8859-1"), Some(Encoding::Latin1));
        assert_eq!(Encoding::from_name("IBM866"), Some(Encoding::Cp866));
        assert_eq!(Encoding::from_name("koi8_r"), Some(Encoding::Koi8R));
        assert_eq!(Encoding::from_name("ebcdic"), None);
    }
}
