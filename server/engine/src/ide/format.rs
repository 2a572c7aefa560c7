//! Document formatting: each tag on its own line, one blank line between
//! the tag section and the moves and between games, moves separated by one
//! space and wrapped at a width (80 columns unless set; a move number
//! never ends a line, it stays with its move; a variation's moves wrap
//! like the main line's, `(` and `)` glued to the move beside them and
//! counted in the width; only a single word longer than the width, a long
//! comment or tag, stands past it). Comments and every other
//! token are kept byte for byte and in order; a document with syntax errors
//! is left alone, and the result is checked to hold exactly the same
//! tokens.

use std::ops::Range;

use tree_sitter::Node;

use crate::analysis::Options;
use crate::ide::cancel::Token;
use crate::ide::document::{Document, Kind};
use crate::syntax::kinds;
use crate::syntax::manuscript::UnitKind;

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

/// What Format Document does to a document: its edits (byte ranges of the
/// text and their new text; none when it is laid out already) and, when it
/// left something as it is, why, in a sentence for the user.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Formatted {
    pub edits: Vec<(Range<usize>, String)>,
    pub note: Option<String>,
}

/// Format Document on any kind of document: a notation file as a whole
/// ([`format_cancellable`]); in a Markdown manuscript each fenced
/// ```` ```pgn ```` block (whole games, nothing else on their lines) laid
/// out the same way. The runs in the prose and LaTeX's `\mainline{...}`
/// are left as written: their lines are the prose's, which the author
/// wrapped, and a move moved to another line would move a word of the
/// sentence with it. The note says so, and says why a block or a notation
/// file was left alone.
pub fn format_document(doc: &Document, width: usize, token: &Token) -> Formatted {
    if doc.kind() == Kind::Pgn {
        return match format_cancellable(doc, width, token) {
            Some(text) if text == doc.text => Formatted::default(),
            Some(text) => Formatted { edits: vec![(0..doc.text.len(), text)], note: None },
            None => Formatted {
                edits: Vec::new(),
                note: Some(
                    "Format Document left the file as it is: it has syntax errors (or variations nested too deep), and a layout could lose or move what they hide."
                        .to_owned(),
                ),
            },
        };
    }
    let units = doc.manuscript_units();
    let mut edits = Vec::new();
    let (mut blocks, mut broken, mut prose) = (0, 0, 0);
    for unit in units {
        token.check();
        if unit.kind != UnitKind::Block {
            prose += 1;
            continue;
        }
        blocks += 1;
        let range = unit.notation.clone();
        let Some(original) = doc.text.get(range.clone()) else { continue };
        let block = Document::open(original.to_owned(), 0, &Options::default());
        match format_cancellable(&block, width, token) {
            Some(mut text) => {
                // The block's text ends as it did (at its last line's end,
                // or right before the closing fence's line).
                if !original.ends_with('\n') && text.ends_with('\n') {
                    text.pop();
                }
                if text.trim().is_empty() != original.trim().is_empty() {
                    continue;
                }
                if text != original {
                    edits.push((range, text));
                }
            }
            None => broken += 1,
        }
    }
    let mut why = Vec::new();
    if prose > 0 {
        why.push(format!(
            "{prose} run{} of moves in the prose {} left as written (their lines are the prose's, wrapped by the author{})",
            if prose == 1 { "" } else { "s" },
            if prose == 1 { "is" } else { "are" },
            if doc.kind() == Kind::Markdown { "; games in fenced ```pgn blocks are laid out" } else { "" },
        ));
    }
    if broken > 0 {
        why.push(format!(
            "{broken} fenced block{} with syntax errors left as {}",
            if broken == 1 { "" } else { "s" },
            if broken == 1 { "it is" } else { "they are" }
        ));
    }
    let note = if why.is_empty() {
        None
    } else {
        let done = match blocks - broken {
            0 => String::new(),
            1 => "Format Document laid out 1 fenced block; ".to_owned(),
            n => format!("Format Document laid out {n} fenced blocks; "),
        };
        let mut sentence = format!("{done}{}.", why.join("; "));
        if done.is_empty() {
            sentence = format!("Format Document: {sentence}");
        }
        Some(sentence)
    };
    Formatted { edits, note }
}

#[derive(Default)]
struct Layout {
    /// Lines are wrapped before this many columns; `usize::MAX` never.
    width: usize,
    lines: Vec<String>,
    current: String,
    /// The unit being gathered: a word with the parentheses that hug it
    /// (`(3...` and `Nf6))`), placed on a line as one, so that a `(` never
    /// ends a line and a `)` never starts one, and the width counts them.
    unit: String,
    /// The next word joins the unit (it follows a `(`).
    glue: bool,
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
        if std::mem::take(&mut self.glue) && !self.unit.is_empty() {
            self.unit.push_str(word);
            return;
        }
        self.flush();
        self.unit.push_str(word);
    }

    /// `(`: it hugs the word after it.
    fn open(&mut self) {
        self.word("(");
        self.glue = true;
    }

    /// `)`: it hugs the word before it; after a `;` comment (which ends
    /// its line) it starts the next line.
    fn close(&mut self) {
        self.glue = false;
        // With no unit (a `;` comment or an escape ended the line before),
        // the `)` starts the next line.
        self.unit.push(')');
    }

    /// Places the gathered unit on the current line, or on a new one when
    /// it would pass the width.
    fn flush(&mut self) {
        if self.unit.is_empty() {
            return;
        }
        let unit = std::mem::take(&mut self.unit);
        if std::mem::take(&mut self.ends_line) {
            self.end_line();
        }
        if unit.contains('\n') {
            self.hard_breaks = true;
            // A multi-line comment keeps its own line breaks.
            if !self.current.is_empty() {
                self.current.push(' ');
            }
            self.current.push_str(&unit);
            return;
        }
        let width = |s: &str| s.chars().count();
        if !self.current.is_empty()
            && width(self.current.rsplit('\n').next().unwrap_or("")) + 1 + width(&unit) > self.width
        {
            self.end_line();
        }
        if !self.current.is_empty() {
            self.current.push(' ');
        }
        self.current.push_str(&unit);
    }

    /// A word that must stand alone on its line (a tag, a `%` escape, a `;`
    /// comment must end its line). A `%` escapes its line only in the first
    /// column, so an escape is never glued to the `(` before it.
    fn own_line(&mut self, word: &str) {
        let glue = std::mem::take(&mut self.glue);
        if glue && !self.unit.is_empty() && !word.starts_with('%') {
            // `(; comment`: the comment ends the line its `(` starts.
            self.unit.push_str(word);
            self.flush();
        } else {
            self.flush();
            self.end_line();
            self.current.push_str(word);
        }
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
        self.flush();
        self.end_line();
        if self.lines.last().is_some_and(|l| !l.is_empty()) {
            self.lines.push(String::new());
        }
    }

    fn finish(mut self) -> String {
        self.flush();
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
            // `(` and `)` hug the moves: `(3... Nf6 4. O-O)`; the
            // variation's moves wrap at the width like the main line's.
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                match child.kind() {
                    kinds::L_PAREN => out.open(),
                    kinds::R_PAREN => out.close(),
                    _ => layout(source, child, out),
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
