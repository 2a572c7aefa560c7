//! Games written one after another without tags or results between them,
//! each starting again at its first move number after a blank line (a book
//! author's habit: the same game in English, then in Russian, then in long
//! algebraic). The grammar reads such text as one game, since nothing in
//! PGN's syntax ends it; a careful reader sees a new game where the
//! numbering starts over.
//!
//! A game is cut before a move number when
//! - it is White's number and equal to the game's first move number (`1.`,
//!   or the number a FEN tag or a position description started from),
//! - a blank line stands before it, outside comments,
//! - and the part before it has at least one move of each side.
//!
//! The tags go with the first part, the result with the last; syntax errors
//! go with the part they stand in.

use super::{GameSyntax, Item, Line, Token};

/// Hands `game` to `f`, cut into the games it holds.
pub fn split<'a>(game: GameSyntax<'a>, source: &'a str, f: &mut impl FnMut(GameSyntax<'a>)) {
    let cuts = cuts(&game, source);
    if cuts.is_empty() {
        f(game);
        return;
    }
    let GameSyntax { span, tags, mainline, result, errors } = game;
    // Cut from the back, so that each cut leaves the items before it.
    let mut items = mainline.items;
    let mut tails: Vec<Vec<Item<'a>>> = cuts.iter().rev().map(|&cut| items.split_off(cut)).collect();
    tails.reverse();
    let count = tails.len() + 1;
    let (mut tags, mut result) = (Some(tags), result);
    let mut parts: Vec<GameSyntax<'a>> = std::iter::once(items)
        .chain(tails)
        .enumerate()
        .map(|(i, items)| {
            let (first, last) = (i == 0, i + 1 == count);
            // Every part but the first starts at its move number, every
            // part but the last ends at its last item.
            let start = if first { span.start } else { items[0].start() };
            let end = if last { span.end } else { items.last().map_or(start, Item::end) };
            let line = (if first { mainline.span.start } else { start })..(if last { mainline.span.end } else { end });
            GameSyntax {
                span: start..end,
                tags: if first { tags.take().unwrap_or_default() } else { Vec::new() },
                mainline: Line { span: line, items },
                result: if last { result.take() } else { None },
                errors: Vec::new(),
            }
        })
        .collect();
    // Each error goes to the last part that starts at or before it.
    for error in errors {
        let at = parts.iter().rposition(|p| p.span.start <= error.span.start).unwrap_or(0);
        parts[at].errors.push(error);
    }
    parts.into_iter().for_each(f);
}

/// The indices of the main line's items before which a new game starts.
fn cuts(game: &GameSyntax<'_>, source: &str) -> Vec<usize> {
    let items = &game.mainline.items;
    // Most games hold no blank line at all: then no number is looked at.
    if !may_have_blank_line(source.get(game.mainline.span.clone()).unwrap_or(source)) {
        return Vec::new();
    }
    let Some(first) = items.iter().find_map(|i| match i {
        Item::MoveNumber(t) => white_number(t),
        _ => None,
    }) else {
        return Vec::new();
    };
    let mut cuts = Vec::new();
    let mut moves = 0;
    for (index, item) in items.iter().enumerate() {
        match item {
            Item::Move(_) | Item::NullMove(_) => moves += 1,
            // The blank line first: most numbers have a blank or a line
            // break before them, which is quicker to see than the number.
            Item::MoveNumber(t)
                if index > 0
                    && moves >= 2
                    && blank_line_before(items, index, source)
                    && white_number(t) == Some(first) =>
            {
                cuts.push(index);
                moves = 0;
            }
            _ => {}
        }
    }
    cuts
}

/// The number of a White move number (`12.`, `12)`, `12`), or `None` for
/// Black's (`12...`, `12…`).
fn white_number(t: &Token<'_>) -> Option<u64> {
    let digits = t.text.trim_end_matches(|c: char| !c.is_ascii_digit());
    let rest = &t.text[digits.len()..];
    if rest.contains("..") || rest.contains('…') {
        return None;
    }
    digits.parse().ok()
}

/// Whether `text` may hold a blank line: two line breaks with only blanks
/// between them (comments or not). Only the bytes after each line break
/// are read; a character beyond ASCII there is taken for a blank.
fn may_have_blank_line(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\n', bytes).any(|at| {
        bytes[at + 1..]
            .iter()
            .find(|&&b| !matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c))
            .is_some_and(|&b| b == b'\n' || !b.is_ascii())
    })
}

/// Whether a blank line stands between item `index` and the one before it,
/// outside comments.
fn blank_line_before(items: &[Item<'_>], index: usize, source: &str) -> bool {
    let gap = &source[items[index - 1].end()..items[index].start()];
    // A blank line takes two line breaks (most gaps are one blank).
    if gap.bytes().filter(|&b| b == b'\n').nth(1).is_none() {
        return false;
    }
    let mut in_comment = false;
    let mut blank = false;
    let mut newline = false;
    for c in gap.chars() {
        match c {
            '{' if !in_comment => {
                in_comment = true;
                newline = false;
            }
            '}' if in_comment => in_comment = false,
            '\n' if !in_comment => {
                if newline {
                    blank = true;
                }
                newline = true;
            }
            c if c.is_whitespace() => {}
            _ if !in_comment => newline = false,
            _ => {}
        }
    }
    blank
}

#[cfg(test)]
mod tests {

    fn games(text: &str) -> Vec<(String, usize, Option<String>)> {
        let tree = crate::syntax::parse(text, None);
        crate::syntax::lower(&tree, text)
            .iter()
            .map(|g| (text[g.span.clone()].to_owned(), g.tags.len(), g.result.as_ref().map(|r| r.text.to_owned())))
            .collect()
    }

    #[test]
    fn a_game_that_starts_again_after_a_blank_line_is_another_game() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6\n\n1. e4 e5 2. Фh5 Кc6\n\n\n1. e2-e4 e7-e5 *\n";
        assert_eq!(
            games(text),
            [
                ("[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6".to_owned(), 1, None),
                ("1. e4 e5 2. Фh5 Кc6".to_owned(), 0, None),
                ("1. e2-e4 e7-e5 *".to_owned(), 0, Some("*".to_owned())),
            ]
        );
    }

    #[test]
    fn a_blank_line_of_any_blanks_cuts() {
        for gap in ["\r\n\r\n", "\n \t\n", "\n\u{a0}\n", "\n\u{2003}\u{a0}\n"] {
            let text = format!("1. e4 e5 2. Nf3 Nc6{gap}1. d4 d5 *");
            assert_eq!(games(&text).len(), 2, "{gap:?}");
        }
        assert!(!super::may_have_blank_line("1. e4 e5\n2. Nf3 Nc6\n3. Bb5"));
        assert!(super::may_have_blank_line("1. e4 e5\n \n2. Nf3"));
    }

    #[test]
    fn no_cut_without_a_blank_line_a_full_move_or_the_same_number() {
        for text in [
            "1. e4 e5 2. Nf3\n1. d4 *",
            "1. e4\n\n1... e5 2. Nf3 *",
            "1. e4\n\n1. d4 *",
            "1. e4 e5 2. Nf3\n\n2. d4 *",
            "1. e4 e5 {a\n\nb} 1. d4 *",
        ] {
            assert_eq!(games(text).len(), 1, "{text:?}");
        }
    }
}
