//! Splits a large text into pieces that parse to the same games as the
//! whole, so that several threads can parse one big file.
//!
//! A piece starts where a tag section starts: a line beginning with `[`,
//! outside any comment or variation, after a line that is not a tag. The
//! grammar never continues a game's movetext into a following tag section,
//! so the games of the pieces are exactly the games of the whole.

use std::ops::Range;

/// Pieces of at least `min_len` bytes (except the last), covering the text.
pub fn split_at_games(text: &str, min_len: usize) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut brace = false;
    let mut paren_depth: usize = 0;
    let mut line_is_tag = false;
    let mut prev_line_is_tag;
    let mut at_line_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if at_line_start {
            prev_line_is_tag = line_is_tag;
            line_is_tag = b == b'[' && !brace;
            if b == b'['
                && !brace
                && paren_depth == 0
                && !prev_line_is_tag
                && i - start >= min_len
            {
                pieces.push(start..i);
                start = i;
            }
            if b == b'%' && !brace {
                // An escape line: skip it whole.
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            // A blank line keeps the previous line's kind only if it is a
            // tag line (ChessBase writes empty lines inside tag sections).
            if b == b'\n' || b == b'\r' {
                line_is_tag = prev_line_is_tag;
            }
        }
        at_line_start = false;
        match b {
            b'{' if !brace => brace = true,
            b'}' if brace => brace = false,
            b';' if !brace => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' if !brace => paren_depth += 1,
            b')' if !brace => paren_depth = paren_depth.saturating_sub(1),
            b'\n' => at_line_start = true,
            b'\r' => at_line_start = bytes.get(i + 1) != Some(&b'\n'),
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() || pieces.is_empty() {
        pieces.push(start..bytes.len());
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_before_tag_sections_only() {
        let text = "[Event \"a\"]\n\n[Site \"b\"]\n1. e4 { [not a tag\n[Event] } e5 *\n\n[Event \"c\"]\n1. d4 *\n";
        let pieces = split_at_games(text, 1);
        let starts: Vec<&str> = pieces.iter().map(|r| &text[r.start..r.start + 8]).collect();
        assert_eq!(starts, ["[Event \"", "[Event \""]);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].end, pieces[1].start);
        assert_eq!(pieces[1].end, text.len());
    }

    #[test]
    fn small_texts_stay_whole() {
        let text = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n";
        assert_eq!(split_at_games(text, 1 << 20), vec![0..text.len()]);
    }
}
