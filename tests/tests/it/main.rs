//! The integration tests of chess-ls, in one test binary (one link of the
//! big crate instead of one per file, and one build of the `chess-ls`
//! binary for every end-to-end test). Run one file's tests with a filter on
//! its module: `cargo test -p chess-ls-tests --test it -- lsp_faults::`.
//!
//! End to end (the real binary over stdio or on the command line): `cli`,
//! `cli_publisher`, `laws` (the Laws of Chess and `--compare`), `manuscripts`, `lsp`, `lsp_markdown`, `lsp_manuscripts`,
//! `lsp_faults`, `data_safety` (partly). Properties over generated games and
//! edits: `properties`, `damage` (damaged games read as the moves they
//! stand for), `incremental`, `manuscript_edits`, `fast_path`. The
//! shared corpus: `grammar_corpus`, `corpus_analysis`. Reliability:
//! `hostile` (the 100 MB files are `#[ignore]`d: `scripts/test-all` runs them
//! in a release build), `fuzz_seeds`. One engine: `engine_agreement` (the
//! server publishes what `--check` reports, for every text). The lexicon
//! against the grammar: `lexicon`.

mod archives;
mod cli;
mod cli_publisher;
mod corpus_analysis;
mod damage;
mod data_safety;
mod engine_agreement;
mod fast_path;
mod fuzz_seeds;
mod grammar_corpus;
mod hostile;
mod incremental;
mod laws;
mod lexicon;
mod lsp;
mod lsp_faults;
mod lsp_manuscripts;
mod lsp_markdown;
mod manuscript_edits;
mod manuscripts;
mod packages;
mod properties;
mod realworld;
mod sourcegen;

/// A fresh, empty directory `name` under the test binary's temporary
/// directory, for one test.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary directory is writable");
    dir
}

/// The cases of a property: `PROPTEST_CASES` of them (else `cases`), from a
/// fixed seed, so that every run, CI's too, tries the same cases and a
/// failure is one anyone can run again. A hunt for new failures sets
/// another seed and more cases:
/// `PROPTEST_RNG_SEED=7 PROPTEST_CASES=5000 cargo test -p chess-ls-tests --test it -- lexicon::`.
/// Cases kept in `proptest-regressions/` are tried first.
fn proptest_config(cases: u32) -> proptest::prelude::ProptestConfig {
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    proptest::prelude::ProptestConfig {
        cases: var("PROPTEST_CASES").map_or(cases, |n: u64| n as u32),
        rng_seed: proptest::test_runner::RngSeed::Fixed(var("PROPTEST_RNG_SEED").unwrap_or(0x00c0_ffee)),
        ..proptest::prelude::ProptestConfig::default()
    }
}
