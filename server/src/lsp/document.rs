//! An open document: its text (a rope for positions, a string for the
//! parser), its tree, and the analysis of each game, kept up to date edit by
//! edit.
//!
//! An edit goes to the rope, the string and the tree at once (`Tree::edit`,
//! then a reparse that reuses the old tree). Only the games whose text the
//! edit touched are analysed again; the others keep their diagnostics,
//! shifted by the edit's length.

use std::ops::Range;

use ropey::Rope;
use tree_sitter::{InputEdit, Node, Parser, Point, Tree};

use crate::analysis::{self, Diagnostic, GameReport, Options};
use crate::line_index::Unit;
use crate::syntax;

/// One game's analysis, cached between edits.
#[derive(Clone, Debug)]
pub struct CachedGame {
    pub range: Range<usize>,
    pub report: GameReport,
}

pub struct Document {
    pub version: i32,
    pub rope: Rope,
    pub text: String,
    pub tree: Tree,
    parser: Parser,
    pub games: Vec<CachedGame>,
    /// Games analysed again by the last update (for tests and benchmarks).
    pub last_reanalysed: usize,
}

/// A change as the protocol gives it, already in byte offsets.
pub struct ByteChange {
    pub range: Option<Range<usize>>,
    pub text: String,
}

impl Document {
    pub fn open(text: String, version: i32, options: &Options) -> Document {
        let mut parser = syntax::parser();
        let tree = syntax::parse_with(&mut parser, &text, None);
        let rope = Rope::from_str(&text);
        let mut doc = Document { version, rope, text, tree, parser, games: Vec::new(), last_reanalysed: 0 };
        doc.reanalyse_all(options);
        doc
    }

    pub fn reanalyse_all(&mut self, options: &Options) {
        let mut games = Vec::new();
        let lowered = syntax::lower(&self.tree, &self.text);
        // `lower` attaches errors between games to a game; analysing the
        // lowered games keeps that behaviour for a fresh open.
        for game in &lowered {
            games.push(CachedGame {
                range: game.span.clone(),
                report: analysis::analyze_game(game, &self.text, options),
            });
        }
        self.last_reanalysed = games.len();
        self.games = games;
    }

    /// Applies the changes of one `didChange`, in order, then reparses and
    /// re-analyses what they touched.
    pub fn apply_changes(&mut self, changes: Vec<ByteChange>, version: i32, options: &Options) {
        let mut full_reload = false;
        // The span of text the changes wrote, in the new text's offsets.
        let mut dirty: Vec<Range<usize>> = Vec::new();
        for change in changes {
            match change.range {
                None => {
                    self.text = change.text;
                    self.rope = Rope::from_str(&self.text);
                    full_reload = true;
                }
                Some(range) => {
                    let start = range.start.min(self.text.len());
                    let end = range.end.clamp(start, self.text.len());
                    let start = floor_boundary(&self.text, start);
                    let end = floor_boundary(&self.text, end);
                    let start_position = self.point(start);
                    let old_end_position = self.point(end);
                    let start_char = self.rope.byte_to_char(start);
                    let end_char = self.rope.byte_to_char(end);
                    self.rope.remove(start_char..end_char);
                    self.rope.insert(start_char, &change.text);
                    self.text.replace_range(start..end, &change.text);
                    let new_end = start + change.text.len();
                    let new_end_position = advance(start_position, &change.text);
                    self.tree.edit(&InputEdit {
                        start_byte: start,
                        old_end_byte: end,
                        new_end_byte: new_end,
                        start_position,
                        old_end_position,
                        new_end_position,
                    });
                    let delta = new_end as isize - end as isize;
                    self.shift_games(start, end, delta);
                    let map = |x: usize| {
                        if x >= end {
                            (x as isize + delta) as usize
                        } else if x > start {
                            new_end
                        } else {
                            x
                        }
                    };
                    for d in &mut dirty {
                        *d = map(d.start)..map(d.end);
                    }
                    dirty.push(start..new_end);
                }
            }
        }
        self.version = version;
        if full_reload {
            self.tree = syntax::parse_with(&mut self.parser, &self.text, None);
            self.reanalyse_all(options);
            return;
        }
        let new_tree = syntax::parse_with(&mut self.parser, &self.text, Some(&self.tree));
        let mut changed: Vec<Range<usize>> = self.tree.changed_ranges(&new_tree).map(|r| r.start_byte..r.end_byte).collect();
        changed.extend(dirty);
        self.tree = new_tree;
        self.refresh_games(&changed, options);
    }

