//! Reading a text of any size in batches of whole games, so that `--check`
//! holds a few batches in memory, not the file: standard input, FIFOs,
//! compressed files and zip members, and files larger than
//! [`WHOLE_LIMIT`].
//!
//! Bytes come in blocks; a block is decoded up to its last line end (so no
//! character is cut), and the text is handed out up to the last start of a
//! game section found in it (`syntax::split::scan`, the very boundaries at
//! which `ide::check` cuts a text for its threads: a boundary depends only
//! on the text before it, so one found in a prefix is one in the whole).
//! Bare games without tag sections are cut after a result that ends its
//! line. Every batch thus starts at a line start, holds whole games, and
//! is checked as the whole file would be; its findings are printed with
//! the lines before it added. Memory follows the batch size and the
//! largest game, not the file.
//!
//! The encoding is decided on the first MiB (as `encoding::detect` decides
//! it on a whole file: a byte order mark, valid UTF-8, else the 8-bit
//! guess). A stream found to be UTF-8 is read as a whole UTF-8 file is: a
//! few bytes that are not UTF-8 (a NUL, a stray `\xE9`; up to 8 and 1 per
//! 10,000 bytes read so far), wherever they stand, are each read as U+FFFD
//! and handed out with their batch ([`Batch::invalid`]), so that each is
//! reported at its place and the rest is checked; more than that is an
//! error (the findings so far stand). In an encoding named with
//! `--encoding`, or another decided one, a byte that is not valid in it is
//! an error, and so is a NUL byte, as in a whole file.

use std::io::Read;

use super::encoding::{self, DecodeError, Encoding, InvalidByte};

/// Regular plain files up to this size are read whole (and checked many at
/// once); larger ones as streams.
pub const WHOLE_LIMIT: u64 = 64 << 20;

/// A batch is handed out once this much text is waiting.
pub const BATCH: usize = 8 << 20;

/// Text without any cut in it beyond this (no game boundary, no result at
/// a line end: not notation) is cut at its last line end anyway, so that
/// memory stays bounded; findings across such a cut may differ from the
/// whole file's.
const MAX_PENDING: usize = 64 << 20;

/// How much is read at a time.
const BLOCK: usize = 1 << 20;

/// How much of the start decides the encoding.
const HEAD: usize = 1 << 20;

/// A batch of whole games, and the lines of the file before it.
#[derive(Debug)]
pub struct Batch {
    pub text: String,
    pub first_line: usize,
    /// The bytes of a UTF-8 stream that were not UTF-8, each read as U+FFFD
    /// at this offset of `text`.
    pub invalid: Vec<InvalidByte>,
}

/// The batches of a stream.
pub struct Batches<'a> {
    input: Box<dyn Read + Send + 'a>,
    name: String,
    named: Option<Encoding>,
    encoding: Option<(Encoding, bool)>,
    raw: Vec<u8>,
    /// Bytes of the stream decoded so far (for messages).
    consumed: usize,
    text: String,
    /// The bytes not valid UTF-8 in `text` (offsets in it)...
    invalid: Vec<InvalidByte>,
    /// ...and how many the stream has had so far.
    invalid_seen: usize,
    /// The last piece start found in `text` (0: none yet), where a scan
    /// goes on from.
    last_start: usize,
    eof: bool,
    lines: usize,
    /// A line longer than [`MAX_PENDING`] is read on to its end (a
    /// regular file, whose size bounds it) instead of refused.
    long_lines: bool,
    /// The bytes at the start of `raw` known to hold no line end, so that
    /// a long line is searched once, not again after every read (a pipe
    /// gives 64 KiB at a time).
    no_line_end: usize,
    /// The bytes at the start of `raw` known to be ASCII (and no NUL)
    /// while the encoding waits for a byte that is not.
    ascii: usize,
    /// After a failed try to cut, the next waits until the text has
    /// doubled: each try scans the whole waiting text, so trying after
    /// every read would be quadratic in text that has no cut in it.
    next_try: usize,
    /// The bytes that searches for a cut or a line end have looked at, to
    /// show that reading is linear.
    examined: usize,
    /// What a failed read says the stream is (`not a valid gzip file: `):
    /// a decompressor's error, not one of decoding the text.
    read_error: String,
}

