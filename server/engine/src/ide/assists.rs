//! Assists (an editor's code actions), as plain data: every fix of the
//! findings at a span as a quick-fix (the preferred one marked), "fix all"
//! for the certain fixes (`fixes::fix_all`), and the source actions
//! "normalize notation" and "translate the document / this game to
//! <language>" (`rewrite`).
//!
//! Listing is cheap whatever the document's size: quick-fixes come from the
//! sections at the span, and the edits of "fix all" and of the source
//! actions are left out ([`Assist::edits`] is `None`) until
//! [`assist_edits`] computes them for the one action the user picks. The
//! front end decides which kinds the client asked for ([`Asked::wants`])
//! and names them in its own terms; the titles, the order and which
//! actions a document has are decided here.

use std::ops::Range;

use super::cancel::Token;
use super::document::Document;
use super::fixes;
use super::rewrite::{Scope, coalesce, rewrite_document};
use crate::analysis::rewrite::{Castling, Rewrite};
use crate::analysis::{Diagnostic, Language, TextEdit};

/// What an assist does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssistKind {
    /// One fix of one finding.
    QuickFix,
    /// Every certain fix of the document (one round of `--fix`).
    FixAll,
    /// Every move written in canonical SAN.
    Normalize,
    /// Every move of the document, or of the game around `game_at` (a byte
    /// offset), written in `language`.
    Translate { language: Language, game_at: Option<usize> },
}

/// A code action as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assist {
    pub title: String,
    pub kind: AssistKind,
    /// The fix the analysis prefers (a quick-fix's).
    pub preferred: bool,
    /// The findings it fixes (a quick-fix's one finding).
    pub fixes: Vec<Diagnostic>,
    /// Its edits, byte ranges of the document; `None` for "fix all" and the
    /// source actions, whose edits [`assist_edits`] computes when asked.
    pub edits: Option<Vec<TextEdit>>,
}

/// What the front end asks for.
pub struct Asked<'a> {
    /// The source actions (normalize, translate) are listed: the client
    /// asked for kinds (a Source Action menu, a command), not merely for
    /// what is at the cursor.
    pub source: bool,
    /// The translations are listed one by one (else the front end offers
    /// its own way to pick a language).
    pub translations: bool,
    /// Whether the client wants actions of a kind.
    pub wants: &'a dyn Fn(&AssistKind) -> bool,
}

/// The assists at `span` (it may be empty: a cursor) that `asked` wants, in
/// the order an editor lists them: the quick-fixes, "fix all", normalize,
/// then the translations (the document's and the game's, language by
/// language).
pub fn assists(doc: &Document, span: Range<usize>, asked: &Asked<'_>) -> Vec<Assist> {
    let mut out = Vec::new();
    if (asked.wants)(&AssistKind::QuickFix) {
        for d in doc.diagnostics_in(span.clone()) {
            for fix in &d.fixes {
                out.push(Assist {
                    title: fix.title.clone(),
                    kind: AssistKind::QuickFix,
                    preferred: fix.preferred,
                    fixes: vec![d.clone()],
                    edits: Some(fix.edits.clone()),
                });
            }
        }
    }
    let deferred =
        |title: String, kind: AssistKind| Assist { title, kind, preferred: false, fixes: Vec::new(), edits: None };
    if (asked.wants)(&AssistKind::FixAll) {
        let certain = doc.diagnostics().filter(|d| d.certain_fix().is_some()).count();
        if certain > 0 {
            out.push(deferred(format!("Fix all certain problems ({certain})"), AssistKind::FixAll));
        }
    }
    // Source actions only when asked for by kind, not on every cursor move.
    if !asked.source || doc.game_count() == 0 {
        return out;
    }
    if (asked.wants)(&AssistKind::Normalize) {
        out.push(deferred("Normalize notation (canonical SAN)".to_owned(), AssistKind::Normalize));
    }
    if !asked.translations {
        return out;
    }
    let in_game = doc.game_at(span.start).is_some();
    for language in Language::ALL {
        let kind = AssistKind::Translate { language, game_at: None };
        if (asked.wants)(&kind) {
            out.push(deferred(format!("Translate the document to {}", language.name()), kind));
        }
        let kind = AssistKind::Translate { language, game_at: Some(span.start) };
        if in_game && (asked.wants)(&kind) {
            out.push(deferred(format!("Translate this game to {}", language.name()), kind));
        }
    }
    out
}

