//! Finds and reads the files the command line was given: directories are
//! searched for `*.pgn` files, and each file is decoded in its own encoding
//! (see [`super::encoding`]), remembering what is needed to write it back.
//!
//! A directory search takes regular files only: a symbolic link is followed
//! only to a file inside the directory searched (a `p.pgn` that leads to
//! `/etc/passwd` is skipped, with a warning, and so never printed nor
//! written), and FIFOs, sockets and devices are skipped with a warning (a
//! FIFO would hang the run). A file named on the command line may be
//! anything readable; what is not a regular file (a FIFO, `/dev/zero`,
//! standard input) is read up to [`STREAM_LIMIT`] and refused past it.

use std::hash::{Hash, Hasher};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::encoding::{self, Decoded, Encoding, InvalidByte};
use chess_ls_engine::syntax::manuscript::Format as ManuscriptFormat;

/// A text to check, under the name the user gave it.
pub struct Source {
    /// The path as given on the command line (`-` for stdin).
    pub name: String,
    /// The file, or `None` for stdin.
    pub path: Option<PathBuf>,
    /// The file the path led to when it was read (symbolic links resolved):
    /// what a rewrite replaces. Kept by the modes that write.
    pub real: Option<PathBuf>,
    /// The device and inode of the file read, to check each file once.
    pub identity: Option<(u64, u64)>,
    /// The decoded text, without a byte order mark.
    pub text: String,
    pub encoding: Encoding,
    /// The file starts with a byte order mark.
    pub bom: bool,
    /// What the file was when it was read, to notice a change before
    /// writing over it (kept only by the modes that write).
    pub stamp: Option<Stamp>,
    /// Bytes that are not valid in the encoding, read as U+FFFD: each is
    /// reported, and the file is never rewritten.
    pub invalid: Vec<InvalidByte>,
    /// Prose with games in it (`.txt`, `.md`, `.tex`, or `--manuscript`),
    /// rather than notation.
    pub manuscript: Option<ManuscriptFormat>,
    /// The name of what a compressed file holds (`a.md` for `a.md.gz`),
    /// which tells its format.
    pub inner_name: Option<String>,
    /// The settings that apply to it (project file and flags).
    pub effective: std::sync::Arc<super::Effective>,
    /// Lines and bytes before this text in its file, when it is one batch
    /// of games of a file read as a stream (`super::stream`).
    pub first_line: usize,
    /// For a zip archive's member (named `archive.zip:member`), the length
    /// of the archive's name at the start of `name`.
    pub archive: Option<usize>,
    /// For a Word document read to be written (`--fix`, `--translate
    /// --write`), its bytes: `text` is its body, and a new text is written
    /// into them as tracked changes.
    pub package: Option<std::sync::Arc<Vec<u8>>>,
}

impl Source {
    /// A text of a name, read in an encoding, with nothing else known.
    pub fn new(name: String, text: String, encoding: Encoding) -> Source {
        Source {
            name,
            path: None,
            real: None,
            identity: None,
            text,
            encoding,
            bom: false,
            stamp: None,
            invalid: Vec::new(),
            manuscript: None,
            inner_name: None,
            effective: std::sync::Arc::default(),
            first_line: 0,
            archive: None,
            package: None,
        }
    }
}

/// How a file named on the command line is read: as a manuscript of the
/// format its extension says, or (`--manuscript`) as plain text when it
/// says none; `None` for notation.
pub fn manuscript_format(name: &str, forced: bool) -> Option<ManuscriptFormat> {
    ManuscriptFormat::from_path(name).or(forced.then_some(ManuscriptFormat::Text))
}

/// A Word document read for `--fix` or `--translate`: its body's text (a
/// line per paragraph), written back as tracked changes
/// (`syntax::containers::tracked`, by `super::write`).
fn read_word(
    name: String,
    file: Option<PathBuf>,
    bytes: Vec<u8>,
    metadata: Option<std::fs::Metadata>,
    stamp: bool,
) -> Result<Source, String> {
    use chess_ls_engine::syntax::containers::{Limits, tracked};
    let limits = Limits { member: STREAM_LIMIT, total: STREAM_LIMIT };
    let body = tracked::read_body(&bytes, limits).map_err(|e| format!("cannot read {name}: {e}"))?;
    let identity = metadata.as_ref().filter(|m| m.is_file()).map(|m| {
        use std::os::unix::fs::MetadataExt;
        (m.dev(), m.ino())
    });
    let stamp = (stamp && identity.is_some()).then(|| Stamp::of(&bytes, metadata.as_ref()));
    let real = if stamp.is_some() { file.as_deref().and_then(|p| std::fs::canonicalize(p).ok()) } else { None };
    let mut source = Source::new(name, body.text, Encoding::Utf8);
    source.path = file;
    source.real = real;
    source.identity = identity;
    source.stamp = stamp;
    source.manuscript = Some(ManuscriptFormat::Text);
    source.package = Some(std::sync::Arc::new(bytes));
    Ok(source)
}

