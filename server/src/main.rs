//! The `chess-ls` binary: the language server by default, the command line
//! with `--check`, `--fix` or `--translate`.

use clap::Parser;

fn main() {
    let args = chess_ls::cli::Args::parse();
    if args.is_command_line() {
        std::process::exit(chess_ls::cli::run(&args));
    }
    std::process::exit(chess_ls::lsp::run_stdio());
}
