//! What the editor's outline and folding need from a piece, computed once
//! when the piece is parsed, so that those requests cost nothing and the
//! piece's tree need not be kept; and its folds as lines, counted once per
//! section when first asked for ([`line_folds`]) and kept with it, so that
//! a folding request costs a sum per section and the folds it answers.

use std::ops::Range;
use std::sync::Arc;

use tree_sitter::{Node, Tree};

use crate::ide::document::lines::{self, Breaks, Walker};
use crate::ide::document::{Document, Kept, Section};
use crate::ide::line_index::Unit;
use crate::syntax::{GameSyntax, Item, Line, kinds};

/// The kind of a folding range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    Game,
    Headers,
    Variation,
    Comment,
}

/// A fold of a section as lines from the section's first line: from the
/// line of its start to the last line it covers (not the line it ends at
/// when it ends at that line's start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineFold {
    pub start: u32,
    pub end: u32,
    pub kind: Fold,
    /// A game's fold: its symbol (an index in the section's
    /// `outline.symbols`), whose name is the fold's text when it is closed.
    pub symbol: Option<u32>,
}

/// A section's folds as lines, kept with it.
pub type KeptFolds = Kept<Arc<Vec<LineFold>>>;

/// The folds of a section that span more than one line, as lines from its
/// first line, in the outline's order.
pub fn line_folds(doc: &Document, section: &Section) -> Arc<Vec<LineFold>> {
    if let Some(kept) = section.folds.get() {
        return kept.clone();
    }
    let end = (section.start + section.len).min(doc.text.len());
    let breaks = Breaks::new(&doc.text, section.start..end);
    let at_line_start = |local: usize| {
        if local == 0 { lines::starts_line(&doc.text, section.start) } else { breaks.at_line_start(local) }
    };
    let folds: Vec<LineFold> = section
        .outline
        .folds
        .iter()
        .filter_map(|(span, kind)| {
            let start = breaks.line(span.start);
            let mut end = breaks.line(span.end);
            if at_line_start(span.end) && end > start {
                end -= 1;
            }
            // A game's fold and its symbol start at the same place.
            let symbol = (*kind == Fold::Game)
                .then(|| section.outline.symbols.binary_search_by_key(&span.start, |g| g.span.start).ok())
                .flatten()
                .map(|i| i as u32);
            (end > start).then_some(LineFold { start: start as u32, end: end as u32, kind: *kind, symbol })
        })
        .collect();
    let folds = Arc::new(folds);
    section.folds.set(folds.clone());
    folds
}

/// A place in a section: the line from the section's first line, and the
/// column (on that first line, from the section's start).
pub type LinePlace = (u32, u32);

/// Where a game of the outline stands, in lines of its section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSymbol {
    pub span: (LinePlace, LinePlace),
    pub selection: (LinePlace, LinePlace),
}

/// A section's symbols' places in the unit they were counted in, kept with it.
pub type KeptSymbols = Kept<(Unit, Arc<Vec<LineSymbol>>)>;

/// The places of a section's symbols (in the order of
/// `section.outline.symbols`), counted once per unit and kept.
pub fn line_symbols(doc: &Document, section: &Section, unit: Unit) -> Arc<Vec<LineSymbol>> {
    if let Some((kept, places)) = section.symbols.get()
        && *kept == unit
    {
        return places.clone();
    }
    let mut walker = Walker::new(&doc.text, section.start, unit);
    let mut at = |offset: usize| {
        let (line, column) = walker.to(section.start + offset);
        (line as u32, column as u32)
    };
    let places: Vec<LineSymbol> = section
        .outline
        .symbols
        .iter()
        .map(|s| {
            let start = at(s.span.start);
            let selection = (at(s.selection.start), at(s.selection.end));
            LineSymbol { span: (start, at(s.span.end)), selection }
        })
        .collect();
    let places = Arc::new(places);
    section.symbols.set((unit, places.clone()));
    places
}

/// One game in the outline: "White - Black, Event Round, Result".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSymbol {
    pub name: String,
    pub date: Option<String>,
    /// Its `Event` tag, which a big database's outline groups by.
    pub event: Option<String>,
    pub span: Range<usize>,
    pub selection: Range<usize>,
}

/// A piece's folds and symbols, spans relative to the piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    pub folds: Vec<(Range<usize>, Fold)>,
    pub symbols: Vec<GameSymbol>,
}

