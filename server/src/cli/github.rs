//! `--format github`: GitHub Actions workflow commands, one per diagnostic,
//! which GitHub shows as annotations on the files of a pull request:
//!
//! ```text
//! ::error file=games/ru.pgn,line=6,col=47,endLine=6,endColumn=51,title=illegal-move::Кxf8 is illegal: ...
//! ```
//!
//! Lines and columns are 1-based, columns in Unicode characters, ends
//! exclusive (as in the JSON). Errors are `::error`, warnings `::warning`,
//! infos and hints `::notice`. The suggested fixes follow the message, one
//! per line. Values are escaped as the runner unescapes them: `%`, `\r` and
//! `\n` everywhere, and `:` and `,` in properties too.

use std::io::{self, Write};

use super::check::Checked;
use chess_ls_engine::analysis::Severity;

pub fn write(out: &mut impl Write, file: &Checked) -> io::Result<()> {
    if file.diagnostics.is_empty() {
        return Ok(());
    }
    let positions = super::output::Positions::of(&file.source);
    let at = |offset: usize| positions.at(offset);
    for d in &file.diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info | Severity::Hint => "notice",
        };
        let (line, column) = at(d.span.start);
        let (end_line, end_column) = at(d.span.end);
        let mut message = d.message.clone();
        for fix in &d.fixes {
            message.push_str("\nfix: ");
            message.push_str(&fix.title);
        }
        writeln!(
            out,
            "::{command} file={},line={line},col={column},endLine={end_line},endColumn={end_column},title={}::{}",
            escape_property(&file.source.name),
            escape_property(d.code.as_str()),
            escape_data(&message)
        )?;
    }
    Ok(())
}

/// The message of a command: `%`, `\r` and `\n` are percent-encoded, and
/// the other characters a line must not carry are shown visibly
/// (`super::output::visible`: ESC, bidirectional controls, `##[`).
pub fn escape_data(s: &str) -> String {
    let s = s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    super::output::visible(&s).into_owned()
}

/// A property value: as data, and `:` and `,` too, which separate
/// properties.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(escape_data("100% sure\r\nfix: a, b"), "100%25 sure%0D%0Afix: a, b");
        assert_eq!(escape_property("C:\\games, old\n%.pgn"), "C%3A\\games%2C old%0A%25.pgn");
        assert_eq!(escape_data("\u{1b}[2J ##[error]x \u{202e}"), "␛[2J ##%5Berror]x \u{FFFD}");
    }
}
