//! Random edits of a document, as an editor sends them: the one proptest
//! strategy of the properties that compare an edited document with a fresh
//! open of its final text (`tests/it/incremental.rs` for PGN,
//! `tests/it/manuscript_edits.rs` for manuscripts), and the one way such an
//! edit lands in a text (on character boundaries, like every LSP change).
//!
//! The strategy needs the `strategies` feature (proptest), which this
//! crate's own tests turn on; `floor` and `apply` do not, so that the fuzz
//! targets (`fuzzing.rs`) place their edits the same way.

use chess_ls::ide::document::ByteChange;

/// The most bytes an edit replaces, and how far after the previous edit a
/// `near` one lands.
pub const REACH: usize = 40;

/// One edit: a snippet typed in place of up to `REACH` bytes.
#[derive(Clone, Debug)]
pub struct Edit {
    /// Where, as a fraction of the text's length; when `near`, a fraction of
    /// the `REACH` bytes after the end of the previous edit (typing goes on
    /// where it was).
    pub at: f64,
    pub near: bool,
    /// How many bytes it replaces (fewer at the end of the text, and down to
    /// a character boundary).
    pub len: usize,
    /// What is typed there.
    pub snippet: &'static str,
}

/// Sequences of `count` edits, each typing one of `snippets` (`""` among
/// them deletes), anywhere in the text or near the edit before it.
#[cfg(feature = "strategies")]
pub fn edits(
    snippets: &'static [&'static str],
    count: std::ops::Range<usize>,
) -> impl proptest::strategy::Strategy<Value = Vec<Edit>> {
    use proptest::prelude::*;
    let edit = (0.0f64..1.0, any::<bool>(), 0..=REACH, prop::sample::select(snippets))
        .prop_map(|(at, near, len, snippet)| Edit { at, near, len, snippet });
    prop::collection::vec(edit, count)
}

/// The character boundary at or before byte `i` of `text` (its end when `i`
/// is past it).
pub fn floor(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Applies `edit` to `text` and returns the change that a document is sent
/// for it. `cursor` is where the previous edit ended (0 before the first)
/// and becomes where this one ends.
pub fn apply(text: &mut String, edit: &Edit, cursor: &mut usize) -> ByteChange {
    let at =
        if edit.near { *cursor + (edit.at * REACH as f64) as usize } else { (edit.at * text.len() as f64) as usize };
    let start = floor(text, at);
    let end = floor(text, start + edit.len.min(REACH)).max(start);
    text.replace_range(start..end, edit.snippet);
    *cursor = start + edit.snippet.len();
    ByteChange { range: Some(start..end), text: edit.snippet.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_land_on_character_boundaries() {
        let mut text = "1. e4 Кf3 😀 ♘f3".to_owned();
        let mut cursor = 0;
        for (i, at) in [0.0, 0.2, 0.35, 0.5, 0.77, 0.9, 0.99].into_iter().enumerate() {
            let edit = Edit { at, near: i % 2 == 1, len: i * 3, snippet: ["", "ё", "😀", "x"][i % 4] };
            let before = text.clone();
            let change = apply(&mut text, &edit, &mut cursor);
            let range = change.range.expect("a range");
            assert!(before.is_char_boundary(range.start) && before.is_char_boundary(range.end), "{edit:?}");
            assert_eq!(text, format!("{}{}{}", &before[..range.start], change.text, &before[range.end..]));
            assert_eq!(cursor, range.start + edit.snippet.len());
        }
        assert_eq!(floor("ё", 1), 0);
        assert_eq!(floor("ё", 9), 2);
    }
}
