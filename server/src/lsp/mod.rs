//! The language server: LSP over stdio with tower-lsp-server on tokio.
//!
//! Only this module knows LSP types. `server.rs` implements the protocol
//! trait and dispatches; each feature lives in `handlers/<feature>.rs`;
//! positions convert in one place (`convert.rs`). stdout is the transport,
//! so nothing here prints: logs go to stderr through `tracing`.

pub mod config;
pub mod convert;
pub mod handlers;
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
        let (service, socket) = service();
        // Requests run on the blocking pool from snapshots, so many may be in
        // flight; a low limit would make an edit wait behind slow requests.
        Server::new(reader, tokio::io::stdout(), socket).concurrency_level(MAX_REQUESTS_IN_FLIGHT).serve(service).await;
    });
    // The reader of stdin may still be blocked in a read; do not wait for
    // it after `exit`.
    runtime.shutdown_background();
    0
}

/// How many messages are handled at once. Notifications count too: an
/// edit must never wait for a free place behind slow requests.
const MAX_REQUESTS_IN_FLIGHT: usize = 64;

/// The protocol service with chess-ls's custom methods, and the socket of
/// its messages to the client (for `Server::serve`, or driven in process by
/// the fuzzer).
pub fn service() -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(Backend::new).custom_method("chess-ls/positionAt", Backend::position_at).finish()
}

/// What a malformed message is replaced with: a notification the server
/// ignores (methods starting with `$/` may be dropped silently).
const IGNORED: &[u8] = br#"{"jsonrpc":"2.0","method":"$/chess-ls/malformedMessage"}"#;

/// The longest header line read at once: a longer line is junk, read and
/// dropped in bites of this size so that it cannot fill the memory.
const MAX_HEADER_LINE: u64 = 64 * 1024;

/// Copies LSP frames from `input` to `output`, replacing any body that is
/// not a JSON-RPC message. The transport of tower-lsp-server stops reading at
/// the first body it cannot decode (not JSON, or JSON that is neither a
/// request, a notification nor a response), which would end the session; a
/// client's one bad message must not. A malformed message that carries an
/// `id` becomes a request of an unknown method, so that the client still
/// gets an error response instead of waiting for one forever.
///
/// It returns when `input` ends or breaks: the server then sees the end of
/// its input and stops, so a client that disappears without `exit` does not
/// leave the server behind.
pub async fn sanitize(input: impl tokio::io::AsyncRead + Unpin, mut output: impl tokio::io::AsyncWrite + Unpin) {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
    let mut input = BufReader::new(input);
    loop {
        let mut length: Option<usize> = None;
        let mut saw_header = false;
        loop {
            // Bytes, not a `String`: a header that is not UTF-8 is junk to
            // skip, not a reason to stop reading.
            let mut line = Vec::new();
            match (&mut input).take(MAX_HEADER_LINE).read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&line);
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
        // Read what arrives rather than allocate the announced length up
        // front: a header may announce any length at all.
        let mut body = Vec::new();
        match (&mut input).take(length as u64).read_to_end(&mut body).await {
            Ok(n) if n == length => {}
            _ => return,
        }
        let replaced;
        let body: &[u8] = if is_message(&body) {
            &body
        } else {
            tracing::warn!("ignored a message that is not JSON-RPC ({length} bytes)");
            replaced = replacement(&body);
            &replaced
        };
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output.write_all(header.as_bytes()).await.is_err() || output.write_all(body).await.is_err() {
            return;
        }
        let _ = output.flush().await;
    }
}

/// Whether the transport can decode `body`: a request, a notification or a
/// response, in JSON.
fn is_message(body: &[u8]) -> bool {
    use tower_lsp_server::jsonrpc::{Request, Response};
    serde_json::from_slice::<Request>(body).is_ok() || serde_json::from_slice::<Response>(body).is_ok()
}

/// What replaces a malformed body: a request of an unknown method with the
/// same `id` (answered with an error), or else a notification ignored.
fn replacement(body: &[u8]) -> Vec<u8> {
    let id = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut message)) => message.remove("id"),
        _ => None,
    };
    let request = id.map(|id| {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "chess-ls/malformedRequest"}).to_string().into_bytes()
    });
    // An `id` the transport does not take (`1.5`, an object) cannot be
    // answered.
    request.filter(|r| is_message(r)).unwrap_or_else(|| IGNORED.to_vec())
}
