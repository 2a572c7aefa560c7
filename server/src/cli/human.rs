//! `--format human`: rustc-style reports with the source line, a caret
//! under the exact token, the message and the fixes.

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Patch, Renderer, Snippet};

use super::check::Checked;
use crate::analysis::Severity;
use crate::ide::line_index::LineIndex;

/// Lines longer than this (a whole file on one line) are shown without the
/// patched copy of the line under a fix, which would repeat all of it.
const LONG_EXCERPT: usize = 1000;

pub fn write(out: &mut impl Write, file: &Checked, color: bool) -> io::Result<()> {
    if file.diagnostics.is_empty() {
        return Ok(());
    }
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let text = &file.source.text;
    let index = LineIndex::new(text);
    for d in &file.diagnostics {
        // Only the lines the diagnostic and its fixes touch are handed to
        // the renderer, so a report costs the same in a 100 MB file.
        let mut start = d.span.start;
        let mut end = d.span.end;
        for e in d.fixes.iter().flat_map(|f| &f.edits) {
            start = start.min(e.span.start);
            end = end.max(e.span.end);
        }
        let first_line = index.line_of(start);
        let last_line = index.line_of(end);
        let from = index.line_start(first_line).unwrap_or(0);
        let to = index.line_range(text, last_line).end;
        let excerpt = &text[from..to];
        let local = |r: &std::ops::Range<usize>| r.start - from..r.end - from;
        let level = match d.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Info => Level::INFO,
            Severity::Hint => Level::HELP,
        };
        let mut groups: Vec<Group<'_>> = vec![
            level.primary_title(d.message.as_str()).id(d.code.as_str()).element(
                Snippet::source(excerpt)
                    .line_start(first_line + 1)
                    .path(file.source.name.as_str())
                    .annotation(AnnotationKind::Primary.span(local(&d.span))),
            ),
        ];
        for fix in &d.fixes {
            // `certain`: the fix --fix applies; `likely`: the reading the
            // replay went on with, which is still a guess (an illegal move).
            let title = if fix.certain {
                format!("fix: {} (certain)", fix.title)
            } else if fix.preferred {
                format!("fix: {} (likely)", fix.title)
            } else {
                format!("fix: {}", fix.title)
            };
            if excerpt.len() > LONG_EXCERPT {
                // The renderer trims a long line around an annotation, but
                // prints a patched line whole: the title says it all.
                groups.push(Group::with_title(Level::HELP.secondary_title(title)));
                continue;
            }
            let mut snippet = Snippet::source(excerpt).line_start(first_line + 1).path(file.source.name.as_str());
            for e in &fix.edits {
                snippet = snippet.patch(Patch::new(local(&e.span), e.new_text.as_str()));
            }
            groups.push(Level::HELP.secondary_title(title).element(snippet));
        }
        writeln!(out, "{}\n", renderer.render(&groups))?;
    }
    Ok(())
}
