//! Finds and reads the files `--check` was given.

use std::io::Read;
use std::path::{Path, PathBuf};

/// A text to check, under the name the user gave it.
pub struct Source {
    pub name: String,
    pub text: String,
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

/// Reads a file (or stdin for `-`) as text: UTF-8 with or without a byte
/// order mark; other bytes are read as Latin-1 so that nothing is lost and
/// columns stay right (an 8-bit file has one character per byte).
pub fn read(path: &Path) -> Result<Source, String> {
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read stdin: {e}"))?;
    } else {
        bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    }
    Ok(Source { name, text: decode(bytes) })
}

pub fn decode(bytes: Vec<u8>) -> String {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}
