//! The language server: LSP over stdio with tower-lsp-server on tokio.
//!
//! Only this module knows LSP types. `server.rs` implements the protocol
//! trait and dispatches; each feature lives in `handlers/<feature>.rs`;
//! positions convert in one place (`convert.rs`). stdout is the transport,
//! so nothing here prints: logs go to stderr through `tracing`.

pub mod config;
pub mod convert;
pub mod document;
pub mod handlers;
pub mod outline;
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
        let (reader, writer) = tokio::io::duplex(1 << 20);
        tokio::spawn(sanitize(tokio::io::stdin(), writer));
        let (service, socket) =
            LspService::build(Backend::new).custom_method("chess-ls/positionAt", Backend::position_at).finish();
        Server::new(reader, tokio::io::stdout(), socket).serve(service).await;
    });
    // The reader of stdin may still be blocked in a read; do not wait for
    // it after `exit`.
    runtime.shutdown_background();
    0
}

/// What a malformed message is replaced with: a notification the server
/// ignores (methods starting with `$/` may be dropped silently).
const IGNORED: &[u8] = br#"{"jsonrpc":"2.0","method":"$/chess-ls/malformedMessage"}"#;

/// Copies LSP frames from `input` to `output`, replacing any body that is
/// not JSON. The transport of tower-lsp-server stops reading at the first
/// body it cannot decode, which would end the session; a client's one bad
/// message must not.
async fn sanitize(input: impl tokio::io::AsyncRead + Unpin, mut output: impl tokio::io::AsyncWrite + Unpin) {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
    let mut input = BufReader::new(input);
    loop {
        let mut length: Option<usize> = None;
        let mut saw_header = false;
        loop {
            let mut line = String::new();
            match input.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if saw_header {
                    break;
                }
                continue;
            }
            saw_header = true;
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().ok();
            }
        }
        let Some(length) = length else {
            tracing::warn!("ignored a message without a valid Content-Length header");
            continue;
        };
        let mut body = vec![0; length];
        if input.read_exact(&mut body).await.is_err() {
            return;
        }
        let body: &[u8] = if serde_json::from_slice::<serde_json::Value>(&body).is_ok() {
            &body
        } else {
            tracing::warn!("ignored a message whose body is not JSON ({length} bytes)");
            IGNORED
        };
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output.write_all(header.as_bytes()).await.is_err() || output.write_all(body).await.is_err() {
            return;
        }
        let _ = output.flush().await;
    }
}
