//! The language server: LSP over stdio with tower-lsp-server on tokio.
//!
//! Only this module knows LSP types. `transport.rs` reads stdin (through
//! the frame sanitizer here, `Frames`), hands the messages to the
//! service and writes stdout in the order the server promises;
//! `server.rs` implements the protocol trait and dispatches; each feature
//! lives in `handlers/<feature>.rs`; positions convert in one place
//! (`convert.rs`). stdout is the transport,
//! so nothing here prints: logs go to stderr through `tracing`.

pub mod config;
pub mod convert;
pub mod handlers;
mod server;
mod transport;

pub use config::Settings;
pub use server::Backend;
pub use transport::serve;

use tower_lsp_server::LspService;
use tower_lsp_server::jsonrpc::{Request, Response};

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
    let watch = std::sync::Arc::new(Watch::default());
    runtime.block_on(transport::serve_watching(tokio::io::stdin(), tokio::io::stdout(), watch.clone()));
    // The reader of stdin may still be blocked in a read; do not wait for
    // it after `exit`.
    runtime.shutdown_background();
    // The protocol: `exit` without `shutdown` before it ends with 1.
    i32::from(watch.exit_without_shutdown.load(std::sync::atomic::Ordering::SeqCst))
}

/// What the frame sanitizer saw go by, for the exit status.
#[derive(Debug, Default)]
pub struct Watch {
    /// A `shutdown` request.
    pub shutdown: std::sync::atomic::AtomicBool,
    /// An `exit` notification came before any `shutdown` request.
    pub exit_without_shutdown: std::sync::atomic::AtomicBool,
}

/// A request whose `id` is neither a number nor a string (`1.5`, `true`,
/// `[]`, `{}`): answered by an error with a null `id`, as JSON-RPC asks.
async fn malformed_request(_: &Backend) -> tower_lsp_server::jsonrpc::Result<()> {
    Err(tower_lsp_server::jsonrpc::Error::invalid_request())
}

/// The protocol service with chess-ls's custom methods, and the socket of
/// its messages to the client (driven by [`serve`]).
pub fn service() -> (LspService<Backend>, tower_lsp_server::ClientSocket) {
    LspService::build(Backend::new)
        .custom_method("chess-ls/positionAt", Backend::position_at)
        .custom_method(MALFORMED_REQUEST, malformed_request)
        .finish()
}

/// What a malformed message is replaced with: a notification the server
/// ignores (methods starting with `$/` may be dropped silently).
const IGNORED: &[u8] = br#"{"jsonrpc":"2.0","method":"$/chess-ls/malformedMessage"}"#;

/// The method a malformed request is replaced with: answered with an
/// "invalid request" error.
const MALFORMED_REQUEST: &str = "chess-ls/malformedRequest";

/// The longest header line read at once: a longer line is junk, read and
/// dropped in bites of this size so that it cannot fill the memory.
const MAX_HEADER_LINE: u64 = 64 * 1024;

/// A message from the client, as tower-lsp-server's transport reads one: a
/// response (to a request of the server's) or a request or notification.
#[derive(serde::Deserialize, serde::Serialize)]
#[serde(untagged)]
pub(crate) enum Incoming {
    Response(Response),
    Request(Request),
}

/// The frame sanitizer: reads LSP frames and gives each body as a message,
/// replacing any body that is not a JSON-RPC message. tower-lsp-server's
/// transport stopped reading at the first body it could not decode (not
/// JSON, or JSON that is neither a request, a notification nor a
/// response), which ended the session; a client's one bad message must not.
/// A malformed message that carries an `id` becomes a request of an unknown
/// method, so that the client still gets an error response instead of
/// waiting for one forever (with a null `id` when its own is neither a
/// number nor a string).
///
/// After a frame without a usable `Content-Length` (`abc`, missing), and
/// whenever text stands before a `Content-Length` header on its line (stray
/// text before a frame, or the tail of a body whose length was a few bytes
/// short), reading starts again at the next `Content-Length` header, as the
/// decoder of tower-lsp-server does.
///
/// It ends when the input ends or breaks: the server then sees the end of
/// its input and stops, so a client that disappears without `exit` does not
/// leave the server behind.
pub(crate) struct Frames<R> {
    input: tokio::io::BufReader<R>,
    /// Skipping to the next `Content-Length` header.
    resync: bool,
    watch: std::sync::Arc<Watch>,
}

impl<R: tokio::io::AsyncRead + Unpin> Frames<R> {
    pub(crate) fn new(input: R, watch: std::sync::Arc<Watch>) -> Frames<R> {
        Frames { input: tokio::io::BufReader::new(input), resync: false, watch }
    }

