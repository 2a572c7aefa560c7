//! What is at a position of a document: the game around it (replayed from
//! the start the document gives it, with its trace), the line and the move
//! there, the position before and after, and the diagnostics that touch it.
//! Hover, completion and the editors' board view all ask here, so they
//! agree on which game, line and move the cursor is in; only the game at
//! the cursor is replayed, whatever the document's size.

use std::ops::Range;

use shakmaty::Chess;

use super::document::{Document, Section};
use crate::analysis::{Diagnostic, GameReport, Language, Options, Trace, TracedMove};

/// The game around a cursor, replayed.
pub struct GameAt<'d> {
    pub section: &'d Section,
    /// The game's span, relative to the section.
    pub span: Range<usize>,
    /// The cursor relative to the section, kept inside the game (a cursor
    /// after its last move is at its end).
    pub local: usize,
    /// Every move of the game with the positions around it (spans relative
    /// to the section).
    pub trace: Trace,
    /// The game's analysis (language, how it was decided, findings).
    pub report: Option<&'d GameReport>,
}

/// The game that holds `offset`, or the last one that starts before it.
pub fn game_at<'d>(doc: &'d Document, offset: usize, options: &Options) -> Option<GameAt<'d>> {
    let (section, span) = doc.game_before(offset)?;
    let local = (offset - section.start).min(span.end);
    let tree = section.tree(doc);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let node = root.children(&mut cursor).find(|n| n.byte_range() == span)?;
    let trace = doc.trace_game(section, node, options);
    let report = section.games.iter().find(|g| g.span.start == span.start);
    Some(GameAt { section, span, local, trace, report })
}

impl GameAt<'_> {
    /// The language the game is read in.
    pub fn language(&self) -> Language {
        self.report.map(|r| r.language).or(self.trace.language).unwrap_or(Language::En)
    }

    /// The innermost line (main line or variation) around the cursor: its
    /// index in `trace.lines`.
    pub fn line(&self) -> Option<usize> {
        self.trace
            .lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.span.start <= self.local && self.local <= l.span.end)
            .min_by_key(|(_, l)| l.span.end - l.span.start)
            .map(|(i, _)| i)
    }

    /// The move under the cursor, else the last one before it, in the
    /// cursor's line.
    pub fn move_at(&self) -> Option<&TracedMove> {
        let line = self.line()?;
        self.trace.moves.iter().rfind(|m| m.line == line && m.span.start <= self.local)
    }

    /// The last move that ends at or before the cursor, in its line.
    pub fn move_before(&self) -> Option<&TracedMove> {
        let line = self.line()?;
        self.trace.moves.iter().rfind(|m| m.line == line && m.span.end <= self.local)
    }

    /// The move written exactly at `span` (relative to the section).
    pub fn move_written_at(&self, span: &Range<usize>) -> Option<&TracedMove> {
        self.trace.moves.iter().find(|m| m.span.end == span.end && m.span.start >= span.start)
    }

    /// The position at the cursor: after the move there (or before it),
    /// else where the line starts.
    pub fn position(&self) -> Option<&Chess> {
        let line = self.line()?;
        Some(self.move_at().map_or(&self.trace.lines[line].start, |m| &m.after))
    }

    /// The position in which the move typed at the cursor would be played.
    pub fn position_for_next_move(&self) -> Option<&Chess> {
        let line = self.line()?;
        Some(self.move_before().map_or(&self.trace.lines[line].start, |m| &m.after))
    }

    /// The diagnostics of the game that touch the cursor, with spans in the
    /// document.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let at = self.local;
        self.report
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.span.start <= at && at <= d.span.end)
            .map(|d| {
                let mut d = d.clone();
                d.shift(self.section.start as isize);
                d
            })
            .collect()
    }
}
