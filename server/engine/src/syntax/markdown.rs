//! The fenced code blocks of Markdown, and which of them hold chess
//! (```` ```pgn ```` or ```` ```chess ````, backticks or tildes).
//!
//! A Markdown document is a manuscript (`super::manuscript`): its chess
//! blocks are notation kept whole, its prose is searched for runs of moves,
//! and its other code blocks are neither. A block's games start where the
//! manuscript says: a block that starts past White's first move (`3...
//! a6`) goes on from the game before it, which `analysis::manuscript`
//! decides like any run's start.

use std::ops::Range;

/// A fenced code block of any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// From the opening fence's line to the end of the closing fence's line
    /// (or of the text, when the block is not closed).
    pub lines: Range<usize>,
    /// The lines between the fences.
    pub content: Range<usize>,
    /// Whether its info string says chess (`pgn`, `chess`).
    pub chess: bool,
}

/// The info-string languages read as chess notation.
fn is_chess(info: &str) -> bool {
    let word = info.split(|c: char| c.is_whitespace() || c == '{' || c == ',').next().unwrap_or("");
    word.eq_ignore_ascii_case("pgn") || word.eq_ignore_ascii_case("chess")
}

/// A fence line: its character, the length of its run and the rest of the
/// line.
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let c = *trimmed.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let run = trimmed.bytes().take_while(|&b| b == c).count();
    if run < 3 {
        return None;
    }
    Some((c, run, &trimmed[run..]))
}

/// Every fenced code block of a Markdown text, in order. A fence closes
/// only with the same character and at least as long a run (a ```` ```pgn
/// ```` line inside a ```` ```markdown ```` example is not a block); a block
/// left open runs to the end of the text.
pub fn fences(text: &str) -> Vec<Fence> {
    read_from(text, 0, usize::MAX, |_| false).fences
}

/// The markup of a Markdown text read from a line on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    pub fences: Vec<Fence>,
    /// HTML comments (`<!--` to `-->`, or to the end), inside chess
    /// blocks too.
    pub comments: Vec<Range<usize>>,
    /// The line starts outside every block and comment: reading may start
    /// again at any of them, since what follows one depends only on the
    /// text after it (a fence is a whole line; a comment's `<!--` cannot
    /// hold a line end).
    pub lines: Vec<usize>,
    /// Where reading stopped.
    pub end: usize,
}

/// Reads the fenced blocks and comments of `text` from `from` (a line start
/// outside every block and comment) up to the first such line start at or
/// after `stop_from` that `stop` accepts, or the end.
pub fn read_from(text: &str, from: usize, stop_from: usize, stop: impl Fn(usize) -> bool) -> Reading {
    let comment_at = |at: usize| -> Option<Range<usize>> {
        let start = at + text[at..].find("<!--")?;
        let end = text[start..].find("-->").map_or(text.len(), |k| start + k + 3);
        Some(start..end)
    };
    let mut reading = Reading::default();
    let mut comment = comment_at(from);
    // The open fence: its character, its length, where its lines start,
    // where its content starts, and whether it is a chess block.
    let mut open: Option<(u8, usize, usize, usize, bool)> = None;
    let mut line_start = from;
    while line_start < text.len() {
        while let Some(c) = comment.clone().filter(|c| c.end <= line_start) {
            comment = comment_at(c.end);
            reading.comments.push(c);
        }
        if open.is_none() && comment.as_ref().is_none_or(|c| c.start >= line_start) {
            if line_start >= stop_from && stop(line_start) {
                reading.end = line_start;
                return reading;
            }
            reading.lines.push(line_start);
        }
        let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i + 1);
        let line = text[line_start..line_end].trim_end_matches(['\n', '\r']);
        match open {
            None => {
                if let Some((c, run, info)) = fence(line)
                    && !(c == b'`' && info.contains('`'))
                {
                    open = Some((c, run, line_start, line_end, is_chess(info.trim())));
                }
            }
            Some((c, run, lines_start, content_start, chess)) => {
                if let Some((c2, run2, rest)) = fence(line)
                    && c2 == c
                    && run2 >= run
                    && rest.trim().is_empty()
                {
                    let fence = Fence { lines: lines_start..line_end, content: content_start..line_start, chess };
                    reading.fences.push(fence);
                    open = None;
                }
            }
        }
        line_start = line_end;
    }
    if let Some((_, _, lines_start, content_start, chess)) = open {
        reading.fences.push(Fence { lines: lines_start..text.len(), content: content_start..text.len(), chess });
    }
    while let Some(c) = comment {
        comment = comment_at(c.end);
        reading.comments.push(c);
    }
    reading.end = text.len();
    reading
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = "# Chapter 1\n\nAfter 1. e4 the game opens.\n\n```pgn\n[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n```\n\nThe Spanish. Now:\n\n~~~chess\n3... a6 4. Ba4 *\n~~~\n\n```python\n```pgn\nnot chess\n```\n\n```PGN {.game}\n1. d4 d5 *\n```\n";

    #[test]
    fn finds_every_block_and_the_chess_ones() {
        let fences = fences(BOOK);
        let chess: Vec<&str> = fences.iter().filter(|f| f.chess).map(|f| &BOOK[f.content.clone()]).collect();
        assert_eq!(chess, ["[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n", "3... a6 4. Ba4 *\n", "1. d4 d5 *\n"]);
        // The Python block holds the ```pgn line.
        let python = fences.iter().find(|f| !f.chess).unwrap();
        assert_eq!(&BOOK[python.content.clone()], "```pgn\nnot chess\n");
        assert!(BOOK[python.lines.clone()].starts_with("```python\n") && BOOK[python.lines.clone()].ends_with("```\n"));
    }

    #[test]
    fn open_blocks_run_to_the_end_and_short_fences_do_not_close() {
        let text = "````pgn\n1. e4\n```\ne5\n";
        let fences = fences(text);
        assert_eq!(fences.len(), 1);
        assert_eq!(&text[fences[0].content.clone()], "1. e4\n```\ne5\n");
        assert!(!is_chess("python"));
        assert!(is_chess("chess {.game}"));
    }
}
