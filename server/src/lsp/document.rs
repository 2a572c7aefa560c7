//! An open document: its text (a rope for positions, a string for the
//! parser) cut into pieces of whole games (`syntax::split`), each with its
//! own tree and analysis, kept up to date edit by edit.
//!
//! An edit goes to the rope and the string at once. The pieces it touches
//! are rescanned; a piece that stays one piece gets `Tree::edit` and a
//! reparse that reuses its old tree, and only its games are analysed
//! again. Pieces after the edit only move. So a keystroke costs the same
//! in a 10 MB document as in a 10 KB one.
//!
//! Spans inside a piece (its tree, its games' diagnostics) are relative to
//! the piece's start; [`Document::diagnostics`] and the handlers add it.
//!
//! A Markdown document ([`Kind::Markdown`]) is parsed through a blanked copy
//! of its text (`syntax::markdown`): only its ```` ```pgn ```` and
//! ```` ```chess ```` blocks are left, at the same offsets, so every span
//! is a position in the real text. The rope and `text` keep the real text;
//! pieces are cut from the blanked copy ([`Document::source`]). After an
//! edit the blanked copy is made again (an edit may open or close a fence far
//! from the text it changes), compared with the old one, and only the pieces
//! whose blanked text changed are parsed and analysed again.

use std::collections::HashMap;
use std::ops::Range;

use ropey::Rope;
use tree_sitter::{InputEdit, Point, Tree};

use crate::analysis::{self, Diagnostic, GameReport, Options};
use crate::line_index::Unit;
use crate::lsp::outline::{self, Outline};
use crate::syntax::{self, markdown, split};

/// How many pieces keep their syntax tree between edits. A tree takes
/// tens of times its text's size; the pieces being edited keep theirs for
/// incremental reparses, the others are parsed again (a piece is a game or
/// so: well under a millisecond) when a request needs their tree.
const TREES_KEPT: usize = 64;

/// Whole games parsed on their own.
#[derive(Clone)]
pub struct Piece {
    pub start: usize,
    pub len: usize,
    tree: Option<Tree>,
    /// When this piece was last edited (for keeping recent trees).
    used: u64,
    /// The analysis of each game in the piece, spans relative to `start`.
    pub games: Vec<GameReport>,
    pub outline: Outline,
}

impl Piece {
    pub fn range(&self) -> Range<usize> {
        self.start..self.start + self.len
    }

    /// The piece's own text, as the parser reads it (blanked outside the
    /// chess blocks of a Markdown document).
    pub fn text<'d>(&self, doc: &'d Document) -> &'d str {
        &doc.source()[self.range()]
    }

    /// The piece's syntax tree (positions relative to the piece): the kept
    /// one, or a fresh parse.
    pub fn tree(&self, doc: &Document) -> Tree {
        match &self.tree {
            Some(tree) => tree.clone(),
            None => syntax::parse(self.text(doc), None),
        }
    }
}

/// What a document is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Notation throughout (`*.pgn`).
    Pgn,
    /// Markdown with notation in fenced ```` ```pgn ```` / ```` ```chess ````
    /// blocks.
    Markdown,
}

impl Kind {
    /// The kind of a document from its `languageId` and, when that says
    /// nothing known, its URI's extension.
    pub fn detect(language_id: &str, uri: &str) -> Kind {
        match language_id.to_ascii_lowercase().as_str() {
            "markdown" | "md" | "mdx" | "quarto" | "rmd" => Kind::Markdown,
            "pgn" | "chess" => Kind::Pgn,
            _ => {
                let path = uri.split(['?', '#']).next().unwrap_or(uri).to_ascii_lowercase();
                let markdown = [".md", ".markdown", ".mdown", ".mkd", ".mdx"].iter().any(|ext| path.ends_with(ext));
                if markdown { Kind::Markdown } else { Kind::Pgn }
            }
        }
    }
}

/// The parser's view of a Markdown document.
struct MarkdownView {
    /// The text with everything outside the chess blocks blanked.
    blanked: String,
    blocks: Vec<markdown::Block>,
}

impl MarkdownView {
    fn new(text: &str) -> MarkdownView {
        let blocks = markdown::chess_blocks(text);
        MarkdownView { blanked: markdown::blank(text, &blocks), blocks }
    }

