//! LSP message handling: arbitrary bytes go through the server's own
//! transport (the frame sanitizer, the dispatcher, the one writer) into the
//! real `Backend`, in process, after a session
//! was opened (initialize, initialized, didOpen of a game). Nothing may
//! panic (libFuzzer's panic hook aborts even where a handler would catch
//! it), and the session must come to an end when its input does.
//!
//! Input: a mode byte, then either (even mode) the raw byte stream, headers
//! and all, or (odd mode) message bodies separated by line ends, each framed
//! with a correct `Content-Length`, so that the fuzzer works on the JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;

const URI: &str = "file:///fuzz/game.pgn";

fn frame(out: &mut Vec<u8>, body: &[u8]) {
    out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(body);
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let mut stream = Vec::new();
    let opening = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":["utf-16"]}}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#.to_owned(),
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": URI, "languageId": "pgn", "version": 1,
            "text": "[Event \"x\"]\n\n1. e4 e5 2. Кf3 {c} Кc6 (2... d6 3. d4) 3. Кd2 $1 *\n"}}})
        .to_string(),
    ];
    for body in &opening {
        frame(&mut stream, body.as_bytes());
    }
    if mode & 1 == 0 {
        stream.extend_from_slice(rest);
    } else {
        for body in rest.split(|&b| b == b'\n') {
            frame(&mut stream, body);
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime");
    runtime.block_on(chess_ls::lsp::serve(&stream[..], tokio::io::sink()));
});