/// The outline of a parsed piece.
pub fn outline(tree: &Tree, games: &[GameSyntax<'_>], source: &str) -> Outline {
    let mut out = Outline::default();
    // A game's fold is the lowered game's, not its node's: games written
    // one after another without tags or results between them are one node
    // but several games (`syntax::restarts`), as the fast path has them.
    // (First, as there: a game and its headers may share a span, and the
    // sort below keeps the order of equals.)
    let lines = LineBreaks::new(source);
    for game in games {
        if lines.multiline(source, &game.span) {
            out.folds.push((game.span.clone(), Fold::Game));
        }
    }
    folds(tree.root_node(), source, &mut out.folds);
    symbols(games, source, &mut out);
    out.folds.sort_by_key(|(span, _)| (span.start, std::cmp::Reverse(span.end)));
    out
}

/// The same outline from the fast path's games and its multi-line
/// comments, without a tree.
pub fn outline_without_tree(games: &[GameSyntax<'_>], long_comments: &[Range<usize>], source: &str) -> Outline {
    let mut out = Outline::default();
    let lines = LineBreaks::new(source);
    let multiline = |span: &Range<usize>| lines.multiline(source, span);
    let push = |span: Range<usize>, fold: Fold, out: &mut Outline| {
        if multiline(&span) {
            out.folds.push((span, fold));
        }
    };
    fn variations(line: &Line<'_>, found: &mut Vec<Range<usize>>) {
        for item in &line.items {
            if let Item::Variation(v) = item {
                found.push(v.span.clone());
                variations(v, found);
            }
        }
    }
    for game in games {
        push(game.span.clone(), Fold::Game, &mut out);
        if let (Some(first), Some(last)) = (game.tags.first(), game.tags.last()) {
            push(first.span.start..last.span.end, Fold::Headers, &mut out);
        }
        let mut found = Vec::new();
        variations(&game.mainline, &mut found);
        for span in found {
            push(span, Fold::Variation, &mut out);
        }
    }
    for span in long_comments {
        out.folds.push((span.clone(), Fold::Comment));
    }
    symbols(games, source, &mut out);
    out.folds.sort_by_key(|(span, _)| (span.start, std::cmp::Reverse(span.end)));
    out
}

/// Whether a game's text is move numbers only (`18.` typed after a
/// game's result, its move not yet written): no game for the outline, the
/// status or the Board view.
pub fn is_bare_move_number(text: &str) -> bool {
    text.contains(|c: char| c.is_ascii_digit())
        && text.chars().all(|c| c.is_ascii_digit() || c == '.' || c == '…' || c.is_whitespace())
}

fn symbols(games: &[GameSyntax<'_>], source: &str, out: &mut Outline) {
    for game in games {
        if source.get(game.span.clone()).is_some_and(is_bare_move_number) {
            continue;
        }
        let tag = |name: &str| game.tag(name).map(|t| t.unescaped_value()).filter(|v| !v.is_empty() && v != "?");
        let mut name = match (tag("White"), tag("Black")) {
            (Some(w), Some(b)) => format!("{w} - {b}"),
            (Some(w), None) => w,
            (None, Some(b)) => b,
            (None, None) => String::new(),
        };
        let mut push = |part: String| {
            if !name.is_empty() {
                name.push_str(", ");
            }
            name.push_str(&part);
        };
        // "Event Round": `Tata Steel 2024 7`; a round alone when the
        // event is not known.
        match (tag("Event"), tag("Round").filter(|r| r != "-")) {
            (Some(event), Some(round)) => push(format!("{event} {round}")),
            (Some(event), None) => push(event),
            (None, Some(round)) => push(format!("round {round}")),
            (None, None) => {}
        }
        if let Some(result) = tag("Result").or_else(|| game.result.as_ref().map(|r| r.text.to_owned())) {
            push(result);
        }
        let selection = game.tags.first().map_or(game.span.clone(), |t| t.span.clone());
        out.symbols.push(GameSymbol {
            name,
            date: tag("Date"),
            event: tag("Event"),
            span: game.span.clone(),
            selection,
        });
    }
}

/// Where the line breaks of a piece are, so that whether a node spans
/// several lines costs a binary search, not a scan of its text (nested
/// variations on one long line would make the scans quadratic).
struct LineBreaks(Vec<usize>);

impl LineBreaks {
    fn new(source: &str) -> LineBreaks {
        LineBreaks(source.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect())
    }

    /// Whether the text of `span`, without its trailing blanks, holds a
    /// line break.
    fn multiline(&self, source: &str, span: &Range<usize>) -> bool {
        let end = span.start + source[span.clone()].trim_end().len();
        let next = self.0.partition_point(|&i| i < span.start);
        self.0.get(next).is_some_and(|&i| i < end)
    }
}

/// The folds of a tree, walked with a cursor (not recursively: variations
/// may nest 100,000 deep).
fn folds(root: Node<'_>, source: &str, out: &mut Vec<(Range<usize>, Fold)>) {
    let lines = LineBreaks::new(source);
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        let kind = match node.kind() {
            kinds::HEADERS => Some(Fold::Headers),
            kinds::VARIATION => Some(Fold::Variation),
            kinds::COMMENT => Some(Fold::Comment),
            _ => None,
        };
        if let Some(kind) = kind
            && lines.multiline(source, &node.byte_range())
        {
            out.push((node.byte_range(), kind));
        }
        // Moves and tags never hold anything foldable; comments are extras and
        // may stand under any of these.
        let descend = matches!(
            node.kind(),
            kinds::SOURCE_FILE | kinds::GAME | kinds::MOVETEXT | kinds::VARIATION | kinds::HEADERS | kinds::MOVE
        );
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    /// A move number typed after a game's result (`18.`, its move not yet
    /// written) is no game in the outline, on the tree's path and on the
    /// fast path alike.
    #[test]
    fn a_move_number_with_no_move_is_no_game_on_both_paths() {
        for (text, games) in [
            ("1. e4 e5 2. Nf3 Nc6 *\n\n18.\n", 1),
            ("[White \"A\"]\n\n1. e4 *\n\n18...\n\n[White \"B\"]\n\n1. d4 *\n", 2),
            ("18.\n", 0),
            ("18. e4 *\n", 1),
            // One node, two games (numbered from 1 again after a blank
            // line): two folds, as the fast path has them (found by fuzzing).
            ("[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n4. Ba4 1-0\n", 2),
        ] {
            let tree = syntax::parse(text, None);
            let with_tree = outline(&tree, &syntax::lower(&tree, text), text);
            let (fast, long_comments) = syntax::fast::lower_fast_with_comments(text).expect("the fast path reads it");
            let without_tree = outline_without_tree(&fast, &long_comments, text);
            assert_eq!(with_tree.symbols.len(), games, "{text:?}: {:?}", with_tree.symbols);
            assert_eq!(with_tree, without_tree, "{text:?}");
        }
    }
}

/// An entry of a manuscript's outline: a heading of the prose (Markdown's
/// `#`, LaTeX's `\chapter`, `\section`...) with what stands under it, or a
/// game told in the prose (its runs together, however many paragraphs it
/// takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapterSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub heading: bool,
    /// In the document's text.
    pub span: Range<usize>,
    pub selection: Range<usize>,
    pub children: Vec<ChapterSymbol>,
}

/// A heading of a manuscript: its level (smaller is higher), its title and
/// where its line stands.
fn headings(doc: &Document) -> Vec<(usize, String, Range<usize>)> {
    use crate::syntax::manuscript::Format;
    let text = &doc.text;
    let mut out = Vec::new();
    let mut offset = 0;
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end();
        match doc.kind().manuscript() {
            Some(Format::Markdown) => {
                let trimmed = content.trim_start();
                if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                    fenced = !fenced;
                    continue;
                }
                if fenced || content.starts_with("    ") {
                    continue;
                }
                let level = trimmed.chars().take_while(|&c| c == '#').count();
                let rest = &trimmed[level..];
                if (1..=6).contains(&level) && (rest.is_empty() || rest.starts_with([' ', '\t'])) {
                    let title = rest.trim().trim_end_matches('#').trim();
                    if !title.is_empty() {
                        out.push((level, title.to_owned(), start..start + content.len()));
                    }
                }
            }
            Some(Format::Latex) => {
                // The prose before a `%` comment.
                let code = content.split('%').next().unwrap_or("");
                for (level, command) in
                    ["\\part", "\\chapter", "\\section", "\\subsection", "\\subsubsection"].iter().enumerate()
                {
                    let Some(at) = code.find(command) else { continue };
                    let after = code[at + command.len()..].trim_start_matches('*');
                    let Some(body) = after.strip_prefix('{') else { continue };
                    let title = body.split('}').next().unwrap_or("").trim();
                    if !title.is_empty() {
                        out.push((level, title.to_owned(), start + at..start + content.len()));
                    }
                    break;
                }
            }
            _ => {}
        }
    }
    out
}

