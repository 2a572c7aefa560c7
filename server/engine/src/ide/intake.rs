//! The one place where text comes in: what the parser reads of a text.
//!
//! Files and editors hand over text with any line ends: `\n`, `\r\n` or a
//! lone `\r` (old Mac files, some OCR tools). Lines and columns count all
//! three alike ([`crate::ide::line_index`], the document's rope); the grammar ends
//! `;` comments and `%` escape lines at `\n` only, so the parser reads a
//! *view* of the text in which each lone `\r` is a `\n`. Both are one byte:
//! every offset of the view is the offset in the text, and edits computed
//! on the view apply to the text as it is. The command line and the
//! language server both read through here, so they cannot disagree about
//! line ends.
//!
//! ```
//! use chess_ls_engine::ide::intake::parser_view;
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

/// The text the command line's checker parses: the parser's view, with
/// what [`hidden`] finds (a run of more than [`MAX_RUN`] bytes without a
/// blank, variations nested too deep) shown as blanks of the same length,
/// and the syntax errors that say so. Hostile input, not notation: the
/// grammar would take 60 to 200 bytes of memory per byte of it.
pub fn checked_view(text: &str) -> (Cow<'_, str>, Vec<(Range<usize>, String)>) {
    let hidden = hidden(text);
    let view = parser_view(text);
    if hidden.is_empty() {
        return (view, hidden);
    }
    let mut out = view.into_owned().into_bytes();
    for (span, _) in &hidden {
        out[span.clone()].fill(b' ');
    }
    // Every byte of whole characters became a space.
    (Cow::Owned(String::from_utf8(out).expect("blanking whole characters keeps UTF-8 valid")), hidden)
}

/// A run of more bytes than this without a blank, outside comments and
/// tag values, is not read: no notation has one, and the grammar reads such
/// junk a character at a time, at some 200 bytes of memory per byte (3.4 GB
/// for one 16 MB token, 800 MB for 4 million `*` in a row).
pub const MAX_RUN: usize = 64 * 1024;

