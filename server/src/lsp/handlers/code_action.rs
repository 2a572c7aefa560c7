//! Code actions: the engine's assists (`ide::assists`: every fix of the
//! diagnostics at the cursor as a quick-fix, the preferred one marked, "fix
//! all" for the certain fixes, and the source actions "normalize notation"
//! and "translate the document / this game to <language>") as LSP actions.
//!
//! Listing is cheap whatever the document's size: the engine lists the
//! deferred actions without their edits, which are computed only in
//! `codeAction/resolve` (ruff's split), for the one action the user picks. A client that cannot resolve gets the
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

use crate::lsp::convert;
use chess_ls_engine::analysis::Language;
use chess_ls_engine::ide::Snapshot;
use chess_ls_engine::ide::assists::{Asked, AssistKind};
use chess_ls_engine::ide::line_index::Unit;

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

/// The LSP kind of an assist.
fn kind_of(kind: &AssistKind) -> String {
    match kind {
        AssistKind::QuickFix => CodeActionKind::QUICKFIX.as_str().to_owned(),
        AssistKind::FixAll => FIX_ALL.to_owned(),
        AssistKind::Normalize => NORMALIZE.to_owned(),
        AssistKind::Translate { language, game_at } => translate_kind(*language, game_at.is_some()),
    }
}

impl Deferred {
    fn of(kind: &AssistKind) -> Option<Deferred> {
        match kind {
            AssistKind::QuickFix => None,
            AssistKind::FixAll => Some(Deferred::FixAll),
            AssistKind::Normalize => Some(Deferred::Normalize),
            AssistKind::Translate { language, game_at } => {
                Some(Deferred::Translate { language: language.code().to_owned(), game_at: *game_at })
            }
        }
    }

    fn kind(&self) -> Option<AssistKind> {
        Some(match self {
            Deferred::FixAll => AssistKind::FixAll,
            Deferred::Normalize => AssistKind::Normalize,
            Deferred::Translate { language, game_at } => {
                AssistKind::Translate { language: Language::from_code(language)?, game_at: *game_at }
            }
        })
    }
}

fn edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..WorkspaceEdit::default() }
}

/// Lists the engine's assists at `params.range` (`ide::assists`), as the
/// client asked for them; with `resolve`, the client will ask for the edits
/// of deferred actions later.
pub fn actions(
    snap: &Snapshot,
    uri: &Uri,
    params: &CodeActionParams,
    unit: Unit,
    client: Client,
) -> Option<CodeActionResponse> {
    let doc = snap.document();
    let span = convert::span(doc, params.range, unit);
    let source = params.context.only.is_some();
    // A menu of every source action: one "Translate to..." when the client
    // asks for the language itself; the translations' kind or a language's
    // own (`source.chess-ls.translate.ru`) gets the actions.
    let menu =
        params.context.only.iter().flatten().all(|o| TRANSLATE.starts_with(o.as_str()) && o.as_str() != TRANSLATE);
    let translate_menu = client.translate_command && menu;
    let wanted = |kind: &AssistKind| wants(params, &kind_of(kind));
    let asked = Asked { source, translations: !translate_menu, wants: &wanted };
    let mut out: Vec<CodeActionOrCommand> = Vec::new();
    for assist in snap.assists(span, &asked) {
        let kind = CodeActionKind::from(kind_of(&assist.kind));
        let mut action = CodeAction { title: assist.title, kind: Some(kind), ..CodeAction::default() };
        if let Some(edits) = assist.edits {
            action.diagnostics = Some(assist.fixes.iter().map(|d| convert::diagnostic(doc, uri, d, unit)).collect());
            action.edit = Some(edit(uri, edits.iter().map(|e| convert::text_edit(doc, e, unit)).collect()));
            action.is_preferred = Some(assist.preferred);
        } else if let Some(what) = Deferred::of(&assist.kind) {
            let pending = Pending { uri: uri.clone(), version: doc.version, what };
            if client.resolves {
                action.data = serde_json::to_value(&pending).ok();
            } else {
                action.edit = Some(edit(uri, edits_of(snap, &pending.what, unit)));
            }
        }
        out.push(CodeActionOrCommand::CodeAction(action));
    }
    if source && translate_menu && doc.game_count() > 0 {
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: "Translate to...".to_owned(),
            kind: Some(CodeActionKind::from(TRANSLATE.to_owned())),
            command: Some(Command {
                title: "Translate to...".to_owned(),
                command: TRANSLATE_COMMAND.to_owned(),
                arguments: Some(vec![serde_json::json!(uri.as_str())]),
            }),
            ..CodeAction::default()
        }));
    }
    Some(out)
}

/// The edits of a deferred action, computed by the engine on `snap`.
pub fn edits_of(snap: &Snapshot, what: &Deferred, unit: Unit) -> Vec<TextEdit> {
    let Some(kind) = what.kind() else { return Vec::new() };
    let doc = snap.document();
    snap.assist_edits(&kind).iter().map(|e| convert::text_edit(doc, e, unit)).collect()
}

/// `codeAction/resolve`: the action with its edits, if the snapshot is
/// still the version it was listed for (`None` otherwise: the content
/// changed).
pub fn resolve(snap: &Snapshot, mut action: CodeAction, pending: &Pending, unit: Unit) -> Option<CodeAction> {
    if snap.document().version != pending.version {
        return None;
    }
    action.edit = Some(edit(&pending.uri, edits_of(snap, &pending.what, unit)));
    action.data = None;
    Some(action)
}
