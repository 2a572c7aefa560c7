//! chess-ls: checks chess notation in every language and serves it to
//! editors. Three layers, one direction: [`syntax`] (the tree-sitter
//! grammar, lowered to plain types) -> [`analysis`] (replay, diagnostics,
//! fixes; no IO, no LSP) -> front ends ([`cli`], [`lsp`]).

pub mod analysis;
pub mod cli;
pub mod ide;
pub mod lsp;
pub mod project;
pub mod syntax;