    /// The next message (or what replaced it); `None` once the input ends.
    pub(crate) async fn next(&mut self) -> Option<Incoming> {
        use std::sync::atomic::Ordering;
        use tokio::io::{AsyncBufReadExt, AsyncReadExt};
        loop {
            let mut length: Option<usize> = None;
            let mut saw_header = false;
            loop {
                // Bytes, not a `String`: a header that is not UTF-8 is junk
                // to skip, not a reason to stop reading.
                let mut line = Vec::new();
                match (&mut self.input).take(MAX_HEADER_LINE).read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => return None,
                    Ok(_) => {}
                }
                let mut line: &[u8] = &line;
                match find_content_length(line) {
                    // A header after junk on its line: a frame starts here.
                    Some(at) if at > 0 || self.resync => {
                        line = &line[at..];
                        length = None;
                        saw_header = false;
                        self.resync = false;
                    }
                    Some(_) => {}
                    None if self.resync => continue,
                    None => {}
                }
                let line = String::from_utf8_lossy(line);
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
                self.resync = true;
                continue;
            };
            // Read what arrives rather than allocate the announced length up
            // front: a header may announce any length at all.
            let mut body = Vec::new();
            match (&mut self.input).take(length as u64).read_to_end(&mut body).await {
                Ok(n) if n == length => {}
                _ => return None,
            }
            let message = match inspect(&body) {
                Some(message) => message,
                None => {
                    tracing::warn!("ignored a message that is not JSON-RPC ({length} bytes)");
                    // A replacement is always a message.
                    let Some(message) = inspect(&replacement(&body)) else { continue };
                    message
                }
            };
            if let Incoming::Request(request) = &message {
                if request.id().is_some() && request.method() == "shutdown" {
                    self.watch.shutdown.store(true, Ordering::SeqCst);
                } else if request.id().is_none()
                    && request.method() == "exit"
                    && !self.watch.shutdown.load(Ordering::SeqCst)
                {
                    self.watch.exit_without_shutdown.store(true, Ordering::SeqCst);
                }
            }
            return Some(message);
        }
    }
}

/// Copies LSP frames from `input` to `output` through [`Frames`] (for the
/// tests of the sanitizer).
#[cfg(test)]
async fn sanitize(input: impl tokio::io::AsyncRead + Unpin, mut output: impl tokio::io::AsyncWrite + Unpin) {
    use tokio::io::AsyncWriteExt;
    let mut frames = Frames::new(input, std::sync::Arc::new(Watch::default()));
    while let Some(message) = frames.next().await {
        let Ok(body) = serde_json::to_vec(&message) else { return };
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        if output.write_all(header.as_bytes()).await.is_err() || output.write_all(&body).await.is_err() {
            return;
        }
    }
}

/// Where `Content-Length` (in any case) starts in `line`, if it does.
fn find_content_length(line: &[u8]) -> Option<usize> {
    const NAME: &[u8] = b"content-length";
    line.windows(NAME.len()).position(|w| w.eq_ignore_ascii_case(NAME))
}

/// The message in `body`, if the transport can decode it: a response, or
/// a request or notification, in JSON (tried in the order
/// tower-lsp-server's transport tries them).
fn inspect(body: &[u8]) -> Option<Incoming> {
    serde_json::from_slice::<Incoming>(body).ok()
}

fn is_message(body: &[u8]) -> bool {
    inspect(body).is_some()
}

/// What replaces a malformed body: a request of an unknown method with the
/// same `id` (answered with an error; a null `id` when the one given is not
/// a number or a string), or else a notification ignored.
fn replacement(body: &[u8]) -> Vec<u8> {
    let id = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut message)) => message.remove("id"),
        // Nested deeper than the parser goes (128 levels): the `id` is read
        // without parsing the rest, so that the request is still answered.
        Err(e) if e.to_string().contains("recursion limit") => shallow_id(body),
        _ => None,
    };
    let request = |id: serde_json::Value| {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "method": MALFORMED_REQUEST}).to_string().into_bytes()
    };
    match id {
        None => IGNORED.to_vec(),
        // An `id` the transport does not take (`1.5`, `true`, an object).
        Some(id) => Some(request(id)).filter(|r| is_message(r)).unwrap_or_else(|| request(serde_json::Value::Null)),
    }
}

