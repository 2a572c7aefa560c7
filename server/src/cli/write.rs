//! Writes a rewritten text back over its file: in the file's own encoding
//! (and byte order mark), through a temporary file in the same directory
//! that takes the original's place atomically, with the original's
//! permissions, owner, group and extended attributes; and never over a file
//! that changed on disk since it was read.
//!
//! The temporary file is created with mode 0600 (or the original's mode
//! where that is narrower) before a byte is written, and is given the
//! original's mode only once it is complete. It then *exchanges* places
//! with the original (`renameat2(RENAME_EXCHANGE)`), and the file it
//! displaced is checked to be the very file that was read (same device and
//! inode, length, modification time and content hash): a write by another
//! program up to that moment is noticed, the two are exchanged back and the
//! run fails (exit 2) with the other program's text in place. A file with
//! several hard links is refused (a new file under one name would separate
//! it from the others). Temporary files are registered, and SIGINT or
//! SIGTERM removes them before the process exits (130 or 143).
//!
//! Test hook: when `CHESS_LS_TEST_WRITE_HOOK` names a program, it is run
//! and waited for at each stage of a write, as `PROGRAM STAGE TARGET
//! TEMPORARY`, with STAGE one of `created` (the temporary file exists and is
//! empty), `written` (it is complete), `exchange` (just before the exchange,
//! after every check that can be made beforehand) and `exchanged` (just
//! after it, before the displaced file is checked). Only the data safety
//! tests set it, to act at those moments (append to the file, look at the
//! temporary file's mode, send a signal). `CHESS_LS_TEST_WRITE_PANIC=STAGE:NAME`
//! makes the write of a file whose name ends with NAME panic at STAGE, for
//! the test that a panic in the writer leaves the file as it was.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::encoding;
use super::sources::{Source, Stamp};
use chess_ls_engine::ide::line_index::{LineIndex, Unit};

/// Why a file was not written. Nothing was written in any case.
#[derive(Debug)]
pub enum WriteError {
    /// A character of the new text has no byte sequence in the file's encoding.
    Unencodable(String),
    /// The file changed on disk since it was read.
    Changed(String),
    /// The file is not one a rewrite can keep whole (several hard links).
    Refused(String),
    /// The file system said no.
    Io(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Unencodable(s) | WriteError::Changed(s) | WriteError::Refused(s) | WriteError::Io(s) => {
                f.write_str(s)
            }
        }
    }
}

/// The temporary files that exist now: a signal removes them.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Makes SIGINT and SIGTERM remove the temporary files of the writes under
/// way, then end the process with 130 or 143. A write's last steps (the
/// exchange and its check) hold the registry's lock, so a signal waits for
/// them and never finds the original under a temporary name.
pub fn remove_temporaries_on_signals() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let registry = temporaries();
            for path in registry.iter() {
                let _ = std::fs::remove_file(path);
            }
            // The lock is never released: no write starts or ends after this.
            std::process::exit(128 + signal);
        }
    });
}

/// Runs the test hook (see the module docs), if one is set.
fn hook(stage: &str, target: &Path, temporary: &Path) {
    static HOOK: OnceLock<Option<std::ffi::OsString>> = OnceLock::new();
    if let Some(program) = HOOK.get_or_init(|| std::env::var_os("CHESS_LS_TEST_WRITE_HOOK")) {
        let _ = std::process::Command::new(program).arg(stage).arg(target).arg(temporary).status();
    }
    // `CHESS_LS_TEST_WRITE_PANIC=STAGE:NAME`: a panic at that stage of the
    // write of a file whose name ends with NAME (the tests that a panic in
    // the writer leaves the file as it was).
    static PANIC: OnceLock<Option<String>> = OnceLock::new();
    if let Some(spec) = PANIC.get_or_init(|| std::env::var("CHESS_LS_TEST_WRITE_PANIC").ok())
        && let Some((at, name)) = spec.split_once(':')
        && at == stage
        && target.to_string_lossy().ends_with(name)
    {
        panic!("CHESS_LS_TEST_WRITE_PANIC: a test asked for a panic at `{stage}` while writing {}", target.display());
    }
}

/// How far a write has gone, for undoing it after a panic.
#[derive(Default)]
struct Progress {
    /// The temporary file, once it may exist.
    temporary: Option<PathBuf>,
    /// The temporary name holds the original: the files were exchanged and
    /// the exchange is neither checked nor undone yet.
    exchanged: bool,
    /// The new text took the file's place for good.
    done: bool,
}