    fn piece_starts(&self) -> Vec<usize> {
        markdown::piece_starts(&self.blanked, &self.blocks)
    }
}

pub struct Document {
    pub version: i32,
    pub rope: Rope,
    pub text: String,
    pub pieces: Vec<Piece>,
    clock: u64,
    /// Pieces parsed and analysed again by the last update (for tests and
    /// benchmarks).
    pub last_reanalysed: usize,
    /// For a Markdown document, what the parser reads.
    markdown: Option<MarkdownView>,
}

/// A change as the protocol gives it, already in byte offsets.
pub struct ByteChange {
    pub range: Option<Range<usize>>,
    pub text: String,
}

/// Parses and analyses one piece of `text`.
fn build_piece(text: &str, range: Range<usize>, old: Option<&Tree>, options: &Options, keep: bool, used: u64) -> Piece {
    let source = &text[range.clone()];
    if !keep
        && let Some((lowered, long_comments)) = syntax::fast::lower_fast_with_comments(source)
    {
        // No tree is kept for this piece anyway: the fast path gives the
        // same games without building one.
        let games = lowered.iter().map(|g| analysis::analyze_game(g, source, options)).collect();
        let outline = outline::outline_without_tree(&lowered, &long_comments, source);
        return Piece { start: range.start, len: range.len(), tree: None, used, games, outline };
    }
    let tree = syntax::parse(source, old);
    let lowered = syntax::lower(&tree, source);
    let games = lowered.iter().map(|g| analysis::analyze_game(g, source, options)).collect();
    let outline = outline::outline(&tree, &lowered, source);
    Piece { start: range.start, len: range.len(), tree: keep.then_some(tree), used, games, outline }
}

/// Builds every piece of a text cut at `starts`, on every core.
fn build_all(text: &str, starts: &[usize], options: &Options) -> Vec<Piece> {
    let ranges: Vec<Range<usize>> = starts
        .iter()
        .enumerate()
        .map(|(i, &s)| s..starts.get(i + 1).copied().unwrap_or(text.len()))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(ranges.len()).max(1);
    if threads == 1 || text.len() < 1 << 20 {
        return ranges.into_iter().map(|r| build_piece(text, r, None, options, false, 0)).collect();
    }
    let chunk = ranges.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = ranges
            .chunks(chunk)
            .map(|rs| scope.spawn(move || rs.iter().map(|r| build_piece(text, r.clone(), None, options, false, 0)).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    })
}

impl Document {
    /// Opens a notation (PGN) document.
    pub fn open(text: String, version: i32, options: &Options) -> Document {
        Document::open_as(Kind::Pgn, text, version, options)
    }

    pub fn open_as(kind: Kind, text: String, version: i32, options: &Options) -> Document {
        let rope = Rope::from_str(&text);
        let (pieces, markdown) = match kind {
            Kind::Pgn => (build_all(&text, &split::piece_starts(&text), options), None),
            Kind::Markdown => {
                let view = MarkdownView::new(&text);
                (build_all(&view.blanked, &view.piece_starts(), options), Some(view))
            }
        };
        let last_reanalysed = pieces.len();
        Document { version, rope, text, pieces, clock: 0, last_reanalysed, markdown }
    }

    pub fn kind(&self) -> Kind {
        if self.markdown.is_some() { Kind::Markdown } else { Kind::Pgn }
    }

    /// The text the parser reads: the text itself, or for Markdown the text
    /// blanked outside its chess blocks (same offsets, same lines).
    pub fn source(&self) -> &str {
        match &self.markdown {
            Some(view) => &view.blanked,
            None => &self.text,
        }
    }

    /// Whether an offset is inside notation: anywhere in a PGN document,
    /// inside a chess block of a Markdown one.
    pub fn in_notation(&self, offset: usize) -> bool {
        match &self.markdown {
            None => true,
            Some(view) => view.blocks.iter().any(|b| {
                b.content.start <= offset && (offset < b.content.end || (offset == b.content.end && offset == self.text.len()))
            }),
        }
    }

