//! `--format human`: rustc-style reports with the source line, a caret
//! under the exact token, the message and the fixes.

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Group, Level, Patch, Renderer, Snippet};

use super::check::Checked;
use chess_ls_engine::analysis::Severity;

/// Lines longer than this (a whole file on one line) are shown without the
/// patched copy of the line under a fix, which would repeat all of it, and
/// only [`WINDOW`] bytes of them either side of the finding are handed to
/// the renderer, which takes time in the length of what it is given (on a
/// 200 KB line with thousands of findings, a report quadratic in the line).
const LONG_EXCERPT: usize = 1000;

/// How much of a long line is shown either side of a finding, in bytes.
const WINDOW: usize = 160;

pub fn write(out: &mut impl Write, file: &Checked, color: bool) -> io::Result<()> {
    if file.diagnostics.is_empty() {
        return Ok(());
    }
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let text = &file.source.text;
    let positions = super::output::Positions::of(&file.source);
    let base = file.source.first_line;
    let index = positions.index();
    // Names and messages come from the input: shown without a character
    // that would start a line or act on the terminal (the renderer shows
    // the source's own controls as pictures, but not those of titles and
    // paths).
    let name = super::output::visible(&file.source.name);
    for d in &file.diagnostics {
        let message = super::output::visible(&d.message);
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
        let long = to - from > LONG_EXCERPT;
        // A window of a long line around the finding (its start, and at
        // most WINDOW bytes of it), with the position said in the header.
        let (from, to) = if long {
            let end = d.span.end.min(d.span.start + WINDOW);
            (
                text.floor_char_boundary(d.span.start.saturating_sub(WINDOW).max(from)),
                text.ceil_char_boundary((end + WINDOW).min(to)),
            )
        } else {
            (from, to)
        };
        let excerpt = &text[from..to];
        let local = |r: &std::ops::Range<usize>| r.start.clamp(from, to) - from..r.end.clamp(from, to) - from;
        let (line, column) = positions.at(d.span.start);
        let level = match d.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Info => Level::INFO,
            Severity::Hint => Level::HELP,
        };
        let mut groups: Vec<Group<'_>> = vec![
            level.primary_title(message.as_ref()).id(d.code.as_str()).element(
                Snippet::source(excerpt)
                    .line_start(base + index.line_of(from) + 1)
                    .path(name.as_ref())
                    .annotation(AnnotationKind::Primary.span(local(&d.span))),
            ),
        ];
        for fix in &d.fixes {
            // `certain`: the fix --fix applies; `likely`: the reading the
            // replay went on with, which is still a guess (an illegal move).
            let fix_title = super::output::visible(&fix.title);
            let title = if fix.certain {
                format!("fix: {fix_title} (certain)")
            } else if fix.preferred {
                format!("fix: {fix_title} (likely)")
            } else {
                format!("fix: {fix_title}")
            };
            if long {
                // The renderer trims a long line around an annotation, but
                // prints a patched line whole: the title says it all.
                groups.push(Group::with_title(Level::HELP.secondary_title(title)));
                continue;
            }
            let mut snippet = Snippet::source(excerpt).line_start(base + first_line + 1).path(name.as_ref());
            for e in &fix.edits {
                snippet = snippet.patch(Patch::new(local(&e.span), e.new_text.as_str()));
            }
            groups.push(Level::HELP.secondary_title(title).element(snippet));
        }
        let mut report = renderer.render(&groups);
        if long {
            // The renderer counts the column from the window's start; the
            // header says where the finding is in its line.
            let shown_from = from.max(index.line_start(line - base - 1).unwrap_or(0));
            let shown = text[shown_from..d.span.start.clamp(shown_from, to)].chars().count() + 1;
            report = report.replacen(&format!("{name}:{line}:{shown}"), &format!("{name}:{line}:{column}"), 1);
        }
        // Without colours (a log, a pipe), every line is checked once more:
        // a patched line shows the fix's new text, and no line may be read
        // as a workflow command. (With colours, the renderer's own escapes
        // are wanted, and what came from the input was made visible above.)
        if !color {
            report = super::output::safe_lines(&report);
        }
        writeln!(out, "{report}\n")?;
    }
    Ok(())
}
