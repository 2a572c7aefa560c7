//! Lines inside a section, counted from the section's own text, so that
//! what a request needs of a section's lines (its highlights, its folds)
//! is computed once per section and only moves when an edit before it
//! adds or removes lines, and the line of every section's start is a sum,
//! not a lookup in the rope per section.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as in the rope
//! (`ide::line_index`). A line break belongs to the section its last byte
//! is in: a `\r` whose `\n` starts the next section is that section's.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use crate::ide::line_index::Unit;

/// Something computed from a section's text when first asked for and kept
/// with it (shared by the document's copies, forgotten when the section's
/// text changes).
#[derive(Debug)]
pub struct Kept<T>(Arc<OnceLock<T>>);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept(Arc::default())
    }
}

impl<T> Clone for Kept<T> {
    fn clone(&self) -> Self {
        Kept(self.0.clone())
    }
}

impl<T> Kept<T> {
    /// Forgets what was kept (the section's text changed).
    pub fn clear(&mut self) {
        *self = Kept::default();
    }

    pub fn get(&self) -> Option<&T> {
        self.0.get()
    }

    /// Keeps `value` unless another request kept one first (the same).
    pub fn set(&self, value: T) {
        let _ = self.0.set(value);
    }
}

/// Whether the byte at `i` ends a line break (`\n`, or a `\r` without a
/// `\n` after it).
fn ends_break(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b'\n' => true,
        b'\r' => bytes.get(i + 1) != Some(&b'\n'),
        _ => false,
    }
}

/// How many line breaks end in `text[range]`.
pub fn breaks_in(text: &str, range: Range<usize>) -> u32 {
    let bytes = text.as_bytes();
    let newlines = bytes[range.clone()].iter().filter(|&&b| b == b'\n').count();
    let lone_crs = if bytes[range.clone()].contains(&b'\r') {
        range.filter(|&i| bytes[i] == b'\r' && ends_break(bytes, i)).count()
    } else {
        0
    };
    (newlines + lone_crs) as u32
}

/// Whether `offset` starts a line of `text`.
pub fn starts_line(text: &str, offset: usize) -> bool {
    offset == 0 || (offset <= text.len() && ends_break(text.as_bytes(), offset - 1))
}

/// Where the line breaks of a section end, relative to its start: the
/// relative line of any offset in it by a binary search.
pub struct Breaks(Vec<usize>);

impl Breaks {
    pub fn new(text: &str, range: Range<usize>) -> Breaks {
        let bytes = text.as_bytes();
        Breaks(range.clone().filter(|&i| ends_break(bytes, i)).map(|i| i + 1 - range.start).collect())
    }

    /// The line of a relative offset, from the section's first line.
    pub fn line(&self, local: usize) -> usize {
        self.0.partition_point(|&end| end <= local)
    }

    /// Whether a relative offset after the start is at a line's start.
    pub fn at_line_start(&self, local: usize) -> bool {
        self.0.binary_search(&local).is_ok()
    }
}

/// Walks a text forward from a section's start, giving the line (from the
/// section's first line) and column (on that first line, from the
/// section's start) of increasing offsets in one pass.
pub struct Walker<'t> {
    text: &'t str,
    start: usize,
    at: usize,
    line: usize,
    column: usize,
    unit: Unit,
}

impl<'t> Walker<'t> {
    pub fn new(text: &'t str, start: usize, unit: Unit) -> Walker<'t> {
        Walker { text, start, at: start, line: 0, column: 0, unit }
    }

    /// The relative line and column of `offset` (floored to a character
    /// boundary). An offset before the last one asked for walks again from
    /// the start.
    pub fn to(&mut self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        if offset < self.at {
            (self.at, self.line, self.column) = (self.start, 0, 0);
        }
        let bytes = self.text.as_bytes();
        for (i, ch) in self.text[self.at..offset].char_indices() {
            let i = self.at + i;
            if ends_break(bytes, i) {
                self.line += 1;
                self.column = 0;
            } else if ch != '\r' {
                self.column += self.unit.width(ch);
            }
        }
        self.at = offset;
        (self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::line_index::LineIndex;

    /// The walker and the breaks count lines as the line index does, from
    /// any start, for every kind of line end.
    #[test]
    fn walker_and_breaks_agree_with_the_line_index() {
        const PIECES: &[&str] = &["a", "\n", "\r", "\r\n", "😀", "é", "Кf3", " ", "\n\r"];
        let mut next = crate::test_support::below(0x1234_5678_9abc_def1);
        for _ in 0..300 {
            let text: String = (0..next(30)).map(|_| PIECES[next(PIECES.len())]).collect();
            let index = LineIndex::new(&text);
            let starts: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            let start = starts[next(starts.len())];
            let end = starts[next(starts.len())].max(start);
            let (first_line, first_column) = index.position(&text, start, Unit::Utf16);
            let breaks = Breaks::new(&text, start..end);
            let mut walker = Walker::new(&text, start, Unit::Utf16);
            for &offset in starts.iter().filter(|&&o| o >= start && o <= end) {
                // Inside a `\r\n` no position is asked for.
                if offset > 0 && text.as_bytes()[offset - 1] == b'\r' && text.as_bytes().get(offset) == Some(&b'\n') {
                    continue;
                }
                let (line, column) = index.position(&text, offset, Unit::Utf16);
                let relative = (line - first_line, if line == first_line { column - first_column } else { column });
                assert_eq!(walker.to(offset), relative, "{text:?} from {start} at {offset}");
                assert_eq!(breaks.line(offset - start), line - first_line, "{text:?} from {start} at {offset}");
                if offset > start {
                    assert_eq!(breaks.at_line_start(offset - start), column == 0, "{text:?} at {offset}");
                }
                assert_eq!(starts_line(&text, offset), column == 0, "{text:?} at {offset}");
            }
            let (last_line, _) = index.position(&text, end, Unit::Utf16);
            let after_cr = end > 0 && text.as_bytes()[end - 1] == b'\r' && text.as_bytes().get(end) == Some(&b'\n');
            if !after_cr {
                assert_eq!(breaks_in(&text, start..end) as usize, last_line - first_line, "{text:?} {start}..{end}");
            }
        }
    }
}
