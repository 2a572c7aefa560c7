//! The protocol implementation: keeps the open documents and dispatches each
//! request to its handler.
//!
//! rust-analyzer's host and snapshots: edits are applied to the documents
//! synchronously, before any `.await`, so they never reorder (to the text,
//! sections and trees: what they touch is analysed when the document is
//! published, for the newest version); every request
//! takes a snapshot (an `Arc` of the document, cloned under the lock in
//! microseconds) and runs its handler on tokio's blocking pool, so a slow
//! request never holds what the next keystroke needs. An edit that finds a
//! snapshot still in use copies the document first (`Arc::make_mut`: the
//! text, not the analyses). A request is cancelled when the client cancels
//! it or when a newer edit of its document arrives (`ide::cancel`): its
//! handler unwinds at the next check and the client gets "content
//! modified". A panic in a handler becomes an error response and the
//! server lives on.
//!
//! A document is opened off the lock (`Opening`): it is analysed on the
//! blocking pool and put in place under a short lock, unless a newer open
//! or a close of it came meanwhile; the edits that come while it is
//! analysed are kept in order and applied when it is put in place, and
//! requests on it wait for that (requests on other documents do not), then
//! read it as they would read an edited document: one that came before a
//! later edit answers "content modified" once that edit is published.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex};

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::config::Settings;
use super::convert;
use super::handlers;
use chess_ls_engine::ide;
use chess_ls_engine::ide::cancel::{CancelOnDrop, Cancelled, Token};
use chess_ls_engine::ide::document::{ByteChange, Document, Kind};
use chess_ls_engine::ide::line_index::Unit;

/// An open document: the newest version, and the newest version whose
/// diagnostics were published, where the snapshots taken of older versions
/// can see it (their work is then cancelled).
pub struct Open {
    pub doc: Arc<Document>,
    latest: Arc<AtomicI32>,
    /// Told each version whose diagnostics went out, so that a request on
    /// a newer version waits for them (an edit's squiggles come first).
    published: tokio::sync::watch::Sender<i32>,
    /// The semantic tokens the client holds, for `full/delta`.
    tokens: Arc<Mutex<Option<handlers::semantic_tokens::Previous>>>,
    /// The settings of the document's project (`chess-ls.toml` above its
    /// file), if it has one.
    project: Option<Arc<crate::project::Project>>,
    /// The analysis options the document was last analysed with as a
    /// whole: a settings change that leaves them as they are analyses
    /// nothing again.
    analysed_with: chess_ls_engine::analysis::Options,
    /// The whole document being analysed again for a settings change, off
    /// the state's lock; `None` when it is not.
    rebuild: Option<Rebuild>,
    /// A publication of this document is running ([`Backend::publish`]).
    publishing: bool,
    /// An edit came while it ran: it goes on to the newest version.
    again: bool,
}

/// A document analysed again under new settings on the blocking pool,
/// while it stays open for edits and requests under the old analysis: the
/// edits that come meanwhile are applied to it at once (as always) and
/// kept here, to be applied to the new analysis when it is put in place.
struct Rebuild {
    /// Which settings change this is: a newer one replaces it, and the
    /// document analysed for this one is then dropped.
    id: u64,
    changes: Vec<(i32, Vec<TextDocumentContentChangeEvent>)>,
}

impl Open {
    /// The analysis options of this document: the editor's, with its
    /// project file's over them.
    fn options(&self, editor: &Settings) -> chess_ls_engine::analysis::Options {
        match &self.project {
            Some(project) => project.settings.options(&editor.options),
            None => editor.options.clone(),
        }
    }

    /// How Normalize notation writes castling in this document: its
    /// project file's `[normalize] castling`, else the editor's.
    fn castling(&self, editor: &Settings) -> chess_ls_engine::analysis::rewrite::Castling {
        self.project.as_ref().and_then(|p| p.settings.castling).unwrap_or(editor.castling)
    }
}

