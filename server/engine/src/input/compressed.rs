//! Compressed input: gzip, bzip2, xz and zstd streams, and zip archives,
//! told by their first bytes (and, for a file whose content says nothing,
//! by its extension, so that a damaged `x.pgn.gz` is said to be a damaged
//! gzip file rather than text with a NUL byte in it). Each is read through
//! a well-kept crate as a stream (flate2, bzip2, lzma-rust2, zstd, zip), so
//! a compressed file of any size is checked game by game
//! (the command line's `cli::stream`). A zip archive's members are files of their own in
//! the reports, named `archive.zip:member.pgn`.

use std::io::{self, Read};

/// A compression chess-ls reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
    Zip,
}

impl Compression {
    pub const ALL: [Compression; 5] =
        [Compression::Gzip, Compression::Bzip2, Compression::Xz, Compression::Zstd, Compression::Zip];

    pub const fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
            Compression::Zip => "zip",
        }
    }

    /// The extensions that name it.
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Compression::Gzip => &["gz", "tgz"],
            Compression::Bzip2 => &["bz2"],
            Compression::Xz => &["xz"],
            Compression::Zstd => &["zst", "zstd"],
            Compression::Zip => &["zip"],
        }
    }

    fn magic(self) -> &'static [u8] {
        match self {
            Compression::Gzip => b"\x1f\x8b",
            Compression::Bzip2 => b"BZh",
            Compression::Xz => b"\xfd7zXZ\x00",
            Compression::Zstd => b"\x28\xb5\x2f\xfd",
            Compression::Zip => b"PK\x03\x04",
        }
    }

    /// The compression a name's extension says.
    pub fn from_name(name: &str) -> Option<Compression> {
        let ext = name.rsplit_once('.')?.1;
        Compression::ALL.into_iter().find(|c| c.extensions().iter().any(|e| ext.eq_ignore_ascii_case(e)))
    }

    /// The compression the first bytes say (at least 6 are needed to tell
    /// them all apart).
    pub fn from_magic(head: &[u8]) -> Option<Compression> {
        // An empty zip archive is only its end record.
        if head.starts_with(b"PK\x05\x06") {
            return Some(Compression::Zip);
        }
        Compression::ALL.into_iter().find(|c| head.starts_with(c.magic()))
    }

    /// What a file is: by its content, else by its name.
    pub fn detect(head: &[u8], name: &str) -> Option<Compression> {
        Compression::from_magic(head).or_else(|| Compression::from_name(name))
    }

    /// A reader of the decompressed stream (not for zip: see [`members`]).
    /// Concatenated streams (`cat a.gz b.gz`, pbzip2's output) are read on.
    pub fn decoder<'a>(self, input: impl Read + Send + 'a) -> Box<dyn Read + Send + 'a> {
        let input = io::BufReader::with_capacity(1 << 16, input);
        match self {
            Compression::Gzip => Box::new(Gzip { decoder: Some(flate2::bufread::GzDecoder::new(input)) }),
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
            Compression::Xz => Box::new(lzma_rust2::XzReader::new(input, true)),
            Compression::Zstd => match zstd::stream::read::Decoder::with_buffer(input) {
                Ok(decoder) => Box::new(decoder),
                Err(e) => Box::new(Failing(Some(e))),
            },
            Compression::Zip => Box::new(Failing(Some(io::Error::other("a zip archive is read by its members")))),
        }
    }
}

/// The name a compressed file's content goes by: `games.pgn.gz` holds
/// `games.pgn` (which says whether it is notation or a manuscript).
pub fn inner_name(name: &str, compression: Compression) -> &str {
    match name.rsplit_once('.') {
        Some((stem, ext)) if compression.extensions().iter().any(|e| ext.eq_ignore_ascii_case(e)) => stem,
        _ => name,
    }
}