/// A file's device and inode, modification time, length and content hash
/// when it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub dev: u64,
    pub ino: u64,
    pub modified: Option<SystemTime>,
    pub len: u64,
    pub hash: u64,
}

impl Stamp {
    pub fn of(bytes: &[u8], metadata: Option<&std::fs::Metadata>) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            dev: metadata.map_or(0, |m| m.dev()),
            ino: metadata.map_or(0, |m| m.ino()),
            modified: metadata.and_then(|m| m.modified().ok()),
            len: bytes.len() as u64,
            hash: content_hash(bytes),
        }
    }
}

/// The most read from what is not a regular file (a FIFO, a device,
/// standard input): 64 MiB. A stream may never end (`/dev/zero`).
pub const STREAM_LIMIT: u64 = 64 << 20;

/// A hash of a file's bytes (SipHash with fixed keys: the same in every
/// run, which is all that comparing two reads of one file needs).
pub fn content_hash(bytes: &[u8]) -> u64 {
    #[expect(deprecated, reason = "SipHasher is the std hasher with fixed keys")]
    let mut hasher = std::hash::SipHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// A file to read, and whether a directory search found it (then it must
/// be a regular file when it is opened, too).
pub struct Found {
    pub path: PathBuf,
    pub searched: bool,
}

/// How directories are searched.
#[derive(Clone, Copy, Debug, Default)]
pub struct Walk {
    /// Take every file: hidden ones and those `.gitignore`, `.ignore` and
    /// git's exclude files leave out, too (`--no-ignore`).
    pub everything: bool,
}

/// Whether a directory search takes a file of this name: notation
/// (`.pgn`, also compressed: `.pgn.gz`, `.pgn.zst`, ...), zip archives,
/// and with `manuscripts` the `.md`, `.tex`, `.txt`, `.html`, `.typ` files
/// and the packages (`.docx`, `.odt`, `.epub`).
pub fn searched_name(path: &Path, manuscripts: bool) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    if chess_ls_engine::syntax::containers::Container::from_path(name).is_some() {
        return manuscripts;
    }
    match super::compressed::Compression::from_name(name) {
        Some(super::compressed::Compression::Zip) => true,
        Some(c) => super::compressed::member_wanted(super::compressed::inner_name(name, c), manuscripts),
        None => super::compressed::member_wanted(name, manuscripts),
    }
}

/// Expands directories into the files below them that [`searched_name`]
/// takes (`manuscripts` says, for each directory named, whether its search
/// takes manuscripts), sorted so that the output is stable; what a search
/// skipped is said in `warnings`. The search respects `.gitignore` files
/// and leaves hidden files out, as ripgrep does (the `ignore` crate),
/// unless `walk.everything`.
pub fn expand(
    paths: &[PathBuf],
    walk: Walk,
    manuscripts: &dyn Fn(&Path) -> bool,
    errors: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Vec<Found> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" || !path.is_dir() {
            out.push(Found { path: path.clone(), searched: false });
        } else {
            let root = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            let mut skipped = Skipped::default();
            let mut found = Vec::new();
            walk_dir(path, &root, walk, manuscripts(path), &mut found, errors, &mut skipped);
            found.sort();
            found.dedup();
            if found.is_empty() {
                // A run pointed at the wrong folder must not pass as clean.
                errors.push(format!(
                    "no notation file under {}: nothing was checked (it has no file of the kinds searched; \
                     --search-manuscripts adds .md, .tex, .txt, .html, .typ, .docx, .odt and .epub, --no-ignore ignored and hidden files)",
                    path.display()
                ));
            }
            out.extend(found.into_iter().map(|path| Found { path, searched: true }));
            let dir = path.display();
            if !skipped.outside.is_empty() {
                skipped.outside.sort();
                warnings.push(format!(
                    "skipped {} under {dir} that lead{} outside it (not followed, not written): {}",
                    super::output::plural(skipped.outside.len(), "symbolic link"),
                    if skipped.outside.len() == 1 { "s" } else { "" },
                    list(&skipped.outside)
                ));
            }
            if !skipped.special.is_empty() {
                skipped.special.sort();
                warnings.push(format!(
                    "skipped {} under {dir} that {} not regular files (FIFOs, sockets or devices): {}",
                    super::output::plural(skipped.special.len(), "name"),
                    if skipped.special.len() == 1 { "is" } else { "are" },
                    list(&skipped.special)
                ));
            }
        }
    }
    out
}

