//! Prints the findings in the chosen format, file by file, then the
//! summary: on stdout for `human`, on stderr for the machine formats so
//! that stdout holds only JSON Lines, workflow commands or the SARIF log.
//!
//! Names (of files, of zip members), messages (which quote the text and
//! the settings) and excerpts come from the input, so no line written can
//! be trusted to hold what it was given: [`safe_line`] makes each one
//! unable to start another line (`\n`, `\r`, a vertical tab), to send the
//! terminal an escape (ESC, the C1 controls), to reorder what is shown
//! (the bidirectional controls), or to be read by a GitHub Actions runner
//! as a workflow command (`::error::` at a line's start, `##[error]`
//! anywhere in it). JSON and SARIF keep their values whole: the same
//! characters are written as `\u` escapes ([`escape_json`]).

use std::io::{self, BufWriter, IsTerminal, Write};
use std::time::Duration;

use super::check::Checked;
use super::{Format, github, human, json, sarif};
use chess_ls_engine::analysis::Severity;
use chess_ls_engine::ide::line_index::LineIndex;

pub struct Printer {
    format: Format,
    out: BufWriter<Box<dyn Write + Send>>,
    color: bool,
    sarif: sarif::Log,
    /// The first write to stdout that failed (a full disk, a closed pipe).
    failed: Option<io::Error>,
}

impl Printer {
    pub fn new(format: Format) -> Printer {
        let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Printer::to(format, Box::new(io::stdout()), color)
    }

    /// A printer to another writer (the fuzz target of the archive reader
    /// drops the report).
    pub fn to(format: Format, out: Box<dyn Write + Send>, color: bool) -> Printer {
        Printer { format, out: BufWriter::new(out), color, sarif: sarif::Log::default(), failed: None }
    }

    /// Keeps the first error of a write to stdout.
    fn keep(&mut self, result: io::Result<()>) {
        if let Err(e) = result
            && self.failed.is_none()
        {
            self.failed = Some(e);
        }
    }

    /// Prints one file's diagnostics (a SARIF log is printed at the end).
    pub fn file(&mut self, file: &Checked) -> io::Result<()> {
        match self.format {
            Format::Human => human::write(&mut self.out, file, self.color),
            Format::Json => json::write(&mut self.out, file),
            Format::Github => github::write(&mut self.out, file),
            Format::Sarif => {
                self.sarif.add(file);
                Ok(())
            }
        }
    }

    /// Prints what could not be done (on stderr, and in a SARIF log) and
    /// the summary line; returns `status`, or 2 when the report could not
    /// be written (said on stderr).
    pub fn finish(mut self, failures: &[String], summary: &str, status: i32) -> i32 {
        if self.format == Format::Sarif {
            let log = std::mem::take(&mut self.sarif);
            let written = log.write(&mut self.out, failures);
            self.keep(written);
        }
        let flushed = self.out.flush();
        self.keep(flushed);
        for failure in failures {
            say(&format!("error: {failure}"));
        }
        if self.format == Format::Human {
            let written = writeln!(self.out, "{}", safe_line(summary)).and_then(|()| self.out.flush());
            self.keep(written);
        } else {
            say(summary);
        }
        match self.failed.take() {
            Some(e) => output_failed(&e),
            None => status,
        }
    }

    /// Text that goes with the report: on stdout in the human format, on
    /// stderr otherwise.
    pub fn note(&mut self, line: &str) {
        if self.format == Format::Human {
            let written = writeln!(self.out, "{}", safe_line(line));
            self.keep(written);
        } else {
            let flushed = self.out.flush();
            self.keep(flushed);
            say(line);
        }
    }
}

/// Whether a character is one an output line must not carry as it is:
/// the controls but the tab (C0, DEL, C1), the bidirectional controls and
/// marks, and the line and paragraph separators.
fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Text for one line of output: each character [`unsafe_char`] finds is
/// shown as a visible stand-in (a C0 control as its control picture, `␛`
/// for ESC, `␊` for a line feed; the others as U+FFFD), `##[` loses its
/// bracket to `%5B`, and a line that would start with `::` (after blanks)
/// starts with `%3A:` instead (GitHub's escape of a colon).
pub fn safe_line(line: &str) -> std::borrow::Cow<'_, str> {
    let mut out = visible(line);
    let blanks = out.len() - out.trim_start().len();
    if out[blanks..].starts_with("::") {
        out.to_mut().replace_range(blanks..blanks + 1, "%3A");
    }
    out
}

/// Text for a part of a line (a name, a message): what [`safe_line`] does
/// but for the line's start.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(unsafe_char) && !text.contains("##[") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{0}'..='\u{1F}' if c != '\t' => out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{FFFD}')),
            '\u{7F}' => out.push('\u{2421}'),
            c if unsafe_char(c) => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out.replace("##[", "##%5B"))
}

/// Each line of a text made a [`safe_line`].
pub fn safe_lines(text: &str) -> String {
    text.split('\n').map(safe_line).collect::<Vec<_>>().join("\n")
}

/// Says a line on stderr, made a [`safe_line`] (a file's name, a member's,
/// a settings value may hold anything).
pub fn say(line: &str) {
    eprintln!("{}", safe_line(line));
}

