//! Cuts a text into pieces that each hold whole games, so that every piece
//! parses on its own: by several threads in the CLI, and again alone after
//! an edit in the language server, whatever the size of the document.
//!
//! A piece starts at the start of the text, wherever a tag section starts
//! (a line beginning with `[`, outside any comment or variation, after a
//! line that is not a tag), and right after a result that ends a game of
//! bare movetext (`1-0`, `0-1`, `1/2-1/2`, `*` standing alone, outside
//! comments, variations and tags, on a line that is not a tag line, and not
//! followed by a tag section or the end of the text, where the next piece
//! would hold nothing). The grammar never continues a game's movetext into
//! a following tag section, nor past its result, so cutting there keeps
//! games whole; a damaged game cannot spill into the next piece; and a
//! document of bare games (10 MB of them on one line) is cut game by game
//! as a database with tags is.
//!
//! The scanner's state at a piece start is always the same (outside
//! comments, variations and tags, on a line that is not a tag line; at a
//! line start exactly when the byte before ends a line), so a rescan that
//! begins at a piece start and reaches an old piece start has found every
//! later boundary already: edits rescan only locally. What decides a cut
//! after a result reaches past it only over blanks to the next character
//! (the editor's document rescans from the piece before an edit there).

use std::ops::Range;

/// The starts of the pieces of `text` (the first is 0).
pub fn section_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    scan(text, 0, |start| {
        starts.push(start);
        true
    });
    starts
}

/// Pieces of at least `min_len` bytes (except the last), covering the text:
/// consecutive pieces joined into work units for threads.
pub fn split_at_games(text: &str, min_len: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for boundary in section_starts(text).into_iter().skip(1) {
        if boundary - start >= min_len {
            out.push(start..boundary);
            start = boundary;
        }
    }
    out.push(start..text.len());
    out
}

/// The bytes that are all alike to [`scan`] inside a line: all but the ones
/// in `special` (and a line's end).
const fn plain_except(special: &[u8]) -> [bool; 256] {
    let mut plain = [true; 256];
    plain[b'\n' as usize] = false;
    plain[b'\r' as usize] = false;
    let mut i = 0;
    while i < special.len() {
        plain[special[i] as usize] = false;
        i += 1;
    }
    plain
}

/// Outside comments: what opens a comment, a variation or a tag pair in
/// the movetext, or closes one, and the bytes a result may hold at its
/// middle or end (`-`, `*`).
const PLAIN: [bool; 256] = plain_except(b"{;()[]-*");
/// Inside a `{}` comment: only its end.
const PLAIN_IN_COMMENT: [bool; 256] = plain_except(b"}");

/// Scans `text` from `from` (which must be a piece start or 0) and calls
/// `found` with each later piece start, until it returns `false` or the
/// text ends.
pub fn scan(text: &str, from: usize, mut found: impl FnMut(usize) -> bool) {
    let bytes = text.as_bytes();
    let mut brace = false;
    let mut paren_depth: usize = 0;
    // Inside a tag pair that stands in the movetext (`1-0` may be a word of
    // its value).
    let mut in_tag = false;
    let mut line_is_tag = false;
    let mut at_line_start = from == 0 || ends_line(bytes, from - 1);
    let mut i = from;
    while i < bytes.len() {
        if !at_line_start {
            // Most bytes mean nothing to the scan: skip them at once (this
            // runs over every byte of every file the checker reads).
            let plain = if brace { &PLAIN_IN_COMMENT } else { &PLAIN };
            while i < bytes.len() && plain[bytes[i] as usize] {
                i += 1;
            }
            if i == bytes.len() {
                break;
            }
        }
        let b = bytes[i];
        if at_line_start {
            let prev_line_is_tag = line_is_tag;
            line_is_tag = b == b'[' && !brace;
            if line_is_tag && paren_depth == 0 && !prev_line_is_tag && i > from && !found(i) {
                return;
            }
            in_tag = false;
            if b == b'%' && !brace {
                // An escape line: skip it whole.
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                line_is_tag = prev_line_is_tag;
                continue;
            }
            // A blank line keeps the previous line's kind, so that the
            // empty lines ChessBase writes inside tag sections do not cut.
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
            b'[' if !brace => in_tag = true,
            b']' if !brace => in_tag = false,
            b'-' | b'*' if !brace && !in_tag && !line_is_tag && paren_depth == 0 => {
                if let Some(end) = result_ending_at(bytes, i)
                    && end > from
                    && cuts_after_result(bytes, end)
                    && !found(end)
                {
                    return;
                }
            }
            b'\n' => at_line_start = true,
            b'\r' => at_line_start = bytes.get(i + 1) != Some(&b'\n'),
            _ => {}
        }
        i += 1;
    }
}

