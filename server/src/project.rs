//! Finding a file's project settings: the `chess-ls.toml` nearest above it
//! (its own directory first, then each parent, as ruff and taplo find
//! theirs), read once per directory however many files ask. The command
//! line asks for each file it reads, the language server for each document
//! it opens; what the file says is parsed and applied by
//! [`chess_ls_engine::ide::settings`], the same for both.

use std::collections::HashMap;
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
            match std::fs::read_to_string(&candidate) {
                Ok(text) => Settings::parse(&text)
                    .map(|settings| Some(Arc::new(Project { path: candidate.clone(), settings })))
                    .map_err(|e| format!("{}: {e}", candidate.display())),
                Err(e) => Err(format!("cannot read {}: {e}", candidate.display())),
            }
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
