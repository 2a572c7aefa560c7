//! Finds and reads the files the command line was given: directories are
//! searched for `*.pgn` files, and each file is decoded in its own encoding
//! (see [`super::encoding`]), remembering what is needed to write it back.

use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::encoding::{self, Decoded, Encoding};
use crate::syntax::manuscript::Format as ManuscriptFormat;

/// A text to check, under the name the user gave it.
pub struct Source {
    /// The path as given on the command line (`-` for stdin).
    pub name: String,
    /// The file, or `None` for stdin.
    pub path: Option<PathBuf>,
    /// The decoded text, without a byte order mark.
    pub text: String,
    pub encoding: Encoding,
    /// The file starts with a byte order mark.
    pub bom: bool,
    /// What the file was when it was read, to notice a change before
    /// writing over it (kept only by the modes that write).
    pub stamp: Option<Stamp>,
    /// Prose with games in it (`.txt`, `.md`, `.tex`, or `--manuscript`),
    /// rather than notation.
    pub manuscript: Option<ManuscriptFormat>,
}

/// How a file named on the command line is read: as a manuscript of the
/// format its extension says, or (`--manuscript`) as plain text when it
/// says none; `None` for notation.
pub fn manuscript_format(name: &str, forced: bool) -> Option<ManuscriptFormat> {
    ManuscriptFormat::from_path(name).or(forced.then_some(ManuscriptFormat::Text))
}

/// A file's modification time, length and content hash when it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub modified: Option<SystemTime>,
    pub len: u64,
    pub hash: u64,
}

impl Stamp {
    pub fn of(bytes: &[u8], metadata: Option<&std::fs::Metadata>) -> Stamp {
        Stamp { modified: metadata.and_then(|m| m.modified().ok()), len: bytes.len() as u64, hash: content_hash(bytes) }
    }
}

/// A hash of a file's bytes (SipHash with fixed keys: the same in every
/// run, which is all that comparing two reads of one file needs).
pub fn content_hash(bytes: &[u8]) -> u64 {
    #[expect(deprecated, reason = "SipHasher is the std hasher with fixed keys")]
    let mut hasher = std::hash::SipHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// Expands directories into the `*.pgn` files below them, sorted so that
/// the output is stable.
pub fn expand(paths: &[PathBuf], errors: &mut Vec<String>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" || !path.is_dir() {
            out.push(path.clone());
        } else {
            let before = out.len();
            walk(path, &mut out, errors);
            out[before..].sort();
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            errors.push(format!("cannot read the directory {}: {e}", dir.display()));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            walk(&path, out, errors);
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) {
            out.push(path);
        }
    }
}

/// Reads a file (or stdin for `-`) and decodes it: in `encoding` if one is
/// named, else in the encoding [`encoding::detect`] decides. A file that
/// cannot be decoded is an error, never a lossy reading. With `stamp`, what
/// is needed to notice a later change is kept (hashing every byte costs
/// time, so only the modes that write ask for it).
pub fn read(path: &Path, named: Option<Encoding>, stamp: bool) -> Result<Source, String> {
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    let (file, metadata) = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read stdin: {e}"))?;
        (None, None)
    } else {
        let metadata = std::fs::metadata(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        (Some(path.to_path_buf()), Some(metadata))
    };
    let stamp = (stamp && file.is_some()).then(|| Stamp::of(&bytes, metadata.as_ref()));
    let decoded = match named {
        Some(encoding) => encoding::decode_as(&bytes, encoding),
        None => encoding::detect_owned(bytes),
    };
    let Decoded { text, encoding, bom, .. } = decoded.map_err(|e| format!("cannot read {name}: {e}"))?;
    Ok(Source { name, path: file, text, encoding, bom, stamp, manuscript: None })
}