    pub fn reanalyse_all(&mut self, options: &Options) {
        let source = match &self.markdown {
            Some(view) => &view.blanked,
            None => &self.text,
        };
        for piece in &mut self.pieces {
            let source = &source[piece.start..piece.start + piece.len];
            let tree = match &piece.tree {
                Some(tree) => tree.clone(),
                None => syntax::parse(source, None),
            };
            piece.games =
                syntax::lower(&tree, source).iter().map(|g| analysis::analyze_game(g, source, options)).collect();
        }
        self.last_reanalysed = self.pieces.len();
    }

    /// Applies the changes of one `didChange`, in order.
    pub fn apply_changes(&mut self, changes: Vec<ByteChange>, version: i32, options: &Options) {
        self.last_reanalysed = 0;
        for change in changes {
            match change.range {
                None => {
                    *self = Document::open_as(self.kind(), change.text, version, options);
                }
                Some(range) => self.apply_one(range, &change.text, options),
            }
        }
        self.version = version;
    }

    fn apply_one(&mut self, range: Range<usize>, new_text: &str, options: &Options) {
        let start = floor_boundary(&self.text, range.start.min(self.text.len()));
        let end = floor_boundary(&self.text, range.end.clamp(start, self.text.len()));
        if self.markdown.is_some() {
            self.apply_markdown(start..end, new_text, options);
            return;
        }
        let start_char = self.rope.byte_to_char(start);
        let end_char = self.rope.byte_to_char(end);
        // Points for `Tree::edit`, taken before the text changes.
        let start_point = self.point(start);
        let old_end_point = self.point(end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, new_text);
        self.text.replace_range(start..end, new_text);
        let new_end = start + new_text.len();
        let delta = new_end as isize - end as isize;
        let shift = |x: usize| (x as isize + delta) as usize;

        // The pieces the edit touches: the one holding `start` (and the one
        // before, when the edit is at a piece's very start, since it may
        // unmake that boundary) through the one holding `end`.
        let holding = |offset: usize| self.pieces.partition_point(|p| p.start <= offset).saturating_sub(1);
        let mut lo = holding(start);
        if lo > 0 && self.pieces[lo].start == start {
            lo -= 1;
        }
        let hi = holding(end);
        let region_start = self.pieces[lo].start;

        // Rescan from the first touched piece until a boundary meets an old
        // piece start after the edit: from there on nothing changes.
        let old_starts: Vec<usize> = self.pieces[hi + 1..].iter().map(|p| shift(p.start)).collect();
        let mut new_starts = vec![region_start];
        let mut resume: Option<usize> = None;
        let mut next_old = 0;
        split::scan(&self.text, region_start, |s| {
            while next_old < old_starts.len() && old_starts[next_old] < s {
                next_old += 1;
            }
            if next_old < old_starts.len() && old_starts[next_old] == s && s >= new_end {
                resume = Some(hi + 1 + next_old);
                return false;
            }
            new_starts.push(s);
            true
        });
        let region_end = match resume {
            Some(j) => shift(self.pieces[j].start),
            None => self.text.len(),
        };
        let replaced_end = resume.unwrap_or(self.pieces.len());

        // A piece that stays one piece reuses its tree.
        let reuse = lo == hi && new_starts.len() == 1 && replaced_end == hi + 1 && self.pieces[lo].tree.is_some();
        let mut rebuilt: Vec<Piece> = Vec::with_capacity(new_starts.len());
        self.clock += 1;
        let now = self.clock;
        if reuse {
            let piece = &self.pieces[lo];
            let Some(mut tree) = piece.tree.clone() else { unreachable!("checked above") };
            let base_row = self.rope.byte_to_line(piece.start);
            let rel = |p: Point| Point { row: p.row - base_row, column: p.column };
            tree.edit(&InputEdit {
                start_byte: start - piece.start,
                old_end_byte: end - piece.start,
                new_end_byte: new_end - piece.start,
                start_position: rel(start_point),
                old_end_position: rel(old_end_point),
                new_end_position: rel(advance(start_point, new_text)),
            });
            rebuilt.push(build_piece(&self.text, region_start..region_end, Some(&tree), options, true, now));
        } else {
            for (i, &s) in new_starts.iter().enumerate() {
                let e = new_starts.get(i + 1).copied().unwrap_or(region_end);
                rebuilt.push(build_piece(&self.text, s..e, None, options, true, now));
            }
        }
        self.last_reanalysed += rebuilt.len();
        for piece in &mut self.pieces[replaced_end..] {
            piece.start = shift(piece.start);
        }
        self.pieces.splice(lo..replaced_end, rebuilt);
        self.forget_old_trees();
    }

