//! chess-ls: the front ends of the engine ([`chess_ls_engine`]): the
//! command line for publishers and CI ([`cli`]) and the language server
//! ([`lsp`]), with the finding of project settings files ([`project`]).
//! They read, convert, print and write; every answer about chess comes
//! from the engine, the same for both.

pub mod cli;
pub mod lsp;
pub mod memory;
pub mod project;

// The engine's layers under their old paths, for the test suite and the
// fuzz targets, which name them as `chess_ls::analysis` and so on.
pub use chess_ls_engine::{analysis, ide, syntax};