/// A document whose `didOpen` is being analysed, off the state's lock (a
/// 10 MB database takes seconds): requests on other documents go on, those
/// on this one wait until it is in place.
struct Opening {
    /// Which `didOpen` this is: a newer open or a close of the same URI
    /// replaces or removes it, and the document analysed for this one is
    /// then dropped.
    id: u64,
    /// The version the client holds: the open's, or that of the newest
    /// change that came meanwhile.
    version: i32,
    /// The changes that came while the document was analysed, applied in
    /// order once it is in place (as `did_change` would have).
    changes: Vec<(i32, Vec<TextDocumentContentChangeEvent>)>,
    /// The analysis options it is being analysed with: if the settings
    /// change them meanwhile, it is analysed again once in place.
    options: chess_ls_engine::analysis::Options,
    /// Told `true` once the document is in place; dropped untold when this
    /// open is replaced or closed.
    done: tokio::sync::watch::Sender<bool>,
    /// The settings of the document's project, if it has one.
    project: Option<Arc<crate::project::Project>>,
}

/// Applies the changes of one `didChange` to a document, each range
/// converted just before it is applied (ranges refer to the text as it is
/// after the previous change of the same notification). The text, sections
/// and trees only: the sections they touch are analysed when the document
/// is published ([`Backend::publish`]), for the newest version only.
fn apply_changes(
    doc: &mut Document,
    changes: Vec<TextDocumentContentChangeEvent>,
    version: i32,
    unit: Unit,
    options: &chess_ls_engine::analysis::Options,
) {
    for change in changes {
        let range = change.range.map(|r| convert::span(doc, r, unit));
        doc.apply_changes_unanalysed(vec![ByteChange { range, text: change.text }], version, options);
    }
}

/// The file a `file:` URI names.
fn file_path(uri: &Uri) -> Option<std::path::PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = rest.split(['?', '#']).next().unwrap_or(rest);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = path.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    use std::os::unix::ffi::OsStringExt;
    let path = std::path::PathBuf::from(std::ffi::OsString::from_vec(out));
    path.is_absolute().then_some(path)
}

pub struct State {
    pub docs: HashMap<Uri, Open>,
    /// The documents being opened (not in `docs` yet).
    opening: HashMap<Uri, Opening>,
    /// The id of the latest `didOpen`.
    opens: u64,
    /// The id of the latest document analysed again for new settings.
    rebuilds: u64,
    pub unit: Unit,
    pub settings: Arc<Settings>,
    /// The client resolves code actions (`codeAction/resolve` of `edit`).
    pub resolves_code_actions: bool,
    /// The client runs the command `chess-ls.translate` itself (it says so
    /// in `experimental.commands.commands`, as for rust-analyzer): Source
    /// Action lists one "Translate to..." carrying it, not every language.
    pub translate_command: bool,
    /// How many folding ranges the client keeps, if it says.
    pub folding_limit: Option<usize>,
    /// The client asks for the semantic tokens of the lines it shows
    /// (`semanticTokens/range`): a big document's are then served by range
    /// only ([`handlers::semantic_tokens::by_range_only`]).
    pub asks_tokens_by_range: bool,
    /// The project files found for the documents opened.
    pub projects: crate::project::Projects,
    /// The client shows the server's work-done progress
    /// (`window.workDoneProgress`): opening a big document reports it.
    pub work_done_progress: bool,
}

/// What a request reads: a document as it was when the request came.
struct Snapshot {
    folding_limit: Option<usize>,
    doc: Arc<Document>,
    tokens: Arc<Mutex<Option<handlers::semantic_tokens::Previous>>>,
    unit: Unit,
    settings: Arc<Settings>,
    latest: Arc<AtomicI32>,
    resolves_code_actions: bool,
    translate_command: bool,
    /// How Normalize notation writes castling: the project's
    /// `[normalize] castling`, else the editor's `normalizeCastling`.
    castling: chess_ls_engine::analysis::rewrite::Castling,
}

impl Snapshot {
    /// The engine's snapshot of the document, cancelled by `token`: what
    /// every handler asks.
    fn analysis(&self, token: &Token) -> ide::Snapshot {
        ide::Snapshot::new(self.doc.clone(), token.clone()).with_castling(self.castling)
    }
}

pub struct Backend {
    client: Client,
    state: Mutex<State>,
    /// Held while a version's diagnostics are checked to be the newest and
    /// sent, so that an older version's never arrive after a newer one's.
    publishing: tokio::sync::Mutex<()>,
}

/// Runs `work` on tokio's blocking pool, off the runtime's threads and the
/// state's lock; a panic in it, or a task that did not finish, is logged
/// as `what` and gives `None` (the server lives on).
async fn off_the_runtime<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    match tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(work))).await {
        Ok(Ok(done)) => Some(done),
        Ok(Err(panic)) => {
            tracing::error!("{what} panicked: {}", panic_message(&*panic));
            None
        }
        Err(e) => {
            tracing::error!("{what} did not finish: {e}");
            None
        }
    }
}

