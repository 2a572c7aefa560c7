//! The protocol implementation: keeps the open documents and dispatches each
//! request to its handler. Edits are applied synchronously, before any
//! `.await`, so they never reorder; a panic in a handler becomes an error
//! response and the server lives on.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::config::Settings;
use super::convert;
use super::handlers;
use crate::ide::document::{ByteChange, Document, Kind};
use crate::line_index::Unit;

pub struct State {
    pub docs: HashMap<Uri, Document>,
    pub unit: Unit,
    pub settings: Settings,
}

pub struct Backend {
    client: Client,
    state: Mutex<State>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            state: Mutex::new(State { docs: HashMap::new(), unit: Unit::Utf16, settings: Settings::default() }),
        }
    }

    /// Runs `f` on the state, turning a panic into an internal error.
    fn with_state<T>(&self, f: impl FnOnce(&mut State) -> T) -> Result<T> {
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        catch_unwind(AssertUnwindSafe(|| f(&mut guard))).map_err(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!("a handler panicked: {what}");
            Error::internal_error()
        })
    }

    /// Runs a request handler on the document `uri`; an unknown document
    /// gives an empty result.
    fn on_doc<T: Default>(&self, uri: &Uri, f: impl FnOnce(&Document, Unit, &Settings) -> T) -> Result<T> {
        self.with_state(|state| match state.docs.get(uri) {
            Some(doc) => f(doc, state.unit, &state.settings),
            None => T::default(),
        })
    }

    /// `chess-ls/positionAt`: the position and the game's language at the
    /// cursor, for an editor's board view and status bar.
    pub async fn position_at(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<handlers::position::PositionInfo>> {
        self.on_doc(&params.text_document.uri, |doc, unit, settings| {
            handlers::position::position_at(doc, params.position, unit, settings)
        })
    }

    async fn publish(&self, uri: Uri) {
        let found = self
            .with_state(|state| {
                state.docs.get(&uri).map(|doc| (handlers::diagnostics::collect(doc, &uri, state.unit), doc.version))
            })
            .ok()
            .flatten();
        if let Some((diagnostics, version)) = found {
            self.client.publish_diagnostics(uri, diagnostics, Some(version)).await;
        }
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_deref());
        let (unit, kind) = convert::negotiate(offered);
        self.with_state(|state| {
            state.unit = unit;
            if let Some(options) = &params.initialization_options {
                state.settings.update(options);
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
                        CodeActionKind::new("source.fixAll.chess-ls"),
                    ]),
                    ..CodeActionOptions::default()
                })),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                    SemanticTokensOptions {
                        legend: handlers::semantic_tokens::legend(),
                        full: Some(SemanticTokensFullOptions::Bool(true)),
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
        let _ = self.with_state(|state| {
            // A Markdown document is analysed in its ```pgn / ```chess blocks.
            let kind = Kind::detect(&doc.language_id, doc.uri.as_str());
            let opened = Document::open_as(kind, doc.text, doc.version, &state.settings.options);
            state.docs.insert(doc.uri, opened);
        });
        self.publish(uri).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri.clone();
        let version = params.text_document.version;
        // Applied here, before the first `.await`: the next notification
        // cannot overtake this one.
        let applied = self.with_state(|state| {
            let unit = state.unit;
            let options = state.settings.options.clone();
            let Some(doc) = state.docs.get_mut(&uri) else {
                tracing::warn!("an edit for a document that is not open: {}", uri.as_str());
                return false;
            };
            if version < doc.version {
                tracing::warn!("ignored an edit with an older version ({version} < {})", doc.version);
                return false;
            }
            // Ranges refer to the text as it is after the previous change
            // of the same notification, so each converts just before it is
            // applied.
            for change in params.content_changes {
                let range = change.range.map(|r| convert::span(doc, r, unit));
                doc.apply_changes(vec![ByteChange { range, text: change.text }], version, &options);
            }
            true
        });
        if applied.unwrap_or(false) {
            self.publish(uri).await;
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let _ = self.with_state(|state| state.docs.remove(&uri));
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let uris = self
            .with_state(|state| {
                state.settings.update(&params.settings);
                let options = state.settings.options.clone();
                for doc in state.docs.values_mut() {
                    doc.reanalyse_all(&options);
                }
                state.docs.keys().cloned().collect::<Vec<_>>()
            })
            .unwrap_or_default();
        for uri in uris {
            self.publish(uri).await;
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        self.on_doc(&p.text_document.uri, |doc, unit, settings| handlers::hover::hover(doc, p.position, unit, settings))
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        self.on_doc(&p.text_document.uri, |doc, unit, settings| {
            handlers::completion::complete(doc, p.position, unit, settings)
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        self.on_doc(&uri, |doc, unit, settings| handlers::code_action::actions(doc, &uri, &params, unit, settings))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        self.on_doc(&params.text_document.uri, |doc, unit, _| handlers::symbols::symbols(doc, unit))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.on_doc(&params.text_document.uri, |doc, unit, _| handlers::folding::ranges(doc, unit))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.on_doc(&params.text_document.uri, |doc, unit, _| handlers::formatting::format(doc, unit))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        self.on_doc(&params.text_document.uri, |doc, unit, _| {
            handlers::semantic_tokens::range(doc, convert::span(doc, params.range, unit), unit)
        })
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        self.on_doc(&params.text_document.uri, |doc, unit, _| handlers::semantic_tokens::full(doc, unit))
    }
}
