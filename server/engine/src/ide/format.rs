//! Document formatting: each tag on its own line, one blank line between
//! the tag section and the moves and between games, moves separated by one
//! space and wrapped at a width (80 columns unless set; a move number
//! never ends a line, it stays with its move). Comments and every other
//! token are kept byte for byte and in order; a document with syntax errors
//! is left alone, and the result is checked to hold exactly the same
//! tokens.

use tree_sitter::Node;

use crate::ide::cancel::Token;
use crate::ide::document::{Document, Kind};
use crate::syntax::kinds;

/// The width lines are wrapped at unless a setting gives another.
pub const DEFAULT_WIDTH: usize = 80;

/// The formatted text at [`DEFAULT_WIDTH`], or `None` when the document
/// cannot be formatted safely.
pub fn format_text(doc: &Document) -> Option<String> {
    format_cancellable(doc, DEFAULT_WIDTH, &Token::never())
}

/// [`format_text`] with lines wrapped before `width` columns (`0`: never
/// wrapped), stopping when `token` is cancelled.
pub fn format_cancellable(doc: &Document, width: usize, token: &Token) -> Option<String> {
    if doc.kind() != Kind::Pgn {
        // The layout is for whole notation files, not for blocks in prose.
        return None;
    }
    let trees: Vec<tree_sitter::Tree> = doc
        .sections
        .iter()
        .map(|p| {
            token.check();
            p.tree(doc)
        })
        .collect();
    if trees.iter().any(|t| t.root_node().has_error()) {
        return None;
    }
    // The layout recurses into variations; nesting too deep to check is
    // too deep to lay out (and is reported as a syntax error).
    if trees.iter().any(|t| crate::syntax::variation_depth(t.root_node()) > crate::syntax::MAX_VARIATION_DEPTH) {
        return None;
    }
    let mut out = Layout::new(width);
    let mut first = true;
    for (section, tree) in doc.sections.iter().zip(&trees) {
        let text = section.text(doc);
        let root = tree.root_node();
        let mut cursor = root.walk();
        for game in root.children(&mut cursor) {
            if !first {
                out.blank_line();
            }
            first = false;
            layout(text, game, &mut out);
        }
    }
    let mut text = out.finish();
    if !text.is_empty() {
        text.push('\n');
    }
    // The promise: nothing dropped, nothing reordered.
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    (squeeze(&text) == squeeze(&doc.text)).then_some(text)
}

#[derive(Default)]
struct Layout {
    /// Lines are wrapped before this many columns; `usize::MAX` never.
    width: usize,
    lines: Vec<String>,
    current: String,
    /// A line end here is part of what was written: a `;` comment or a `%`
    /// escape ends its line, a multi-line comment holds its own.
    hard_breaks: bool,
    /// The last word must end its line (a `;` comment or an escape).
    ends_line: bool,
}

impl Layout {
    fn new(width: usize) -> Layout {
        Layout { width: if width == 0 { usize::MAX } else { width }, ..Layout::default() }
    }

    fn word(&mut self, word: &str) {
        if std::mem::take(&mut self.ends_line) {
            self.end_line();
        }
        if word.contains('\n') {
            self.hard_breaks = true;
            // A multi-line comment keeps its own line breaks.
            if !self.current.is_empty() {
                self.current.push(' ');
            }
            self.current.push_str(word);
            return;
        }
        let width = |s: &str| s.chars().count();
        if !self.current.is_empty()
            && width(self.current.rsplit('\n').next().unwrap_or("")) + 1 + width(word) > self.width
        {
            self.end_line();
        }
        if !self.current.is_empty() {
            self.current.push(' ');
        }
        self.current.push_str(word);
    }

    /// A word that must stand alone on its line (a tag, a `%` escape, a `;`
    /// comment must end its line).
    fn own_line(&mut self, word: &str) {
        self.end_line();
        self.current.push_str(word);
        self.end_line();
        self.hard_breaks = true;
        self.ends_line = true;
    }

    fn end_line(&mut self) {
        if !self.current.is_empty() {
            self.lines.push(std::mem::take(&mut self.current));
        }
    }

    fn blank_line(&mut self) {
        self.end_line();
        if self.lines.last().is_some_and(|l| !l.is_empty()) {
            self.lines.push(String::new());
        }
    }

    fn finish(mut self) -> String {
        self.end_line();
        while self.lines.last().is_some_and(String::is_empty) {
            self.lines.pop();
        }
        self.lines.join("\n")
    }
}

fn layout(source: &str, node: Node<'_>, out: &mut Layout) {
    let text = |n: Node<'_>| &source[n.byte_range()];
    match node.kind() {
        kinds::HEADERS => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                match child.kind() {
                    kinds::TAG => out.own_line(text(child)),
                    kinds::LINE_COMMENT | kinds::ESCAPE => out.own_line(text(child)),
                    _ => out.word(text(child)),
                }
            }
            out.blank_line();
        }
        kinds::GAME | kinds::MOVETEXT => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                layout(source, child, out);
            }
        }
        kinds::VARIATION => {
            // `(` and `)` hug the moves: `(3... Nf6 4. O-O)`.
            let mut cursor = node.walk();
            let mut open = false;
            for child in node.children(&mut cursor) {
                match child.kind() {
                    kinds::L_PAREN => {
                        out.word("(");
                        open = true;
                    }
                    kinds::R_PAREN => {
                        if out.ends_line {
                            // After a `;` comment, `)` would be part of it.
                            out.end_line();
                        }
                        out.current.push(')');
                        out.ends_line = false;
                    }
                    _ => {
                        if open {
                            let mut sub = Layout::new(out.width);
                            layout(source, child, &mut sub);
                            let (hard_breaks, ends_line) = (sub.hard_breaks, sub.ends_line);
                            let inner = sub.finish();
                            if hard_breaks {
                                // Its line ends belong to comments and must stay.
                                out.current.push_str(&inner);
                                out.hard_breaks = true;
                            } else {
                                out.current.push_str(&inner.replace('\n', " "));
                            }
                            out.ends_line = ends_line;
                            open = false;
                        } else {
                            layout(source, child, out);
                        }
                    }
                }
            }
        }
        kinds::LINE_COMMENT | kinds::ESCAPE => out.own_line(text(node)),
        kinds::MOVE => match node.child_by_field_name(kinds::field::NUMBER) {
            // `12.Nf3` and `12.  Nf3` both become `12. Nf3`, one word, so
            // that a line never ends between the number and its move.
            Some(number) => {
                let rest = source[number.end_byte()..node.end_byte()].trim_start();
                if rest.is_empty() {
                    out.word(text(number));
                } else {
                    out.word(&format!("{} {rest}", text(number)));
                }
            }
            None => out.word(text(node)),
        },
        _ => out.word(text(node)),
    }
}