/// The edits of an assist of `kind` (a quick-fix has its own, in
/// [`Assist::edits`]): byte ranges of the document, edits a few words apart
/// joined into one (far smaller answers, the same text).
pub fn assist_edits(doc: &Document, kind: &AssistKind, castling: Castling, token: &Token) -> Vec<TextEdit> {
    let edits = match *kind {
        AssistKind::QuickFix => Vec::new(),
        AssistKind::FixAll => fixes::fix_all(doc),
        AssistKind::Normalize => rewrite_document(doc, Rewrite::Normalize, Scope::Document, castling, token).edits,
        AssistKind::Translate { language, game_at } => {
            let scope = game_at.map_or(Scope::Document, Scope::GameAt);
            rewrite_document(doc, Rewrite::Translate(language), scope, castling, token).edits
        }
    };
    coalesce(&doc.text, &edits, 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Options;
    use crate::analysis::rewrite::apply_edits;
    use crate::ide::settings::Settings;

    fn all(_: &AssistKind) -> bool {
        true
    }

    #[test]
    fn quick_fixes_at_the_cursor_then_fix_all_then_source_actions() {
        let text = "1. e4 e5 2. Nf3+ Nc6 *\n";
        let doc = Document::open(text.to_owned(), 1, &Options::default());
        let at = text.find('+').unwrap();
        let cursor = Asked { source: false, translations: false, wants: &all };
        let listed = assists(&doc, at..at, &cursor);
        let kinds: Vec<AssistKind> = listed.iter().map(|a| a.kind).collect();
        assert_eq!(kinds[..kinds.len() - 1].iter().filter(|k| **k == AssistKind::QuickFix).count(), kinds.len() - 1);
        assert_eq!(kinds.last(), Some(&AssistKind::FixAll));
        assert_eq!(listed.last().unwrap().title, "Fix all certain problems (1)");
        let fix = &listed[0];
        assert_eq!(fix.fixes[0].code.as_str(), "check-mark");
        assert_eq!(apply_edits(text, fix.edits.as_ref().unwrap()), "1. e4 e5 2. Nf3 Nc6 *\n");
        // Asked for the source actions: normalize, then two per language.
        let menu = Asked { source: true, translations: true, wants: &all };
        let listed = assists(&doc, at..at, &menu);
        let deferred = listed.iter().filter(|a| a.edits.is_none()).count();
        assert_eq!(deferred, 2 + 2 * Language::ALL.len());
        assert_eq!(
            apply_edits(text, &assist_edits(&doc, &AssistKind::FixAll, Castling::Keep, &Token::never())),
            "1. e4 e5 2. Nf3 Nc6 *\n"
        );
        let ru = AssistKind::Translate { language: Language::Ru, game_at: Some(at) };
        assert_eq!(
            apply_edits(text, &assist_edits(&doc, &ru, Castling::Keep, &Token::never())),
            "1. e4 e5 2. Кf3+ Кc6 *\n"
        );
    }

    #[test]
    fn an_ignored_finding_offers_no_fix() {
        let text = "1. e4 e5 2. Nf3+ Nc6 *\n";
        let mut doc = Document::open(text.to_owned(), 1, &Options::default());
        doc.set_filter(Settings::parse("ignore = [\"check-mark\"]\n").unwrap().filter());
        let at = text.find('+').unwrap();
        let asked = Asked { source: false, translations: false, wants: &all };
        assert_eq!(assists(&doc, at..at, &asked), []);
        assert_eq!(assist_edits(&doc, &AssistKind::FixAll, Castling::Keep, &Token::never()), []);
    }
}
