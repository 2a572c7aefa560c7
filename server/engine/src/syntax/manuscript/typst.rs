//! The prose of a Typst manuscript, read as LaTeX's is: the markup blanked
//! so that runs of notation in the text are found as in plain text, at
//! their offsets in the file.
//!
//! Blanked: comments (`// ...`, `/* ... */`), code (`#set ...`, `#let ...`,
//! `#show ...`, `#import ...` to the end of their line and any bracket they
//! open; a call's name and its arguments in parentheses, `#{ ... }`), math
//! (`$ ... $`), heading markers (`= `), list markers (`- `, `+ `, `/ `),
//! strong and emphasis marks (`*`, `_`), labels (`<intro>`), references
//! (`@fig`), the backslash of an escape, and the backticks and language tag
//! of raw text. Kept: the prose, the content of a call's `[...]` blocks
//! (`#text(font: "X")[1. e4 e5]`), and raw text and raw blocks (moves are
//! read there too). A `1.` at a line's start is a move number as much as a
//! numbered list's marker: it is kept.

use super::blank;

pub(super) fn view(text: &str) -> Vec<u8> {
    let mut view = text.as_bytes().to_vec();
    let mut reader = Reader { bytes: text.as_bytes(), view: &mut view, depth: 0 };
    reader.markup(0, false);
    view
}

struct Reader<'a> {
    bytes: &'a [u8],
    view: &'a mut Vec<u8>,
    /// Content blocks open: past [`MAX_DEPTH`] a block is blanked whole
    /// (hostile nesting must not overflow the stack).
    depth: usize,
}

const MAX_DEPTH: usize = 64;