    /// Moves the cached games after an edit; drops those it touched.
    fn shift_games(&mut self, start: usize, end: usize, delta: isize) {
        self.games.retain_mut(|g| {
            if g.range.end < start {
                true
            } else if g.range.start > end {
                let by = |x: usize| (x as isize + delta) as usize;
                g.range = by(g.range.start)..by(g.range.end);
                g.report.span = by(g.report.span.start)..by(g.report.span.end);
                for d in &mut g.report.diagnostics {
                    shift_diagnostic(d, delta);
                }
                true
            } else {
                false
            }
        });
    }

    /// Re-analyses the games that intersect a changed range or have no
    /// cached analysis; reuses the rest.
    fn refresh_games(&mut self, changed: &[Range<usize>], options: &Options) {
        let root = self.tree.root_node();
        let mut cursor = root.walk();
        let mut old = std::mem::take(&mut self.games).into_iter().peekable();
        let mut games = Vec::new();
        let mut reanalysed = 0;
        for node in root.children(&mut cursor) {
            let range = node.byte_range();
            if node.is_error() || node.is_missing() {
                // Text between games that is not notation: its syntax
                // errors stand on their own (a fresh open files them under
                // the next game; the diagnostics are the same, in the same
                // order).
                games.push(CachedGame { range: range.clone(), report: stray_errors(node, &self.text) });
                continue;
            }
            if node.kind() != "game" {
                continue;
            }
            while old.peek().is_some_and(|g| g.range.start < range.start) {
                old.next();
            }
            let touched = changed.iter().any(|c| c.start <= range.end && c.end >= range.start);
            let reuse = !touched && old.peek().is_some_and(|g| g.range == range);
            if reuse {
                games.push(old.next().expect("peeked"));
            } else {
                games.push(self.analyse_node(node, options));
                reanalysed += 1;
            }
        }
        self.last_reanalysed = reanalysed;
        self.games = games;
    }

    fn analyse_node(&self, node: Node<'_>, options: &Options) -> CachedGame {
        let game = syntax::lower_game(node, &self.text);
        CachedGame { range: node.byte_range(), report: analysis::analyze_game(&game, &self.text, options) }
    }