/// The members of a gzip stream one after another (`cat a.gz b.gz`), and
/// zero bytes after the last, which `gzip -t` accepts (tape blocks and
/// some writers pad with them); any other byte after a member must start
/// a member. (flate2's `MultiGzDecoder` takes zero padding for a broken
/// header.)
struct Gzip<R: io::BufRead> {
    decoder: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: io::BufRead> Read for Gzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(decoder) = self.decoder.as_mut() else { return Ok(0) };
            let n = decoder.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended: another follows, or zero padding, or nothing.
            let Some(decoder) = self.decoder.take() else { return Ok(0) };
            let mut input = decoder.into_inner();
            let mut zeros = false;
            loop {
                let head = input.fill_buf()?;
                match head.first() {
                    None => return Ok(0),
                    Some(0) => {
                        let n = head.iter().take_while(|&&b| b == 0).count();
                        input.consume(n);
                        zeros = true;
                    }
                    Some(_) if zeros => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            "bytes other than zeros after the zero padding that ends it",
                        ));
                    }
                    Some(_) => break,
                }
            }
            self.decoder = Some(flate2::bufread::GzDecoder::new(input));
        }
    }
}

/// A reader whose first read fails with an error made earlier.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(self.0.take().unwrap_or_else(|| io::Error::other("unreadable")))
    }
}

/// Whether a zip member's name is one to check: notation (`.pgn`, also
/// compressed inside the archive) always, manuscripts when asked; never a
/// directory.
pub fn member_wanted(name: &str, manuscripts: bool) -> bool {
    if name.ends_with('/') {
        return false;
    }
    let inner = match Compression::from_name(name) {
        Some(Compression::Zip) => return false,
        Some(c) => inner_name(name, c),
        None => name,
    };
    let ext = inner.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    ext == "pgn"
        || manuscripts && matches!(ext.as_str(), "md" | "markdown" | "tex" | "txt" | "html" | "htm" | "xhtml" | "typ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_says_first_then_the_name() {
        assert_eq!(Compression::detect(b"\x1f\x8b\x08\x00", "x.pgn"), Some(Compression::Gzip));
        assert_eq!(Compression::detect(b"[Event", "x.pgn.zst"), Some(Compression::Zstd));
        assert_eq!(Compression::detect(b"[Event", "x.pgn"), None);
        assert_eq!(Compression::detect(b"PK\x03\x04", "twic1500g.zip"), Some(Compression::Zip));
        assert_eq!(inner_name("a/b.pgn.bz2", Compression::Bzip2), "a/b.pgn");
        assert!(member_wanted("twic1500.pgn", false) && !member_wanted("readme.txt", false));
        assert!(member_wanted("notes.md", true) && !member_wanted("dir/", true));
    }

    #[test]
    fn gzip_members_follow_one_another_and_zero_padding_ends_them() {
        use std::io::Write;
        let gzip = |text: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        };
        let read = |bytes: &[u8]| {
            let mut out = Vec::new();
            Compression::Gzip.decoder(bytes).read_to_end(&mut out).map(|_| out)
        };
        let two = [gzip(b"1. e4 *\n"), gzip(b"1. d4 *\n")].concat();
        assert_eq!(read(&two).unwrap(), b"1. e4 *\n1. d4 *\n");
        let padded = [two.clone(), vec![0; 100_000]].concat();
        assert_eq!(read(&padded).unwrap(), b"1. e4 *\n1. d4 *\n");
        assert!(read(&[padded.clone(), b"x".to_vec()].concat()).is_err());
        assert!(read(&[two, b"garbage".to_vec()].concat()).is_err());
    }

    #[test]
    fn a_damaged_stream_is_an_error_not_a_panic() {
        for c in [Compression::Gzip, Compression::Bzip2, Compression::Xz, Compression::Zstd] {
            let mut bytes = c.magic().to_vec();
            bytes.extend_from_slice(&[0xff; 64]);
            let mut out = Vec::new();
            assert!(c.decoder(&bytes[..]).read_to_end(&mut out).is_err(), "{}", c.name());
        }
    }
}
