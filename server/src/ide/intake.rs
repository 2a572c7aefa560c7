//! The one place where text comes in: what the parser reads of a text.
//!
//! Files and editors hand over text with any line ends: `\n`, `\r\n` or a
//! lone `\r` (old Mac files, some OCR tools). Lines and columns count all
//! three alike ([`crate::line_index`], the document's rope); the grammar ends
//! `;` comments and `%` escape lines at `\n` only, so the parser reads a
//! *view* of the text in which each lone `\r` is a `\n`. Both are one byte:
//! every offset of the view is the offset in the text, and edits computed
//! on the view apply to the text as it is. The command line and the
//! language server both read through here, so they cannot disagree about
//! line ends.
//!
//! ```
//! use chess_ls::ide::intake::parser_view;
//! assert_eq!(parser_view("1. e4 ; c\r2. d4\r\n"), "1. e4 ; c\n2. d4\r\n");
//! ```

use std::borrow::Cow;
use std::ops::Range;

/// Whether the byte at `i` is a `\r` that no `\n` follows.
fn lone_cr(bytes: &[u8], i: usize) -> bool {
    bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')
}

/// The text the parser reads: `text` with each lone `\r` turned into `\n`
/// (borrowed when there is none, as in almost every file).
pub fn parser_view(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    // `contains` on bytes is a fast memchr; most files have no `\r` at all.
    if !bytes.contains(&b'\r') || !(0..bytes.len()).any(|i| lone_cr(bytes, i)) {
        return Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for (i, b) in out.iter_mut().enumerate() {
        if lone_cr(bytes, i) {
            *b = b'\n';
        }
    }
    Cow::Owned(String::from_utf8(out).expect("replacing an ASCII byte keeps UTF-8 valid"))
}

/// Whether `text` has a lone `\r` in `range` (widened by a byte on each
/// side, where an edit can make or unmake one).
pub fn has_lone_cr_near(text: &str, range: Range<usize>) -> bool {
    let bytes = text.as_bytes();
    let from = range.start.saturating_sub(1);
    let to = (range.end + 1).min(bytes.len());
    (from..to).any(|i| lone_cr(bytes, i))
}

/// Brings a view up to date after an edit: `view` has had the same edit
/// as `text` (so `changed` is where the new text stands in both); the line
/// ends around it are decided again from `text`.
pub fn patch_view(text: &str, view: &mut String, changed: Range<usize>) {
    debug_assert_eq!(text.len(), view.len());
    let bytes = text.as_bytes();
    let from = changed.start.saturating_sub(1);
    let to = (changed.end + 1).min(bytes.len());
    // Only ASCII bytes (`\r`, `\n`) change, so the view stays UTF-8.
    let mut patched = std::mem::take(view).into_bytes();
    for i in from..to {
        if bytes[i] == b'\r' {
            patched[i] = if lone_cr(bytes, i) { b'\n' } else { b'\r' };
        }
    }
    *view = String::from_utf8(patched).expect("only ASCII bytes were replaced");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_carriage_returns_become_line_feeds_at_the_same_offsets() {
        assert!(matches!(parser_view("a\r\nb\n"), Cow::Borrowed(_)));
        assert_eq!(parser_view("a\rb\r\nc\r"), "a\nb\r\nc\n");
    }

    #[test]
    fn a_patched_view_equals_a_fresh_one() {
        let cases: &[(&str, usize, usize, &str)] = &[
            ("a\r\nb", 2, 3, ""),
            ("a\rb", 2, 2, "\n"),
            ("a\r", 2, 2, "x"),
            ("ab", 1, 1, "\r"),
            ("a\r\rb", 2, 3, "\r\n"),
        ];
        for &(before, start, end, insert) in cases {
            let mut text = before.to_owned();
            let mut view = parser_view(before).into_owned();
            text.replace_range(start..end, insert);
            view.replace_range(start..end, insert);
            patch_view(&text, &mut view, start..start + insert.len());
            assert_eq!(view, parser_view(&text), "{before:?} -> {text:?}");
        }
    }
}