/// A manuscript's outline: its headings as parents, under each the games
/// told there, one entry per game (a game told across several paragraphs
/// is one entry, from its first run to its last, as long as no heading
/// comes between: after one it is listed again, "(continued)").
pub fn chapter_outline(doc: &Document) -> Vec<ChapterSymbol> {
    use crate::analysis::manuscript::StartKind;
    let mut games: Vec<ChapterSymbol> = Vec::new();
    let heads = headings(doc);
    let heading_between = |a: usize, b: usize| heads.iter().any(|(_, _, span)| a < span.start && span.start < b);
    let mut number = 0;
    for section in &doc.sections {
        for symbol in &section.outline.symbols {
            let span = section.start + symbol.span.start..section.start + symbol.span.end;
            let goes_on = section.chain.as_ref().is_some_and(|chain| {
                chain.games.iter().any(|g| {
                    g.at == symbol.span.start && matches!(g.start().kind, StartKind::Continues | StartKind::Variation)
                })
            });
            if goes_on && let Some(last) = games.last_mut() {
                if !heading_between(last.span.start, span.start) {
                    last.span.end = last.span.end.max(span.end);
                    continue;
                }
                let mut again = last.clone();
                again.name = format!("{} (continued)", again.name.trim_end_matches(" (continued)"));
                again.span = span.clone();
                again.selection = span;
                games.push(again);
                continue;
            }
            number += 1;
            let moves: String = doc.text[span.clone()].split_whitespace().take(6).collect::<Vec<_>>().join(" ");
            // A name of tags only ("White - Black"), not a bare result.
            let named = !symbol.name.is_empty() && !["*", "1-0", "0-1", "1/2-1/2"].contains(&symbol.name.as_str());
            // Named by its tags, or numbered with its first moves beside.
            let (name, detail) = if named {
                (symbol.name.clone(), symbol.date.clone())
            } else {
                (format!("Game {number}"), Some(moves))
            };
            games.push(ChapterSymbol {
                name,
                detail,
                heading: false,
                span: span.clone(),
                selection: span,
                children: Vec::new(),
            });
        }
    }
    // The headings' spans: to the next heading of the same level or higher.
    let end = doc.text.len();
    let mut nodes: Vec<(usize, ChapterSymbol)> = heads
        .iter()
        .enumerate()
        .map(|(i, (level, title, line))| {
            let until = heads[i + 1..].iter().find(|(l, _, _)| l <= level).map_or(end, |(_, _, s)| s.start);
            let until = doc.text[..until].trim_end().len().max(line.end);
            (
                *level,
                ChapterSymbol {
                    name: title.clone(),
                    detail: None,
                    heading: true,
                    span: line.start..until,
                    selection: line.clone(),
                    children: Vec::new(),
                },
            )
        })
        .collect();
    // Games into the innermost heading before them; headings into the
    // heading above them (built from the last, so that each goes into a
    // parent already holding its later siblings).
    let mut top: Vec<ChapterSymbol> = Vec::new();
    for game in games {
        match nodes.iter_mut().rev().find(|(_, h)| h.span.start <= game.span.start && game.span.end <= h.span.end) {
            Some((_, h)) => h.children.push(game),
            None => top.push(game),
        }
    }
    while let Some((level, node)) = nodes.pop() {
        let parent = nodes
            .iter_mut()
            .rev()
            .find(|(l, h)| *l < level && h.span.start <= node.span.start && node.span.end <= h.span.end);
        match parent {
            Some((_, p)) => p.children.push(node),
            None => top.push(node),
        }
    }
    fn order(symbols: &mut [ChapterSymbol]) {
        symbols.sort_by_key(|s| s.span.start);
        for s in symbols {
            order(&mut s.children);
        }
    }
    order(&mut top);
    top
}
