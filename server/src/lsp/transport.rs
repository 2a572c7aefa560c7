//! The server's own transport: one reader, one dispatcher, one writer.
//!
//! tower-lsp-server's `Server::serve` writes the messages for the client
//! (notifications such as `publishDiagnostics`, the server's own requests)
//! and the responses from two queues taken by turns, so a response produced
//! just after a notification was queued could be written before it. Here
//! the service (`LspService`) and its socket (`ClientSocket`) are driven by
//! the server itself, with the same semantics (notifications taken in
//! arrival order, requests run concurrently up to a limit, `$/cancelRequest`
//! and `exit` handled by the service), and one writer owns the output and
//! decides the order: it always writes every message queued for the client
//! before a response. So a notification queued before a response was
//! produced is written before it, whatever the tasks' timing, and the
//! promise that an edit's diagnostics come before the answers of the
//! requests sent after it needs a request to wait only until its version's
//! diagnostics are queued (`server.rs`), not written.

use std::sync::Arc;

use futures::stream::{FuturesUnordered, StreamExt};
use futures::{FutureExt, SinkExt};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ClientSocket, Loopback};
use tower_service::Service;

use super::{Frames, Incoming, Watch};

/// How many messages are handled at once. Notifications count too: an
/// edit must never wait for a free place behind slow requests.
const MAX_REQUESTS_IN_FLIGHT: usize = 64;

/// How many messages the reader reads ahead of the dispatcher.
const READ_AHEAD: usize = 16;

/// The most bytes written at once: past this, a batch of frames goes out
/// before more are taken.
const BATCH: usize = 1 << 20;

/// Serves the protocol on `input` and `output` (stdin and stdout, or pipes
/// in process, as the fuzzer drives it) until the client exits or `input`
/// ends.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin + Send + 'static,
{
    serve_watching(input, output, Arc::new(Watch::default())).await;
}

/// [`serve`], noting `shutdown` and `exit` in `watch` (for the exit status).
pub(crate) async fn serve_watching<I, O>(input: I, output: O, watch: Arc<Watch>)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (service, socket) = super::service();
    let (to_client, from_client) = socket.split();
    let (answers, answered) = tokio::sync::mpsc::unbounded_channel();
    // Its own task: serialising a big answer runs beside the dispatcher.
    let writer = tokio::spawn(write(output, to_client, answered));
    let (read_tx, read_rx) = tokio::sync::mpsc::channel(READ_AHEAD);
    let read = async move {
        let mut frames = Frames::new(input, watch);
        while let Some(message) = frames.next().await {
            // The protocol says the server exits at `exit`; a client may keep
            // its end of stdin open, so nothing more is read.
            let exit = matches!(&message, Incoming::Request(r) if r.id().is_none() && r.method() == "exit");
            if read_tx.send(message).await.is_err() || exit {
                break;
            }
        }
    };
    let dispatch = dispatch(service, read_rx, from_client, answers);
    tokio::pin!(read, dispatch);
    // The reader may stay blocked in a read after `exit`: the session ends
    // with the dispatcher, and the reader is dropped.
    tokio::select! {
        () = &mut read => dispatch.await,
        () = &mut dispatch => {}
    }
    let _ = writer.await;
}

/// Hands each message to the service in arrival order and sends the
/// answers to the writer. A message's handler starts (is first polled) in
/// arrival order: handlers are polled by one `FuturesUnordered`, first in,
/// first polled, and an edit is applied before its handler's first
/// `.await` (`server.rs`), so no notification overtakes another and a
/// request reads the document as the edits before it left it.
async fn dispatch(
    mut service: tower_lsp_server::LspService<super::Backend>,
    mut incoming: tokio::sync::mpsc::Receiver<Incoming>,
    mut from_client: <ClientSocket as Loopback>::ResponseSink,
    answers: tokio::sync::mpsc::UnboundedSender<Response>,
) {
    let mut running = FuturesUnordered::new();
    // A request waiting for the service to be ready (during `initialize`).
    let mut held: Option<Request> = None;
    let mut reading = true;
    loop {
        tokio::select! {
            biased;
            Some(done) = running.next(), if !running.is_empty() => {
                if let Ok(Some(answer)) = done {
                    let _ = answers.send(answer);
                }
            }
            ready = futures::future::poll_fn(|cx| service.poll_ready(cx)), if held.is_some() => {
                let Some(request) = held.take() else { continue };
                match ready {
                    Ok(()) => {
                        let exit = request.id().is_none() && request.method() == "exit";
                        running.push(service.call(request));
                        if exit {
                            reading = false;
                        }
                    }
                    Err(e) => {
                        tracing::error!("{e}");
                        reading = false;
                    }
                }
            }
            message = incoming.recv(), if reading && held.is_none() && running.len() < MAX_REQUESTS_IN_FLIGHT => {
                match message {
                    None => reading = false,
                    Some(Incoming::Request(request)) => held = Some(request),
                    Some(Incoming::Response(response)) => {
                        if let Err(e) = from_client.send(response).await {
                            tracing::error!("{e}");
                        }
                    }
                }
            }
            else => break,
        }
    }
}

/// The one writer of the output. Whenever it takes a response, it first
/// takes every message queued for the client by then, and writes them
/// before the response: a notification queued before a response was
/// produced is in the client's queue when the response is taken, so it is
/// written first. Frames ready together are written in one batch. A broken
/// output is dropped from then on (the session ends with its input).
async fn write<O: AsyncWrite + Unpin>(
    mut output: O,
    mut to_client: <ClientSocket as Loopback>::RequestStream,
    mut answers: tokio::sync::mpsc::UnboundedReceiver<Response>,
) {
    let mut batch = Vec::new();
    let mut broken = false;
    loop {
        let mut last = false;
        tokio::select! {
            biased;
            Some(message) = to_client.next() => frame(&mut batch, &message),
            answer = answers.recv() => {
                queued_for_client(&mut to_client, &mut batch);
                match answer {
                    Some(answer) => frame(&mut batch, &answer),
                    None => last = true,
                }
            }
        }
        // Whatever else is ready now, in the same order.
        while !last && batch.len() < BATCH {
            queued_for_client(&mut to_client, &mut batch);
            match answers.try_recv() {
                Ok(answer) => {
                    queued_for_client(&mut to_client, &mut batch);
                    frame(&mut batch, &answer);
                }
                Err(_) => break,
            }
        }
        if !broken && !batch.is_empty() && (output.write_all(&batch).await.is_err() || output.flush().await.is_err()) {
            tracing::error!("the client's end of the output is closed; nothing more is written");
            broken = true;
        }
        batch.clear();
        if last {
            return;
        }
    }
}

/// Takes every message queued for the client now, into `batch`.
fn queued_for_client(to_client: &mut <ClientSocket as Loopback>::RequestStream, batch: &mut Vec<u8>) {
    while let Some(Some(message)) = to_client.next().now_or_never() {
        frame(batch, &message);
    }
}

/// Appends one LSP frame of `message` to `batch`.
fn frame(batch: &mut Vec<u8>, message: &impl serde::Serialize) {
    match serde_json::to_vec(message) {
        Ok(body) => {
            batch.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            batch.extend_from_slice(&body);
        }
        Err(e) => tracing::error!("a message could not be written: {e}"),
    }
}
