//! Code actions: every fix of the analysis as a quick-fix (the preferred one
//! marked), "fix all" for the certain fixes, and the source actions
//! "translate this game / document to <language>" and "normalize notation".

use std::collections::HashMap;

use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, TextEdit, Uri, WorkspaceEdit,
};

use crate::analysis::rewrite::{Rewrite, rewrite_game};
use crate::analysis::{self, Language};
use crate::ide::document::{Document, Section};
use crate::line_index::Unit;
use crate::lsp::config::Settings;
use crate::lsp::convert;
use crate::syntax;

pub const FIX_ALL: &str = "source.fixAll.chess-ls";

fn wants(params: &CodeActionParams, kind: &CodeActionKind) -> bool {
    match &params.context.only {
        None => true,
        Some(only) => only.iter().any(|o| kind.as_str().starts_with(o.as_str())),
    }
}

fn edit(uri: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..WorkspaceEdit::default() }
}

pub fn actions(
    doc: &Document,
    uri: &Uri,
    params: &CodeActionParams,
    unit: Unit,
    settings: &Settings,
) -> Option<CodeActionResponse> {
    let span = convert::span(doc, params.range, unit);
    let mut out: Vec<CodeActionOrCommand> = Vec::new();

    if wants(params, &CodeActionKind::QUICKFIX) {
        for d in doc.diagnostics() {
            if d.span.start > span.end || d.span.end < span.start {
                continue;
            }
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

    let fix_all = CodeActionKind::new(FIX_ALL);
    if wants(params, &fix_all) {
        let edits = certain_fixes(doc);
        if !edits.is_empty() {
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Fix all certain problems ({})", edits.len()),
                kind: Some(fix_all),
                edit: Some(edit(uri, edits.iter().map(|e| convert::text_edit(doc, e, unit)).collect())),
                ..CodeAction::default()
            }));
        }
    }

    // Asked for as `source` or as our own `source.chess-ls` (an editor's
    // command or key binding for these actions only).
    let source = CodeActionKind::new("source.chess-ls");
    if wants(params, &source) && params.context.only.is_some() {
        // Every game of every section that can be replayed (in a manuscript,
        // from the start the manuscript gives it), with the section's start to
        // make its spans absolute.
        let sections: Vec<(&Section, &str, tree_sitter::Tree)> =
            doc.sections.iter().map(|p| (p, p.text(doc), p.tree(doc))).collect();
        let games: Vec<(usize, &str, syntax::GameSyntax<'_>, analysis::Options)> = sections
            .iter()
            .flat_map(|(section, text, tree)| {
                syntax::lower(tree, text).into_iter().filter_map(move |g| {
                    let (g, options) = doc.replayable(section, g, &settings.options)?;
                    Some((section.start, *text, g, options))
                })
            })
            .collect();
        let rewrite_one = |(start, text, game, options): &(usize, &str, syntax::GameSyntax<'_>, analysis::Options),
                           rewrite: Rewrite| {
            let mut edits = rewrite_game(game, text, options, rewrite);
            for e in &mut edits {
                e.span = doc.to_original(&(e.span.start + start..e.span.end + start));
            }
            edits
        };
        let here: Vec<_> = games
            .iter()
            .filter(|(start, _, g, _)| g.span.start + start <= span.start && span.start <= g.span.end + start)
            .collect();
        let mut push = |title: String, edits: Vec<analysis::TextEdit>| {
            if !edits.is_empty() {
                out.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title,
                    kind: Some(CodeActionKind::new("source.chess-ls")),
                    edit: Some(edit(uri, edits.iter().map(|e| convert::text_edit(doc, e, unit)).collect())),
                    ..CodeAction::default()
                }));
            }
        };
        let all = |rewrite: Rewrite| -> Vec<analysis::TextEdit> {
            games.iter().flat_map(|g| rewrite_one(g, rewrite)).collect()
        };
        push("Normalize notation (canonical SAN)".to_owned(), all(Rewrite::Normalize));
        for language in Language::ALL {
            for game in &here {
                push(
                    format!("Translate this game to {}", language.name()),
                    rewrite_one(game, Rewrite::Translate(language)),
                );
            }
            push(format!("Translate the document to {}", language.name()), all(Rewrite::Translate(language)));
        }
    }
    Some(out)
}

/// The preferred fixes, one per diagnostic, without overlaps.
pub fn certain_fixes(doc: &Document) -> Vec<analysis::TextEdit> {
    let mut edits: Vec<analysis::TextEdit> = Vec::new();
    let mut end = 0;
    for d in doc.diagnostics() {
        let Some(fix) = d.fixes.into_iter().find(|f| f.preferred) else { continue };
        let start = fix.edits.iter().map(|e| e.span.start).min().unwrap_or(0);
        if start < end && !edits.is_empty() {
            continue;
        }
        end = fix.edits.iter().map(|e| e.span.end).max().unwrap_or(end);
        edits.extend(fix.edits);
    }
    edits
}
