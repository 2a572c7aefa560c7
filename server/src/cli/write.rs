//! Writes a rewritten text back over its file: in the file's own encoding
//! (and byte order mark), through a temporary file in the same directory
//! that is renamed over the original, with the original's permissions; and
//! never over a file that changed on disk since it was read.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::encoding;
use super::sources::{Source, Stamp};
use crate::ide::line_index::{LineIndex, Unit};

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
            WriteError::Unencodable(s) | WriteError::Changed(s) | WriteError::Io(s) => f.write_str(s),
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
    let target = std::fs::canonicalize(path).map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))?;
    let temporary = temporary_path(&target);
    let result = write_temporary(&temporary, &target, &bytes)
        .map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))
        .and_then(|()| unchanged_since(&target, stamp, name))
        .and_then(|()| {
            std::fs::rename(&temporary, &target).map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))
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
    let changed =
        || WriteError::Changed(format!("{name} changed on disk after it was read; it was not overwritten (run again)"));
    let metadata = std::fs::metadata(target).map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))?;
    if metadata.len() != stamp.len || metadata.modified().ok() != stamp.modified {
        return Err(changed());
    }
    let bytes = std::fs::read(target).map_err(|e| WriteError::Io(format!("cannot write {name}: {e}")))?;
    if Stamp::of(&bytes, Some(&metadata)) != *stamp {
        return Err(changed());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::sources;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chess-ls-write-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .expect("the directory")
            .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn writes_in_the_files_encoding_and_keeps_its_permissions() {
        let dir = scratch("encoding");
        let path = dir.join("ru.pgn");
        std::fs::write(&path, b"1. e4 e5 2. \xCAf3 *\r\n").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o604)).expect("chmod");
        }
        let source = sources::read(&path, None, true).expect("read");
        write_back(&source, "1. e4 e5 2. Кf3 Кc6 *\r\n").expect("written");
        assert_eq!(std::fs::read(&path).expect("read"), b"1. e4 e5 2. \xCAf3 \xCAc6 *\r\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("metadata").permissions().mode();
            assert_eq!(mode & 0o777, 0o604);
        }
        assert!(leftovers(&dir).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_not_overwritten() {
        let dir = scratch("changed");
        let path = dir.join("game.pgn");
        std::fs::write(&path, "1. e4 e5 *\n").expect("write");
        let source = sources::read(&path, None, true).expect("read");
        // Someone else saves the file meanwhile: same length, same time
        // stamp as far as a coarse clock can tell, other content.
        let modified = std::fs::metadata(&path).expect("metadata").modified().expect("mtime");
        std::fs::write(&path, "1. d4 d5 *\n").expect("write");
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(modified))
            .expect("set the time stamp back");
        let error = write_back(&source, "1. c4 c5 *\n").expect_err("not overwritten");
        assert!(matches!(error, WriteError::Changed(_)), "{error}");
        assert!(error.to_string().contains("changed on disk"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "1. d4 d5 *\n");
        assert!(leftovers(&dir).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_character_the_encoding_lacks_fails_before_anything_is_written() {
        let dir = scratch("unencodable");
        let path = dir.join("game.pgn");
        std::fs::write(&path, b"{\xC0} 1. e4 *\n").expect("write");
        let source = sources::read(&path, Some(encoding::Encoding::Windows1251), true).expect("read");
        let error = write_back(&source, "{А} 1. ♙e4 *\n").expect_err("not encodable");
        assert!(error.to_string().contains("`♙` (U+2659) at line 1, column 8"), "{error}");
        assert_eq!(std::fs::read(&path).expect("read"), b"{\xC0} 1. e4 *\n");
        assert!(leftovers(&dir).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through() {
        let dir = scratch("link");
        let path = dir.join("game.pgn");
        std::fs::write(&path, "1. e4 *\n").expect("write");
        let link = dir.join("link.pgn");
        std::os::unix::fs::symlink(&path, &link).expect("symlink");
        let source = sources::read(&link, None, true).expect("read");
        write_back(&source, "1. d4 *\n").expect("written");
        assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "1. d4 *\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
