//! Code actions: every fix of the diagnostics at the cursor as a quick-fix
//! (the preferred one marked), "fix all" for the certain fixes
//! (`ide::fixes`), and the source actions "normalize notation" and
//! "translate the document / this game to <language>".
//!
//! Listing is cheap whatever the document's size: quick-fixes come from the
//! sections at the cursor, and the edits of "fix all" and of the source
//! actions are computed only in `codeAction/resolve` (ruff's split), for
//! the one action the user picks. A client that cannot resolve gets the
//! edits at once, but only for the kinds it asked for. Every action has a
//! typed kind (`source.chess-ls.translate.ru`, `...translate.ru.game`,
//! `source.chess-ls.normalize`, `source.fixAll.chess-ls`) that editors
//! match instead of titles.
//!
//! A client that runs the command [`TRANSLATE_COMMAND`] itself (it names
//! it in `experimental.commands.commands`) gets, in a Source Action menu
//! (`only` of `source` or `source.chess-ls`), one "Translate to..." that
//! carries the command, which asks for the language, instead of two
//! actions for each of the 21 languages; asked for the translations
//! (`source.chess-ls.translate`) or one language's, it gets those.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Command, TextEdit, Uri,
    WorkspaceEdit,
};

use crate::lsp::config::Settings;
use crate::lsp::convert;
use chess_ls_engine::analysis::rewrite::Rewrite;
use chess_ls_engine::analysis::{self, Language};
use chess_ls_engine::ide::cancel::Token;
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::fixes;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::rewrite::{Scope, coalesce, rewrite_document};

pub const FIX_ALL: &str = "source.fixAll.chess-ls";
pub const NORMALIZE: &str = "source.chess-ls.normalize";
const TRANSLATE: &str = "source.chess-ls.translate";
/// The client's command that asks for a language and applies
/// [`translate_kind`]'s action (argument: the document's URI).
pub const TRANSLATE_COMMAND: &str = "chess-ls.translate";

/// What the client can do with the actions it is given.
#[derive(Clone, Copy, Debug, Default)]
pub struct Client {
    /// It asks for the edits in `codeAction/resolve`.
    pub resolves: bool,
    /// It runs [`TRANSLATE_COMMAND`].
    pub translate_command: bool,
}

/// The kind of "translate the document to `language`"; the game's own is
/// this with `.game` after it.
pub fn translate_kind(language: Language, game: bool) -> String {
    format!("{TRANSLATE}.{}{}", language.code(), if game { ".game" } else { "" })
}

/// What `codeAction/resolve` needs to compute an action's edits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub uri: Uri,
    pub version: i32,
    pub what: Deferred,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum Deferred {
    FixAll,
    Normalize,
    Translate {
        language: String,
        /// The game around this byte offset, or the whole document.
        game_at: Option<usize>,
    },
}

fn wants(params: &CodeActionParams, kind: &str) -> bool {
    match &params.context.only {
        None => true,
        // `source` asks for every source action; `source.chess-ls.translate`
        // for every translation.
        Some(only) => only.iter().any(|o| kind.starts_with(o.as_str()) || o.as_str().starts_with(kind)),
    }
}

fn edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..WorkspaceEdit::default() }
}

