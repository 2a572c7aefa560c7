//! Finding a file's project settings: the `chess-ls.toml` nearest above it
//! (its own directory first, then each parent, as ruff and taplo find
//! theirs), read once per directory however many files ask. The command
//! line asks for each file it reads, the language server for each document
//! it opens; what the file says is parsed and applied by
//! [`chess_ls_engine::ide::settings`], the same for both.
//!
//! A settings file can hide every finding and make `--fix` rewrite the
//! files, so one is read only when it is the user's: one owned by another
//! user (as anyone may write one into `/tmp`) is not applied, and the error
//! says why and how to allow it, as git does for a repository owned by
//! someone else (`safe.directory`). And it is read only up to
//! [`MAX_SETTINGS_BYTES`]: a settings file is a few lines.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use chess_ls_engine::ide::settings::{FILE_NAME, Settings};

/// A project file read: where it is and what it says.
#[derive(Debug, PartialEq, Eq)]
pub struct Project {
    pub path: PathBuf,
    pub settings: Settings,
}

/// The nearest project file of a directory, or why it cannot be read.
type Found = Result<Option<Arc<Project>>, String>;

/// The project files found so far, by directory.
#[derive(Debug, Default)]
pub struct Projects {
    /// A directory's nearest project file (`None`: none above it), or why
    /// it could not be read.
    by_dir: Mutex<HashMap<PathBuf, Found>>,
}

impl Projects {
    pub fn new() -> Projects {
        Projects::default()
    }

    /// The project settings of a file (or of a directory itself, for a
    /// path that is one): those of the nearest `chess-ls.toml` at or above
    /// it. A relative path is taken from the current directory. An error
    /// says which file could not be read or parsed.
    pub fn for_path(&self, path: &Path) -> Result<Option<Arc<Project>>, String> {
        let absolute = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf())
        };
        let dir = if absolute.is_dir() { absolute.as_path() } else { absolute.parent().unwrap_or(Path::new("/")) };
        self.for_dir(dir)
    }

    fn for_dir(&self, dir: &Path) -> Result<Option<Arc<Project>>, String> {
        if let Some(found) = self.by_dir.lock().unwrap_or_else(|e| e.into_inner()).get(dir) {
            return found.clone();
        }
        let candidate = dir.join(FILE_NAME);
        let found = if candidate.is_file() {
            read(&candidate).map(|settings| Some(Arc::new(Project { path: candidate.clone(), settings })))
        } else {
            match dir.parent() {
                Some(parent) => self.for_dir(parent),
                None => Ok(None),
            }
        };
        self.by_dir.lock().unwrap_or_else(|e| e.into_inner()).insert(dir.to_path_buf(), found.clone());
        found
    }
}

/// The largest settings file read: 64 KiB (one with every code named
/// three times is under 2 KiB).
pub const MAX_SETTINGS_BYTES: u64 = 64 << 10;

/// The variable that lists the settings files to apply although another
/// user owns them (`:`-separated files or directories; `*` for any).
pub const SAFE_SETTINGS: &str = "CHESS_LS_SAFE_SETTINGS";

/// Reads and parses a settings file that is the user's, within the bound.
fn read(path: &Path) -> Result<Settings, String> {
    use std::os::unix::fs::MetadataExt;
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let metadata = file.metadata().map_err(|e| format!("cannot read {name}: {e}"))?;
    let user = rustix::process::geteuid().as_raw();
    if !owned_by_user(metadata.uid(), user) && !allowed(path) {
        return Err(format!(
            "{name} is owned by another user (uid {}; you are uid {user}), so its settings were not applied: \
             whoever can write to its directory could have put it there. If you trust it, set \
             {SAFE_SETTINGS}={name} (a list separated by `:`, or `*` for any), or use --no-config to read none",
            metadata.uid()
        ));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SETTINGS_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read {name}: {e}"))?;
    parse(&bytes, &name.to_string())
}

/// The settings of a settings file's bytes (at most [`MAX_SETTINGS_BYTES`]
/// of them), or why they cannot be used, in an error of a bounded length
/// (a value is quoted in part, a line of the TOML reader's cut).
pub fn parse(bytes: &[u8], name: &str) -> Result<Settings, String> {
    if bytes.len() as u64 > MAX_SETTINGS_BYTES {
        return Err(format!(
            "{name} is larger than a settings file may be ({} KiB); it was not read",
            MAX_SETTINGS_BYTES >> 10
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 text ({e})"))?;
    Settings::parse(text).map_err(|e| format!("{name}: {}", shortened(&e)))
}

/// Whether a file's owner is the user, or (as root under sudo, as git
/// allows it) the user sudo ran for.
fn owned_by_user(owner: u32, user: u32) -> bool {
    owner == user || user == 0 && std::env::var("SUDO_UID").ok().and_then(|uid| uid.parse::<u32>().ok()) == Some(owner)
}

/// Whether [`SAFE_SETTINGS`] names the file, its directory, or `*`.
fn allowed(path: &Path) -> bool {
    let Some(list) = std::env::var_os(SAFE_SETTINGS) else { return false };
    let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    std::env::split_paths(&list).any(|entry| {
        entry.as_os_str() == "*" || {
            let entry = std::fs::canonicalize(&entry).unwrap_or(entry);
            entry == canonical || canonical.parent() == Some(entry.as_path())
        }
    })
}

/// An error of the TOML reader with each line cut to 160 characters (it
/// shows the line in error, which may be megabytes long).
fn shortened(error: &str) -> String {
    const MAX: usize = 160;
    error
        .lines()
        .map(|line| match line.char_indices().nth(MAX) {
            Some((at, _)) => format!("{}... ({} more bytes)", &line[..at], line.len() - at),
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_file_above_counts() {
        let root = std::env::temp_dir().join(format!("chess-ls-project-{}", std::process::id()));
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(root.join(FILE_NAME), "language = \"ru\"\n").unwrap();
        std::fs::write(root.join("a").join(FILE_NAME), "language = \"de\"\n").unwrap();
        let projects = Projects::new();
        let found = projects.for_path(&deep.join("x.pgn")).unwrap().unwrap();
        assert_eq!(found.path, root.join("a").join(FILE_NAME));
        let found = projects.for_path(&root.join("y.pgn")).unwrap().unwrap();
        assert_eq!(found.path, root.join(FILE_NAME));
        std::fs::write(root.join("a/b").join(FILE_NAME), "language = 3\n").unwrap();
        assert!(Projects::new().for_path(&deep.join("x.pgn")).is_err());
        let _ = std::fs::remove_dir_all(&root);
    }
}
