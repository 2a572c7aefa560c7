//! Notation inside Markdown: the games of a book written in Markdown stand
//! in fenced code blocks (```` ```pgn ```` or ```` ```chess ````, backticks
//! or tildes).
//!
//! A Markdown document is read through a *blanked* copy of its text: every
//! byte outside the chess blocks (prose, other code blocks, the fence lines
//! themselves) becomes a space, line ends stay. The copy has the same length
//! and the same lines as the original, so every byte offset, line and column
//! found in it is a position in the Markdown document as it is: nothing needs
//! mapping back.
//!
//! Blocks and games. A book often breaks one game into several blocks with
//! prose between them (`1. e4 e5 2. Nf3 Nc6 3. Bb5`, a paragraph, then
//! `3... a6 4. Ba4`); an opening book shows several lines that each start
//! from the first move. So a block whose first move number is past White's
//! first move (`3... a6`, `12. Nf3`, `1... e5`) *continues* the game of the
//! block before it; any other block (tags, `1. e4`, a bare move, a FEN
//! setup) starts a new piece, which is parsed on its own.

use std::ops::Range;

use super::split;

/// A fenced block of notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The lines between the fences (from the start of the line after the
    /// opening fence to the start of the closing fence's line, or to the end
    /// of the text when the block is not closed).
    pub content: Range<usize>,
    /// Whether the block continues the game of the block before it.
    pub continues: bool,
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

/// The chess blocks of a Markdown text, in order. Other fenced blocks are
/// skipped whole (a ```` ```pgn ```` line inside a ```` ```markdown ````
/// example is not a block); a block left open runs to the end of the text.
pub fn chess_blocks(text: &str) -> Vec<Block> {
    fences(text).into_iter().filter(|f| f.chess).map(|f| block(text, f.content)).collect()
}

/// Every fenced code block of a Markdown text, in order.
pub fn fences(text: &str) -> Vec<Fence> {
    let mut blocks = Vec::new();
    // The open fence: its character, its length, where its lines start,
    // where its content starts, and whether it is a chess block.
    let mut open: Option<(u8, usize, usize, usize, bool)> = None;
    let mut line_start = 0;
    while line_start < text.len() {
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
                    blocks.push(Fence { lines: lines_start..line_end, content: content_start..line_start, chess });
                    open = None;
                }
            }
        }
        line_start = line_end;
    }
    if let Some((_, _, lines_start, content_start, chess)) = open {
        blocks.push(Fence { lines: lines_start..text.len(), content: content_start..text.len(), chess });
    }
    blocks
}

fn block(text: &str, content: Range<usize>) -> Block {
    let continues = continues(&text[content.clone()]);
    Block { content, continues }
}

/// Whether a block's notation starts past White's first move: its first
/// move number (after blank space and comments) is above 1, or is Black's.
fn continues(content: &str) -> bool {
    let mut rest = content;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix('{') {
            rest = after.find('}').map_or("", |i| &after[i + 1..]);
        } else if rest.starts_with(';') || rest.starts_with('%') {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
        } else {
            break;
        }
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    let number: u64 = rest[..digits].parse().unwrap_or(u64::MAX);
    let marks = rest[digits..].trim_start();
    if marks.starts_with("...") || marks.starts_with('…') {
        return true;
    }
    marks.starts_with('.') && number > 1
}

/// The text the parser reads: every byte outside the blocks' content turned
/// into a space, line ends kept. Same length, same lines, valid UTF-8 (the
/// blocks start and end at line starts).
pub fn blank(text: &str, blocks: &[Block]) -> String {
    let mut out = text.as_bytes().to_vec();
    let mut blank = |range: Range<usize>| {
        for b in &mut out[range] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    };
    let mut at = 0;
    for b in blocks {
        blank(at..b.content.start);
        at = b.content.end;
    }
    blank(at..text.len());
    // Blocks are whole lines, and only ASCII was written elsewhere.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The piece starts of a blanked Markdown text: a block that does not
/// continue the game before it starts a piece, the prose after a run of
/// blocks is a piece of its own (so typing prose parses no game again), and
/// inside each run of blocks pieces start where `split` would start them.
pub fn piece_starts(blanked: &str, blocks: &[Block]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut segment_start = 0;
    let cuts = blocks
        .iter()
        .enumerate()
        .flat_map(|(i, b)| {
            let run_starts = (!b.continues).then_some(b.content.start);
            let run_ends = blocks.get(i + 1).is_none_or(|next| !next.continues).then_some(b.content.end);
            run_starts.into_iter().chain(run_ends)
        })
        .filter(|&s| s > 0 && s < blanked.len());
    for segment_end in cuts.chain(std::iter::once(blanked.len())) {
        split::scan(&blanked[..segment_end], segment_start, |s| {
            starts.push(s);
            true
        });
        if segment_end < blanked.len() {
            starts.push(segment_end);
        }
        segment_start = segment_end;
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOK: &str = "# Chapter 1\n\nAfter 1. e4 the game opens.\n\n```pgn\n[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n```\n\nThe Spanish. Now:\n\n~~~chess\n3... a6 4. Ba4 *\n~~~\n\n```python\n```pgn\nnot chess\n```\n\n```PGN {.game}\n1. d4 d5 *\n```\n";

    #[test]
    fn finds_chess_blocks_only() {
        let blocks = chess_blocks(BOOK);
        let contents: Vec<&str> = blocks.iter().map(|b| &BOOK[b.content.clone()]).collect();
        assert_eq!(contents, ["[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n", "3... a6 4. Ba4 *\n", "1. d4 d5 *\n"]);
        assert_eq!(blocks.iter().map(|b| b.continues).collect::<Vec<_>>(), [false, true, false]);
    }

    #[test]
    fn blanking_keeps_offsets_and_lines() {
        let blocks = chess_blocks(BOOK);
        let blanked = blank(BOOK, &blocks);
        assert_eq!(blanked.len(), BOOK.len());
        assert_eq!(blanked.lines().count(), BOOK.lines().count());
        assert!(!blanked.contains("Chapter") && !blanked.contains("```") && !blanked.contains("not chess"));
        assert!(!blanked.contains("After 1. e4"));
        let at = BOOK.find("3... a6").unwrap();
        assert_eq!(&blanked[at..at + 7], "3... a6");
        // Multi-byte prose keeps its byte length.
        let text = "Шахматы — игра.\n```pgn\n1. e4 *\n```\n";
        let blanked = blank(text, &chess_blocks(text));
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.trim(), "1. e4 *");
    }

    #[test]
    fn continuation_blocks_stay_in_the_piece_before() {
        let blocks = chess_blocks(BOOK);
        let blanked = blank(BOOK, &blocks);
        let starts = piece_starts(&blanked, &blocks);
        let runs = [blocks[0].content.start, blocks[1].content.end, blocks[2].content.start, blocks[2].content.end];
        assert_eq!(starts, [&[0][..], &runs].concat());
    }

    #[test]
    fn open_blocks_run_to_the_end_and_short_fences_do_not_close() {
        let text = "````pgn\n1. e4\n```\ne5\n";
        let blocks = chess_blocks(text);
        assert_eq!(blocks.len(), 1);
        assert_eq!(&text[blocks[0].content.clone()], "1. e4\n```\ne5\n");
        assert!(continues("{ a comment } 12. Nf3"));
        assert!(continues("\n 1... e5"));
        assert!(!continues("1. e4"));
        assert!(!continues("[Event \"x\"]"));
        assert!(!continues("e4 e5"));
    }
}
