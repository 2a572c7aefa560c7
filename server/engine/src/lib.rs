//! chess-ls-engine: the one engine of chess-ls, which every front end (the
//! command line, the language server) calls. Three layers, one direction:
//! [`syntax`] (the tree-sitter grammar, lowered to plain types) ->
//! [`analysis`] (replay, diagnostics, fixes) -> [`ide`] (documents,
//! checking, fixing, rewriting, what is at a position). It does no IO, runs
//! no async runtime and knows no LSP type: it speaks in byte offsets and
//! plain Rust types, and the front ends only convert, print and write.

pub mod analysis;
pub mod ide;
pub mod input;
pub mod syntax;

#[doc(hidden)]
pub mod test_support;

#[cfg(test)]
mod tests {
    /// Inside the engine the layers still run one way: syntax never names
    /// the analysis or the ide layer, and the analysis never names the ide
    /// layer; neither touches the file system. (The front ends are other
    /// crates, which the engine cannot name at all.)
    #[test]
    fn layers_import_one_way() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let forbidden: &[(&str, &[&str])] = &[
            ("syntax", &["crate::analysis", "crate::ide", "std::fs"]),
            ("analysis", &["crate::ide", "std::fs"]),
            ("ide", &["std::fs"]),
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

    /// The engine's whole dependency tree, read from the workspace's
    /// `Cargo.lock`, holds no async runtime, no language server framework
    /// and no LSP types: the build, not a convention, keeps the front ends'
    /// machinery out of the engine.
    #[test]
    fn no_front_end_crate_in_the_dependency_tree() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
        let lock = std::fs::read_to_string(path).expect("the workspace's Cargo.lock");
        let mut dependencies = std::collections::HashMap::<String, Vec<String>>::new();
        for package in lock.split("[[package]]").skip(1) {
            let name = package.lines().find_map(|l| l.strip_prefix("name = ")).unwrap_or_default().trim_matches('"');
            let list = package.split("dependencies = [").nth(1).and_then(|d| d.split(']').next()).unwrap_or_default();
            let names = list.split(',').filter_map(|d| {
                d.trim().trim_matches('"').split(' ').next().filter(|n| !n.is_empty()).map(str::to_owned)
            });
            dependencies.entry(name.to_owned()).or_default().extend(names);
        }
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec!["chess-ls-engine".to_owned()];
        while let Some(name) = stack.pop() {
            if seen.insert(name.clone()) {
                stack.extend(dependencies.get(&name).into_iter().flatten().cloned());
            }
        }
        assert!(seen.len() > 5, "the engine's dependencies were read: {seen:?}");
        for banned in ["tokio", "tower-lsp-server", "tower", "ls-types", "lsp-types", "futures", "chess-ls"] {
            assert!(!seen.contains(banned), "the engine depends on {banned}");
        }
    }
}
