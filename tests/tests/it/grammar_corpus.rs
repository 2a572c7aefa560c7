//! The tree-sitter grammar against the shared corpus of real files: every
//! `.pgn` file parses without ERROR or MISSING nodes, except the files that
//! `tests/grammar-known-failures.tsv` lists with the reason.
//!
//! The list has to stay true in both directions: a file with errors that it
//! does not name fails the test, and so does a named file that now parses
//! cleanly (then its row is to be deleted).
//!
//! The corpus lives outside the repository (`../shared/corpus`); without it
//! the test passes with a note on stderr.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tree_sitter::{Node, Parser};

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent; the grammar corpus test checks nothing", dir.display());
        None
    }
}

/// Every `.pgn` file under `dir`, as paths relative to it with `/`, sorted.
fn pgn_files(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|ext| ext == "pgn") {
                let relative = path.strip_prefix(root).expect("under the corpus");
                let parts: Vec<_> = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect();
                out.push(parts.join("/"));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    files.sort();
    files
}

/// The rows of `tests/grammar-known-failures.tsv`: path, then reason.
fn known_failures() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar-known-failures.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut rows = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (file, reason) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("{}:{}: a row is `path<TAB>reason`", path.display(), number + 1));
        assert!(!reason.trim().is_empty(), "{}:{}: the reason is empty", path.display(), number + 1);
        let previous = rows.insert(file.to_owned(), reason.to_owned());
        assert!(previous.is_none(), "{}:{}: {file} is listed twice", path.display(), number + 1);
    }
    rows
}

/// The first ERROR or MISSING node under `node`, in document order.
fn first_syntax_error(node: Node) -> Option<Node> {
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    if !node.has_error() {
        return None;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).find_map(first_syntax_error)
}

/// Where the first syntax error of a file is, for the failure message.
fn describe(text: &str, error: Node) -> String {
    let start = error.start_position();
    let what = if error.is_missing() { format!("MISSING {}", error.kind()) } else { "ERROR".to_owned() };
    let line = text.lines().nth(start.row).unwrap_or_default();
    let excerpt: String = line.chars().take(80).collect();
    format!("{what} at {}:{}: {excerpt}", start.row + 1, start.column + 1)
}

#[test]
fn corpus_files_parse_without_errors_except_the_known_failures() {
    let Some(dir) = corpus_dir() else { return };
    let known = known_failures();
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_chess::LANGUAGE.into()).expect("the chess grammar loads");

    let files = pgn_files(&dir);
    assert!(!files.is_empty(), "no .pgn file under {}", dir.display());
    let mut unlisted = Vec::new();
    let mut now_clean = Vec::new();
    for file in &files {
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
        // One file is Latin-1: read it as the editor would, with U+FFFD for
        // the bytes that are not UTF-8.
        let text = String::from_utf8_lossy(&bytes);
        let tree = parser.parse(text.as_ref(), None).expect("a parse without timeout always returns a tree");
        match (first_syntax_error(tree.root_node()), known.contains_key(file)) {
            (Some(error), false) => unlisted.push(format!("{file}: {}", describe(&text, error))),
            (None, true) => now_clean.push(file.clone()),
            _ => {}
        }
    }
    let missing_files: Vec<&String> = known.keys().filter(|file| !files.contains(file)).collect();

    let mut problems = String::new();
    if !unlisted.is_empty() {
        problems += "files with syntax errors that tests/grammar-known-failures.tsv does not list:\n  ";
        problems += &unlisted.join("\n  ");
        problems += "\n";
    }
    if !now_clean.is_empty() {
        problems += "files listed in tests/grammar-known-failures.tsv that now parse cleanly (delete their rows):\n  ";
        problems += &now_clean.join("\n  ");
        problems += "\n";
    }
    if !missing_files.is_empty() {
        let names: Vec<&str> = missing_files.iter().map(|f| f.as_str()).collect();
        problems += "files listed in tests/grammar-known-failures.tsv that the corpus does not have:\n  ";
        problems += &names.join("\n  ");
        problems += "\n";
    }
    assert!(problems.is_empty(), "{problems}");
    eprintln!("{} corpus files parsed, {} known failures", files.len(), known.len());
}
