//! chess-ls: the syntax, analysis and front-end layers of the chess notation language server and checker.

pub mod analysis;
pub mod syntax;