impl Reader<'_> {
    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn at_line_start(&self, i: usize) -> bool {
        // Only the blanks before it are looked at: linear in a line.
        matches!(self.bytes[..i].iter().rev().find(|&&b| b != b' ' && b != b'\t'), None | Some(b'\n'))
    }

    /// Reads markup from `i`; inside a content block (`in_block`) up to its
    /// closing `]`, whose offset it returns (else the end).
    fn markup(&mut self, mut i: usize, in_block: bool) -> usize {
        let mut depth = 0usize;
        while i < self.bytes.len() {
            let b = self.bytes[i];
            match b {
                b']' if in_block && depth == 0 => return i,
                b'[' => {
                    depth += 1;
                    i += 1;
                }
                b']' => {
                    depth = depth.saturating_sub(1);
                    i += 1;
                }
                b'/' if self.at(i + 1) == b'/' && (i == 0 || self.bytes[i - 1] != b':') => {
                    let end = self.line_end(i);
                    blank(self.view, i..end);
                    i = end;
                }
                b'/' if self.at(i + 1) == b'*' => i = self.block_comment(i),
                b'\\' => {
                    blank(self.view, i..i + 1);
                    // The escaped character is text (a line break's `\`
                    // alone is blanked).
                    i += 1 + usize::from(i + 1 < self.bytes.len() && self.at(i + 1) != b'\n');
                    if i > self.bytes.len() {
                        i = self.bytes.len();
                    }
                    // Keep a whole character.
                    while i < self.bytes.len() && (self.bytes[i] & 0xC0) == 0x80 {
                        i += 1;
                    }
                }
                b'`' => i = self.raw(i),
                b'$' => {
                    let end =
                        self.bytes[i + 1..].iter().position(|&c| c == b'$').map_or(self.bytes.len(), |k| i + 2 + k);
                    blank(self.view, i..end);
                    i = end;
                }
                b'#' => i = self.code(i),
                b'*' | b'_' | b'~' => {
                    blank(self.view, i..i + 1);
                    i += 1;
                }
                b'<' if self.label_end(i).is_some() => {
                    let end = self.label_end(i).unwrap_or(i + 1);
                    blank(self.view, i..end);
                    i = end;
                }
                b'@' if self.at(i + 1).is_ascii_alphabetic() => {
                    let end = self.ident_end(i + 1);
                    blank(self.view, i..end);
                    i = end;
                }
                b'=' | b'-' | b'+' | b'/' if self.at_line_start(i) => {
                    let mut end = i;
                    if b == b'=' {
                        while self.at(end) == b'=' {
                            end += 1;
                        }
                    } else {
                        end += 1;
                    }
                    if matches!(self.at(end), b' ' | b'\t') {
                        blank(self.view, i..end);
                    }
                    i = end;
                }
                _ => i += 1,
            }
        }
        self.bytes.len()
    }

    fn line_end(&self, i: usize) -> usize {
        self.bytes[i..].iter().position(|&c| c == b'\n').map_or(self.bytes.len(), |k| i + k)
    }

    /// A `/* ... */` comment (nested ones counted), blanked; returns its end.
    fn block_comment(&mut self, start: usize) -> usize {
        let mut depth = 0;
        let mut i = start;
        while i < self.bytes.len() {
            if self.bytes[i] == b'/' && self.at(i + 1) == b'*' {
                depth += 1;
                i += 2;
            } else if self.bytes[i] == b'*' && self.at(i + 1) == b'/' {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    break;
                }
            } else {
                i += 1;
            }
        }
        let end = i.min(self.bytes.len());
        blank(self.view, start..end);
        end
    }

    /// Raw text: `` `x` `` or a ```` ``` ```` block (with its language
    /// tag); the backticks and the tag blanked, the content kept.
    fn raw(&mut self, start: usize) -> usize {
        let ticks = self.bytes[start..].iter().take_while(|&&c| c == b'`').count();
        if ticks == 2 {
            blank(self.view, start..start + 2);
            return start + 2;
        }
        let open_end = start + ticks;
        let mut content = open_end;
        if ticks >= 3 {
            content = self.ident_end(open_end);
        }
        let fence = &self.bytes[start..open_end];
        let close = memchr::memmem::find(&self.bytes[content..], fence).map(|k| content + k);
        blank(self.view, start..content);
        match close {
            Some(c) => {
                blank(self.view, c..c + ticks);
                c + ticks
            }
            None => self.bytes.len(),
        }
    }

    fn ident_end(&self, mut i: usize) -> usize {
        while i < self.bytes.len() && (self.bytes[i].is_ascii_alphanumeric() || matches!(self.bytes[i], b'-' | b'_')) {
            i += 1;
        }
        i
    }

    fn label_end(&self, i: usize) -> Option<usize> {
        let end = self.ident_end(i + 1);
        (end > i + 1 && self.at(end) == b'>').then_some(end + 1)
    }

    /// Code after `#`: blanked, except the content of `[...]` blocks of a
    /// call; returns where the markup goes on.
    fn code(&mut self, start: usize) -> usize {
        let i = start + 1;
        match self.at(i) {
            b'{' | b'(' => {
                let end = self.balanced(i);
                blank(self.view, start..end);
                end
            }
            b'[' => {
                blank(self.view, start..i + 1);
                self.content(i)
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let end = self.ident_end(i);
                let word = &self.bytes[i..end];
                if matches!(word, b"set" | b"let" | b"show" | b"import" | b"include") {
                    // To the end of the line and of any bracket opened on it.
                    let mut j = end;
                    while j < self.bytes.len() && self.bytes[j] != b'\n' {
                        j = match self.bytes[j] {
                            b'(' | b'[' | b'{' => self.balanced(j),
                            b'"' => self.string(j),
                            _ => j + 1,
                        };
                    }
                    blank(self.view, start..j);
                    return j;
                }
                blank(self.view, start..end);
                self.call_rest(end)
            }
            _ => {
                // A lone `#` is text.
                i
            }
        }
    }

    /// After a name in code: field accesses, arguments and content blocks.
    fn call_rest(&mut self, mut i: usize) -> usize {
        loop {
            match self.at(i) {
                b'(' => {
                    let end = self.balanced(i);
                    blank(self.view, i..end);
                    i = end;
                }
                b'[' => i = self.content(i),
                b'.' if self.at(i + 1).is_ascii_alphabetic() => {
                    let end = self.ident_end(i + 1);
                    blank(self.view, i..end);
                    i = end;
                }
                _ => return i,
            }
        }
    }

    /// A content block at `open` (`[`): the brackets blanked, its markup
    /// read; returns the offset after it.
    fn content(&mut self, open: usize) -> usize {
        if self.depth >= MAX_DEPTH {
            let end = self.balanced(open);
            blank(self.view, open..end);
            return end;
        }
        blank(self.view, open..open + 1);
        self.depth += 1;
        let close = self.markup(open + 1, true);
        self.depth -= 1;
        if close < self.bytes.len() {
            blank(self.view, close..close + 1);
            close + 1
        } else {
            close
        }
    }

    /// The end of the bracket opened at `open` (strings stepped over).
    fn balanced(&self, open: usize) -> usize {
        let mut depth = 0usize;
        let mut i = open;
        while i < self.bytes.len() {
            match self.bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i + 1;
                    }
                }
                b'"' => {
                    i = self.string(i);
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        self.bytes.len()
    }

    /// The end of the string opened at `open`.
    fn string(&self, open: usize) -> usize {
        let mut i = open + 1;
        while i < self.bytes.len() {
            match self.bytes[i] {
                b'\\' => i += 2,
                b'"' => return i + 1,
                _ => i += 1,
            }
        }
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> String {
        String::from_utf8(view(text)).unwrap()
    }

    #[test]
    fn markup_is_blanked_and_prose_kept() {
        let text = "#set page(width: 10cm)\n#import \"@preview/staunton:0.1\": *\n= The *Spanish* game\n\
                    After 1. e4 e5 2. Nf3 // a comment 3. d4\nNc6 _here_ $x^2$ #emph[3. Bb5] a6 <label> @ref\n\
                    ```pgn\n4. Ba4 Nf6\n```\n/* 5. O-O */ `5. O-O`";
        let out = v(text);
        assert_eq!(out.len(), text.len());
        assert_eq!(out.matches('\n').count(), text.matches('\n').count());
        let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words, "The Spanish game After 1. e4 e5 2. Nf3 Nc6 here 3. Bb5 a6 4. Ba4 Nf6 5. O-O");
        let at = text.find("3. Bb5").unwrap();
        assert_eq!(&out[at..at + 6], "3. Bb5");
    }

    #[test]
    fn deep_nesting_is_no_overflow() {
        let text = "#f[".repeat(100_000) + "1. e4";
        assert_eq!(v(&text).len(), text.len());
    }

    #[test]
    fn broken_code_is_no_panic() {
        for text in ["#", "#f(", "#f[", "#set (", "`", "```", "/*", "$", "\\", "#{", "#[", "<a", "@", "\\é", "*]]"] {
            assert_eq!(v(text).len(), text.len(), "{text:?}");
        }
    }
}