/// What the parser is not shown, with the syntax error that says so:
///
/// - the runs of more than [`MAX_RUN`] bytes without a blank or a bracket
///   of a variation, outside `{}` comments, `;` comments and the quoted
///   values of tags;
/// - the rest of a game whose main line goes on past [`MAX_MAIN_LINE`]
///   words, longer than any game (a 16 MB game, junk words without end);
/// - variations nested deeper than [`crate::syntax::MAX_VARIATION_DEPTH`], from
///   the bracket that opens the first level too deep to the one that closes
///   it (the very span and message the lowering gives them; it checks
///   nothing in them either, but the grammar's tree of a million levels
///   takes 66 bytes a byte). Only a region that closes, with no tag section
///   in it, is hidden.
pub fn hidden(text: &str) -> Vec<(Range<usize>, String)> {
    // The bytes of a word that [`hidden`] skips at once: all but blanks and
    // the ones that change its state.
    const IN_WORD: [bool; 256] = {
        let mut word = [true; 256];
        let special = b" \t\n\x0c\r(){;[]\"";
        let mut i = 0;
        while i < special.len() {
            word[special[i] as usize] = false;
            i += 1;
        }
        word
    };
    #[derive(PartialEq)]
    enum State {
        Text,
        Comment,
        LineComment,
        Tag,
        Value,
    }
    let bytes = text.as_bytes();
    let mut runs: Vec<Range<usize>> = Vec::new();
    let mut deep: Vec<(Range<usize>, usize)> = Vec::new();
    let mut state = State::Text;
    let mut run_start: Option<usize> = None;
    let mut end_run = |run_start: &mut Option<usize>, at: usize| {
        if let Some(start) = run_start.take()
            && at - start > MAX_RUN
        {
            runs.push(start..at);
        }
    };
    let mut depth = 0usize;
    // The region too deep: where it starts, its deepest level, and whether
    // a tag section stands in it (then it is left to the grammar).
    let mut region: Option<(usize, usize, bool)> = None;
    // Most texts hold neither: then the scan is skipped.
    let mut i = if may_hide(bytes) { 0 } else { bytes.len() };
    while i < bytes.len() {
        let b = bytes[i];
        match state {
            State::Comment => {
                // To the comment's end at once.
                match bytes[i..].iter().position(|&c| c == b'}') {
                    Some(end) => {
                        i += end;
                        state = State::Text;
                    }
                    None => i = bytes.len(),
                }
            }
            State::LineComment => match bytes[i..].iter().position(|&c| c == b'\n') {
                Some(end) => {
                    i += end;
                    state = State::Text;
                }
                None => i = bytes.len(),
            },
            State::Value => {
                if b == b'\\' {
                    i += 1;
                } else if b == b'"' {
                    state = State::Tag;
                }
            }
            State::Text | State::Tag => {
                // Brackets of variations are structure, not a run: a
                // hundred thousand `)` close as many variations.
                if b.is_ascii_whitespace() || b == b'(' || b == b')' {
                    end_run(&mut run_start, i);
                    if state == State::Text && b == b'(' {
                        depth += 1;
                        match &mut region {
                            None if depth == crate::syntax::MAX_VARIATION_DEPTH + 1 => region = Some((i, depth, false)),
                            Some((_, deepest, _)) => *deepest = (*deepest).max(depth),
                            None => {}
                        }
                    } else if state == State::Text && b == b')' && depth > 0 {
                        if depth == crate::syntax::MAX_VARIATION_DEPTH + 1
                            && let Some((start, deepest, tagged)) = region.take()
                            && !tagged
                        {
                            deep.push((start..i + 1, deepest));
                        }
                        depth -= 1;
                    }
                } else {
                    match b {
                        b'{' => state = State::Comment,
                        b';' if state == State::Text => state = State::LineComment,
                        b'[' if state == State::Text => {
                            state = State::Tag;
                            if let Some((_, _, tagged)) = &mut region {
                                *tagged = true;
                            }
                        }
                        b']' if state == State::Tag => state = State::Text,
                        b'"' if state == State::Tag => state = State::Value,
                        _ => {}
                    }
                    if state == State::Text || state == State::Tag {
                        run_start.get_or_insert(i);
                        // The rest of the word at once.
                        while i + 1 < bytes.len() && IN_WORD[bytes[i + 1] as usize] {
                            i += 1;
                        }
                    } else {
                        end_run(&mut run_start, i);
                    }
                }
            }
        }
        i += 1;
    }
    end_run(&mut run_start, bytes.len());
    let (mut long, mut variations) = long_main_lines(text);
    fn inside<'r>(span: &Range<usize>, mut of: impl Iterator<Item = &'r Range<usize>>) -> bool {
        of.any(|l| l.start <= span.start && span.end <= l.end)
    }
    // The rest of a game hidden for its main line and for its words in all
    // both run to the game's end: the one that starts first stands.
    variations.retain(|(v, _)| !inside(v, long.iter()));
    long.retain(|l| !inside(l, variations.iter().map(|(v, _)| v)));
    let inside_long =
        |span: &Range<usize>| inside(span, long.iter()) || inside(span, variations.iter().map(|(v, _)| v));
    let mut found: Vec<(Range<usize>, String)> = deep
        .iter()
        .filter(|(span, _)| !inside_long(span))
        .map(|(span, levels)| (span.clone(), format!("variations nested too deep ({levels} levels); not checked")))
        .collect();
    for run in runs {
        if !deep.iter().any(|(d, _)| d.start <= run.start && run.end <= d.end) && !inside_long(&run) {
            let message = format!("{} bytes without a blank are not chess notation; not read", run.len());
            found.push((run, message));
        }
    }
    for (span, rest) in variations {
        let what = if rest { "the rest of it from this variation on" } else { "this variation" };
        let message = format!(
            "this game goes on past {MAX_GAME_WORDS} moves, move numbers and variations in all, its main line and \
             variations, more than any game and its analysis; {what} ({} bytes) was not checked",
            span.len()
        );
        found.push((span, message));
    }
    for span in long {
        let message = format!(
            "this game's main line goes on past {MAX_MAIN_LINE} moves, move numbers and variations, longer than \
             any game (the 75-move rule ends every game by move 8,849); the rest of it ({} bytes) was not checked",
            span.len()
        );
        found.push((span, message));
    }
    found.sort_by_key(|(span, _)| span.start);
    found
}

/// Whether `bytes` may hold a run or variations nested too deep for
/// [`hidden`], by two quick tests over the bytes as they are: variations
/// nest deeper than the bound only with more `(` than that in all, and a
/// run of more than [`MAX_RUN`] bytes takes in a whole block of half that
/// (at a multiple of its length) with no blank, no `(`, `)` or `{` in it
/// (each ends a run in every state that counts one). Blanks are found
/// within a few bytes of a block's start in any text with words, so this
/// reads a small part of the text besides counting its `(`.
fn may_hide(bytes: &[u8]) -> bool {
    let ends_run = |b: &u8| b.is_ascii_whitespace() || matches!(b, b'(' | b')' | b'{');
    bytes.iter().filter(|&&b| b == b'(').count() > crate::syntax::MAX_VARIATION_DEPTH
        || bytes.chunks(MAX_RUN / 2).any(|block| block.len() == MAX_RUN / 2 && !block.iter().any(ends_run))
}