/// Serialized JSON with the characters [`unsafe_char`] finds that JSON
/// leaves as they are (C1 controls, bidirectional controls, separators;
/// serde_json escapes the C0 ones), and the `[` of `##[`, written as `\u`
/// escapes: the same values, but nothing a terminal or a runner acts on.
pub fn escape_json(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.chars().any(unsafe_char) && !json.contains("##[") {
        return std::borrow::Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if unsafe_char(c) && c != '\n' {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    // `[` after `##` is only ever inside a string here (JSON's own brackets
    // follow no `#`): the same value, not a workflow command.
    std::borrow::Cow::Owned(out.replace("##[", "##\\u005b"))
}

/// The exit status of a run whose output could not be written: 2, with a
/// message on stderr (not for a closed pipe, as in `chess-ls ... | head`,
/// where the reader has all it wanted).
pub fn output_failed(e: &io::Error) -> i32 {
    if e.kind() != io::ErrorKind::BrokenPipe {
        say(&format!("error: cannot write the output: {e}"));
    }
    2
}

/// What a run found, for the summary line and the exit status.
#[derive(Default)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Files that could not be read (or written, in the modes that write).
    pub failures: usize,
    /// What happened to them: "could not be read" unless set.
    pub failure_note: Option<&'static str>,
    pub elapsed: Duration,
}

impl Summary {
    pub fn add(&mut self, file: &Checked) {
        if !file.continued {
            self.files += 1;
        }
        self.games += file.games;
        self.errors += file.count(Severity::Error);
        self.warnings += file.count(Severity::Warning);
    }

    /// `checked 3 files, 12 games: 1 error, 2 warnings in 0.42 s`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "checked {}, {}: {}, {}",
            plural(self.files, "file"),
            plural(self.games, "game"),
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        );
        if self.failures > 0 {
            let note = self.failure_note.unwrap_or("could not be read");
            s.push_str(&format!("; {} {note}", plural(self.failures, "file")));
        }
        s.push_str(&format!(" in {:.2} s", self.elapsed.as_secs_f64()));
        s
    }

    /// 2 if the run failed somewhere, else 1 if there are errors, else 0.
    pub fn exit_status(&self) -> i32 {
        if self.failures > 0 {
            2
        } else if self.errors > 0 {
            1
        } else {
            0
        }
    }
}

pub fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") }
}

/// 1-based lines and columns (in Unicode scalar values) of byte offsets,
/// each in time independent of the length of its line: the characters
/// before every 4 KiB block of the text are counted once, so that a report
/// of many findings on one long line (a whole file on one line) is not
/// quadratic in its length.
pub struct Positions<'a> {
    text: &'a str,
    index: LineIndex,
    /// The characters before the start of each block (block `k` starts at
    /// the character boundary at or before `k * BLOCK`).
    chars: Vec<usize>,
    /// The lines of the file before the text (a batch of a stream).
    first_line: usize,
}

const BLOCK: usize = 4096;

impl<'a> Positions<'a> {
    pub fn new(text: &'a str) -> Positions<'a> {
        let mut chars = Vec::with_capacity(text.len() / BLOCK + 1);
        let mut count = 0;
        let mut start = 0;
        for k in 0..=text.len() / BLOCK {
            let at = text.floor_char_boundary(k * BLOCK);
            count += text[start..at].chars().count();
            chars.push(count);
            start = at;
        }
        Positions { text, index: LineIndex::new(text), chars, first_line: 0 }
    }

    /// The positions of a source's text in its file (a batch of a stream
    /// starts at a line start, after `first_line` lines).
    pub fn of(source: &'a super::sources::Source) -> Positions<'a> {
        Positions { first_line: source.first_line, ..Positions::new(&source.text) }
    }

    pub fn index(&self) -> &LineIndex {
        &self.index
    }

    /// The characters before `offset` (a character boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let k = offset / BLOCK;
        let start = self.text.floor_char_boundary(k * BLOCK);
        self.chars[k] + self.text[start..offset].chars().count()
    }

    /// The 1-based line and column of a byte offset (as
    /// `LineIndex::position` with `Unit::Char`, plus one).
    pub fn at(&self, offset: usize) -> (usize, usize) {
        let offset = self.text.floor_char_boundary(offset.min(self.text.len()));
        let line = self.index.line_of(offset);
        let start = self.index.line_start(line).unwrap_or(0);
        (self.first_line + line + 1, self.chars_before(offset) - self.chars_before(start) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess_ls_engine::ide::line_index::Unit;

    #[test]
    fn no_line_can_forge_another_or_a_command_or_an_escape() {
        assert_eq!(safe_line("a.pgn:1:2: fixed"), "a.pgn:1:2: fixed");
        assert_eq!(safe_line("x\n::error::forged"), "x␊::error::forged");
        assert_eq!(safe_line("x\r::error::forged"), "x␍::error::forged");
        assert_eq!(safe_line("  ::error::forged"), "  %3A:error::forged");
        assert_eq!(safe_line("name ##[error]forged"), "name ##%5Berror]forged");
        assert_eq!(safe_line("\u{1b}[31mred\u{9b}31m \u{202e}gnp.exe"), "␛[31mred\u{FFFD}31m \u{FFFD}gnp.exe");
        assert_eq!(safe_line("tab\tstays"), "tab\tstays");
        let json = serde_json::to_string("\u{1b}\u{85}\u{202e}\u{2028}").unwrap();
        let escaped = escape_json(&json);
        assert_eq!(escaped, "\"\\u001b\\u0085\\u202e\\u2028\"");
        assert_eq!(serde_json::from_str::<String>(&escaped).unwrap(), "\u{1b}\u{85}\u{202e}\u{2028}");
    }

    #[test]
    fn positions_agree_with_the_line_index() {
        let line = "1. e4 e5 2. Кf3 Кc6 ♘ 😀 ".repeat(700);
        let text = format!("{line}\n\n{line}\r\nx");
        let positions = Positions::new(&text);
        let index = LineIndex::new(&text);
        for offset in (0..=text.len() + 3).step_by(7) {
            let (line, column) = index.position(&text, offset, Unit::Char);
            assert_eq!(positions.at(offset), (line + 1, column + 1), "at {offset}");
        }
    }
}
