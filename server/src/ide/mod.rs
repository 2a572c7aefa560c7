//! The front-end-neutral layer between the analysis and the front ends: the
//! document model (sections of text with their trees and analyses, kept up
//! to date edit by edit), what is at a position, the fix policy, and the
//! rewriting of a whole document. It speaks in byte offsets and plain Rust
//! types, like the analysis; the command line and every LSP handler call it
//! and only convert, print and write.

pub mod cancel;
pub mod check;
pub mod document;
pub mod fixes;
pub mod format;
pub mod highlight;
pub mod intake;
pub mod line_index;
pub mod outline;
pub mod position;
pub mod rewrite;
pub mod settings;

#[cfg(test)]
mod tests {
    /// Three layers, one direction: syntax and analysis never name a layer
    /// above them, LSP types, the async runtime or the file system, and the
    /// ide layer names no front end.
    #[test]
    fn layers_import_one_way() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let forbidden: &[(&str, &[&str])] = &[
            ("syntax", &["crate::analysis", "crate::ide", "crate::lsp", "crate::cli", "tower_lsp", "tokio", "std::fs"]),
            ("analysis", &["crate::ide", "crate::lsp", "crate::cli", "tower_lsp", "tokio", "std::fs"]),
            ("ide", &["crate::lsp", "crate::cli", "tower_lsp", "tokio"]),
        ];
        for (layer, names) in forbidden {
            let mut stack = vec![src.join(layer), src.join(format!("{layer}.rs"))];
            while let Some(path) = stack.pop() {
                if path.is_dir() {
                    stack.extend(std::fs::read_dir(&path).unwrap().flatten().map(|e| e.path()));
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                // Tests may read files (the grammar's JSON, fixtures).
                let file = path.file_name().and_then(|f| f.to_str()).unwrap_or_default();
                if file == "tests.rs" || file.ends_with("_tests.rs") {
                    continue;
                }
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                for name in *names {
                    assert!(!code.contains(name), "{} names `{name}`", path.display());
                }
            }
        }
    }
}
