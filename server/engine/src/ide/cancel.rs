//! Cancelling work on a snapshot that nobody waits for any more.
//!
//! The language server answers every request from a snapshot of its
//! documents; a request is abandoned when the client cancels it
//! (`$/cancelRequest`) or when a newer edit makes its snapshot stale. Long
//! work (semantic tokens of a whole database, every game's outline, a
//! translation) calls [`Token::check`] as it goes, which unwinds with
//! [`Cancelled`] (as rust-analyzer's salsa does): no result type has to
//! thread through the layers, and the front end that caught the unwind
//! answers "content modified". The command line never cancels.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The payload of an unwind that [`Token::check`] starts.
#[derive(Debug)]
pub struct Cancelled;

/// Says whether the work it was handed to is still wanted.
#[derive(Clone, Debug, Default)]
pub struct Token {
    /// Set when the request is dropped (cancelled by the client).
    dropped: Option<Arc<AtomicBool>>,
    /// The document's newest version, and the version the work reads.
    version: Option<(Arc<AtomicI32>, i32)>,
}

impl Token {
    /// A token that never cancels (the command line, tests).
    pub fn never() -> Token {
        Token::default()
    }

    /// A token cancelled when `dropped` is set or `latest` moves past
    /// `version` (a snapshot may be newer than `latest`: an edit applied and
    /// not yet published).
    pub fn new(dropped: Arc<AtomicBool>, latest: Arc<AtomicI32>, version: i32) -> Token {
        Token { dropped: Some(dropped), version: Some((latest, version)) }
    }

    pub fn is_cancelled(&self) -> bool {
        self.dropped.as_ref().is_some_and(|d| d.load(Ordering::Relaxed))
            || self.version.as_ref().is_some_and(|(latest, version)| latest.load(Ordering::Relaxed) > *version)
    }

    /// Unwinds with [`Cancelled`] when the work is no longer wanted.
    pub fn check(&self) {
        if self.is_cancelled() {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }
}

/// Sets a flag when dropped: held by a request's future, so that a request
/// the client cancels (its future dropped) cancels its work.
#[derive(Debug)]
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_version_or_a_dropped_request_cancels() {
        let dropped = Arc::new(AtomicBool::new(false));
        let latest = Arc::new(AtomicI32::new(3));
        let token = Token::new(dropped.clone(), latest.clone(), 3);
        assert!(!token.is_cancelled());
        latest.store(4, Ordering::Relaxed);
        assert!(token.is_cancelled());
        let token = Token::new(dropped.clone(), latest, 4);
        drop(CancelOnDrop(dropped));
        assert!(token.is_cancelled());
        let unwound = std::panic::catch_unwind(|| token.check()).unwrap_err();
        assert!(unwound.is::<Cancelled>());
        assert!(!Token::never().is_cancelled());
    }
}
