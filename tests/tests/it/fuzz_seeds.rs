//! The fuzz seeds (`fuzz/seeds/`), replayed in the normal test suite with
//! the checks of their fuzz targets, so that an input a fuzzer once broke
//! the code with (kept there as `regression-*`) stays fixed without
//! cargo-fuzz. See RELIABILITY.md.

use std::path::PathBuf;

use chess_ls_tests::fuzzing;

fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds").join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&path).expect("a seed"))
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

/// Each seed of `analysis` holds the target's properties.
#[test]
fn analysis_seeds() {
    for (name, data) in seeds("analysis") {
        eprintln!("analysis seed {name}");
        fuzzing::analysis(&data);
    }
}

/// Each seed of `document_edits` holds the target's properties.
#[test]
fn document_edits_seeds() {
    for (name, data) in seeds("document_edits") {
        eprintln!("document_edits seed {name}");
        fuzzing::document_edits(&data);
    }
}

/// Each seed of `archive` holds the target's properties.
#[test]
fn archive_seeds() {
    for (name, data) in seeds("archive") {
        eprintln!("archive seed {name}");
        fuzzing::archive(&data);
    }
}

/// Each seed of `settings` holds the target's properties.
#[test]
fn settings_seeds() {
    for (name, data) in seeds("settings") {
        eprintln!("settings seed {name}");
        fuzzing::settings(&data);
    }
}
