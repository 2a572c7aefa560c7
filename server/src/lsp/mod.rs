//! The language server (LSP over stdio).

/// Runs the server on stdin/stdout until the client exits.
pub fn run_stdio() -> i32 {
    eprintln!("chess-ls: the language server is not available in this build; use --check");
    2
}
