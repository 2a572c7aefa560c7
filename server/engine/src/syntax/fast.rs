//! A fast path for plain notation: lowers a piece of text straight to
//! [`GameSyntax`] without building a tree-sitter tree, for the checker,
//! where parsing would otherwise cost more than the whole replay.
//!
//! It reads only what it can read exactly as the grammar does: tag pairs,
//! move numbers, SAN and long algebraic moves in the usual letters (Latin,
//! Cyrillic, figurines), checks and glyphs, NAGs, comments, variations and
//! results. Its letters and signs are those of [`lexicon`], where the
//! grammar's are; only files and ranks are read without their look-alikes.
//! Anything else (a look-alike letter, a position description, an
//! en-passant mark, junk, a broken bracket) makes it give up with `None`,
//! and the caller parses the piece with tree-sitter. Whenever it does not
//! give up, its result equals what the tree-sitter path lowers; the test
//! `fast_path_equals_tree_sitter` checks that over generated games in every
//! language and over the real corpus.

use super::lexicon;
use super::{GameSyntax, Item, Line, Origin, Tag, Token, WrittenMove};

/// The games of `source`, or `None` when the text needs the full grammar.
pub fn lower_fast(source: &str) -> Option<Vec<GameSyntax<'_>>> {
    lower_fast_with_comments(source).map(|(games, _)| games)
}

/// As [`lower_fast`], and the spans of the `{...}` comments that run over
/// more than one line (for folding).
#[allow(clippy::type_complexity)]
pub fn lower_fast_with_comments(source: &str) -> Option<(Vec<GameSyntax<'_>>, Vec<std::ops::Range<usize>>)> {
    // The grammar's lexer reads a NUL byte as the end of the input, even
    // inside a tag value or a comment (found by fuzzing): leave such text to it.
    if source.as_bytes().contains(&0) {
        return None;
    }
    let mut reader = Reader { src: source, bytes: source.as_bytes(), pos: 0, long_comments: Vec::new() };
    let mut games = Vec::new();
    let mut current: Option<GameSyntax<'_>> = None;
    // What the current game has had so far: tags only, movetext, a result.
    let mut has_movetext = false;
    loop {
        reader.skip_extras()?;
        let Some(b) = reader.peek() else { break };
        if b == b'[' {
            if has_movetext || current.as_ref().is_some_and(|g| g.result.is_some()) {
                games.extend(current.take());
                has_movetext = false;
            }
            let tag = reader.tag()?;
            let game = current.get_or_insert_with(|| GameSyntax { span: tag.span.clone(), ..GameSyntax::default() });
            game.span.end = tag.span.end;
            game.tags.push(tag);
            continue;
        }
        if current.as_ref().is_some_and(|g| g.result.is_some()) {
            games.extend(current.take());
            has_movetext = false;
        }
        if let Some(result) = reader.result() {
            let game = current.get_or_insert_with(|| GameSyntax { span: result.span.clone(), ..GameSyntax::default() });
            game.span.end = result.span.end;
            game.result = Some(result);
            continue;
        }
        // Movetext up to a tag, a result or the end, in a list of items
        // about as long as the latest main lines were: growing it from
        // empty copied each of its moves about once more.
        let mut line = Line { items: Vec::with_capacity(ITEMS_HINT.get()), ..Line::default() };
        reader.items(&mut line)?;
        let len = line.items.len();
        if line.items.capacity() > len + len / 2 {
            // Room that was not used goes back (shrinking copies nothing),
            // so that the games of a piece hold no more than their items.
            line.items.shrink_to_fit();
        }
        ITEMS_HINT.set((len + len / 4).max(ITEMS_HINT.get() - ITEMS_HINT.get() / 16).min(MAX_ITEMS_HINT));
        if line.items.is_empty() {
            // Something that is neither a tag, a result nor an element.
            return None;
        }
        let game = current.get_or_insert_with(|| GameSyntax { span: line.span.clone(), ..GameSyntax::default() });
        game.span.end = line.span.end;
        if has_movetext {
            // Movetext, a comment, more movetext: still one movetext.
            game.mainline.span.end = line.span.end;
            game.mainline.items.append(&mut line.items);
        } else {
            game.mainline = line;
        }
        has_movetext = true;
    }
    games.extend(current);
    let mut split = Vec::with_capacity(games.len());
    for game in games {
        super::restarts::split(game, source, &mut |g| split.push(g));
    }
    Some((split, reader.long_comments))
}

