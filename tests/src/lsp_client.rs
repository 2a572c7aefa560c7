//! A small LSP client over a child process's stdio, for end-to-end tests of
//! the real server: it frames JSON-RPC with Content-Length headers, keeps
//! notifications it receives, and waits with a timeout so that a hung
//! server fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Client {
    child: Child,
    /// `None` once [`Client::disconnect`] closed it.
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received and not yet consumed, in order.
    pub notifications: Vec<Value>,
}

impl Client {
    /// Starts the server (`chess-ls --stdio`).
    pub fn start() -> Client {
        let mut child = Command::new(crate::binary::chess_ls())
            .arg("--stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chess-ls starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let Some(length) = length else { return };
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(value) = serde_json::from_slice::<Value>(&body) else { return };
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin: Some(stdin), incoming, next_id: 1, notifications: Vec::new() }
    }

    /// Sends raw bytes as one message body (for malformed-input tests).
    pub fn send_raw(&mut self, body: &[u8]) {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        let mut bytes = header.into_bytes();
        bytes.extend_from_slice(body);
        self.send_bytes(&bytes);
    }

    /// Writes bytes to the server's stdin as they are, headers and all (for
    /// tests of broken framing).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.flush().expect("flush");
    }

    /// Closes the server's stdin without `shutdown` or `exit`, as a client
    /// that crashed would, and waits up to `timeout` for the server to exit
    /// by itself; `None` if it is still running then.
    pub fn disconnect(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The server's process id (to read its CPU time in `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, value: &Value) {
        self.send_raw(value.to_string().as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response; returns the whole
    /// response object (with `result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.receive(deadline).unwrap_or_else(|| panic!("no response to {method}"));
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            self.handle(message);
        }
    }

    /// Sends a request without waiting for its answer; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The next message from the server, as it comes (requests from the
    /// server are answered, and returned too); `None` after the timeout.
    pub fn next_message(&mut self) -> Option<Value> {
        let message = self.receive(Instant::now() + TIMEOUT)?;
        if message.get("id").is_some() && message.get("method").is_some() {
            let id = message["id"].clone();
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}));
        }
        Some(message)
    }

    /// The `result` of a request, panicking on an error response.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    fn receive(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        // A timeout and a closed server both mean: nothing came.
        self.incoming.recv_timeout(left).ok()
    }

    /// Keeps notifications; answers requests from the server with null.
    fn handle(&mut self, message: Value) {
        if message.get("id").is_some() && message.get("method").is_some() {
            let id = message["id"].clone();
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}));
        } else if message.get("method").is_some() {
            self.notifications.push(message);
        }
    }

    /// Waits for the next message that `matches` (a response the other
    /// methods would drop, such as one with a null `id`); keeps the
    /// notifications that come before it.
    pub fn wait_for(&mut self, matches: impl Fn(&Value) -> bool) -> Option<Value> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let message = self.receive(deadline)?;
            if matches(&message) {
                return Some(message);
            }
            self.handle(message);
        }
    }

    /// Waits for the next `publishDiagnostics` for `uri` whose version is at
    /// least `version`; returns its params.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Value {
        self.diagnostics_within(uri, version, TIMEOUT)
    }

    /// [`Client::diagnostics`], waiting at most `timeout`.
    pub fn diagnostics_within(&mut self, uri: &str, version: i64, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let found = self.notifications.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == uri
                    && n["params"]["version"].as_i64().unwrap_or(-1) >= version
            });
            if let Some(i) = found {
                let n = self.notifications.remove(i);
                // Drop older ones for the same document.
                return n["params"].clone();
            }
            let message = self.receive(deadline).unwrap_or_else(|| panic!("no diagnostics for {uri} v{version}"));
            self.handle(message);
        }
    }

    /// Initializes with the given position encodings offered.
    pub fn initialize(&mut self, encodings: &[&str], options: Value) -> Value {
        let mut general = json!({});
        if !encodings.is_empty() {
            general = json!({"positionEncodings": encodings});
        }
        let result = self.call(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": {"general": general, "textDocument": {"publishDiagnostics": {"relatedInformation": true, "versionSupport": true}}},
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.open_as(uri, "pgn", text);
    }

    /// Opens a document with the given `languageId` (`markdown`, `latex`,
    /// `plaintext`, ...).
    pub fn open_as(&mut self, uri: &str, language_id: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}}),
        );
    }

    /// Shuts the server down politely and waits for it to exit.
    pub fn shutdown(mut self) -> std::process::ExitStatus {
        let _ = self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The (line, UTF-16 column) of the first `needle` at or after `from`.
pub fn position_after(text: &str, needle: &str, from: usize) -> (u32, u32) {
    let offset = from + text[from..].find(needle).expect("needle present");
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..offset].matches('\n').count() as u32;
    (line, text[line_start..offset].encode_utf16().count() as u32)
}

/// An LSP range on one line.
pub fn range(line: u32, start: u32, end: u32) -> Value {
    json!({"start": {"line": line, "character": start}, "end": {"line": line, "character": end}})
}

/// The codes of a `publishDiagnostics` notification's diagnostics, in order.
pub fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap().to_owned()).collect()
}

/// An answer as its snapshot shows it: pretty JSON, where a string of
/// several lines (a hover's Markdown with its board) is shown as the array
/// of its lines, so that a change shows on the line it is on.
pub fn pretty(value: &Value) -> String {
    fn split(value: &Value) -> Value {
        match value {
            Value::String(s) if s.contains('\n') => Value::Array(s.split('\n').map(Value::from).collect()),
            Value::Array(items) => Value::Array(items.iter().map(split).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), split(v))).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string_pretty(&split(value)).expect("JSON")
}

/// A `textDocument/semanticTokens/full` answer as its snapshot shows it:
/// `data` decoded, one token a line (`line:column length type [modifiers]`
/// with absolute UTF-16 positions and the names from `legend`, then the
/// token's text), so that a change shows where it is; then any other field
/// of the answer (`resultId`).
pub fn pretty_semantic_tokens(text: &str, legend: &Value, answer: &Value) -> String {
    let name = |list: &str, i: u64| legend[list][i as usize].as_str().unwrap_or("?").to_owned();
    let lines: Vec<Vec<u16>> = text.split('\n').map(|l| l.encode_utf16().collect()).collect();
    let data: Vec<u64> =
        answer["data"].as_array().expect("data").iter().map(|n| n.as_u64().expect("a number")).collect();
    let (mut line, mut column) = (0, 0);
    let mut shown = String::new();
    for token in data.chunks(5) {
        let [delta_line, delta_start, length, kind, modifiers] = token else {
            panic!("a token of 5 numbers: {token:?}")
        };
        if *delta_line > 0 {
            line += delta_line;
            column = 0;
        }
        column += delta_start;
        let modifiers: Vec<String> =
            (0..32).filter(|bit| modifiers & (1 << bit) != 0).map(|bit| name("tokenModifiers", bit)).collect();
        let units = lines.get(line as usize).map_or(&[][..], |l| &l[(column as usize).min(l.len())..]);
        let written = String::from_utf16_lossy(&units[..(*length as usize).min(units.len())]);
        let kind = name("tokenTypes", *kind);
        shown.push_str(&format!("{line}:{column} {length} {kind} [{}] {written}\n", modifiers.join(" ")));
    }
    for (key, value) in answer.as_object().expect("an object") {
        if key != "data" {
            shown.push_str(&format!("{key}: {value}\n"));
        }
    }
    shown
}
