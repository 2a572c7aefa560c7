//! The language server: LSP over stdio with tower-lsp-server on tokio.
//!
//! Only this module knows LSP types. `server.rs` implements the protocol
//! trait and dispatches; each feature lives in `handlers/<feature>.rs`;
//! positions convert in one place (`convert.rs`). stdout is the transport,
//! so nothing here prints: logs go to stderr through `tracing`.

mod config;
mod convert;
pub mod document;
mod handlers;
mod server;

pub use config::Settings;
pub use server::Backend;

use tower_lsp_server::{LspService, Server};

/// Runs the server on stdin/stdout until the client exits; returns the
/// process exit status.
pub fn run_stdio() -> i32 {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("CHESS_LS_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            tracing::error!("cannot start the async runtime: {e}");
            return 2;
        }
    };
    runtime.block_on(async {
        let (stdin, stdout) = (tokio::io::stdin(), tokio::io::stdout());
        let (service, socket) = LspService::new(Backend::new);
        Server::new(stdin, stdout, socket).serve(service).await;
    });
    0
}