thread_local! {
    /// How many items a main line is given room for before it is read: a
    /// quarter more than the latest one had, or a little less than the
    /// room the one before was given (so that one long game is not
    /// followed by room for its like for ever).
    static ITEMS_HINT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The most items a main line is given room for in advance (about 2 MB).
const MAX_ITEMS_HINT: usize = 4096;

struct Reader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    long_comments: Vec<std::ops::Range<usize>>,
}

/// Bytes that may follow a move, a number-less token or a result without
/// making the grammar read anything glued to it.
fn is_separator(b: Option<u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'(' | b')' | b';' | b'$' | b'%'))
}

/// A new move at the end of `items`, to be read into where it stands: a
/// move is some 470 bytes, and building it elsewhere and moving it in cost
/// two copies of it per move. When the move cannot be read, the fast path
/// gives up on the whole text, and the half-read move goes with it.
fn new_move<'v, 'a>(items: &'v mut Vec<Item<'a>>) -> &'v mut WrittenMove<'a> {
    // Made where it is written (`resize_with` calls the closure with the
    // room already there): `push` builds it on the stack and copies it.
    items.resize_with(items.len() + 1, || Item::Move(WrittenMove::default()));
    match items.last_mut() {
        Some(Item::Move(mv)) => mv,
        _ => unreachable!("a move was just pushed"),
    }
}

/// Pushes a token as an item that is not a move (a move number, a NAG, a
/// glyph), made where it stands, so that only the token is written: `push`
/// moved a whole item, a move's size (some 470 bytes), for each of them.
fn push_token<'a>(items: &mut Vec<Item<'a>>, item: fn(Token<'a>) -> Item<'a>, token: Token<'a>) {
    let mut token = Some(token);
    items.resize_with(items.len() + 1, || item(token.take().unwrap_or(Token { text: "", span: 0..0 })));
}

/// A file letter as written (a byte of a look-alike is none).
fn is_file(b: u8) -> bool {
    b.is_ascii() && lexicon::is_file(b as char)
}