/// Whether the byte at `i` ends a line (`\n`, or a `\r` not followed by
/// `\n`).
fn ends_line(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b'\n' => true,
        b'\r' => bytes.get(i + 1) != Some(&b'\n'),
        _ => false,
    }
}

/// Where a result standing alone ends, if the `-` or `*` at `i` is in one:
/// `1-0`, `0-1` and `1/2-1/2` (at their dash; the draw at its second) or
/// `*`, with a blank (or the text's start) before and a blank (or the
/// text's end) after.
fn result_ending_at(bytes: &[u8], i: usize) -> Option<usize> {
    let blank = |j: usize| j >= bytes.len() || bytes[j].is_ascii_whitespace();
    let before = |start: usize| start == 0 || blank(start - 1);
    let at = |start: usize, word: &[u8]| bytes.get(start..start + word.len()) == Some(word);
    let (start, end) = match bytes[i] {
        b'*' => (i, i + 1),
        _ if i >= 1 && (at(i - 1, b"1-0") || at(i - 1, b"0-1")) => (i - 1, i + 2),
        _ if i >= 3 && at(i - 3, b"1/2-1/2") => (i - 3, i + 4),
        _ => return None,
    };
    (before(start) && blank(end)).then_some(end)
}

/// Whether a piece starts after the result that ends at `end`: something
/// other than a tag section follows it (a tag section is a piece start of
/// its own, and at the text's end there is nothing to start).
fn cuts_after_result(bytes: &[u8], end: usize) -> bool {
    let mut j = end;
    let mut new_line = false;
    while j < bytes.len() && bytes[j].is_ascii_whitespace() {
        new_line |= matches!(bytes[j], b'\n' | b'\r');
        j += 1;
    }
    j < bytes.len() && !(new_line && bytes[j] == b'[')
}