/// The message of a panic's payload.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Mutex::new(State {
                docs: HashMap::new(),
                opening: HashMap::new(),
                opens: 0,
                rebuilds: 0,
                unit: Unit::Utf16,
                settings: Arc::new(Settings::default()),
                resolves_code_actions: false,
                translate_command: false,
                folding_limit: None,
                asks_tokens_by_range: false,
                projects: crate::project::Projects::new(),
                work_done_progress: false,
            }),
            publishing: tokio::sync::Mutex::new(()),
        }
    }

    /// Runs `f` on the state, turning a panic into an internal error. Only
    /// for what must be done in order and at once (edits, settings).
    fn with_state<T>(&self, f: impl FnOnce(&mut State) -> T) -> Result<T> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        catch_unwind(AssertUnwindSafe(|| f(&mut guard))).map_err(|panic| {
            tracing::error!("a handler panicked: {}", panic_message(&*panic));
            Error::internal_error()
        })
    }

    fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let open = state.docs.get(uri)?;
        Some(Snapshot {
            folding_limit: state.folding_limit,
            doc: open.doc.clone(),
            tokens: open.tokens.clone(),
            unit: state.unit,
            settings: state.settings.clone(),
            latest: open.latest.clone(),
            resolves_code_actions: state.resolves_code_actions,
            translate_command: state.translate_command,
            castling: open.castling(&state.settings),
        })
    }

    /// The version of the open document `uri` that a request coming now
    /// reads, and where its published versions are told. A document being
    /// opened is waited for: the version is then the one the client held
    /// when the request came (a change that came later makes the request
    /// stale, as for an open document).
    async fn version_of(&self, uri: &Uri) -> Option<(i32, tokio::sync::watch::Receiver<i32>)> {
        let mut expected = None;
        loop {
            let mut done = {
                let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                match state.opening.get(uri) {
                    Some(opening) => {
                        expected.get_or_insert(opening.version);
                        opening.done.subscribe()
                    }
                    None => {
                        let open = state.docs.get(uri)?;
                        return Some((expected.unwrap_or(open.doc.version), open.published.subscribe()));
                    }
                }
            };
            // An error: that open was replaced or closed; look again.
            let _ = done.wait_for(|opened| *opened).await;
        }
    }

    /// Waits until the document `uri` is not being opened.
    async fn opened(&self, uri: &Uri) {
        loop {
            let mut done = {
                let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                match state.opening.get(uri) {
                    Some(opening) => opening.done.subscribe(),
                    None => return,
                }
            };
            let _ = done.wait_for(|opened| *opened).await;
        }
    }

    /// Runs a request handler on a snapshot of the document `uri`, on the
    /// blocking pool; an unknown document gives an empty result.
    async fn on_doc<T: Default + Send + 'static>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&ide::Snapshot, Unit, &Settings) -> T + Send + 'static,
    ) -> Result<T> {
        self.on_snapshot(uri, move |snapshot, token| f(&snapshot.analysis(token), snapshot.unit, &snapshot.settings))
            .await
    }

    async fn on_snapshot<T: Default + Send + 'static>(
        &self,
        uri: &Uri,
        f: impl FnOnce(&Snapshot, &Token) -> T + Send + 'static,
    ) -> Result<T> {
        // An edit's diagnostics go out before the answers of the requests
        // sent after it: the request waits until they are queued for the
        // client (the writer then writes them first, `transport.rs`). Every
        // edit is published or overtaken by a newer version's publication,
        // and a close drops the watch, so the wait ends. The snapshot is
        // taken after the wait: one held while waiting would make the next
        // keystroke copy the document (`Arc::make_mut`), the whole text of a
        // big one, while the editor waits for its squiggle.
        let Some((version, mut published)) = self.version_of(uri).await else { return Ok(T::default()) };
        let _ = published.wait_for(|v| *v >= version).await;
        let Some(snapshot) = self.snapshot(uri) else { return Ok(T::default()) };
        if snapshot.doc.version != version {
            // Edited meanwhile: the request's positions are of an older
            // text. "Content modified", once the newer version's
            // diagnostics are out (as when a running request is cancelled).
            let newer = snapshot.doc.version;
            drop(snapshot);
            let _ = published.wait_for(|v| *v >= newer).await;
            return Err(Error::new(ErrorCode::ContentModified));
        }
        let dropped = Arc::new(AtomicBool::new(false));
        // Dropped with this future: when the client cancels the request, the
        // handler stops at its next check.
        let _cancel = CancelOnDrop(dropped.clone());
        let token = Token::new(dropped, snapshot.latest.clone(), snapshot.doc.version);
        let run = move || catch_unwind(AssertUnwindSafe(|| f(&snapshot, &token)));
        match tokio::task::spawn_blocking(run).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(panic)) if panic.is::<Cancelled>() => Err(Error::new(ErrorCode::ContentModified)),
            Ok(Err(panic)) => {
                tracing::error!("a handler panicked: {}", panic_message(&*panic));
                Err(Error::internal_error())
            }
            Err(e) => {
                tracing::error!("a handler did not finish: {e}");
                Err(Error::internal_error())
            }
        }
    }

    /// `chess-ls/positionAt`: the position and the game's language at the
    /// cursor, for an editor's board view and status bar.
    pub async fn position_at(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<handlers::position::PositionInfo>> {
        let uri = params.text_document.uri.clone();
        self.on_doc(&uri, move |snap, unit, settings| {
            handlers::position::position_at(snap, params.position, unit, settings)
        })
        .await
    }

    /// Reports the check of a big document being opened as work-done
    /// progress: the token is created (`window/workDoneProgress/create`),
    /// then begun; it ends when the sender returned is told (or dropped).
    /// Off this request's path: a client slow to answer the creation
    /// delays nothing, and a check done before it answered still sends its
    /// end after its begin.
    fn begin_progress(&self, id: u64, uri: &Uri, bytes: usize) -> tokio::sync::oneshot::Sender<()> {
        let (done, finished) = tokio::sync::oneshot::channel::<()>();
        let client = self.client.clone();
        let token = ProgressToken::String(format!("chess-ls/open/{id}"));
        let name = file_path(uri)
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| uri.as_str().rsplit('/').next().unwrap_or_default().to_owned());
        let message = format!("{name} ({:.1} MB)", bytes as f64 / 1e6);
        tokio::spawn(async move {
            if client.create_work_done_progress(token.clone()).await.is_err() {
                return;
            }
            let ongoing = client.progress(token, "Checking").with_message(message).begin().await;
            let _ = finished.await;
            ongoing.finish().await;
        });
        done
    }

    /// Queues a `publishDiagnostics` for the client (with `publishing`
    /// held): once this returns, the writer writes it before any response
    /// produced from now on (`transport.rs`).
    async fn send_diagnostics(&self, uri: Uri, diagnostics: Vec<Diagnostic>, version: Option<i32>) {
        self.client.publish_diagnostics(uri, diagnostics, version).await;
    }

    /// Publishes the diagnostics of the newest version of `uri`. One
    /// publication of a document runs at a time: an edit that comes while
    /// it runs leaves the work to it, and it goes on until the newest
    /// version is published. So a burst of edits is analysed and published
    /// for the versions a publication finds newest, not for every one.
    async fn publish(&self, uri: Uri) {
        let started = self.with_state(|state| {
            let open = state.docs.get_mut(&uri)?;
            if open.publishing {
                open.again = true;
                return None;
            }
            open.publishing = true;
            Some(open.latest.clone())
        });
        let Ok(Some(mine)) = started else { return };
        loop {
            self.analyse_newest(&uri).await;
            self.publish_newest(uri.clone()).await;
            let done = self.with_state(|state| match state.docs.get_mut(&uri) {
                // The same open (not closed, not opened again meanwhile).
                Some(open) if Arc::ptr_eq(&open.latest, &mine) => {
                    let again = std::mem::take(&mut open.again);
                    open.publishing = again;
                    !again
                }
                _ => true,
            });
            if done.unwrap_or(true) {
                break;
            }
        }
    }

    /// Parses and analyses the sections the edits left (`apply_changes`),
    /// off the state's lock, and puts them in place unless an edit came
    /// meanwhile; then again for the newest version, until none is left.
    async fn analyse_newest(&self, uri: &Uri) {
        loop {
            let taken = self.with_state(|state| {
                let open = state.docs.get(uri)?;
                let options = open.options(&state.settings);
                Some((open.doc.unanalysed()?, options, open.doc.version))
            });
            let Ok(Some((unanalysed, options, version))) = taken else { return };
            let Some(analysed) = off_the_runtime("analysing an edit", move || unanalysed.analyse(&options)).await
            else {
                return;
            };
            // Whether to look again (for what is left, or for the newest).
            let again = self.with_state(|state| {
                let Some(open) = state.docs.get_mut(uri) else { return false };
                if open.doc.takes(&analysed) {
                    return Arc::make_mut(&mut open.doc).put_analysed(analysed);
                }
                // Overtaken by an edit: analysed again for the newest. The
                // same version refused would be refused again: given up.
                if open.doc.version == version {
                    tracing::error!("an analysis of an edit did not fit its document");
                    return false;
                }
                true
            });
            if !again.unwrap_or(false) {
                return;
            }
        }
    }

    /// Publishes the diagnostics of the version of `uri` that is newest now.
    async fn publish_newest(&self, uri: Uri) {
        // An edit came after the analysis (it is left to the next turn of
        // `publish`): its version is not published half analysed.
        let overtaken = self.with_state(|state| state.docs.get(&uri).is_some_and(|o| o.again && !o.doc.is_analysed()));
        if overtaken.unwrap_or(false) {
            return;
        }
        let Some(snapshot) = self.snapshot(&uri) else { return };
        let version = snapshot.doc.version;
        let doc = snapshot.doc;
        let unit = snapshot.unit;
        let target = uri.clone();
        // The document is let go of in the blocking task, once its
        // diagnostics are collected: held while they are queued, it would
        // make the next keystroke, often typed by then, copy the document (`Arc::make_mut` in `did_change`), and
        // the last holder of an older version frees it, which is better
        // done off the runtime's threads.
        let found = tokio::task::spawn_blocking(move || {
            let found = catch_unwind(AssertUnwindSafe(|| handlers::diagnostics::collect(&doc, &target, unit)));
            drop(doc);
            found.ok()
        })
        .await;
        if let Ok(Some(diagnostics)) = found {
            let _order = self.publishing.lock().await;
            // A newer version published already: this one would be stale.
            if snapshot.latest.load(Ordering::Relaxed) <= version {
                self.send_diagnostics(uri.clone(), diagnostics, Some(version)).await;
            }
            // Only now are requests on older versions cancelled: so the
            // diagnostics of an edit go out before the answer of a request
            // that the edit made stale.
            snapshot.latest.fetch_max(version, Ordering::Relaxed);
        }
        // Requests waiting for this version (or an older one) go on, even if
        // collecting failed.
        let published = snapshot.latest.load(Ordering::Relaxed).max(version);
        let _ = self.with_state(|state| {
            if let Some(open) = state.docs.get(&uri) {
                open.published.send_if_modified(|v| {
                    let newer = published > *v;
                    *v = (*v).max(published);
                    newer
                });
            }
        });
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_deref());
        let (unit, kind) = convert::negotiate(offered);
        let resolves = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.code_action.as_ref())
            .and_then(|c| c.resolve_support.as_ref())
            .is_some_and(|r| r.properties.iter().any(|p| p == "edit"));
        let translate_command = params
            .capabilities
            .experimental
            .as_ref()
            .and_then(|e| e.pointer("/commands/commands"))
            .and_then(|c| c.as_array())
            .is_some_and(|c| c.iter().any(|c| c == handlers::code_action::TRANSLATE_COMMAND));
        let folding_limit = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.folding_range.as_ref())
            .and_then(|f| f.range_limit)
            .map(|n| n as usize);
        let by_range = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.semantic_tokens.as_ref())
            .and_then(|s| s.requests.range)
            .unwrap_or(false);
        let work_done_progress =
            params.capabilities.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false);
        self.with_state(|state| {
            state.unit = unit;
            state.work_done_progress = work_done_progress;
            state.resolves_code_actions = resolves;
            state.translate_command = translate_command;
            state.folding_limit = folding_limit;
            state.asks_tokens_by_range = by_range;
            if let Some(options) = &params.initialization_options {
                let rejected = Arc::make_mut(&mut state.settings).update(options);
                if !rejected.is_empty() {
                    tracing::warn!("initializationOptions: not understood, left as they were: {}", rejected.join(", "));
                }
            }
        })?;
        Ok(InitializeResult {
            server_info: Some(ServerInfo {
                name: "chess-ls".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            capabilities: ServerCapabilities {
                position_encoding: Some(kind),
                text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..TextDocumentSyncOptions::default()
                })),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec![" ".to_owned(), ".".to_owned()]),
                    ..CompletionOptions::default()
                }),
                code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                    code_action_kinds: Some(vec![
                        CodeActionKind::QUICKFIX,
                        CodeActionKind::SOURCE,
                        CodeActionKind::new(handlers::code_action::FIX_ALL),
                        CodeActionKind::new(handlers::code_action::NORMALIZE),
                        CodeActionKind::new("source.chess-ls.translate"),
                    ]),
                    resolve_provider: Some(true),
                    ..CodeActionOptions::default()
                })),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                    SemanticTokensOptions {
                        legend: handlers::semantic_tokens::legend(),
                        full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                        range: Some(true),
                        ..SemanticTokensOptions::default()
                    },
                )),
                ..ServerCapabilities::default()
            },
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        tracing::info!("chess-ls {} ready", env!("CARGO_PKG_VERSION"));
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let doc = params.text_document;
        let uri = doc.uri.clone();
        let version = doc.version;
        // Registered here, before the first `.await`: the edits that come
        // while the document is analysed wait for it in order.
        let Ok((id, kind, options, progress)) = self.with_state(|state| {
            // A Markdown document is analysed in its ```pgn / ```chess blocks.
            let detected = Kind::detect(&doc.language_id, doc.uri.as_str());
            // The project file above the document's file, read as the
            // command line reads it; one that cannot be used is logged and
            // the editor's settings stand.
            let project = file_path(&doc.uri).and_then(|path| match state.projects.for_path(&path) {
                Ok(project) => project,
                Err(e) => {
                    tracing::warn!("{e}");
                    None
                }
            });
            let options = match &project {
                Some(project) => project.settings.options(&state.settings.options),
                None => state.settings.options.clone(),
            };
            let kind = detected.in_project(project.as_ref().is_some_and(|p| p.settings.all_manuscripts == Some(true)));
            state.opens += 1;
            let id = state.opens;
            let (done, _) = tokio::sync::watch::channel(false);
            // An open of a document already open replaces it.
            state.docs.remove(&doc.uri);
            state.opening.insert(
                doc.uri.clone(),
                Opening { id, version, changes: Vec::new(), options: options.clone(), done, project },
            );
            (id, kind, options, state.work_done_progress && doc.text.len() >= PROGRESS_ABOVE)
        }) else {
            return;
        };
        // A big document's check is reported as work-done progress, from
        // before its analysis until its diagnostics are out.
        let progress = progress.then(|| self.begin_progress(id, &uri, doc.text.len()));
        // Analysed off the state's lock, on the blocking pool: requests on
        // other documents and edits of them do not wait for it.
        let text = doc.text;
        let opened =
            off_the_runtime("opening a document", move || Document::open_as(kind, text, version, &options)).await;
        // Put in place under a short lock, unless a newer open or a close
        // came meanwhile; with the changes that came meanwhile applied.
        let installed = self.with_state(|state| {
            if state.opening.get(&uri).is_none_or(|o| o.id != id) {
                return false;
            }
            let Some(opening) = state.opening.remove(&uri) else { return false };
            let Some(mut opened) = opened else { return false };
            let project = opening.project;
            let options = match &project {
                Some(project) => project.settings.options(&state.settings.options),
                None => state.settings.options.clone(),
            };
            if opening.options != options {
                opened.reanalyse_all(&options);
            }
            // The project's filter of findings: applied by the document to
            // everything it gives out (published, fixed, hovered).
            opened.set_filter(project.as_ref().map(|p| p.settings.filter()).unwrap_or_default());
            for (version, changes) in opening.changes {
                apply_changes(&mut opened, changes, version, state.unit, &options);
            }
            let latest = Arc::new(AtomicI32::new(opened.version));
            let (published, _) = tokio::sync::watch::channel(i32::MIN);
            let open = Open {
                doc: Arc::new(opened),
                latest,
                published,
                tokens: Arc::default(),
                project,
                analysed_with: options,
                rebuild: None,
                publishing: false,
                again: false,
            };
            state.docs.insert(uri.clone(), open);
            opening.done.send_replace(true);
            true
        });
        if installed.unwrap_or(false) {
            self.publish(uri).await;
        }
        if let Some(done) = progress {
            let _ = done.send(());
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri.clone();
        let version = params.text_document.version;
        // Applied here, before the first `.await`: the next notification
        // cannot overtake this one.
        let applied = self.with_state(|state| {
            let unit = state.unit;
            let editor = state.settings.clone();
            if let Some(opening) = state.opening.get_mut(&uri) {
                // Being opened: applied in order once it is in place, and
                // published then.
                if version < opening.version {
                    tracing::warn!("ignored an edit with an older version ({version} < {})", opening.version);
                } else {
                    opening.version = version;
                    opening.changes.push((version, params.content_changes));
                }
                return false;
            }
            let Some(open) = state.docs.get_mut(&uri) else {
                tracing::warn!("an edit for a document that is not open: {}", uri.as_str());
                return false;
            };
            if version < open.doc.version {
                tracing::warn!("ignored an edit with an older version ({version} < {})", open.doc.version);
                return false;
            }
            let options = open.options(&editor);
            if let Some(rebuild) = &mut open.rebuild {
                rebuild.changes.push((version, params.content_changes.clone()));
            }
            // Copied only if a request still reads the old version.
            let doc = Arc::make_mut(&mut open.doc);
            apply_changes(doc, params.content_changes, version, unit, &options);
            true
        });
        if applied.unwrap_or(false) {
            self.publish(uri).await;
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let _ = self.with_state(|state| {
            state.opening.remove(&uri);
            state.docs.remove(&uri)
        });
        let _order = self.publishing.lock().await;
        self.send_diagnostics(uri, Vec::new(), None).await;
    }

    /// New settings: each open document whose analysis options they change
    /// is analysed again off the state's lock, on the blocking pool, while
    /// edits and requests go on with the analysis it has; the new analysis
    /// is put in place under a short lock, with the edits that came
    /// meanwhile applied to it, and published. Settings that change no
    /// document's options analyse nothing (and the log says so).
    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let rebuilds = self
            .with_state(|state| {
                let mut settings = (*state.settings).clone();
                let rejected = settings.update(&params.settings);
                if !rejected.is_empty() {
                    tracing::warn!(
                        "didChangeConfiguration: not understood, left as they were: {}",
                        rejected.join(", ")
                    );
                }
                if settings == *state.settings {
                    tracing::info!("didChangeConfiguration: the settings did not change; nothing was done");
                    return Vec::new();
                }
                state.settings = Arc::new(settings);
                let mut rebuilds = Vec::new();
                for (uri, open) in state.docs.iter_mut() {
                    let options = open.options(&state.settings);
                    if options == open.analysed_with {
                        continue;
                    }
                    state.rebuilds += 1;
                    open.rebuild = Some(Rebuild { id: state.rebuilds, changes: Vec::new() });
                    rebuilds.push((uri.clone(), state.rebuilds, open.doc.clone(), options));
                }
                if rebuilds.is_empty() {
                    tracing::info!(
                        "didChangeConfiguration: no setting of the analysis changed; nothing is analysed again"
                    );
                }
                rebuilds
            })
            .unwrap_or_default();
        for (uri, id, doc, options) in rebuilds {
            let Some(rebuilt) = off_the_runtime("analysing a document again", move || {
                let mut doc = Document::clone(&*doc);
                doc.reanalyse_all(&options);
                (doc, options)
            })
            .await
            else {
                continue;
            };
            let installed = self.with_state(|state| {
                let unit = state.unit;
                let Some(open) = state.docs.get_mut(&uri) else { return false };
                if open.rebuild.as_ref().is_none_or(|r| r.id != id) {
                    return false;
                }
                let Some(rebuild) = open.rebuild.take() else { return false };
                let (mut doc, options) = rebuilt;
                for (version, changes) in rebuild.changes {
                    apply_changes(&mut doc, changes, version, unit, &options);
                }
                open.analysed_with = options;
                open.doc = Arc::new(doc);
                true
            });
            if installed.unwrap_or(false) {
                self.publish(uri).await;
            }
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        let uri = p.text_document.uri.clone();
        self.on_doc(&uri, move |snap, unit, settings| handlers::hover::hover(snap, p.position, unit, settings)).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        let uri = p.text_document.uri.clone();
        self.on_doc(&uri, move |snap, unit, _| handlers::completion::complete(snap, p.position, unit)).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        self.on_snapshot(&uri, move |s, token| {
            let client = handlers::code_action::Client {
                resolves: s.resolves_code_actions,
                translate_command: s.translate_command,
            };
            handlers::code_action::actions(&s.analysis(token), &params.text_document.uri, &params, s.unit, client)
        })
        .await
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        let Some(pending) =
            action.data.clone().and_then(|data| serde_json::from_value::<handlers::code_action::Pending>(data).ok())
        else {
            return Ok(action);
        };
        let uri = pending.uri.clone();
        let resolved = self
            .on_snapshot(&uri, move |s, token| {
                handlers::code_action::resolve(&s.analysis(token), action, &pending, s.unit)
            })
            .await?;
        resolved.ok_or_else(|| Error::new(ErrorCode::ContentModified))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        self.on_doc(&params.text_document.uri, |snap, unit, _| handlers::symbols::symbols(snap, unit)).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.on_snapshot(&params.text_document.uri, |s, token| {
            handlers::folding::ranges(&s.analysis(token), s.folding_limit)
        })
        .await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        let (edits, note) = self
            .on_doc(&params.text_document.uri, |snap, unit, settings| {
                handlers::formatting::format(snap, unit, settings.format_width)
            })
            .await?;
        // What was left as it is, and why: shown when nothing changed (the
        // user would otherwise see nothing happen), logged beside edits.
        if let Some(note) = note {
            let kind = if edits.is_none() { MessageType::INFO } else { MessageType::LOG };
            if edits.is_none() {
                self.client.show_message(kind, &note).await;
            } else {
                self.client.log_message(kind, &note).await;
            }
        }
        Ok(edits)
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        self.on_doc(&params.text_document.uri, move |snap, unit, _| {
            handlers::semantic_tokens::range(snap, convert::span(snap.document(), params.range, unit), unit)
        })
        .await
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        self.refuse_whole_document_tokens(&params.text_document.uri).await?;
        self.on_snapshot(&params.text_document.uri, |s, token| {
            let id = next_result_id();
            let (tokens, previous) = handlers::semantic_tokens::full(&s.analysis(token), s.unit, id);
            *s.tokens.lock().unwrap_or_else(|e| e.into_inner()) = Some(previous);
            Some(SemanticTokensResult::Tokens(tokens))
        })
        .await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        self.refuse_whole_document_tokens(&params.text_document.uri).await?;
        self.on_snapshot(&params.text_document.uri, move |s, token| {
            let id = next_result_id();
            let held = s.tokens.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let (answer, previous) = match held.filter(|p| p.id == params.previous_result_id) {
                Some(previous) => {
                    let (delta, next) = handlers::semantic_tokens::delta(&s.analysis(token), s.unit, &previous, id);
                    (SemanticTokensFullDeltaResult::TokensDelta(delta), next)
                }
                // The client holds an answer we no longer know: all of it.
                None => {
                    let (tokens, next) = handlers::semantic_tokens::full(&s.analysis(token), s.unit, id);
                    (SemanticTokensFullDeltaResult::Tokens(tokens), next)
                }
            };
            *s.tokens.lock().unwrap_or_else(|e| e.into_inner()) = Some(previous);
            Some(answer)
        })
        .await
    }
}

impl Backend {
    /// Refuses at once, without waiting for anything but the document's
    /// open, a whole document's semantic tokens that the client is to ask
    /// for by range ([`handlers::semantic_tokens::by_range_only`]),
    /// forgetting the answer it held.
    async fn refuse_whole_document_tokens(&self, uri: &Uri) -> Result<()> {
        self.opened(uri).await;
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match state.docs.get(uri) {
            Some(open) if handlers::semantic_tokens::by_range_only(&open.doc, state.asks_tokens_by_range) => {
                *open.tokens.lock().unwrap_or_else(|e| e.into_inner()) = None;
                Err(handlers::semantic_tokens::ask_by_range())
            }
            _ => Ok(()),
        }
    }
}

/// From this size on, opening a document is reported as work-done progress
/// (a 1 MB database takes a few hundred milliseconds to check).
const PROGRESS_ABOVE: usize = 1 << 20;

/// A new `resultId` for semantic tokens.
fn next_result_id() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed).to_string()
}