/// A game's main line holding more words than this (moves, move numbers,
/// NAGs, variations: what is outside comments at depth 0) is no game: the
/// 75-move rule and fivefold repetition end every game by move 8,849,
/// some 26,500 moves and numbers. Each word costs some 440 bytes once
/// lowered, so the text after that many is not read (44 MB of lowered game
/// at most, where a 16 MB main line took 1.4 GB).
pub const MAX_MAIN_LINE: usize = 100_000;

/// A game holding more words than this in all (its main line and every
/// variation, at any depth) is no game and its analysis: some 2.5 MB of
/// notation in one game. Each word costs some 440 bytes once lowered, so
/// the variation at depth 1 in which a game's words go past it is not read
/// (a 16 MB variation took 1.83 GB), nor the rest of the game from the next
/// variation on (its main line up to there is).
pub const MAX_GAME_WORDS: usize = 400_000;

/// A stretch of a game hidden for its words in all: a variation (`false`),
/// or the rest of the game from a variation on (`true`).
type Hidden = (Range<usize>, bool);

/// The rest of each game past its first [`MAX_MAIN_LINE`] words at depth
/// 0: from the next word at depth 0 to the game's end (the result at depth
/// 0, a tag section, or the end of the text); and, for a game past
/// [`MAX_GAME_WORDS`] words in all, the variation at depth 1 in which it
/// goes past and the rest of the game from its next variation on.
/// Comments, `;` comments and tag values are skipped as in [`hidden`].
fn long_main_lines(text: &str) -> (Vec<Range<usize>>, Vec<Hidden>) {
    // What each byte is to the scan: part of a word (0), a blank (1), or
    // one of `(`, `)`, `{`, `;`, `[` (2 to 6). A table, and a word read to
    // its end at once: this runs over every byte of every file.
    const CLASS: [u8; 256] = {
        let mut class = [0u8; 256];
        class[b'\t' as usize] = 1;
        class[b'\n' as usize] = 1;
        class[0x0c] = 1;
        class[b'\r' as usize] = 1;
        class[b' ' as usize] = 1;
        class[b'(' as usize] = 2;
        class[b')' as usize] = 3;
        class[b'{' as usize] = 4;
        class[b';' as usize] = 5;
        class[b'[' as usize] = 6;
        class
    };
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut found = Vec::new();
    let mut variations = Vec::new();
    // A text of fewer bytes than twice the bound cannot hold that many
    // words (each takes at least a byte and a blank).
    if n <= 2 * MAX_MAIN_LINE {
        return (found, variations);
    }
    let is_result = |word: &[u8]| matches!(word, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
    let (mut depth, mut words, mut all) = (0usize, 0usize, 0usize);
    // Where the game's rest that is not read starts, once it has.
    let mut rest: Option<usize> = None;
    // Where the variation at depth 1 now read opened, and whether it is
    // hidden (the game's words in all went past `MAX_GAME_WORDS` in it or
    // before it); whether the game had one hidden, and where the rest of
    // the game from the next variation on, hidden too, starts.
    let (mut opened, mut hide, mut hid_one) = (0usize, false, false);
    let mut after: Option<usize> = None;
    let count = |words: &mut usize, rest: &mut Option<usize>, at: usize| {
        *words += 1;
        if *words > MAX_MAIN_LINE && rest.is_none() {
            *rest = Some(at);
        }
    };
    let mut i = 0;
    while i < n {
        match CLASS[bytes[i] as usize] {
            0 => {
                let start = i;
                while i < n && CLASS[bytes[i] as usize] == 0 {
                    i += 1;
                }
                // What is nested deeper than the lowering reads is hidden
                // on its own (see `hidden`), so not counted.
                all += usize::from(depth <= crate::syntax::MAX_VARIATION_DEPTH);
                if depth == 0 {
                    count(&mut words, &mut rest, start);
                    // The result at depth 0 ends the game.
                    if i - start <= 7 && matches!(bytes[start], b'0' | b'1' | b'*') && is_result(&bytes[start..i]) {
                        if let Some(from) = rest.take()
                            && from < start
                        {
                            found.push(from..start);
                        }
                        if let Some(from) = after.take() {
                            variations.push((from..start, true));
                        }
                        (words, all, hid_one) = (0, 0, false);
                    }
                } else if all > MAX_GAME_WORDS && !hid_one {
                    hide = true;
                }
                continue;
            }
            2 => {
                depth += 1;
                all += usize::from(depth <= crate::syntax::MAX_VARIATION_DEPTH);
                if depth == 1 {
                    count(&mut words, &mut rest, i);
                    if hid_one && after.is_none() {
                        after = Some(i);
                    }
                    (opened, hide) = (i, all > MAX_GAME_WORDS && !hid_one);
                } else if all > MAX_GAME_WORDS && !hid_one {
                    hide = true;
                }
            }
            3 => {
                if depth == 1 && std::mem::take(&mut hide) {
                    variations.push((opened..i + 1, false));
                    hid_one = true;
                }
                depth = depth.saturating_sub(1);
            }
            // A comment, to its `}`; a `;` comment, to the line's end.
            4 => i = memchr::memchr(b'}', &bytes[i + 1..]).map_or(n, |p| i + 1 + p),
            5 => i = memchr::memchr(b'\n', &bytes[i + 1..]).map_or(n, |p| i + 1 + p),
            6 => {
                if depth == 0 {
                    // A tag section: a new game.
                    if let Some(from) = rest.take() {
                        found.push(from..i);
                    }
                    if let Some(from) = after.take() {
                        variations.push((from..i, true));
                    }
                    (words, all, hid_one) = (0, 0, false);
                }
                // To the tag's `]`, outside its quoted value.
                let mut value = false;
                i += 1;
                while i < n {
                    match bytes[i] {
                        b'\\' if value => i += 1,
                        b'"' => value = !value,
                        b']' if !value => break,
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if let Some(from) = rest {
        found.push(from..n);
    }
    // A variation still open at the end of the text.
    if depth > 0 && hide {
        variations.push((opened..n, false));
    }
    if let Some(from) = after {
        variations.push((from..n, true));
    }
    (found, variations)
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

/// The `syntax` errors of a text's bytes that were not valid in its
/// encoding (a NUL, a stray `\xFF`), each read as U+FFFD at its offset,
/// merged into `diagnostics` in text order; the grammar's own error at such
/// a character is dropped, since this one says what it is.
pub fn report_invalid_bytes(
    invalid: impl IntoIterator<Item = (usize, u8)>,
    encoding: &str,
    diagnostics: &mut Vec<crate::analysis::Diagnostic>,
) {
    use crate::analysis::{Code, Diagnostic};
    let ours: Vec<Diagnostic> = invalid
        .into_iter()
        .map(|(offset, byte)| {
            let what = if byte == 0 {
                "a NUL byte here is not text".to_owned()
            } else {
                format!(
                    "the byte 0x{byte:02X} here is not valid {encoding} (if the file is in another encoding, name it with --encoding)"
                )
            };
            let span = offset..offset + char::REPLACEMENT_CHARACTER.len_utf8();
            Diagnostic::new(
                Code::Syntax,
                span,
                format!("{what}: it is read as U+FFFD, and the file is not rewritten until it is corrected"),
            )
        })
        .collect();
    if ours.is_empty() {
        return;
    }
    let within = |d: &Diagnostic| ours.iter().any(|o| o.span.start <= d.span.start && d.span.end <= o.span.end);
    diagnostics.retain(|d| d.code != Code::Syntax || !within(d));
    diagnostics.extend(ours);
    diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.span.end.cmp(&b.span.end)));
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

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[test]
    fn a_variation_past_the_words_a_game_may_hold_is_hidden_whole() {
        // A short variation, then one of more words than a game holds, then
        // another: the second is hidden, bracket to bracket, and the rest of
        // the game from the third on; the main line between is read.
        let huge = "Nf3 Nf6 Ng1 Ng8 ".repeat(MAX_GAME_WORDS / 4 + 1);
        let text = format!("1. e4 (1. d4 d5) e5 (1... c5 {huge}) 2. Nf3 (2. Bc4) Nc6 *\n");
        let found = hidden(&text);
        let open = text.find("(1...").unwrap();
        let close = text.find(") 2.").unwrap() + 1;
        let third = text.find("(2. Bc4)").unwrap();
        let spans: Vec<_> = found.iter().map(|(s, _)| s.clone()).collect();
        assert_eq!(spans, [open..close, third..text.find('*').unwrap()]);
        assert!(found[0].1.contains("this variation"), "{}", found[0].1);
        assert!(found[1].1.contains("the rest of it from this variation on"), "{}", found[1].1);
        // Without a later variation, the main line goes on to the result.
        let text = format!("1. e4 (1... c5 {huge}) e5 2. Nf3 Nc6 *\n[Event \"b\"]\n1. d4 (1. e4) *\n");
        let spans: Vec<_> = hidden(&text).into_iter().map(|(s, _)| s).collect();
        assert_eq!(spans, vec![text.find('(').unwrap()..text.find(") e5").unwrap() + 1]);
        // A game just under the bound is read whole.
        let under = "Nf3 Nf6 Ng1 Ng8 ".repeat(MAX_GAME_WORDS / 4 - 10);
        assert!(hidden(&format!("1. e4 (1... c5 {under}) e5 *\n")).is_empty());
        // The count starts again with each game.
        let half = "Nf3 Nf6 Ng1 Ng8 ".repeat(MAX_GAME_WORDS / 8);
        assert!(hidden(&format!("1. e4 ({half}) *\n1. e4 ({half}) *\n1. e4 ({half}) *\n")).is_empty());
    }
}
