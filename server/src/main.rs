//! The `chess-ls` binary: the language server by default, the checker with
//! `--check`.

use clap::Parser;

fn main() {
    let args = chess_ls::cli::Args::parse();
    if args.check {
        std::process::exit(chess_ls::cli::run_check(&args));
    }
    std::process::exit(chess_ls::lsp::run_stdio());
}