    /// An edit of a Markdown document: the blanked view is made again and
    /// compared with the old one; the pieces are cut afresh, and a piece
    /// whose blanked text did not change is kept as it is (moved), the
    /// piece that holds the change is reparsed with its edited tree.
    fn apply_markdown(&mut self, range: Range<usize>, new_text: &str, options: &Options) {
        let old_rope = self.rope.clone();
        let start_char = self.rope.byte_to_char(range.start);
        let end_char = self.rope.byte_to_char(range.end);
        self.rope.remove(start_char..end_char);
        self.rope.insert(start_char, new_text);
        self.text.replace_range(range, new_text);
        let view = MarkdownView::new(&self.text);
        let Some(old_view) = self.markdown.replace(view) else { return };
        let Some(view) = &self.markdown else { return };
        let (new, old) = (&view.blanked, &old_view.blanked);
        let starts = view.piece_starts();
        if new == old && self.pieces.iter().map(|p| p.start).eq(starts.iter().copied()) {
            // Prose changed, or nothing: the parser's text and pieces are
            // the same.
            return;
        }
        let (start, old_end, new_end) = changed_region(old, new);
        let delta = new_end as isize - old_end as isize;
        let shift = |x: usize| (x as isize + delta) as usize;

        // Old pieces by the range their unchanged text has now; the one
        // that holds the whole change keeps its tree for a reparse.
        let mut unchanged: HashMap<(usize, usize), Piece> = HashMap::new();
        let mut edited: Option<Piece> = None;
        for piece in std::mem::take(&mut self.pieces) {
            let (s, e) = (piece.start, piece.start + piece.len);
            if e <= start {
                unchanged.insert((s, e), piece);
            } else if s >= old_end {
                unchanged.insert((shift(s), shift(e)), piece);
            } else if s <= start && old_end <= e {
                edited = Some(piece);
            }
        }

        self.clock += 1;
        let now = self.clock;
        let mut pieces = Vec::with_capacity(starts.len());
        let mut rebuilt = 0;
        for (i, &s) in starts.iter().enumerate() {
            let e = starts.get(i + 1).copied().unwrap_or(new.len());
            if let Some(mut piece) = unchanged.remove(&(s, e)) {
                piece.start = s;
                pieces.push(piece);
                continue;
            }
            rebuilt += 1;
            let old_tree = edited
                .as_ref()
                .filter(|p| p.start == s && shift(p.start + p.len) == e)
                .and_then(|p| p.tree.clone());
            let tree = old_tree.map(|mut tree| {
                let base_row = self.rope.byte_to_line(s);
                let at = |rope: &Rope, offset: usize| {
                    let row = rope.byte_to_line(offset);
                    Point { row: row - base_row, column: offset - rope.line_to_byte(row) }
                };
                tree.edit(&InputEdit {
                    start_byte: start - s,
                    old_end_byte: old_end - s,
                    new_end_byte: new_end - s,
                    start_position: at(&old_rope, start),
                    old_end_position: at(&old_rope, old_end),
                    new_end_position: at(&self.rope, new_end),
                });
                tree
            });
            pieces.push(build_piece(new, s..e, tree.as_ref(), options, true, now));
        }
        self.pieces = pieces;
        self.last_reanalysed += rebuilt;
        self.forget_old_trees();
    }

    /// Keeps the trees of the most recently edited pieces only.
    fn forget_old_trees(&mut self) {
        let kept = self.pieces.iter().filter(|p| p.tree.is_some()).count();
        if kept <= TREES_KEPT {
            return;
        }
        let mut ages: Vec<u64> = self.pieces.iter().filter(|p| p.tree.is_some()).map(|p| p.used).collect();
        ages.sort_unstable();
        let cutoff = ages[kept - TREES_KEPT];
        for piece in &mut self.pieces {
            if piece.used < cutoff {
                piece.tree = None;
            }
        }
    }