/// Cuts `range`, a piece of `text`, into parts of at least `min_len` bytes
/// (except the last) that end right after a result (`1-0`, `0-1`,
/// `1/2-1/2`, `*` standing alone, outside comments, variations and tags),
/// where the grammar ends a game. A piece is cut only at tag sections, so
/// bare games (or a whole file on one line) make one piece; parsed at once,
/// its tree and games take some 200 times its text in memory. The checker
/// cuts such pieces further so that its memory stays bounded whatever the
/// file. (The language server keeps the pieces of [`section_starts`], whose
/// boundaries an edit can find again locally.)
pub fn cut_after_results(text: &str, range: Range<usize>, min_len: usize) -> Vec<Range<usize>> {
    if range.len() <= min_len {
        return vec![range];
    }
    let bytes = &text.as_bytes()[..range.end];
    let blank = |i: usize| i >= bytes.len() || bytes[i].is_ascii_whitespace();
    let mut out = Vec::new();
    let mut start = range.start;
    let (mut brace, mut tag, mut paren_depth) = (false, false, 0usize);
    let mut i = range.start;
    while i < bytes.len() {
        let b = bytes[i];
        if brace {
            brace = b != b'}';
        } else if tag {
            tag = !matches!(b, b']' | b'\n');
        } else {
            match b {
                b'{' => brace = true,
                b'[' => tag = true,
                b'(' => paren_depth += 1,
                b')' => paren_depth = paren_depth.saturating_sub(1),
                b';' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'%' if i == 0 || bytes[i - 1] == b'\n' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'*' | b'0' | b'1' if paren_depth == 0 && (i == range.start || blank(i - 1)) => {
                    let rest = &bytes[i..];
                    let len = [&b"1/2-1/2"[..], b"1-0", b"0-1", b"*"]
                        .iter()
                        .find(|r| rest.starts_with(r))
                        .map_or(0, |r| r.len());
                    if len > 0 && blank(i + len) {
                        i += len;
                        if i - start >= min_len && i < range.end {
                            out.push(start..i);
                            start = i;
                        }
                        continue;
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    out.push(start..range.end);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_before_tag_sections_only() {
        let text = "[Event \"a\"]\n\n[Site \"b\"]\n1. e4 { [not a tag\n[Event] } e5 *\n\n[Event \"c\"]\n1. d4 (1. e4\n[x]) *\n";
        let starts = section_starts(text);
        assert_eq!(starts, [0, text.find("[Event \"c\"]").unwrap()]);
        let pieces = split_at_games(text, 1);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[1].end, text.len());
    }

    #[test]
    fn small_pieces_join_into_work_units() {
        let text = "[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n";
        assert_eq!(section_starts(text).len(), 2);
        assert_eq!(split_at_games(text, 1 << 20), vec![0..text.len()]);
    }

    #[test]
    fn long_pieces_are_cut_after_results_only() {
        let text = "1. e4 e5 * 1. d4 {* 1-0} (1... d5 *) d5 1-0 [Result \"0-1\"] 1. c4 0-1\n1/2-1/2";
        let parts = cut_after_results(text, 0..text.len(), 1);
        let texts: Vec<&str> = parts.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(
            texts,
            ["1. e4 e5 *", " 1. d4 {* 1-0} (1... d5 *) d5 1-0", " [Result \"0-1\"] 1. c4 0-1", "\n1/2-1/2"]
        );
        assert_eq!(cut_after_results(text, 0..text.len(), 30).len(), 2);
        assert_eq!(cut_after_results(text, 0..text.len(), text.len()), vec![0..text.len()]);
    }

    #[test]
    fn bare_games_are_cut_after_their_results() {
        let text = "1. e4 e5 1-0 1. d4 {* 1-0} (1... d5 *) d5 0-1 1. c4 [X \"a 1-0 b\"] c5 1/2-1/2\n1. f4 * \n\n[Event \"x\"]\n1. g3 *";
        let starts = section_starts(text);
        let pieces: Vec<&str> =
            starts.iter().zip(starts.iter().skip(1).chain([&text.len()])).map(|(&a, &b)| &text[a..b]).collect();
        assert_eq!(
            pieces,
            [
                "1. e4 e5 1-0",
                " 1. d4 {* 1-0} (1... d5 *) d5 0-1",
                " 1. c4 [X \"a 1-0 b\"] c5 1/2-1/2",
                "\n1. f4 * \n\n",
                "[Event \"x\"]\n1. g3 *"
            ]
        );
        // A result glued to a word, or on a tag line, cuts nothing.
        assert_eq!(section_starts("1. e4 e51-0 2. d4 *x 3. c4 * 4. d4"), [0, "1. e4 e51-0 2. d4 *x 3. c4 *".len()]);
        assert_eq!(section_starts("[Result \"1-0\"] [Event \"a * b\"]\n1. e4 *"), [0]);
    }

    #[test]
    fn a_rescan_from_a_piece_start_finds_the_same_boundaries() {
        let text = "1. e4 *\n[A \"1\"]\n1. d4 * 1. e4 1-0\r\n1. c4 0-1\r1. f4 *\n\n[B \"2\"]\n%x\n[C \"3\"]\n1. c4 *\n";
        assert_eq!(section_starts(text).len(), 6);
        let starts = section_starts(text);
        for &from in &starts {
            let mut again = Vec::new();
            scan(text, from, |s| {
                again.push(s);
                true
            });
            let expected: Vec<usize> = starts.iter().copied().filter(|&s| s > from).collect();
            assert_eq!(again, expected);
        }
    }
}
