//! One file per LSP feature. Each handler reads a document (and the
//! negotiated position unit) and returns protocol types.

pub mod code_action;
pub mod completion;
pub mod diagnostics;
pub mod folding;
pub mod formatting;
pub mod hover;
pub mod position;
pub mod semantic_tokens;
pub mod symbols;