/// Encodes `text` as `source` was encoded and replaces the file with it.
///
/// A panic on the way (a bug) is caught here and undone: before the
/// exchange the temporary file is removed; between the exchange and its
/// check the two files are exchanged back first. The file is left as it
/// was, and the panic is an error of this file.
pub fn write_back(source: &Source, text: &str) -> Result<(), WriteError> {
    let mut progress = Progress::default();
    if let Ok(written) =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| write_back_inner(source, text, &mut progress)))
    {
        return written;
    }
    let name = &source.name;
    if progress.done {
        return Err(WriteError::Io(format!(
            "an internal error stopped the write of {name} after its new text took its place (please report it)"
        )));
    }
    let mut registry = temporaries();
    if let (Some(temporary), Some(target)) = (&progress.temporary, &source.real) {
        if progress.exchanged && exchange(temporary, target).is_err() {
            registry.retain(|p| p != temporary);
            return Err(WriteError::Io(format!(
                "an internal error stopped the write of {name}, and putting the file back failed; \
                 the file as it was read is {} (please report it)",
                temporary.display()
            )));
        }
        if registry.contains(temporary) {
            let _ = std::fs::remove_file(temporary);
            registry.retain(|p| p != temporary);
        }
    }
    Err(WriteError::Io(format!(
        "an internal error stopped the write of {name}; it was left as it was (please report it)"
    )))
}

fn write_back_inner(source: &Source, text: &str, progress: &mut Progress) -> Result<(), WriteError> {
    let name = &source.name;
    let (Some(target), Some(stamp)) = (&source.real, &source.stamp) else {
        let why = if source.path.is_none() { "standard input has no file" } else { "it is not a regular file" };
        return Err(WriteError::Io(format!("cannot write {name}: {why}")));
    };
    if let Some(first) = source.invalid.first() {
        let index = LineIndex::new(&source.text);
        let (line, column) = index.position(&source.text, first.offset, Unit::Char);
        let count = source.invalid.len();
        return Err(WriteError::Refused(format!(
            "{name} is not written: {count} byte{} of it {} not valid {} (the first, 0x{:02X}, at line {}, column {}); \
             correct {} first, the file is left as it was",
            if count == 1 { "" } else { "s" },
            if count == 1 { "is" } else { "are" },
            source.encoding,
            first.byte,
            line + 1,
            column + 1,
            if count == 1 { "it" } else { "them" },
        )));
    }
    if let Some(package) = &source.package {
        // A Word document: the changes written as tracked changes, the
        // rest of the package as it was.
        use chess_ls_engine::syntax::containers::{Limits, tracked};
        let limits = Limits { member: super::sources::STREAM_LIMIT, total: super::sources::STREAM_LIMIT };
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let bytes = tracked::rewrite(package, &source.text, text, &tracked::iso_date(now), limits)
            .map_err(|e| WriteError::Refused(format!("cannot write {name}: {e}; the file is left as it was")))?;
        return write_bytes(source, target, stamp, &bytes, progress);
    }
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
    write_bytes(source, target, stamp, &bytes, progress)
}

/// Writes a file's new bytes in its place (see [`write_back`]).
fn write_bytes(
    source: &Source,
    target: &Path,
    stamp: &super::sources::Stamp,
    bytes: &[u8],
    progress: &mut Progress,
) -> Result<(), WriteError> {
    let name = &source.name;
    let io = |e: std::io::Error| WriteError::Io(format!("cannot write {name}: {e}"));
    // `target` is the file as it was resolved when it was read (through a
    // symbolic link the user named); whatever stands there now must be that
    // file.
    let original = File::open(target).map_err(io)?;
    let metadata = original.metadata().map_err(io)?;
    if !metadata.is_file() || (metadata.dev(), metadata.ino()) != (stamp.dev, stamp.ino) {
        return Err(changed(name));
    }
    if metadata.nlink() > 1 {
        return Err(WriteError::Refused(format!(
            "{name} has {} hard links; rewriting it would leave the other names with the old text, \
             so it was not changed (copy it to a file of its own to fix it)",
            metadata.nlink()
        )));
    }
    // A read-only file is the user's word that it must not change (as
    // rustfmt, ruff and black, which open it for writing, are refused);
    // the exchange would replace it all the same, and root may write it.
    let writable = rustix::fs::access(target, rustix::fs::Access::WRITE_OK).is_ok();
    if metadata.mode() & 0o222 == 0 || !writable {
        return Err(WriteError::Refused(format!(
            "cannot write {name}: Permission denied (the file is read-only); it was left as it was"
        )));
    }
    let (temporary, file) = create_temporary(target, &metadata).map_err(io)?;
    progress.temporary = Some(temporary.clone());
    let result = write_temporary(file, &temporary, target, &original, &metadata, bytes)
        .map_err(io)
        .and_then(|file| commit(&temporary, target, stamp, name, file, progress));
    if result.is_err() {
        // Removed only while registered: a temporary name that holds the
        // file read (an exchange back that failed) is kept.
        let mut registry = temporaries();
        if registry.contains(&temporary) {
            let _ = std::fs::remove_file(&temporary);
            registry.retain(|p| *p != temporary);
        }
    }
    result
}