impl<'a> Batches<'a> {
    pub fn new(input: Box<dyn Read + Send + 'a>, name: String, named: Option<Encoding>) -> Batches<'a> {
        Batches {
            input,
            name,
            named,
            encoding: None,
            raw: Vec::new(),
            consumed: 0,
            text: String::new(),
            invalid: Vec::new(),
            invalid_seen: 0,
            last_start: 0,
            eof: false,
            lines: 0,
            long_lines: false,
            no_line_end: 0,
            ascii: 0,
            next_try: BATCH,
            examined: 0,
            read_error: String::new(),
        }
    }

    /// Reads a line longer than 64 MiB on to its end instead of refusing
    /// it: for a regular file, whose size bounds what is read.
    pub fn allow_long_lines(&mut self) {
        self.long_lines = true;
    }

    /// What a failed read means (`not a valid gzip file`), said before the
    /// reader's error.
    pub fn read_errors_mean(&mut self, what: String) {
        self.read_error = what + ": ";
    }

    /// The encoding decided (after the first batch), and whether a byte
    /// order mark started the stream.
    pub fn encoding(&self) -> (Encoding, bool) {
        self.encoding.unwrap_or((Encoding::Utf8, false))
    }

    /// The next batch, `None` at the end, or why the stream cannot be read
    /// on (its findings so far stand).
    pub fn next(&mut self) -> Result<Option<Batch>, String> {
        loop {
            if let Some(cut) = self.cut() {
                return Ok(Some(self.take(cut)));
            }
            if self.eof {
                if self.text.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.take(self.text.len())));
            }
            self.fill()?;
        }
    }

    fn take(&mut self, cut: usize) -> Batch {
        let rest = self.text.split_off(cut);
        let text = std::mem::replace(&mut self.text, rest);
        let after = self.invalid.partition_point(|b| b.offset < cut);
        let later = self.invalid.split_off(after).into_iter().map(|b| InvalidByte { offset: b.offset - cut, ..b });
        let invalid = std::mem::replace(&mut self.invalid, later.collect());
        self.last_start = 0;
        self.next_try = BATCH;
        let first_line = self.lines;
        self.lines += line_ends(&text);
        Batch { text, first_line, invalid }
    }

    /// Where the waiting text can be cut, when enough waits.
    fn cut(&mut self) -> Option<usize> {
        if self.text.len() < self.next_try || self.eof && self.text.len() < 2 * BATCH {
            return None;
        }
        let cut = self.try_cut();
        if cut.is_none() {
            // Not again before the text has doubled (and at the latest when
            // it reaches MAX_PENDING, where a cut is made at a line end).
            let doubled = self.text.len().saturating_mul(2);
            self.next_try = if self.text.len() < MAX_PENDING { doubled.min(MAX_PENDING) } else { doubled };
        }
        cut
    }

    /// Where the waiting text can be cut: scans it all.
    fn try_cut(&mut self) -> Option<usize> {
        self.examined += self.text.len() - self.last_start;
        let mut last = self.last_start;
        let bytes = self.text.as_bytes();
        chess_ls_engine::syntax::split::scan(&self.text, last, |start| {
            // A batch starts at a line's start (its positions are counted
            // from its first line): a piece that starts right after a
            // result, within its line, is no place to cut.
            if matches!(bytes[start - 1], b'\n' | b'\r') {
                last = start;
            }
            true
        });
        self.last_start = last;
        if last > 0 {
            return Some(last);
        }
        // Bare games: after a result that ends its line.
        let text = &self.text;
        self.examined += text.len();
        let parts = chess_ls_engine::syntax::split::cut_after_results(text, 0..text.len(), BATCH / 2);
        let bytes = text.as_bytes();
        for part in parts.iter().rev().skip(1) {
            let mut i = part.end;
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'\n' {
                return Some(i + 1);
            }
            if i + 1 < bytes.len() && bytes[i] == b'\r' {
                return Some(if bytes[i + 1] == b'\n' { i + 2 } else { i + 1 });
            }
        }
        if text.len() >= MAX_PENDING {
            return text[..text.len() - 1].rfind('\n').map(|at| at + 1).filter(|&at| at > 0);
        }
        None
    }

    /// Reads a block and decodes what can be decoded of it.
    fn fill(&mut self) -> Result<(), String> {
        let start = self.raw.len();
        // A small read to begin with, growing to BLOCK: each read zeroes
        // its buffer first, and a zip of 25,000 small members read a
        // MiB's worth twice for each.
        let block = (self.consumed + start).next_power_of_two().clamp(1 << 16, BLOCK);
        self.raw.resize(start + block, 0);
        let n = loop {
            match self.input.read(&mut self.raw[start..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.raw.truncate(start);
                    return Err(format!("cannot read {}: {}{e}", self.name, self.read_error));
                }
            }
        };
        self.raw.truncate(start + n);
        if n == 0 {
            self.eof = true;
        }
        if self.encoding.is_none() {
            // ASCII reads alike in every encoding here: the decision waits
            // for the first byte that is not ASCII (or a NUL), and is made
            // on the MiB from there, as the whole file's is made on its
            // bytes that are not ASCII (a `caf\xE9` after a MiB of ASCII is
            // the 8-bit guess's, as in the whole file, not a UTF-8 error).
            if self.named.is_some() {
                self.encoding = Some(self.decide(0)?);
            } else {
                self.examined += self.raw.len() - self.ascii;
                match self.raw[self.ascii..].iter().position(|&b| b >= 0x80 || b == 0) {
                    Some(at) => {
                        let from = self.ascii + at;
                        self.ascii = from;
                        if self.raw.len() < from + HEAD && !self.eof {
                            return Ok(());
                        }
                        self.encoding = Some(self.decide(from)?);
                    }
                    None => self.ascii = self.raw.len(),
                }
            }
        }
        let (encoding, _) = self.encoding();
        let cut = if self.eof {
            self.raw.len()
        } else {
            self.examined += self.raw.len() - self.no_line_end;
            safe_cut(&self.raw, encoding, self.no_line_end)
        };
        // Whatever is left in `raw` after this holds no line end.
        self.no_line_end = (self.raw.len() - cut) & !1;
        self.ascii = self.ascii.saturating_sub(cut);
        if cut == 0 {
            if self.raw.len() > MAX_PENDING && !self.long_lines {
                return Err(format!(
                    "cannot read {}: more than {} MiB without a line end at byte {}; not chess notation",
                    self.name,
                    MAX_PENDING >> 20,
                    self.consumed
                ));
            }
            return Ok(());
        }
        let part = &self.raw[..cut];
        if self.named.is_none() && encoding == Encoding::Utf8 {
            let text = self.lenient(cut)?;
            self.text.push_str(&text);
            self.consumed += cut;
            self.raw.drain(..cut);
            return Ok(());
        }
        if self.named.is_none()
            && !matches!(encoding, Encoding::Utf16Le | Encoding::Utf16Be)
            && let Some(at) = part.iter().position(|&b| b == 0)
        {
            return Err(format!(
                "cannot read {}: {}",
                self.name,
                DecodeError::Undecided(format!(
                    "a NUL byte at offset {}: UTF-16 without a byte order mark, or not text",
                    self.consumed + at
                ))
            ));
        }
        let decoded = encoding::decode_as(part, encoding).map_err(|e| {
            let e = match e {
                DecodeError::Invalid { encoding, offset } => {
                    DecodeError::Invalid { encoding, offset: offset + self.consumed }
                }
                other => other,
            };
            format!("cannot read {}: {e}", self.name)
        })?;
        self.text.push_str(&decoded.text);
        self.consumed += cut;
        self.raw.drain(..cut);
        Ok(())
    }

    /// The first `cut` bytes of `raw`, of a stream found to be UTF-8, read
    /// as a whole UTF-8 file is (`encoding::detect`): a few bytes that are
    /// not UTF-8 each as U+FFFD, noted at its offset in the text; more than
    /// a whole file of the bytes read so far may have is an error.
    fn lenient(&mut self, cut: usize) -> Result<String, String> {
        let part = &self.raw[..cut];
        let skip = if self.consumed == 0 && part.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let body = &part[skip..];
        if !body.contains(&0)
            && let Ok(text) = std::str::from_utf8(body)
        {
            return Ok(text.to_owned());
        }
        let allowed = encoding::invalid_allowed(self.consumed + cut).saturating_sub(self.invalid_seen);
        let Some(decoded) = encoding::lenient_utf8_within(body, allowed) else {
            let (at, byte) = first_invalid(body);
            return Err(format!(
                "cannot read {}: {} or more of its first {} bytes are not valid utf-8 (0x{byte:02X} at offset {}, ...), \
                 more than a text file has; if it is in another encoding, name it with --encoding",
                self.name,
                self.invalid_seen + allowed + 1,
                self.consumed + cut,
                self.consumed + skip + at,
            ));
        };
        let base = self.text.len();
        self.invalid_seen += decoded.invalid.len();
        self.invalid.extend(decoded.invalid.iter().map(|b| InvalidByte { offset: base + b.offset, ..*b }));
        Ok(decoded.text)
    }

    /// The encoding of the stream, from its first bytes.
    fn decide(&self, from: usize) -> Result<(Encoding, bool), String> {
        if let Some(named) = self.named {
            let bom = match named {
                Encoding::Utf8 => self.raw.starts_with(b"\xEF\xBB\xBF"),
                Encoding::Utf16Le => self.raw.starts_with(b"\xFF\xFE"),
                Encoding::Utf16Be => self.raw.starts_with(b"\xFE\xFF"),
                _ => false,
            };
            return Ok((named, bom));
        }
        // Decided on whole lines (a UTF-8 character is never cut), or on
        // a head that is valid UTF-8 up to a character cut at its end; the
        // ASCII before `from` does not count.
        let end = self.raw.len().min(from + HEAD);
        let head = &self.raw[..end];
        let whole = if self.eof && end == self.raw.len() {
            end
        } else {
            head.iter().rposition(|&b| b == b'\n').map_or(0, |at| at + 1)
        };
        let head = if whole > from {
            &head[..whole]
        } else {
            match std::str::from_utf8(head) {
                Err(e) if e.error_len().is_none() && e.valid_up_to() > from => &head[..e.valid_up_to()],
                _ => head,
            }
        };
        let decided = if self.consumed > 0 && from == 0 {
            // Not the stream's start: what looks like a byte order mark is not one.
            encoding::detect(&[b"\n", head].concat()).map(|d| (d.encoding, false))
        } else {
            encoding::detect(head).map(|d| (d.encoding, d.bom))
        };
        decided.map_err(|e| format!("cannot read {}: {e}", self.name))
    }
}

