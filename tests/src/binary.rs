//! Finds the `chess-ls` binary for end-to-end tests, building it once.
//!
//! Cargo builds a dependency's library for the tests of this crate, but not
//! its binaries, so the first test that needs the binary runs
//! `cargo build -p chess-ls --bin chess-ls` (with the same profile) and every
//! later one reuses it.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The path of a freshly built `chess-ls`, or of the binary that
/// `CHESS_LS_BINARY` names (for a benchmark of two builds side by side).
pub fn chess_ls() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(given) = std::env::var_os("CHESS_LS_BINARY") {
            return PathBuf::from(given);
        }
        let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let release = !cfg!(debug_assertions);
        let mut build = Command::new(cargo);
        build.current_dir(&workspace).args(["build", "-q", "-p", "chess-ls", "--bin", "chess-ls"]);
        if release {
            build.arg("--release");
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success(), "building chess-ls failed");
        let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| workspace.join("target"), PathBuf::from);
        target.join(if release { "release" } else { "debug" }).join("chess-ls")
    })
    .clone()
}
