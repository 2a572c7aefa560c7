//! Counts the `publishDiagnostics` notifications written to the client.
//!
//! tower-lsp-server writes notifications (from the `Client`) and responses
//! from two queues merged by turns, so a response produced just after a
//! notification was queued may be written before it. The promise that an
//! edit's diagnostics come before the answers of the requests it triggers
//! needs more: the server waits until its notification is written
//! ([`Delivered::wait_for`]) before it lets those requests answer. The
//! writer ([`Counting`]) reads the frames it passes on and counts those
//! whose method is `textDocument/publishDiagnostics`; since the queue of
//! notifications is first in, first out, the n-th one written is the n-th
//! one sent.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::AsyncWrite;

/// How many `publishDiagnostics` were sent and how many written.
#[derive(Debug)]
pub struct Delivered {
    written: tokio::sync::watch::Sender<u64>,
    sent: std::sync::atomic::AtomicU64,
}

impl Default for Delivered {
    fn default() -> Delivered {
        Delivered { written: tokio::sync::watch::channel(0).0, sent: std::sync::atomic::AtomicU64::new(0) }
    }
}

impl Delivered {
    /// Notes one more notification sent (call in the order they are
    /// queued); returns its number.
    pub fn sent(&self) -> u64 {
        self.sent.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    }

    /// Waits until notification `n` is written, at most `bound`.
    pub async fn wait_for(&self, n: u64, bound: std::time::Duration) {
        let mut written = self.written.subscribe();
        let _ = tokio::time::timeout(bound, written.wait_for(|w| *w >= n)).await;
    }
}

const METHOD: &[u8] = br#""method":"textDocument/publishDiagnostics""#;

/// Where the writer is in the frames it passes on.
enum Frame {
    /// Reading a header (the bytes so far).
    Header(Vec<u8>),
    /// In a body: the bytes left, and its first bytes (where the method is).
    Body { left: usize, head: Vec<u8> },
}

/// A writer that passes everything on to `inner` and counts the
/// `publishDiagnostics` frames in [`Delivered`].
pub struct Counting<W> {
    inner: W,
    delivered: Arc<Delivered>,
    frame: Frame,
}

impl<W> Counting<W> {
    pub fn new(inner: W, delivered: Arc<Delivered>) -> Counting<W> {
        Counting { inner, delivered, frame: Frame::Header(Vec::new()) }
    }

    /// Follows the bytes written.
    fn follow(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            match &mut self.frame {
                Frame::Header(header) => {
                    let take = bytes.iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| i + 1);
                    header.extend_from_slice(&bytes[..take]);
                    bytes = &bytes[take..];
                    if header.ends_with(b"\r\n\r\n") {
                        let text = String::from_utf8_lossy(header);
                        let left = text
                            .lines()
                            .find_map(|l| l.strip_prefix("Content-Length:"))
                            .and_then(|n| n.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        self.frame = Frame::Body { left, head: Vec::new() };
                    }
                }
                Frame::Body { left, head } => {
                    let take = (*left).min(bytes.len());
                    let room = 96usize.saturating_sub(head.len()).min(take);
                    head.extend_from_slice(&bytes[..room]);
                    *left -= take;
                    bytes = &bytes[take..];
                    if *left == 0 {
                        if head.windows(METHOD.len()).any(|w| w == METHOD) {
                            self.delivered.written.send_modify(|w| *w += 1);
                        }
                        self.frame = Frame::Header(Vec::new());
                    }
                }
            }
        }
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for Counting<W> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                this.follow(&buf[..n]);
                Poll::Ready(Ok(n))
            }
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_publications_among_frames_written_in_any_pieces() {
        let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let stream = [
            frame(r#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///a","diagnostics":[]}}"#),
            frame(r#"{"jsonrpc":"2.0","result":{"text":"\"method\":\"textDocument/publishDiagnostics\""},"id":1}"#),
            frame(r#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///b","diagnostics":[]}}"#),
        ]
        .concat();
        for piece in [1, 7, 64, stream.len()] {
            let delivered = Arc::new(Delivered::default());
            let mut counting = Counting::new(Vec::<u8>::new(), delivered.clone());
            for chunk in stream.as_bytes().chunks(piece) {
                counting.follow(chunk);
            }
            assert_eq!(*delivered.written.borrow(), 2, "pieces of {piece}");
        }
    }
}