/// Lists the actions at `params.range`; with `resolve`, the client will ask
/// for the edits of deferred actions later.
pub fn actions(
    doc: &Document,
    uri: &Uri,
    params: &CodeActionParams,
    unit: Unit,
    settings: &Settings,
    client: Client,
    token: &Token,
) -> Option<CodeActionResponse> {
    let resolve = client.resolves;
    let span = convert::span(doc, params.range, unit);
    let mut out: Vec<CodeActionOrCommand> = Vec::new();

    if wants(params, CodeActionKind::QUICKFIX.as_str()) {
        for d in doc.diagnostics_in(span.clone()) {
            let lsp_diagnostic = convert::diagnostic(doc, uri, &d, unit);
            for fix in &d.fixes {
                let edits = fix.edits.iter().map(|e| convert::text_edit(doc, e, unit)).collect();
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp_diagnostic.clone()]),
                    edit: Some(edit(uri, edits)),
                    is_preferred: Some(fix.preferred),
                    ..CodeAction::default()
                }));
            }
        }
    }

    let mut deferred: Vec<(String, String, Deferred)> = Vec::new();
    let mut translate_menu = None;
    if wants(params, FIX_ALL) {
        let certain = doc.diagnostics().filter(|d| d.certain_fix().is_some()).count();
        if certain > 0 {
            deferred.push((format!("Fix all certain problems ({certain})"), FIX_ALL.to_owned(), Deferred::FixAll));
        }
    }
    // Source actions only when asked for by kind (an editor's Source Action
    // menu, a command or a key binding), not on every cursor move.
    if params.context.only.is_some() && doc.game_count() > 0 {
        if wants(params, NORMALIZE) {
            deferred.push(("Normalize notation (canonical SAN)".to_owned(), NORMALIZE.to_owned(), Deferred::Normalize));
        }
        let in_game = doc.game_at(span.start).is_some();
        // A menu of every source action: one "Translate to..." when the
        // client asks for the language itself; the translations' kind or a
        // language's own (`source.chess-ls.translate.ru`) gets the actions.
        let menu =
            params.context.only.iter().flatten().all(|o| TRANSLATE.starts_with(o.as_str()) && o.as_str() != TRANSLATE);
        if client.translate_command && menu {
            translate_menu = Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Translate to...".to_owned(),
                kind: Some(CodeActionKind::from(TRANSLATE.to_owned())),
                command: Some(Command {
                    title: "Translate to...".to_owned(),
                    command: TRANSLATE_COMMAND.to_owned(),
                    arguments: Some(vec![serde_json::json!(uri.as_str())]),
                }),
                ..CodeAction::default()
            }));
        } else {
            for language in Language::ALL {
                let code = language.code().to_owned();
                let kind = translate_kind(language, false);
                if wants(params, &kind) {
                    deferred.push((
                        format!("Translate the document to {}", language.name()),
                        kind,
                        Deferred::Translate { language: code.clone(), game_at: None },
                    ));
                }
                let kind = translate_kind(language, true);
                if in_game && wants(params, &kind) {
                    deferred.push((
                        format!("Translate this game to {}", language.name()),
                        kind,
                        Deferred::Translate { language: code, game_at: Some(span.start) },
                    ));
                }
            }
        }
    }
    for (title, kind, what) in deferred {
        let pending = Pending { uri: uri.clone(), version: doc.version, what };
        let mut action = CodeAction { title, kind: Some(CodeActionKind::from(kind)), ..CodeAction::default() };
        if resolve {
            action.data = serde_json::to_value(&pending).ok();
        } else {
            action.edit = Some(edit(uri, edits_of(doc, &pending.what, unit, settings, token)));
        }
        out.push(CodeActionOrCommand::CodeAction(action));
    }
    out.extend(translate_menu);
    Some(out)
}

/// The edits of a deferred action, computed on `doc`.
pub fn edits_of(doc: &Document, what: &Deferred, unit: Unit, settings: &Settings, token: &Token) -> Vec<TextEdit> {
    let edits: Vec<analysis::TextEdit> = match what {
        Deferred::FixAll => fixes::fix_all(doc),
        Deferred::Normalize => {
            rewrite_document(doc, &settings.options, Rewrite::Normalize, Scope::Document, token).edits
        }
        Deferred::Translate { language, game_at } => {
            let Some(language) = Language::from_code(language) else { return Vec::new() };
            let scope = game_at.map_or(Scope::Document, Scope::GameAt);
            rewrite_document(doc, &settings.options, Rewrite::Translate(language), scope, token).edits
        }
    };
    // Edits a few words apart become one: far smaller answers, the same text.
    coalesce(&doc.text, &edits, 64).iter().map(|e| convert::text_edit(doc, e, unit)).collect()
}

/// `codeAction/resolve`: the action with its edits, if `doc` is still the
/// version it was listed for (`None` otherwise: the content changed).
pub fn resolve(
    doc: &Document,
    mut action: CodeAction,
    pending: &Pending,
    unit: Unit,
    settings: &Settings,
    token: &Token,
) -> Option<CodeAction> {
    if doc.version != pending.version {
        return None;
    }
    action.edit = Some(edit(&pending.uri, edits_of(doc, &pending.what, unit, settings, token)));
    action.data = None;
    Some(action)
}