/// A rank digit as written.
fn is_rank(b: u8) -> bool {
    b.is_ascii() && lexicon::is_rank(b as char)
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn token(&self, start: usize) -> Token<'a> {
        Token { text: &self.src[start..self.pos], span: start..self.pos }
    }

    /// Skips blanks, comments, `;` comments and `%` escapes. `None` on a
    /// comment the fast path does not read (nested braces, a line break
    /// before a `[`, unclosed).
    fn skip_extras(&mut self) -> Option<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'{') => {
                    let mut i = self.pos + 1;
                    let mut multiline = false;
                    loop {
                        match self.bytes.get(i)? {
                            b'}' => break,
                            b'{' => return None,
                            b'\n' => {
                                multiline = true;
                                let mut j = i + 1;
                                while matches!(self.bytes.get(j), Some(b' ' | b'\t' | b'\r' | b'\n')) {
                                    j += 1;
                                }
                                if self.bytes.get(j) == Some(&b'[') {
                                    return None;
                                }
                                i = j;
                                continue;
                            }
                            _ => {}
                        }
                        i += 1;
                    }
                    if multiline {
                        self.long_comments.push(self.pos..i + 1);
                    }
                    self.pos = i + 1;
                }
                // `%` escapes its line only in the line's first column (the
                // grammar's scanner reads it so); elsewhere it is no notation,
                // left to the grammar.
                Some(b'%') if self.pos > 0 && self.bytes[self.pos - 1] != b'\n' => return None,
                Some(b';' | b'%') => {
                    while !matches!(self.peek(), None | Some(b'\n')) {
                        self.pos += 1;
                    }
                }
                Some(b) if b >= 0x80 => {
                    // Unicode blanks (no-break space, BOM, ...) are extras
                    // too, but rare: leave them to the grammar.
                    let ch = self.src[self.pos..].chars().next()?;
                    if ch.is_whitespace() || ch == '\u{FEFF}' {
                        return None;
                    }
                    return Some(());
                }
                _ => return Some(()),
            }
        }
    }

    /// `[Name "value"]` with blanks between its parts.
    fn tag(&mut self) -> Option<Tag<'a>> {
        let start = self.pos;
        self.pos += 1;
        self.skip_blanks();
        let name_start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            self.pos += 1;
        }
        if self.pos == name_start {
            return None;
        }
        let name = self.token(name_start);
        self.skip_blanks();
        if self.peek()? != b'"' {
            return None;
        }
        let value_start = self.pos + 1;
        let mut i = value_start;
        loop {
            match *self.bytes.get(i)? {
                b'"' => break,
                b'\\' => {
                    // `\"` and `\\` are escapes; a value that does not close
                    // on its line this way (`"Masters\"]`) is left to the
                    // grammar, which reads the backslash as a literal one.
                    if matches!(self.bytes.get(i + 1), None | Some(b'\n')) {
                        return None;
                    }
                    i += 2;
                }
                b'\n' => return None,
                _ => i += 1,
            }
        }
        let value = Token { text: &self.src[value_start..i], span: value_start..i };
        self.pos = i + 1;
        // The grammar lets a quote stay inside a value unless `]` follows
        // it; read only the plain form.
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        if self.peek()? != b']' {
            return None;
        }
        self.pos += 1;
        Some(Tag { span: start..self.pos, name, value: Some(value) })
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`, not glued to anything.
    fn result(&mut self) -> Option<Token<'a>> {
        let rest = &self.bytes[self.pos..];
        let len = if rest.starts_with(b"1/2-1/2") {
            7
        } else if rest.starts_with(b"1-0") || rest.starts_with(b"0-1") {
            3
        } else if rest.starts_with(b"*") {
            1
        } else {
            return None;
        };
        let next = rest.get(len).copied();
        if !(is_separator(next) || next == Some(b'[')) {
            return None;
        }
        let start = self.pos;
        self.pos += len;
        Some(self.token(start))
    }

    /// Elements up to a tag, a result or the end, variations included. The
    /// variations are read with a stack of the lines they interrupt, not by
    /// recursion; nesting deeper than the grammar path lowers is left to it
    /// (it reports it).
    fn items(&mut self, line: &mut Line<'a>) -> Option<()> {
        // The open variations, innermost last: the line each interrupts,
        // whether that line had an item before it, and where its `(` stands.
        let mut open: Vec<(Line<'a>, bool, usize)> = Vec::new();
        let mut first = true;
        loop {
            self.skip_extras()?;
            let in_variation = !open.is_empty();
            let Some(b) = self.peek() else {
                return if in_variation { None } else { Some(()) };
            };
            let mut start = self.pos;
            match b {
                b')' => {
                    let (outer, outer_first, open_at) = open.pop()?;
                    self.pos += 1;
                    let mut inner = std::mem::replace(line, outer);
                    inner.span = open_at..self.pos;
                    line.items.push(Item::Variation(inner));
                    first = outer_first;
                    start = open_at;
                }
                b'[' => return if in_variation { None } else { Some(()) },
                b'*' => {
                    if in_variation {
                        return None;
                    }
                    return Some(());
                }
                b'(' => {
                    if self.at(1) == Some(b'=') {
                        // The draw offer `(=)`.
                        return None;
                    }
                    if open.len() >= super::MAX_VARIATION_DEPTH {
                        return None;
                    }
                    self.pos += 1;
                    open.push((std::mem::take(line), first, start));
                    first = true;
                    continue;
                }
                b'$' => {
                    self.pos += 1;
                    while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                        self.pos += 1;
                    }
                    if self.pos == start + 1 {
                        return None;
                    }
                    push_token(&mut line.items, Item::Nag, self.token(start));
                }
                b'0'..=b'9' => {
                    if self.result_ahead() {
                        if in_variation {
                            return None;
                        }
                        return Some(());
                    }
                    if self.bytes[self.pos..].starts_with(b"0-0") {
                        self.castling(new_move(&mut line.items))?;
                    } else {
                        let number = self.move_number()?;
                        push_token(&mut line.items, Item::MoveNumber, number);
                    }
                }
                b'.' => {
                    // A lone `...` (after `12.` and a space).
                    if !self.bytes[self.pos..].starts_with(b"...") {
                        return None;
                    }
                    self.pos += 3;
                    if self.peek() == Some(b'.') {
                        return None;
                    }
                    push_token(&mut line.items, Item::MoveNumber, self.token(start));
                }
                b'O' => self.castling(new_move(&mut line.items))?,
                b'!' | b'?' => {
                    self.pos += lexicon::annotation_len(&self.src[self.pos..])?;
                    if !is_separator(self.peek()) {
                        return None;
                    }
                    push_token(&mut line.items, Item::Glyph, self.token(start));
                }
                _ => self.san(new_move(&mut line.items))?,
            }
            if first {
                line.span.start = start;
                first = false;
            }
            line.span.end = self.pos;
        }
    }

    /// Whether a result starts here (or something the grammar might read as
    /// one, which the fast path leaves alone).
    fn result_ahead(&self) -> bool {
        let rest = &self.bytes[self.pos..];
        if rest.starts_with(b"1-0") || rest.starts_with(b"0-1") || rest.starts_with(b"1/2") {
            return true;
        }
        // `1 - 0`, `1–0` and the like.
        matches!(rest, [b'0' | b'1', b' ' | b'\t' | b'/', ..] | [b'0' | b'1', 0xE2, ..])
    }

    /// `12.` `12...` `12…` `12)` `12`.
    fn move_number(&mut self) -> Option<Token<'a>> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'.') => {
                while self.peek() == Some(b'.') {
                    self.pos += 1;
                }
            }
            Some(b')') => self.pos += 1,
            Some(b) if b >= 0x80 => {
                if self.src[self.pos..].starts_with(lexicon::ELLIPSIS) {
                    self.pos += lexicon::ELLIPSIS.len_utf8();
                } else {
                    // Look-alike dots and bidi marks.
                    return None;
                }
            }
            _ => {}
        }
        Some(self.token(start))
    }

    /// `O-O`, `O-O-O`, `0-0`, `0-0-0` with their marks.
    fn castling(&mut self, mv: &mut WrittenMove<'a>) -> Option<()> {
        let start = self.pos;
        let o = self.peek()?;
        let rest = &self.bytes[self.pos..];
        let len = if rest.len() >= 5 && rest[1] == b'-' && rest[2] == o && rest[3] == b'-' && rest[4] == o {
            5
        } else if rest.len() >= 3 && rest[1] == b'-' && rest[2] == o {
            3
        } else {
            return None;
        };
        self.pos += len;
        mv.castling = Some(self.token(start));
        self.suffix(mv);
        mv.span = start..self.pos;
        is_separator(self.peek()).then_some(())
    }

    /// A piece letter of the grammar's set, if one starts here.
    fn piece_len(&self) -> Option<usize> {
        lexicon::piece_len(&self.src[self.pos..])
    }

    /// A square `[a-h][1-8]` at the current position.
    fn square_here(&self) -> bool {
        self.peek().is_some_and(is_file) && self.at(1).is_some_and(is_rank)
    }

    fn take(&mut self, len: usize) -> Token<'a> {
        let start = self.pos;
        self.pos += len;
        self.token(start)
    }

    /// A capture sign: `x` `X` `:` `×` or the Cyrillic `х`.
    fn capture_len(&self) -> Option<usize> {
        let ch = self.src[self.pos..].chars().next()?;
        lexicon::is_capture_sign(ch).then(|| ch.len_utf8())
    }

    /// A piece move or a pawn move, in short or long algebraic.
    fn san(&mut self, mv: &mut WrittenMove<'a>) -> Option<()> {
        let start = self.pos;
        if let Some(len) = self.piece_len() {
            mv.piece = Some(self.take(len));
            // The origin: a square followed by more (long algebraic or
            // `Qa4b3`), a file, or a rank; then the capture or the dash.
            if self.square_here() {
                let square_end = self.pos + 2;
                let more = self.bytes.get(square_end).copied().is_some_and(is_file)
                    || self.src[square_end..]
                        .chars()
                        .next()
                        .is_some_and(|c| lexicon::is_capture_sign(c) || lexicon::is_dash(c));
                if more {
                    mv.origin = Some(Origin::Square(self.take(2)));
                }
            } else if self.peek().is_some_and(is_file) {
                mv.origin = Some(Origin::File(self.take(1)));
            } else if self.peek().is_some_and(is_rank) {
                mv.origin = Some(Origin::Rank(self.take(1)));
            }
            if let Some(len) = self.capture_len() {
                mv.capture = Some(self.take(len));
            } else if self.peek() == Some(b'-') {
                mv.dash = Some(self.take(1));
            }
            if !self.square_here() {
                return None;
            }
            mv.destination = Some(self.take(2));
            self.suffix(mv);
        } else {
            if !self.peek().is_some_and(is_file) {
                return None;
            }
            if self.square_here() {
                let first = self.take(2);
                let dash_or_capture =
                    self.capture_len().map(|l| (l, true)).or((self.peek() == Some(b'-')).then_some((1, false)));
                if let Some((len, capture)) = dash_or_capture {
                    mv.origin = Some(Origin::Square(first));
                    let t = self.take(len);
                    if capture {
                        mv.capture = Some(t);
                    } else {
                        mv.dash = Some(t);
                    }
                    if !self.square_here() {
                        return None;
                    }
                    mv.destination = Some(self.take(2));
                } else if self.square_here() {
                    mv.origin = Some(Origin::Square(first));
                    mv.destination = Some(self.take(2));
                } else {
                    mv.destination = Some(first);
                }
            } else {
                mv.origin = Some(Origin::File(self.take(1)));
                if let Some(len) = self.capture_len() {
                    mv.capture = Some(self.take(len));
                }
                if !self.square_here() {
                    return None;
                }
                mv.destination = Some(self.take(2));
            }
            // A promotion: `=Q`, `/Q` or a glued piece letter.
            if matches!(self.peek(), Some(b'=' | b'/')) {
                let sign = self.take(1);
                let len = self.piece_len()?;
                mv.promotion_sign = Some(sign);
                mv.promotion = Some(self.take(len));
            } else if let Some(len) = self.piece_len() {
                if self.peek() == Some(b'p') {
                    return None;
                }
                mv.promotion = Some(self.take(len));
            }
            self.suffix(mv);
        }
        mv.span = start..self.pos;
        is_separator(self.peek()).then_some(())
    }

    /// A check mark (`+` `++` `#` `†` `‡`) and then an annotation (`!` `?`
    /// `!!` `??` `!?` `?!` `‼` ...), glued to the move.
    fn suffix(&mut self, mv: &mut WrittenMove<'a>) {
        if let Some(len) = lexicon::check_len(&self.src[self.pos..]) {
            mv.check = Some(self.take(len));
        }
        if let Some(len) = lexicon::annotation_len(&self.src[self.pos..]) {
            mv.annotation = Some(self.take(len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{lower, parse};

    #[track_caller]
    fn same(text: &str) {
        let fast = lower_fast(text).unwrap_or_else(|| panic!("the fast path gave up on {text:?}"));
        let tree = parse(text, None);
        assert_eq!(fast, lower(&tree, text), "{text:?}");
    }

    #[track_caller]
    fn gives_up(text: &str) {
        assert!(lower_fast(text).is_none(), "{text:?}");
    }

    #[test]
    fn reads_plain_notation_like_the_grammar() {
        same("");
        same(
            "[Event \"A \\\"quoted\\\" event\"]\n[Site  \"?\"]\n\n[Date \"2024.??.??\"]\n1.e4 e5 2. Ng1-f3 Nb8c6 3.Bb5 a6 {comment (x)} 4. Bxa6?! bxa6 5. O-O+ $1 d5!? *",
        );
        same(
            "1. e4 e5 2. Кf3 Кf6 3. d4 exd4 4. e5 Кe4 5. Фxd4 d5 6. Кc3 Кxc3 7. Сg5 Кc6 8. Фe3+ Сe7 9. Кbd2 0-0 10. 0-0-0 Лe8 11. Крb1 *",
        );
        same("1. ♘f3 ♞f6 2. g3 g6 3. ♗g2 ♝g7 4. O-O O-O 1/2-1/2");
        same(
            "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 2. Nf3 ; comment\nNc6\n% escape\n3. Bb5 1-0\n\n[Event \"2\"]\n1. d4 0-1",
        );
        // A `%` inside a line escapes nothing: the grammar reads an error.
        gives_up("1. e4 e5 2. Nf3 Nc6 % no escape\n3. Bb5 *");
        same("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0");
        same("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. Bb5xc6 d7xc6 *");
        same("12. ... Nf6 13. a8=Q b1Q+ 14. exd5 ed5 15. Кр1e2 Nxe4!! *");
        same("1. e4 {multi\nline comment} e5 2) Nf3 3 Nc6 *");
        same("[Event \"x\"]\n1-0\n\n1. e4 *\n1. d4 *");
        same("1. e4 e5 2. f4 2... exf4 3. Nf3 !! 3... g5 ? 4. h4 *");
        // Every check mark and annotation of the lexicon, as the grammar.
        same("1. e4‼ e5⁉ 2. Qh5⁈ Nc6⁇ 3. Bc4 Nf6 4. Qxf7‡ 1-0");
        same("1. e4 e5 2. Bc4 Bc5 3. Bxf7† Kxf7 4. Qh5++ *");
        // A comment ends a move, glued to it or not: the grammar reads no
        // immediate token across it either (found by the incremental
        // property: `Ra7{ comment }Bc6` was one move in the tree).
        same("1. e4 {c}e5 2. Nf3{c}Nc6 3. Bb5{x}a6 4. Ra7{ comment }Bc6 ; line\n{y}O-O 5. O-O{c}d6 *");
    }

    #[test]
    fn gives_up_on_anything_unusual() {
        gives_up("1. е4 *"); // Cyrillic е
        gives_up("1. Kel *"); // l for 1
        gives_up("1. e4 <br/> e5 *");
        gives_up("1. e4 {a {nested} b} e5 *");
        gives_up("1. exd6 e.p. *");
        gives_up("Белые: Крс1, Фf2; пп. a3.");
        gives_up("1. e4 e5 (=) *");
        gives_up("1. e4 e5 1 - 0");
        gives_up("8. Фe3+3 Сe7 *");
        gives_up("1. e4 ±");
        gives_up("[White \"A\0B\"]\n1. e4 *");
        gives_up("1. e4 {\0} e5 *");
    }
}
