//! The one place where LSP positions and byte offsets meet, in the encoding
//! negotiated at `initialize` (UTF-8, UTF-16 or UTF-32).

use tower_lsp_server::ls_types::{self as lsp, PositionEncodingKind};

use chess_ls_engine::analysis::{self, Severity};
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::syntax::Span;

/// Picks the encoding: UTF-8 when the client offers it (no conversion at
/// all), else the first the client lists that we know, else UTF-16.
pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> (Unit, PositionEncodingKind) {
    let offered = offered.unwrap_or(&[]);
    if offered.contains(&PositionEncodingKind::UTF8) {
        return (Unit::Utf8, PositionEncodingKind::UTF8);
    }
    for kind in offered {
        if *kind == PositionEncodingKind::UTF16 {
            return (Unit::Utf16, PositionEncodingKind::UTF16);
        }
        if *kind == PositionEncodingKind::UTF32 {
            return (Unit::Char, PositionEncodingKind::UTF32);
        }
    }
    (Unit::Utf16, PositionEncodingKind::UTF16)
}

pub fn offset(doc: &Document, position: lsp::Position, unit: Unit) -> usize {
    doc.offset(position.line as usize, position.character as usize, unit)
}

pub fn span(doc: &Document, range: lsp::Range, unit: Unit) -> Span {
    let start = offset(doc, range.start, unit);
    let end = offset(doc, range.end, unit).max(start);
    start..end
}

pub fn position(doc: &Document, offset: usize, unit: Unit) -> lsp::Position {
    let (line, column) = doc.position(offset, unit);
    lsp::Position { line: line as u32, character: column as u32 }
}

pub fn range(doc: &Document, span: &Span, unit: Unit) -> lsp::Range {
    lsp::Range { start: position(doc, span.start, unit), end: position(doc, span.end, unit) }
}

pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

pub fn diagnostic(doc: &Document, uri: &lsp::Uri, d: &analysis::Diagnostic, unit: Unit) -> lsp::Diagnostic {
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .map(|r| lsp::DiagnosticRelatedInformation {
            location: lsp::Location { uri: uri.clone(), range: range(doc, &r.span, unit) },
            message: r.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range: range(doc, &d.span, unit),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.code.as_str().to_owned())),
        code_description: None,
        source: Some("chess-ls".to_owned()),
        message: d.message.clone(),
        related_information: if related.is_empty() { None } else { Some(related) },
        tags: if d.unnecessary { Some(vec![lsp::DiagnosticTag::UNNECESSARY]) } else { None },
        data: None,
    }
}

pub fn text_edit(doc: &Document, edit: &analysis::TextEdit, unit: Unit) -> lsp::TextEdit {
    lsp::TextEdit { range: range(doc, &edit.span, unit), new_text: edit.new_text.clone() }
}