    /// Every diagnostic of the document, in order.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.games.iter().flat_map(|g| g.report.diagnostics.iter())
    }

    /// The tree-sitter point (row, byte column) of a byte offset.
    fn point(&self, offset: usize) -> Point {
        let line = self.rope.byte_to_line(offset);
        Point { row: line, column: offset - self.rope.line_to_byte(line) }
    }

    /// Byte offset of an LSP position (0-based line, column in `unit`);
    /// a column past the line's end clamps to the end, a line past the
    /// document's end to the document's end.
    pub fn offset(&self, line: usize, column: usize, unit: Unit) -> usize {
        if line >= self.rope.len_lines() {
            return self.text.len();
        }
        let line_start = self.rope.line_to_byte(line);
        let line_slice = self.rope.line(line);
        let mut counted = 0;
        let mut bytes = 0;
        for ch in line_slice.chars() {
            if counted >= column || ch == '\n' || ch == '\r' {
                break;
            }
            counted += match unit {
                Unit::Utf8 => ch.len_utf8(),
                Unit::Utf16 => ch.len_utf16(),
                Unit::Char => 1,
            };
            bytes += ch.len_utf8();
        }
        line_start + bytes
    }

    /// The LSP position (0-based line, column in `unit`) of a byte offset.
    pub fn position(&self, offset: usize, unit: Unit) -> (usize, usize) {
        let offset = floor_boundary(&self.text, offset.min(self.text.len()));
        let line = self.rope.byte_to_line(offset);
        let line_start = self.rope.line_to_byte(line);
        let column = match unit {
            Unit::Utf8 => offset - line_start,
            Unit::Char => self.rope.byte_to_char(offset) - self.rope.line_to_char(line),
            Unit::Utf16 => {
                let c = self.rope.byte_to_char(offset);
                let l = self.rope.line_to_char(line);
                self.rope.char_to_utf16_cu(c) - self.rope.char_to_utf16_cu(l)
            }
        };
        (line, column)
    }

    /// The game node that holds a byte offset.
    pub fn game_at(&self, offset: usize) -> Option<Node<'_>> {
        let root = self.tree.root_node();
        let mut cursor = root.walk();
        let found = root
            .children(&mut cursor)
            .find(|n| n.kind() == "game" && n.start_byte() <= offset && offset <= n.end_byte());
        found
    }
}

fn stray_errors(node: Node<'_>, text: &str) -> GameReport {
    GameReport {
        span: node.byte_range(),
        language: crate::analysis::Language::En,
        language_source: crate::analysis::LanguageSource::Undecided,
        diagnostics: syntax::errors_in(node, text)
            .into_iter()
            .map(|e| Diagnostic::new(crate::analysis::Code::Syntax, e.span, e.message))
            .collect(),
        plies: 0,
    }
}

fn shift_diagnostic(d: &mut Diagnostic, delta: isize) {
    let by = |r: &mut Range<usize>| *r = (r.start as isize + delta) as usize..(r.end as isize + delta) as usize;
    by(&mut d.span);
    for r in &mut d.related {
        by(&mut r.span);
    }
    for f in &mut d.fixes {
        for e in &mut f.edits {
            by(&mut e.span);
        }
    }
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The point after inserting `text` at `start`.
fn advance(start: Point, text: &str) -> Point {
    let mut row = start.row;
    let mut column = start.column;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                row += 1;
                column = 0;
            }
            b'\r' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                row += 1;
                column = 0;
            }
            _ => column += 1,
        }
        i += 1;
    }
    Point { row, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(doc: &mut Document, start: usize, end: usize, text: &str) {
        doc.apply_changes(vec![ByteChange { range: Some(start..end), text: text.to_owned() }], doc.version + 1, &Options::default());
    }

    #[test]
    fn edits_reanalyse_only_the_touched_game_and_match_a_fresh_open() {
        let games: Vec<String> = (0..20).map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n")).collect();
        let text = games.concat();
        let options = Options::default();
        let mut doc = Document::open(text.clone(), 1, &options);
        assert!(doc.diagnostics().next().is_none());
        let at = text.find("Nf3").unwrap() + games[0].len() * 5;
        edit(&mut doc, at, at + 3, "Nf5");
        assert_eq!(doc.last_reanalysed, 1);
        let fresh = Document::open(doc.text.clone(), 1, &options);
        let a: Vec<_> = doc.diagnostics().cloned().collect();
        let b: Vec<_> = fresh.diagnostics().cloned().collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(a[0].code, crate::analysis::Code::IllegalMove);
        // Insert a line before everything: every later span shifts.
        edit(&mut doc, 0, 0, "\n");
        let fresh = Document::open(doc.text.clone(), 1, &options);
        assert_eq!(doc.diagnostics().cloned().collect::<Vec<_>>(), fresh.diagnostics().cloned().collect::<Vec<_>>());
        assert_eq!(doc.rope.to_string(), doc.text);
    }
}