/// The offset and value of the first byte of `bytes` that is not UTF-8 text
/// (a NUL, or a byte of no valid sequence).
fn first_invalid(bytes: &[u8]) -> (usize, u8) {
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        if let Some(nul) = chunk.valid().bytes().position(|b| b == 0) {
            return (at + nul, 0);
        }
        at += chunk.valid().len();
        if let Some(&byte) = chunk.invalid().first() {
            return (at, byte);
        }
    }
    (at, 0)
}

/// How much of `raw` can be decoded without cutting a character: up to
/// its last line end; the first `searched` bytes (an even number) are
/// known to hold none.
fn safe_cut(raw: &[u8], encoding: Encoding, searched: usize) -> usize {
    let searched = searched.min(raw.len()) & !1;
    match encoding {
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let lf: [u8; 2] = if encoding == Encoding::Utf16Le { [b'\n', 0] } else { [0, b'\n'] };
            let mut at = raw.len() & !1;
            while at >= searched + 2 {
                if raw[at - 2..at] == lf {
                    return at;
                }
                at -= 2;
            }
            0
        }
        _ => raw[searched..].iter().rposition(|&b| b == b'\n').map_or(0, |at| searched + at + 1),
    }
}

/// The line ends in a text, as lines are counted in reports (`\n`, `\r\n`
/// and a lone `\r` each end one).
fn line_ends(text: &str) -> usize {
    let bytes = text.as_bytes();
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    if !bytes.contains(&b'\r') {
        return lf;
    }
    lf + (0..bytes.len()).filter(|&i| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batches(bytes: Vec<u8>) -> Vec<Batch> {
        let mut b = Batches::new(Box::new(std::io::Cursor::new(bytes)), "t".into(), None);
        let mut out = Vec::new();
        while let Some(batch) = b.next().unwrap() {
            out.push(batch);
        }
        out
    }

    #[test]
    fn batches_hold_whole_games_and_count_lines() {
        let game = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
        let text = game.repeat(BATCH * 3 / game.len());
        let out = batches(text.clone().into_bytes());
        assert!(out.len() >= 2, "{}", out.len());
        let mut lines = 0;
        let mut joined = String::new();
        for batch in &out {
            assert!(batch.text.starts_with("[Event"));
            assert_eq!(batch.first_line, lines);
            lines += line_ends(&batch.text);
            joined.push_str(&batch.text);
        }
        assert_eq!(joined, text);
    }

    #[test]
    fn bare_games_are_cut_after_results_at_line_ends() {
        let text = "1. e4 e5 2. Nf3 Nc6 1-0\n".repeat(BATCH * 3 / 24);
        let out = batches(text.clone().into_bytes());
        assert!(out.len() >= 2);
        assert!(out.iter().all(|b| b.text.starts_with("1. e4")));
        assert_eq!(out.iter().map(|b| b.text.as_str()).collect::<String>(), text);
    }

    #[test]
    fn late_bytes_that_are_not_utf8_go_with_their_batch() {
        // Past the first MiB and past the first batch: each is U+FFFD at
        // its offset in its batch, the text is the whole file's.
        let game = "[Event \"р\"]\n\n1. e4 e5 2. Кf3 Кc6 *\n\n";
        let mut bytes = game.repeat(BATCH * 2 / game.len()).into_bytes();
        bytes.extend_from_slice(b"[Event \"\xFF\"]\n\n1. e4 e5 2. \x00 Nf3 *\n\n");
        bytes.extend_from_slice(game.repeat(1000).as_bytes());
        let out = batches(bytes.clone());
        assert!(out.len() >= 2, "{}", out.len());
        let whole = encoding::detect(&bytes).unwrap();
        assert_eq!(out.iter().map(|b| b.text.as_str()).collect::<String>(), whole.text);
        let mut base = 0;
        let mut found = Vec::new();
        for batch in &out {
            for b in &batch.invalid {
                assert_eq!(&batch.text[b.offset..b.offset + 3], "\u{FFFD}");
                found.push((base + b.offset, b.byte));
            }
            base += batch.text.len();
        }
        assert_eq!(found, whole.invalid.iter().map(|b| (b.offset, b.byte)).collect::<Vec<_>>());
        assert_eq!(found.iter().map(|&(_, b)| b).collect::<Vec<_>>(), [0xFF, 0]);
    }

    /// A pipe: at most 64 KiB a read.
    struct Pipe(std::io::Cursor<Vec<u8>>);

    impl Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(64 << 10);
            self.0.read(&mut buf[..n])
        }
    }

    /// What the searches of a whole stream looked at, read 64 KiB at a time.
    fn examined(bytes: Vec<u8>) -> (usize, usize) {
        let len = bytes.len();
        let mut b = Batches::new(Box::new(Pipe(std::io::Cursor::new(bytes))), "p".into(), None);
        b.allow_long_lines();
        let mut total = 0;
        while let Some(batch) = b.next().unwrap() {
            total += batch.text.len();
        }
        assert_eq!(total, len);
        (b.examined, len)
    }

    #[test]
    fn a_pipe_is_read_in_time_linear_in_its_length() {
        // Text without a cut in it (blank lines), one long line, and the
        // same without any byte that decides the encoding: each byte is
        // looked at a few times, not once for every 64 KiB read (before:
        // the waiting text was scanned from its start after every read).
        for bytes in [
            vec![b'\n'; 3 * BATCH],
            [vec![b'e'; 3 * BATCH], b"\n".to_vec()].concat(),
            [b"\xD0\x9A".to_vec(), vec![b'e'; 3 * BATCH], b"\n".to_vec(), vec![b'\n'; 2 * BATCH]].concat(),
        ] {
            let (examined, len) = examined(bytes);
            assert!(examined <= 8 * len, "{examined} bytes examined for {len}");
        }
    }

    #[test]
    fn encodings_are_decided_on_the_head_and_nul_is_refused() {
        let mut bytes = b"\xFF\xFE".to_vec();
        for unit in "1. e4 e5 *\n".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let out = batches(bytes);
        assert_eq!(out[0].text, "1. e4 e5 *\n");
        let mut b = Batches::new(Box::new(std::io::repeat(0).take(10 << 20)), "z".into(), None);
        assert!(b.next().unwrap_err().contains("a NUL byte at offset 0"));
    }
}
