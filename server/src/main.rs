//! The `chess-ls` binary: the language server by default, the command line
//! with `--check`, `--fix` or `--translate`.

use clap::Parser;

/// A failed allocation ends the run with status 2 and a message, not an
/// abort ([`chess_ls::memory`]).
#[global_allocator]
static ALLOCATOR: chess_ls::memory::ExitOnFailure = chess_ls::memory::ExitOnFailure;

fn main() {
    let args = chess_ls::cli::Args::parse();
    if args.is_command_line() {
        std::process::exit(chess_ls::cli::run(&args));
    }
    std::process::exit(chess_ls::lsp::run_stdio());
}