/// What a directory search left out.
#[derive(Default)]
struct Skipped {
    /// Symbolic links to files outside the directory searched.
    outside: Vec<PathBuf>,
    /// FIFOs, sockets, devices (and links to them).
    special: Vec<PathBuf>,
}

/// The first few paths, for a warning.
fn list(paths: &[PathBuf]) -> String {
    let mut shown: Vec<String> = paths.iter().take(5).map(|p| p.display().to_string()).collect();
    if paths.len() > 5 {
        shown.push(format!("and {} more", paths.len() - 5));
    }
    shown.join(", ")
}

/// Searches `given` (the directory as the user named it, whose canonical
/// path is `root`) with the `ignore` crate's walker, which never follows a
/// link itself: links are judged here, as before.
fn walk_dir(
    given: &Path,
    root: &Path,
    walk: Walk,
    manuscripts: bool,
    out: &mut Vec<PathBuf>,
    errors: &mut Vec<String>,
    skipped: &mut Skipped,
) {
    let mut builder = ignore::WalkBuilder::new(given);
    builder.follow_links(false).standard_filters(!walk.everything).hidden(!walk.everything);
    for entry in builder.build() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                errors.push(format!("cannot search {}: {e}", given.display()));
                continue;
            }
        };
        if entry.depth() == 0 {
            continue;
        }
        let path = entry.path().to_path_buf();
        let Some(kind) = entry.file_type() else { continue };
        if kind.is_dir() || !searched_name(&path, manuscripts) {
            continue;
        }
        if kind.is_file() {
            out.push(path);
        } else if kind.is_symlink() {
            // Followed to a file, and only to one inside the directory
            // searched (links to directories are not followed, as before);
            // the file is named by its own path in the tree, so that what is
            // opened later is no link (and is opened without following one).
            match (std::fs::metadata(&path), std::fs::canonicalize(&path)) {
                (Ok(m), Ok(real)) if m.is_file() && real.starts_with(root) => {
                    out.push(given.join(real.strip_prefix(root).unwrap_or(&real)));
                }
                (Ok(m), Ok(_)) if m.is_file() => skipped.outside.push(path),
                (Ok(m), _) if !m.is_dir() => skipped.special.push(path),
                _ => {}
            }
        } else {
            skipped.special.push(path);
        }
    }
}

/// A file opened for reading: standard input (`file` is `None`) or a file
/// with what it was when opened.
pub struct Opened {
    pub file: Option<std::fs::File>,
    pub metadata: Option<std::fs::Metadata>,
}

impl Opened {
    /// The device and inode of a regular file, to read each file once.
    pub fn identity(&self) -> Option<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        self.metadata.as_ref().filter(|m| m.is_file()).map(|m| (m.dev(), m.ino()))
    }

    /// The whole stream, to read as it comes.
    pub fn into_reader(self) -> Box<dyn Read + Send> {
        match self.file {
            Some(file) => Box::new(file),
            None => Box::new(std::io::stdin()),
        }
    }
}

/// Opens a file (or stdin for `-`) for reading, without waiting and
/// without following a link where a search found it (`searched`: it must
/// still be a regular file now). A FIFO or a device the user named is
/// opened to be read as it comes (a FIFO without a writer reads as empty).
pub fn open(path: &Path, searched: bool) -> Result<Opened, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let name = path.display().to_string();
    if path.as_os_str() == "-" {
        return Ok(Opened { file: None, metadata: None });
    }
    // Opened without waiting: opening a FIFO for reading would wait for
    // a writer, maybe for ever.
    // A file a search found is no link (a link in the tree was replaced
    // by its target's path): one put there since is not followed.
    let mut flags = rustix::fs::OFlags::NONBLOCK;
    if searched {
        flags |= rustix::fs::OFlags::NOFOLLOW;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let metadata = file.metadata().map_err(|e| format!("cannot read {name}: {e}"))?;
    if metadata.is_dir() {
        return Err(format!("cannot read {name}: it is a directory"));
    } else if !metadata.is_file() {
        if searched {
            return Err(format!("cannot read {name}: it is not a regular file"));
        }
        rustix::fs::fcntl_setfl(&file, rustix::fs::OFlags::empty()).map_err(|e| format!("cannot read {name}: {e}"))?;
    }
    Ok(Opened { file: Some(file), metadata: Some(metadata) })
}

/// The first bytes of a regular file, to tell a compressed one.
pub fn head(file: &std::fs::File) -> Vec<u8> {
    use std::os::unix::fs::FileExt;
    let mut head = vec![0; 8];
    let n = file.read_at(&mut head, 0).unwrap_or(0);
    head.truncate(n);
    head
}

