//! A unified diff made from the ranges known to differ (those of `--fix`'s
//! edits), in time linear in the texts: comparing the texts line by line
//! (Myers' algorithm, as `similar` does) is quadratic when many lines
//! changed, and the edits already say which did.
//!
//! The output is that of `similar`'s unified diff of lines (GNU diff's
//! format): three lines of context, hunks joined when at most six equal
//! lines part them, lines ended by `\n`, `\r\n` or a lone `\r`, and
//! `\ No newline at end of file` after a last line without an end.

use std::fmt::Write;
use std::ops::Range;

/// How many equal lines are shown around a change.
const CONTEXT: usize = 3;

/// The lines of a text as `similar` splits them: their starts, then the
/// text's length (for an empty text, `[0]`: no line).
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while let Some(at) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            let at = i + at;
            i = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') { at + 2 } else { at + 1 };
            if i < bytes.len() {
                starts.push(i);
            }
        }
        if !text.is_empty() {
            starts.push(text.len());
        }
        Lines { text, starts }
    }

    /// How many lines.
    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// The start of the line that an edit at `offset` touches (the text's
    /// end after a last line that has its end).
    fn start_at(&self, offset: usize) -> usize {
        if offset >= self.text.len() && (self.text.is_empty() || self.text.ends_with(['\n', '\r'])) {
            return self.text.len();
        }
        self.starts[self.starts[..self.count()].partition_point(|&s| s <= offset) - 1]
    }

    /// Whether `offset` is a line start or the text's end.
    fn is_start(&self, offset: usize) -> bool {
        self.starts.binary_search(&offset).is_ok()
    }

    /// The start of the line after the one holding `offset`.
    fn next_start(&self, offset: usize) -> usize {
        self.starts[self.starts[..self.count()].partition_point(|&s| s <= offset)]
    }

    /// The index of a line that starts at `offset` (the count at the end).
    fn index(&self, offset: usize) -> usize {
        self.starts.binary_search(&offset).unwrap_or_else(|i| i)
    }

    /// Writes line `i` with its tag.
    fn write(&self, out: &mut String, tag: char, i: usize) {
        let content = &self.text[self.starts[i]..self.starts[i + 1]];
        out.push(tag);
        out.push_str(content);
        if !content.ends_with(['\n', '\r']) {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// A block of whole lines that differ, in bytes: old and new.
struct Block {
    old: Range<usize>,
    new: Range<usize>,
}

/// The unified diff of `old` and `new`, named `name` on both sides, given
/// the byte ranges that differ (`differ`: sorted, each in the old and in
/// the new text; the texts are equal between them). Empty when they are
/// equal.
pub fn unified_diff(name: &str, old: &str, new: &str, differ: &[(Range<usize>, Range<usize>)]) -> String {
    let old_lines = Lines::new(old);
    let new_lines = Lines::new(new);
    // Each range widened to whole lines (the equal text before it on its
    // first line, and after it up to its last line's end unless it ends at
    // a line start on both sides); ranges whose lines meet are one block.
    let mut blocks: Vec<Block> = Vec::new();
    for (o, n) in differ {
        if old[o.clone()] == new[n.clone()] {
            continue;
        }
        let old_start = old_lines.start_at(o.start);
        let new_start = n.start - (o.start - old_start);
        let (old_end, new_end) = if old_lines.is_start(o.end) && new_lines.is_start(n.end) {
            (o.end, n.end)
        } else {
            let end = old_lines.next_start(o.end);
            (end, n.end + (end - o.end))
        };
        match blocks.last_mut() {
            Some(block) if block.old.end >= old_start => {
                block.old.end = block.old.end.max(old_end);
                block.new.end = block.new.end.max(new_end);
            }
            _ => blocks.push(Block { old: old_start..old_end, new: new_start..new_end }),
        }
    }
    let mut out = String::new();
    if blocks.is_empty() {
        return out;
    }
    // A name cannot break the header into lines of its own.
    let name = super::output::visible(name);
    let _ = writeln!(out, "--- {name}\n+++ {name}");
    // In lines from here on.
    let blocks: Vec<Block> = blocks
        .into_iter()
        .map(|b| Block {
            old: old_lines.index(b.old.start)..old_lines.index(b.old.end),
            new: new_lines.index(b.new.start)..new_lines.index(b.new.end),
        })
        .collect();
    let mut k = 0;
    while k < blocks.len() {
        // The blocks of one hunk: at most twice the context between two.
        let mut last = k;
        while last + 1 < blocks.len() && blocks[last + 1].old.start - blocks[last].old.end <= 2 * CONTEXT {
            last += 1;
        }
        let before = blocks[k].old.start.min(CONTEXT);
        let after = (old_lines.count() - blocks[last].old.end).min(CONTEXT);
        let old_range = blocks[k].old.start - before..blocks[last].old.end + after;
        let new_range = blocks[k].new.start - before..blocks[last].new.end + after;
        let _ = writeln!(out, "@@ -{} +{} @@", HunkRange(&old_range), HunkRange(&new_range));
        let mut at = old_range.start;
        for block in &blocks[k..=last] {
            for i in at..block.old.start {
                old_lines.write(&mut out, ' ', i);
            }
            for i in block.old.clone() {
                old_lines.write(&mut out, '-', i);
            }
            for i in block.new.clone() {
                new_lines.write(&mut out, '+', i);
            }
            at = block.old.end;
        }
        for i in at..old_range.end {
            old_lines.write(&mut out, ' ', i);
        }
        k = last + 1;
    }
    out
}

/// A hunk's range as GNU diff writes it: `start,length`, `start` alone for
/// one line, the line before for none.
struct HunkRange<'a>(&'a Range<usize>);

impl std::fmt::Display for HunkRange<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.0.len();
        match len {
            1 => write!(f, "{}", self.0.start + 1),
            0 => write!(f, "{},0", self.0.start),
            _ => write!(f, "{},{len}", self.0.start + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(old: &str, new: &str) -> String {
        similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header("f", "f").to_string()
    }

    /// A replacement: offset, old length, new text.
    type Edit<'a> = (usize, usize, &'a str);

    /// Ranges that differ, in the old and in the new text.
    type Differ = Vec<(Range<usize>, Range<usize>)>;

    /// A text with replacements made (in order), and the ranges that differ.
    fn edit(old: &str, edits: &[Edit<'_>]) -> (String, Differ) {
        let mut new = String::new();
        let mut ranges = Vec::new();
        let mut at = 0;
        for &(offset, len, text) in edits {
            new.push_str(&old[at..offset]);
            let start = new.len();
            new.push_str(text);
            ranges.push((offset..offset + len, start..new.len()));
            at = offset + len;
        }
        new.push_str(&old[at..]);
        (new, ranges)
    }

    #[test]
    fn the_same_diff_as_a_line_comparison() {
        let lines: String = (1..=20).map(|i| format!("{i}. e4 e5\n")).collect();
        let at = |s: &str| lines.find(s).unwrap();
        let cases: Vec<(&str, Vec<Edit<'_>>)> = vec![
            (&lines, vec![(at("7. e4") + 3, 1, "d")]),
            (&lines, vec![(at("7. e4") + 3, 1, "d"), (at("19. e4") + 4, 1, "c")]),
            (&lines, vec![(at("7. e4") + 3, 1, "d"), (at("12. e4") + 4, 1, "c")]),
            (&lines, vec![(at("7. e4") + 3, 1, "d"), (at("8. e4") + 3, 1, "c")]),
            (&lines, vec![(at("7. e4") + 3, 1, "d"), (at("7. e4") + 6, 1, "c")]),
            (&lines, vec![(3, 1, "d")]),
            (&lines, vec![(lines.len() - 1, 1, "")]),
            (&lines, vec![(lines.len(), 0, "21. e4")]),
            (&lines, vec![(at("3. e4"), 0, "x\n")]),
            (&lines, vec![(at("3. e4"), 9, "")]),
            ("1. e4 e5", vec![(3, 1, "d")]),
            ("1. e4\r\n2. d4\r\n", vec![(10, 1, "c")]),
            ("a\nb\n", vec![(2, 0, "x\n")]),
            ("a\nb\nc\n", vec![(2, 2, "")]),
            ("", vec![(0, 0, "a\n")]),
            ("a\n", vec![(0, 2, "")]),
        ];
        for (old, edits) in cases {
            let (new, ranges) = edit(old, &edits);
            assert_eq!(unified_diff("f", old, &new, &ranges), reference(old, &new), "{old:?} -> {new:?}");
        }
        assert_eq!(unified_diff("f", "a\n", "a\n", &[]), "");
    }
}
