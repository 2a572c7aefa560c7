//! The front-end-neutral layer between the analysis and the front ends: the
//! document model (sections of text with their trees and analyses, kept up
//! to date edit by edit), what is at a position, the fix policy, and the
//! rewriting of a whole document. It speaks in byte offsets and plain Rust
//! types, like the analysis. Its facade ([`Host`], [`Snapshot`], [`Batch`],
//! in `host.rs`) is what the command line and every LSP handler call; they
//! only convert, print and write.

pub mod assists;
pub mod cancel;
pub mod check;
pub mod compare;
pub mod completion;
pub mod document;
pub mod fixes;
pub mod folds;
pub mod format;
pub mod highlight;
pub mod host;
pub mod hover;
pub mod intake;
pub mod line_index;
pub mod outline;
pub mod position;
pub mod rewrite;
pub mod settings;
pub mod symbols;

pub use host::{Batch, Config, Host, Snapshot};