/// Reads a file (or stdin for `-`) and decodes it: in `encoding` if one is
/// named, else in the encoding [`encoding::detect`] decides. A file that
/// cannot be decoded is an error, never a lossy reading. With `stamp`, what
/// is needed to notice a later change is kept (hashing every byte costs
/// time, so only the modes that write ask for it). A file a directory
/// search found (`searched`) must still be a regular file when it is opened.
///
/// A compressed file (gzip, bzip2, xz, zstd) is read decompressed, up to
/// [`STREAM_LIMIT`]; the modes that write refuse it (they would have to
/// write it back compressed), and a zip archive is read by `--check` only.
/// (`--check` reads compressed files as streams: `super::stream`.)
pub fn read(path: &Path, named: Option<Encoding>, stamp: bool, searched: bool) -> Result<Source, String> {
    let name = path.display().to_string();
    let too_long = |what: &str| {
        format!(
            "cannot read {name}: it is {what} and gives more than {} MiB; \
             save it to a file and name that",
            STREAM_LIMIT >> 20
        )
    };
    let mut bytes = Vec::new();
    let opened = open(path, searched)?;
    let (file, metadata) = match opened.file {
        None => {
            std::io::stdin()
                .take(STREAM_LIMIT + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            if bytes.len() as u64 > STREAM_LIMIT {
                return Err(too_long("not a regular file"));
            }
            (None, None)
        }
        Some(mut file) => {
            if opened.metadata.as_ref().is_some_and(|m| m.is_file()) {
                file.read_to_end(&mut bytes).map_err(|e| format!("cannot read {name}: {e}"))?;
            } else {
                // A FIFO or a device the user named: read as it comes, up
                // to the limit.
                (&mut file)
                    .take(STREAM_LIMIT + 1)
                    .read_to_end(&mut bytes)
                    .map_err(|e| format!("cannot read {name}: {e}"))?;
                if bytes.len() as u64 > STREAM_LIMIT {
                    return Err(too_long("not a regular file"));
                }
            }
            (Some(path.to_path_buf()), opened.metadata)
        }
    };
    if let Some(container) = chess_ls_engine::syntax::containers::Container::from_path(&name) {
        if container == chess_ls_engine::syntax::containers::Container::Docx && file.is_some() {
            return read_word(name, file, bytes, metadata, stamp);
        }
        return Err(if stamp {
            format!(
                "cannot rewrite {name}: chess-ls writes fixes into a Word document only (as tracked \
                 changes), not into a {} (--check reads it); fix it in its editor",
                container.name()
            )
        } else {
            format!("cannot read {name}: a {} is read by --check only", container.name())
        });
    }
    let mut manuscript_name = None;
    if let Some(compression) = super::compressed::Compression::detect(&bytes[..bytes.len().min(8)], &name) {
        if stamp {
            return Err(format!(
                "cannot rewrite {name}: it is a {} file, and chess-ls rewrites only plain files; \
                 decompress it, rewrite that, and compress it again",
                compression.name()
            ));
        }
        if compression == super::compressed::Compression::Zip {
            return Err(format!("cannot read {name}: a zip archive is read by --check only"));
        }
        let mut plain = Vec::new();
        compression
            .decoder(&bytes[..])
            .take(STREAM_LIMIT + 1)
            .read_to_end(&mut plain)
            .map_err(|e| format!("cannot read {name}: not a valid {} file: {e}", compression.name()))?;
        if plain.len() as u64 > STREAM_LIMIT {
            return Err(too_long(&format!("{} compressed", compression.name())));
        }
        bytes = plain;
        manuscript_name = Some(super::compressed::inner_name(&name, compression).to_owned());
    }
    let identity = metadata.as_ref().filter(|m| m.is_file()).map(|m| {
        use std::os::unix::fs::MetadataExt;
        (m.dev(), m.ino())
    });
    let stamp = (stamp && identity.is_some()).then(|| Stamp::of(&bytes, metadata.as_ref()));
    let real = if stamp.is_some() { std::fs::canonicalize(path).ok() } else { None };
    let decoded = match named {
        Some(encoding) => encoding::decode_as(&bytes, encoding),
        None => encoding::detect_owned(bytes),
    };
    let Decoded { text, encoding, bom, invalid, .. } = decoded.map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut source = Source::new(name, text, encoding);
    source.invalid = invalid;
    source.path = file;
    source.real = real;
    source.identity = identity;
    source.bom = bom;
    source.stamp = stamp;
    source.inner_name = manuscript_name;
    Ok(source)
}
