//! Writes a rewritten text back over its file: in the file's own encoding
//! (and byte order mark), through a temporary file in the same directory
//! that is renamed over the original, with the original's permissions; and
//! never over a file that changed on disk since it was read.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::encoding;
use super::sources::{Source, Stamp};
use crate::line_index::{LineIndex, Unit};

/// Why a file was not written. Nothing was written in any case.
#[derive(Debug)]
pub enum WriteError {
    /// A character of the new text has no byte sequence in the file's encoding.
    Unencodable(String),
    /// The file changed on disk since it was read.
    Changed(String),
    /// The file system said no.
    Io(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Unencodable(s) | WriteError::Changed(s) | WriteError::Io(s) => {
                f.write_str(s)
            }
        }
    }
}

/// Encodes `text` as `source` was encoded and replaces the file with it.
pub fn write_back(source: &Source, text: &str) -> Result<(), WriteError> {
    let name = &source.name;
    let (Some(path), Some(stamp)) = (&source.path, &source.stamp) else {
        return Err(WriteError::Io(format!("cannot write {name}: standard input has no file")));
    };
    let bytes = encoding::encode(text, source.encoding, source.bom).map_err(|e| {
        let index = LineIndex::new(text);
        let (line, column) = index.position(text, e.offset, Unit::Char);
        WriteError::Unencodable(format!(
            "cannot write {name}: `{}` (U+{:04X}) at line {}, column {} has no character in {}, \
             the file's encoding; the file is left as it was",
            e.ch,
            u32::from(e.ch),
            line + 1,
            column + 1,
            e.encoding
        ))
    })?;
    // Write through a symbolic link to the file it names, rather than
    // replacing the link with a file.
    let target = std::fs::canonicalize(path)
        .map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))?;
    let temporary = temporary_path(&target);
    let result = write_temporary(&temporary, &target, &bytes)
        .map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))
        .and_then(|()| unchanged_since(&target, stamp, name))
        .and_then(|()| {
            std::fs::rename(&temporary, &target)
                .map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))
        });
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// `dir/.name.chess-ls-PID-N.tmp`: hidden, beside the file (so the rename
/// stays on one file system), unique within and across runs.
fn temporary_path(target: &Path) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file_name = target.file_name().map_or_else(Default::default, |n| n.to_string_lossy());
    target.with_file_name(format!(".{file_name}.chess-ls-{}-{n}.tmp", std::process::id()))
}

fn write_temporary(temporary: &Path, target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let metadata = std::fs::metadata(target)?;
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(temporary)?;
    file.write_all(bytes)?;
    file.set_permissions(metadata.permissions())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Keep the owner and group where we may (as root, or a group the
        // user belongs to); otherwise the new file is the user's.
        let _ = std::os::unix::fs::fchown(&file, Some(metadata.uid()), Some(metadata.gid()));
    }
    file.sync_all()
}

/// Checks that the file is still what was read: modification time, length
/// and content.
fn unchanged_since(target: &Path, stamp: &Stamp, name: &str) -> Result<(), WriteError> {
    let changed = || {
        WriteError::Changed(format!(
            "{name} changed on disk after it was read; it was not overwritten (run again)"
        ))
    };
    let metadata =
        std::fs::metadata(target).map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))?;
    if metadata.len() != stamp.len || metadata.modified().ok() != stamp.modified {
        return Err(changed());
    }
    let bytes =
        std::fs::read(target).map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))?;
    if Stamp::of(&bytes, Some(&metadata)) != *stamp {
        return Err(changed());
    }
    Ok(())
}