fn changed(name: &str) -> WriteError {
    WriteError::Changed(format!("{name} changed on disk after it was read; it was not overwritten (run again)"))
}

/// `dir/.name.chess-ls-PID-N.tmp`: hidden, beside the file (so the exchange
/// stays on one file system), unique within a run; `attempt` > 0 adds a
/// part that differs from run to run (see [`create_temporary`]).
fn temporary_path(target: &Path, attempt: u32) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file_name = target.file_name().map_or_else(Default::default, |n| n.to_string_lossy());
    let pid = std::process::id();
    if attempt == 0 {
        return target.with_file_name(format!(".{file_name}.chess-ls-{pid}-{n}.tmp"));
    }
    // The clock's nanoseconds and the attempt: another name whenever the
    // last was taken.
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    target.with_file_name(format!(".{file_name}.chess-ls-{pid}-{n}-{nanos:x}{attempt}.tmp"))
}

/// Creates the temporary file, private from its first byte (mode 0600, or
/// the original's if narrower), and registers it. A name that exists
/// already (left by a run that was killed: a container's process is often
/// PID 1 every time) is not an error: another is tried, as `mkstemp` does.
fn create_temporary(target: &Path, metadata: &std::fs::Metadata) -> std::io::Result<(PathBuf, File)> {
    let mode = metadata.mode() & 0o7777;
    let mut attempt = 0;
    loop {
        let temporary = temporary_path(target, attempt);
        let mut registry = temporaries();
        match std::fs::OpenOptions::new().write(true).create_new(true).mode(mode & 0o600).open(&temporary) {
            Ok(file) => {
                registry.push(temporary.clone());
                return Ok((temporary, file));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Fills the temporary file, and gives it the original's owner, group,
/// extended attributes and mode.
fn write_temporary(
    mut file: File,
    temporary: &Path,
    target: &Path,
    original: &File,
    metadata: &std::fs::Metadata,
    bytes: &[u8],
) -> std::io::Result<File> {
    let mode = metadata.mode() & 0o7777;
    hook("created", target, temporary);
    file.write_all(bytes)?;
    // Keep the owner and group where we may (as root, or a group the user
    // belongs to); otherwise the new file is the user's.
    let _ = std::os::unix::fs::fchown(&file, Some(metadata.uid()), Some(metadata.gid()));
    copy_extended_attributes(original, &file);
    // Last, since changing the owner clears the set-user-ID bits and an
    // access control list sets the group bits.
    file.set_permissions(std::fs::Permissions::from_mode(mode))?;
    file.sync_all()?;
    hook("written", target, temporary);
    Ok(file)
}

/// Copies every extended attribute the file system lets us set (`user.*`,
/// and `security.*`, `system.posix_acl_*` or `trusted.*` where the runner
/// may); the others are left, as `cp --preserve=xattr` leaves them.
fn copy_extended_attributes(from: &File, to: &File) {
    use rustix::fs::{XattrFlags, fgetxattr, fgetxattr_query, flistxattr, flistxattr_query, fsetxattr};
    let Ok(size) = flistxattr_query(from) else { return };
    if size == 0 {
        return;
    }
    let mut list = vec![0u8; size];
    let Ok(len) = flistxattr(from, &mut list[..]) else { return };
    list.truncate(len);
    for name in list.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let Ok(name) = std::ffi::CString::new(name) else { continue };
        let Ok(len) = fgetxattr_query(from, &name) else { continue };
        let mut value = vec![0u8; len];
        if let Ok(len) = fgetxattr(from, &name, &mut value[..]) {
            let _ = fsetxattr(to, &name, &value[..len], XattrFlags::empty());
        }
    }
}

/// Puts the temporary file in the original's place and checks that the
/// file it displaced is the one that was read; if it is not, puts that file
/// back. Holds the registry's lock throughout, so that a signal does not
/// remove a temporary name while it names the original.
fn commit(
    temporary: &Path,
    target: &Path,
    stamp: &Stamp,
    name: &str,
    file: File,
    progress: &mut Progress,
) -> Result<(), WriteError> {
    drop(file);
    let io = |e: std::io::Error| WriteError::Io(format!("cannot write {name}: {e}"));
    let mut registry = temporaries();
    // What can be seen before the exchange (a change in length or time, or
    // a new file): refused without touching anything.
    if !unchanged(target, stamp, false).map_err(io)? {
        return Err(changed(name));
    }
    hook("exchange", target, temporary);
    match exchange(temporary, target) {
        Ok(()) => {}
        Err(e)
            if e.raw_os_error() == Some(rustix::io::Errno::INVAL.raw_os_error())
                || e.raw_os_error() == Some(rustix::io::Errno::NOSYS.raw_os_error()) =>
        {
            // A file system without the exchange: the check above is the
            // last one, and a write between it and the rename is lost.
            std::fs::rename(temporary, target).map_err(io)?;
            progress.done = true;
            registry.retain(|p| p != temporary);
            return Ok(());
        }
        Err(e) => return Err(io(e)),
    }
    progress.exchanged = true;
    hook("exchanged", target, temporary);
    // The temporary name holds the displaced file now.
    match unchanged(temporary, stamp, true) {
        Ok(true) => {
            progress.done = true;
            std::fs::remove_file(temporary).map_err(io)?;
            registry.retain(|p| p != temporary);
            Ok(())
        }
        verdict => {
            // Put the other program's file back; the new text, under the
            // temporary name again, is removed by the caller.
            let back = exchange(temporary, target);
            progress.exchanged = back.is_err();
            if let Err(e) = back {
                registry.retain(|p| p != temporary);
                return Err(WriteError::Io(format!(
                    "cannot write {name}: it changed on disk while it was replaced, and putting it back failed \
                     ({e}); the file as the other program left it is {}",
                    temporary.display()
                )));
            }
            match verdict {
                Err(e) => Err(io(e)),
                _ => Err(changed(name)),
            }
        }
    }
}

fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}

/// Whether the file at `path` is the one that was read: the same device and
/// inode, length, modification time and (with `content`) content.
fn unchanged(path: &Path, stamp: &Stamp, content: bool) -> std::io::Result<bool> {
    let mut file = File::open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file()
        || (metadata.dev(), metadata.ino()) != (stamp.dev, stamp.ino)
        || metadata.len() != stamp.len
        || metadata.modified().ok() != stamp.modified
    {
        return Ok(false);
    }
    if !content {
        return Ok(true);
    }
    let mut bytes = Vec::with_capacity(stamp.len as usize);
    (&mut file).take(stamp.len + 1).read_to_end(&mut bytes)?;
    Ok(Stamp::of(&bytes, Some(&metadata)) == *stamp)
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
        let source = sources::read(&path, None, true, false).expect("read");
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
        let source = sources::read(&path, None, true, false).expect("read");
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
        let source = sources::read(&path, Some(encoding::Encoding::Windows1251), true, false).expect("read");
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
        let source = sources::read(&link, None, true, false).expect("read");
        write_back(&source, "1. d4 *\n").expect("written");
        assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "1. d4 *\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stale_temporary_file_does_not_block_the_write() {
        // Left by killed runs of the same PID (a container's process is
        // PID 1 every time): every name the counter gives next is taken.
        let dir = scratch("stale");
        let path = dir.join("game.pgn");
        std::fs::write(&path, "1. e4 *\n").expect("write");
        let pid = std::process::id();
        for n in 0..2000 {
            std::fs::write(dir.join(format!(".game.pgn.chess-ls-{pid}-{n}.tmp")), "stale").expect("write");
        }
        let source = sources::read(&path, None, true, false).expect("read");
        write_back(&source, "1. d4 *\n").expect("written under another name");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "1. d4 *\n");
        assert_eq!(leftovers(&dir).len(), 2000, "the stale files are left, no new one");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
