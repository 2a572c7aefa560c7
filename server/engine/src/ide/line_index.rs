//! Converts byte offsets to lines and columns in the three units front ends
//! use: Unicode scalar values (the CLI's JSON, LSP UTF-32), UTF-16 code
//! units (the LSP default) and bytes (LSP UTF-8). Lines end at `\n`,
//! `\r\n` or a lone `\r`, for the command line's reports and (through the
//! document's rope, which counts them alike, and [`Unit::width`]) the
//! language server's positions: a test holds the two to the same answers.
//!
//! ```
//! use chess_ls_engine::ide::line_index::{LineIndex, Unit};
//! let text = "1. e4\n2. Кf3 ♘c6";
//! let index = LineIndex::new(text);
//! let at = text.find('♘').unwrap();
//! assert_eq!(index.position(text, at, Unit::Char), (1, 7));
//! assert_eq!(index.position(text, at, Unit::Utf8), (1, 8));
//! assert_eq!(index.offset(text, 1, 7, Unit::Char), Some(at));
//! ```

/// A unit in which a column is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Utf8,
    Utf16,
    /// Unicode scalar values (LSP's UTF-32).
    Char,
}

impl Unit {
    /// How many units a character counts.
    pub fn width(self, ch: char) -> usize {
        match self {
            Unit::Utf8 => ch.len_utf8(),
            Unit::Utf16 => ch.len_utf16(),
            Unit::Char => 1,
        }
    }
}

/// Where each line starts. Lines end at `\n`, `\r\n` or a lone `\r`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' => {
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    starts.push(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The byte offset where a 0-based line starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line).copied()
    }

    /// The 0-based line that holds a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// The byte range of a line's text without its line ending.
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self.starts[line];
        let mut end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        let bytes = text.as_bytes();
        while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        start..end
    }

    /// The 0-based line and column of a byte offset. An offset inside a
    /// character counts as the start of that character.
    pub fn position(&self, text: &str, offset: usize, unit: Unit) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let prefix = &text[self.starts[line]..offset];
        let column = match unit {
            Unit::Utf8 => prefix.len(),
            _ => prefix.chars().map(|c| unit.width(c)).sum(),
        };
        (line, column)
    }

    /// The byte offset of a 0-based line and column; a column past the end of
    /// the line clamps to its end (as LSP asks), a line past the end of the
    /// text gives `None`.
    pub fn offset(&self, text: &str, line: usize, column: usize, unit: Unit) -> Option<usize> {
        if line >= self.starts.len() {
            return None;
        }
        let range = self.line_range(text, line);
        let line_text = &text[range.clone()];
        let mut counted = 0;
        for (i, ch) in line_text.char_indices() {
            if counted >= column {
                return Some(range.start + i);
            }
            counted += unit.width(ch);
        }
        Some(range.end)
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_differ_for_cyrillic_figurines_and_emoji() {
        let text = "{😀} Кf3\r\n♘c6\rd4";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        let k = text.find('К').unwrap();
        assert_eq!(index.position(text, k, Unit::Utf8), (0, 7));
        assert_eq!(index.position(text, k, Unit::Utf16), (0, 5));
        assert_eq!(index.position(text, k, Unit::Char), (0, 4));
        let d = text.find('d').unwrap();
        assert_eq!(index.position(text, d, Unit::Char), (2, 0));
        for unit in [Unit::Utf8, Unit::Utf16, Unit::Char] {
            let (l, c) = index.position(text, k, unit);
            assert_eq!(index.offset(text, l, c, unit), Some(k));
        }
        assert_eq!(index.offset(text, 1, 99, Unit::Char), Some(text.find('\r').unwrap() + 2 + "♘c6".len()));
        assert_eq!(index.offset(text, 9, 0, Unit::Char), None);
    }
}