/// The `id` of a JSON object, found by skipping over its other values
/// (brackets counted, strings stepped over) rather than parsing them: no
/// depth limit, no recursion. `Null` for an `id` that is not a JSON value
/// the parser reads; `None` when there is no `id` or no object.
fn shallow_id(body: &[u8]) -> Option<serde_json::Value> {
    let blank = |mut i: usize| {
        while body.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let mut i = blank(0);
    if body.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = blank(i);
        match body.get(i)? {
            b',' => {
                i += 1;
                continue;
            }
            b'"' => {}
            _ => return None,
        }
        let key_end = string_end(body, i)?;
        let key: String = serde_json::from_slice(&body[i..key_end]).ok()?;
        i = blank(key_end);
        if body.get(i) != Some(&b':') {
            return None;
        }
        i = blank(i + 1);
        let end = value_end(body, i)?;
        if key == "id" {
            return Some(serde_json::from_slice(&body[i..end]).unwrap_or(serde_json::Value::Null));
        }
        i = end;
    }
}

/// The end (after the closing quote) of the JSON string starting at `i`.
fn string_end(body: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < body.len() {
        match body[j] {
            b'\\' => j += 2,
            b'"' => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

/// The end of the JSON value starting at `i`: a string, an object or an
/// array (its brackets counted), or a scalar up to the next delimiter.
fn value_end(body: &[u8], i: usize) -> Option<usize> {
    match body.get(i)? {
        b'"' => string_end(body, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < body.len() {
                match body[j] {
                    b'"' => {
                        j = string_end(body, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let rest = &body[i..];
            Some(
                i + rest
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())
                    .unwrap_or(rest.len()),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_nested_past_the_parsers_limit_keeps_its_id() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        for (body, id) in [
            (format!(r#"{{"jsonrpc":"2.0","method":"x","params":{deep},"id":7}}"#), serde_json::json!(7)),
            (
                format!(r#"{{"jsonrpc":"2.0","id":"a\"b","params":{{"s":"]}}","d":{deep}}},"method":"x"}}"#),
                serde_json::json!("a\"b"),
            ),
            (format!(r#"{{"jsonrpc":"2.0","id":{deep},"method":"x"}}"#), serde_json::Value::Null),
        ] {
            let replaced: serde_json::Value = serde_json::from_slice(&replacement(body.as_bytes())).unwrap();
            assert_eq!(replaced["id"], id, "{}", &body[..80]);
            assert_eq!(replaced["method"], MALFORMED_REQUEST);
        }
        // No id: a notification, ignored.
        assert_eq!(replacement(format!(r#"{{"jsonrpc":"2.0","method":"x","params":{deep}}}"#).as_bytes()), IGNORED);
    }

    /// The bodies that come out of the sanitizer for `input`.
    fn bodies(input: &[u8]) -> Vec<String> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut out = Vec::new();
            sanitize(input, &mut out).await;
            let out = String::from_utf8(out).unwrap();
            let mut bodies = Vec::new();
            let mut rest = out.as_str();
            while let Some((header, after)) = rest.split_once("\r\n\r\n") {
                let length: usize = header.trim_start_matches("Content-Length: ").parse().unwrap();
                bodies.push(after[..length].to_owned());
                rest = &after[length..];
            }
            bodies
        })
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn recovers_at_the_next_header_as_the_transport_does() {
        // tower-lsp-server's own test input (`recovers_from_parse_error`).
        let mixed = format!("foobar{}Content-Length: foobar\r\n\r\n{}", frame(EXIT), frame(EXIT));
        assert_eq!(bodies(mixed.as_bytes()), [EXIT, EXIT]);
        // A length a few bytes short: the body is junk, the next frame is read.
        let short = format!("Content-Length: {}\r\n\r\n{EXIT}{}", EXIT.len() - 3, frame(EXIT));
        let got = bodies(short.as_bytes());
        assert_eq!(got.last().map(String::as_str), Some(EXIT), "{got:?}");
        // `Content-Length: abc` with a body with blank lines in it.
        let abc = format!("Content-Length: abc\r\n\r\n{{\r\n\r\n\"x\": 1}}{}", frame(EXIT));
        assert_eq!(bodies(abc.as_bytes()), [EXIT]);
    }

    #[test]
    fn an_id_that_is_neither_a_number_nor_a_string_is_answered_with_null() {
        for id in ["1.5", "true", "[]", "{}"] {
            let got = bodies(frame(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"x"}}"#)).as_bytes());
            let value: serde_json::Value = serde_json::from_str(&got[0]).unwrap();
            assert_eq!(value["id"], serde_json::Value::Null, "{id}: {value}");
            assert_eq!(value["method"], MALFORMED_REQUEST);
        }
    }
}