    /// Every diagnostic of the document, in order, with absolute spans.
    pub fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.pieces.iter().flat_map(|piece| {
            piece.games.iter().flat_map(|g| g.diagnostics.iter()).map(move |d| {
                let mut d = d.clone();
                shift_diagnostic(&mut d, piece.start as isize);
                d
            })
        })
    }

    /// The number of games in the document.
    pub fn game_count(&self) -> usize {
        self.pieces.iter().map(|p| p.games.len()).sum()
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
        let mut counted = 0;
        let mut bytes = 0;
        for ch in self.rope.line(line).chars() {
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

    /// The piece that holds a byte offset (the last piece for the end).
    pub fn piece_at(&self, offset: usize) -> &Piece {
        let i = self.pieces.partition_point(|p| p.start <= offset).saturating_sub(1);
        &self.pieces[i]
    }

    /// The game node around an offset, with the piece it is in: the last
    /// game starting at or before the offset.
    /// (Its range is relative to the piece.)
    pub fn game_before(&self, offset: usize) -> Option<(&Piece, Range<usize>)> {
        let piece = self.piece_at(offset);
        let local = offset - piece.start;
        let tree = piece.tree(self);
        let root = tree.root_node();
        let mut cursor = root.walk();
        let game = root.children(&mut cursor).filter(|n| n.kind() == "game" && n.start_byte() <= local).last()?;
        Some((piece, game.byte_range()))
    }
}

pub fn shift_diagnostic(d: &mut Diagnostic, delta: isize) {
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

/// Where two texts differ: the start, and the end in the old and in the new
/// text (after the longest common prefix, before the longest common suffix,
/// at character boundaries).
fn changed_region(old: &str, new: &str) -> (usize, usize, usize) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let most = a.len().min(b.len());
    let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while !(old.is_char_boundary(prefix) && new.is_char_boundary(prefix)) {
        prefix -= 1;
    }
    let mut suffix = a.iter().rev().zip(b.iter().rev()).take_while(|(x, y)| x == y).count().min(most - prefix);
    while !(old.is_char_boundary(a.len() - suffix) && new.is_char_boundary(b.len() - suffix)) {
        suffix -= 1;
    }
    (prefix, a.len() - suffix, b.len() - suffix)
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

    fn same_as_fresh(doc: &Document) {
        let fresh = Document::open_as(doc.kind(), doc.text.clone(), 1, &Options::default());
        assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>());
        let starts = |d: &Document| d.pieces.iter().map(|p| (p.start, p.len)).collect::<Vec<_>>();
        assert_eq!(starts(doc), starts(&fresh));
        let outlines = |d: &Document| d.pieces.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
        assert_eq!(outlines(doc), outlines(&fresh));
        assert_eq!(doc.rope.to_string(), doc.text);
        assert_eq!(doc.source(), fresh.source());
        let outlines = |d: &Document| d.pieces.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
        assert_eq!(outlines(doc), outlines(&fresh));
    }

    #[test]
    fn edits_reanalyse_only_the_touched_piece_and_match_a_fresh_open() {
        let games: Vec<String> = (0..20).map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n")).collect();
        let text = games.concat();
        let mut doc = Document::open(text.clone(), 1, &Options::default());
        assert_eq!(doc.pieces.len(), 20);
        assert!(doc.diagnostics().next().is_none());
        let at = text.find("Nf3").unwrap() + games[0].len() * 5;
        edit(&mut doc, at, at + 3, "Nf5");
        assert_eq!(doc.last_reanalysed, 1);
        let a: Vec<_> = doc.diagnostics().collect();
        assert_eq!(a.len(), 1, "{a:?}");
        assert_eq!(a[0].code, crate::analysis::Code::IllegalMove);
        same_as_fresh(&doc);
        // A line before everything: every later span shifts.
        edit(&mut doc, 0, 0, "\n");
        same_as_fresh(&doc);
        // Break a boundary (delete a tag's `[`), then make it again.
        let pieces = doc.pieces.len();
        let at = doc.text.find("[Event \"7\"]").unwrap();
        edit(&mut doc, at, at + 1, "");
        assert_eq!(doc.pieces.len(), pieces - 1);
        same_as_fresh(&doc);
        edit(&mut doc, at, at, "[");
        assert_eq!(doc.pieces.len(), pieces);
        same_as_fresh(&doc);
        // An unclosed comment swallows the boundaries after it.
        let at = doc.text.find("[Event \"3\"]").unwrap() + 14;
        edit(&mut doc, at, at, "{");
        same_as_fresh(&doc);
    }

    const RU_GAME: &str = include_str!("../../../tests/fixtures/ru-errors.pgn");

    fn book() -> String {
        format!(
            "# Глава 1\n\nПосле 1. e4 e5 2. Кf3 белые грозят; ход Кd2 здесь не ошибка, и 16. Кf3 тоже.\nInline `Кd2` and [a link](x.pgn).\n\n```pgn\n{RU_GAME}\n```\n\nПроза после партии: e4, Nf3, 1-0.\n\n```python\nprint(\"1. e4 e5 2. Ke2\")\n```\n"
        )
    }

    fn markdown(text: &str) -> Document {
        Document::open_as(Kind::Markdown, text.to_owned(), 1, &Options::default())
    }

    #[test]
    fn markdown_is_checked_in_its_chess_blocks_only_at_the_real_positions() {
        let text = book();
        let doc = markdown(&text);
        assert_eq!(doc.source().len(), text.len());
        let found: Vec<(crate::analysis::Code, &str)> =
            doc.diagnostics().map(|d| (d.code, &text[d.span.clone()])).collect();
        assert_eq!(found, [(crate::analysis::Code::AmbiguousMove, "Кd2"), (crate::analysis::Code::IllegalMove, "Кf3")]);
        let ds: Vec<Diagnostic> = doc.diagnostics().collect();
        let block = text.find("```pgn").unwrap();
        assert_eq!(ds[0].span.start, block + text[block..].find("Кd2").unwrap());
        assert_eq!(ds[1].span.start, block + text[block..].find("Кf3 *").unwrap());
        // The preferred fix edits the real text in the block.
        let fix = ds[0].fixes.iter().find(|f| f.preferred).unwrap();
        assert_eq!(fix.edits[0].span, ds[0].span);
        assert_eq!(fix.edits[0].new_text, "Кbd2");
        assert_eq!(doc.game_count(), 1);
        assert!(!doc.in_notation(text.find("Кd2").unwrap()), "prose");
        assert!(doc.in_notation(ds[0].span.start));
        // The same text read as PGN is full of errors.
        assert!(Document::open(text.clone(), 1, &Options::default()).diagnostics().count() > 2);
    }

    #[test]
    fn markdown_games_continue_across_blocks_and_restart_at_move_one() {
        let text = "```pgn\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n```\n\nThe Spanish.\n\n```pgn\n3... a6 4. Ba4 Nf6 *\n```\n\nThe Italian:\n\n```chess\n1. e4 e5 2. Nf3 Nc6 3. Bc4\n```\n\n~~~pgn\n[Event \"x\"]\n\n1. d4 d5 2. Кf3 Кf6 3. Кd2 *\n~~~\n";
        let doc = markdown(text);
        let found: Vec<_> = doc.diagnostics().map(|d| (d.code, &text[d.span.clone()])).collect();
        assert_eq!(found, [(crate::analysis::Code::AmbiguousMove, "Кd2")]);
        assert_eq!(doc.game_count(), 3);
        // Prose, game, prose, game, prose, game, prose.
        assert_eq!(doc.pieces.len(), 7);
        assert_eq!(doc.pieces.iter().map(|p| p.games.len()).collect::<Vec<_>>(), [0, 1, 0, 1, 0, 1, 0]);
        let empty = markdown("No games here, only 1. e4 in prose.\n");
        assert_eq!(empty.diagnostics().count(), 0);
        assert_eq!(empty.game_count(), 0);
    }

    #[test]
    fn markdown_edits_reanalyse_what_changed_and_match_a_fresh_open() {
        let text = format!("Intro 1. e4.\n\n```pgn\n1. e4 e5 2. Nf3 Nc6 *\n```\n\nProse.\n\n{}", book());
        let mut doc = markdown(&text);
        let pieces = doc.pieces.len();
        // In a block: only that piece, with its tree.
        let at = doc.text.find("Nc6 *").unwrap();
        edit(&mut doc, at, at + 3, "Nc5");
        assert_eq!(doc.last_reanalysed, 1);
        assert_eq!(doc.diagnostics().filter(|d| d.code == crate::analysis::Code::IllegalMove).count(), 2);
        same_as_fresh(&doc);
        // Typing in prose, even a move: no game is parsed again.
        let at = doc.text.find("Prose.").unwrap();
        edit(&mut doc, at, at + 6, "Ke2 1.");
        assert_eq!(doc.last_reanalysed, 0, "same blanked text");
        edit(&mut doc, at, at + 6, "Ke2 1. e4!\n\nMore prose.");
        assert_eq!(doc.last_reanalysed, 1, "only the prose piece");
        assert!(doc.piece_at(at).games.is_empty());
        assert_eq!(doc.pieces.len(), pieces);
        same_as_fresh(&doc);
        // Break the first closing fence: the block runs on through the
        // prose up to the next fence, which now opens nothing...
        let at = doc.text.find("*\n```").unwrap() + 2;
        edit(&mut doc, at, at + 1, "");
        same_as_fresh(&doc);
        // ...and mend it.
        edit(&mut doc, at, at, "`");
        same_as_fresh(&doc);
        assert_eq!(doc.pieces.len(), pieces);
        // A new block typed into the prose, in steps.
        let at = doc.text.find("Проза после").unwrap();
        for (i, step) in ["`", "``", "pgn\n", "1. d4 ", "d5 2. Кf3 Кf6 3. Кd2", "\n```\n"].iter().enumerate() {
            let at = at + ["`", "``", "pgn\n", "1. d4 ", "d5 2. Кf3 Кf6 3. Кd2"].iter().take(i).map(|s| s.len()).sum::<usize>();
            edit(&mut doc, at, at, step);
            same_as_fresh(&doc);
        }
        assert_eq!(doc.diagnostics().filter(|d| d.code == crate::analysis::Code::AmbiguousMove).count(), 2);
        // Prose turned into an empty block of the same shape changes no text
        // the parser reads, but the pieces.
        let at = doc.text.find("Проза после").unwrap();
        edit(&mut doc, at, at, "aaaaaa\n\nbbb\n");
        edit(&mut doc, at, at + 12, "```pgn\n\n```\n");
        same_as_fresh(&doc);
        // A whole-document replacement stays Markdown.
        doc.apply_changes(vec![ByteChange { range: None, text: book() }], doc.version + 1, &Options::default());
        assert_eq!(doc.kind(), Kind::Markdown);
        assert_eq!(doc.diagnostics().count(), 2);
    }

    #[test]
    fn markdown_random_edits_match_a_fresh_open() {
        const SNIPPETS: &[&str] = &[
            "", " ", "\n", "\r\n", "```", "```pgn\n", "```\n", "~~~chess\n", "~~~\n", "````", "`", "Кf3", "Nf3", "e4",
            "12.", "3...", "{", "}", "(", ")", "[Event \"x\"]\n", "1-0", "*", "Кd2", "😀", "é", "prose ", "# Title\n",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..40 {
            let mut doc = markdown(&format!("{}\n```pgn\n1. e4 e5 2. Кf3 *\n```\nx\n", book()));
            for _ in 0..25 {
                let len = doc.text.len();
                let mut start = next(len + 1);
                while !doc.text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + next(12)).min(len);
                while !doc.text.is_char_boundary(end) {
                    end -= 1;
                }
                let snippet = SNIPPETS[next(SNIPPETS.len())];
                edit(&mut doc, start, end, snippet);
                same_as_fresh(&doc);
            }
        }
    }

    #[test]
    fn kinds_from_language_ids_and_uris() {
        assert_eq!(Kind::detect("markdown", "file:///a.txt"), Kind::Markdown);
        assert_eq!(Kind::detect("pgn", "file:///a.md"), Kind::Pgn);
        assert_eq!(Kind::detect("plaintext", "file:///book/ch1.MD"), Kind::Markdown);
        assert_eq!(Kind::detect("", "file:///book/games.pgn"), Kind::Pgn);
    }
}
