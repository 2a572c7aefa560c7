//! `--format json`: one JSON object per diagnostic, exactly the schema of
//! notation.md section 6 (1-based lines, columns in Unicode scalar values,
//! exclusive ends). In a Word or OpenDocument file the line is the
//! paragraph's number (in the body, or in `file.docx:word/footnotes.xml`)
//! and the column the character in that paragraph; in an EPUB the file is
//! `book.epub:member` and the line and column are in that member.

use std::io::{self, Write};

use serde::Serialize;

use super::check::Checked;

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    severity: &'a str,
    code: &'a str,
    message: &'a str,
    fixes: Vec<JsonFix<'a>>,
}

#[derive(Serialize)]
struct JsonFix<'a> {
    title: &'a str,
    edits: Vec<JsonEdit<'a>>,
    /// The reading the analysis takes (an editor's preferred quick-fix).
    preferred: bool,
    /// A fix with one certain outcome: what `--fix` applies.
    certain: bool,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    new_text: &'a str,
}

pub fn write(out: &mut impl Write, file: &Checked) -> io::Result<()> {
    if file.diagnostics.is_empty() {
        return Ok(());
    }
    // Columns counted in constant time: many findings on one long line
    // would otherwise count its characters again for each.
    let positions = super::output::Positions::of(&file.source);
    let at = |offset: usize| positions.at(offset);
    for d in &file.diagnostics {
        let (line, column) = at(d.span.start);
        let (end_line, end_column) = at(d.span.end);
        let fixes = d
            .fixes
            .iter()
            .map(|f| JsonFix {
                title: &f.title,
                preferred: f.preferred,
                certain: f.certain,
                edits: f
                    .edits
                    .iter()
                    .map(|e| {
                        let (line, column) = at(e.span.start);
                        let (end_line, end_column) = at(e.span.end);
                        JsonEdit { line, column, end_line, end_column, new_text: &e.new_text }
                    })
                    .collect(),
            })
            .collect();
        let json = JsonDiagnostic {
            file: &file.source.name,
            line,
            column,
            end_line,
            end_column,
            severity: d.severity.as_str(),
            code: d.code.as_str(),
            message: &d.message,
            fixes,
        };
        let line = serde_json::to_string(&json).map_err(io::Error::other)?;
        out.write_all(super::output::escape_json(&line).as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
