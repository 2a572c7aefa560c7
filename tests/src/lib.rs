//! Test support shared by the end-to-end and corpus tests: the `chess-ls`
//! binary, an LSP client for it, and a deterministic generator of random
//! legal games written in any notation style, and random edits of a
//! document.

pub mod binary;
pub mod edits;
pub mod fuzzing;
pub mod generate;
pub mod lsp_client;
pub mod manuscript;
