//! Test support shared by the end-to-end and corpus tests: the `chess-ls`
//! binary, an LSP client for it, and a deterministic generator of random
//! legal games written in any notation style, the same games damaged as
//! real texts are, and random edits of a document.

pub mod binary;
pub mod damage;
pub mod edits;
pub mod fuzzing;
pub mod generate;
pub mod lsp_client;
pub mod manuscript;
pub mod packages;

/// The number of games and the findings of a manuscript, as `--check` has
/// them (`ide::check`, through the document model the server keeps).
pub fn check_manuscript(
    text: &str,
    format: chess_ls::syntax::manuscript::Format,
    options: &chess_ls::analysis::Options,
) -> (usize, Vec<chess_ls::analysis::Diagnostic>) {
    let kind = chess_ls::ide::document::Kind::from_manuscript(Some(format));
    let found = chess_ls::ide::Batch::new(options, &Default::default()).check(text, kind, &());
    (found.games, found.diagnostics)
}
