//! The outline of a document (an editor's document symbols): in a
//! manuscript, its headings with the games told under each, one entry per
//! game however many runs it takes. In notation, one per game, "White -
//! Black, Event Round, Result"; in a database of more than [`GROUP_ABOVE`]
//! games, groups that open on their games: the games of one event, a
//! hundred at most to a group ("Tata Steel 2024 · games 1-100"), or simply
//! a hundred games ("Games 101-200") where the events are too many or not
//! given. A flat list of thousands is not readable in an editor; a list of
//! groups with nothing in them finds no player. Above [`CHILDREN_UP_TO`]
//! games the groups are given closed (no games inside): an answer with
//! every game of a bigger one costs seconds to send on every change. Each
//! section keeps its games' places as lines from its first line
//! (`outline::line_symbols`), so an outline costs a sum per section and the
//! symbols it gives, not look-ups in the rope.
//!
//! Places are lines and columns in the unit the front end asks for, as the
//! sections keep them.

use super::cancel::Token;
use super::document::{Document, Kind, Section};
use super::line_index::Unit;
use super::outline::{ChapterSymbol, GameSymbol, LinePlace, LineSymbol, chapter_outline, line_symbols};

/// A line and a column (in the unit asked for), both from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

/// From a start to an end [`Position`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

/// What an entry of the outline is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A game (or, in a manuscript, a game told in runs).
    Game,
    /// A heading of a manuscript's prose.
    Heading,
    /// A group of a big database's games.
    Group,
}

/// An entry of the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub range: Range,
    pub selection_range: Range,
    /// What is under it; `None` when nothing is (or a group is given closed).
    pub children: Option<Vec<Symbol>>,
}

/// A manuscript's outline (`outline::chapter_outline`): its headings,
/// the games told under each.
fn chapter(doc: &Document, unit: Unit, symbols: Vec<ChapterSymbol>) -> Vec<Symbol> {
    let range = |span: &std::ops::Range<usize>| {
        let place = |offset| {
            let (line, column) = doc.position(offset, unit);
            Position { line: line as u32, character: column as u32 }
        };
        Range { start: place(span.start), end: place(span.end) }
    };
    symbols
        .into_iter()
        .map(|s| Symbol {
            name: s.name,
            detail: s.detail,
            kind: if s.heading { SymbolKind::Heading } else { SymbolKind::Game },
            range: range(&s.span),
            selection_range: range(&s.selection),
            children: if s.children.is_empty() { None } else { Some(chapter(doc, unit, s.children)) },
        })
        .collect()
}
/// A section's games' symbols with their places in the document.
fn placed<'d>(
    doc: &'d Document,
    unit: Unit,
    token: &Token,
) -> impl Iterator<Item = (&'d GameSymbol, Range, Range)> + 'd {
    let token = token.clone();
    doc.sections
        .iter()
        .zip(doc.section_lines())
        .enumerate()
        .filter(|(_, (s, _))| !s.outline.symbols.is_empty())
        .flat_map(move |(k, (section, line)): (usize, (&'d Section, usize))| {
            if k % 256 == 0 {
                token.check();
            }
            let (line, column) = doc.section_position(section, line, unit);
            let place = move |(l, c): LinePlace| Position {
                line: line as u32 + l,
                character: if l == 0 { column as u32 + c } else { c },
            };
            let range = move |(a, b): (LinePlace, LinePlace)| Range { start: place(a), end: place(b) };
            let places = line_symbols(doc, section, unit);
            section.outline.symbols.iter().enumerate().map(move |(i, symbol)| {
                let LineSymbol { span, selection } = places[i];
                (symbol, range(span), range(selection))
            })
        })
}

/// Above this many games, the outline groups them by [`GROUP`].
pub const GROUP_ABOVE: usize = 1000;
const GROUP: usize = 100;

/// The outline of a document, places in `unit`.
pub fn symbols(doc: &Document, unit: Unit, token: &Token) -> Vec<Symbol> {
    if doc.kind() != Kind::Pgn {
        token.check();
        return chapter(doc, unit, chapter_outline(doc));
    }
    let games: usize = doc.sections.iter().map(|s| s.outline.symbols.len()).sum();
    if games > CHILDREN_UP_TO {
        return groups(doc, unit, token, games);
    }
    if games > GROUP_ABOVE {
        return groups_with_games(doc, unit, token);
    }
    let mut out = Vec::new();
    for (number, (symbol, range, selection_range)) in placed(doc, unit, token).enumerate() {
        let name = if symbol.name.is_empty() { format!("Game {}", number + 1) } else { symbol.name.clone() };
        out.push(Symbol {
            name,
            detail: symbol.date.clone(),
            kind: SymbolKind::Game,
            range,
            selection_range,
            children: None,
        });
    }
    out
}

/// Up to this many games, a big database's groups hold their games. (At
/// 20,000 the VS Code e2e's 10 MB file of 9,954 games, whose outline the
/// editor asks for after every keystroke, showed a keystroke's squiggle in
/// 376 to 515 ms instead of under 300.)
pub const CHILDREN_UP_TO: usize = 5_000;

/// The outline of a database of up to [`CHILDREN_UP_TO`] games: its games
/// in groups that open. A group is a run of games of one event, cut at a
/// hundred; when that makes groups of ten games or fewer on average (an
/// event to a game or two, as in a player's collected games), the events
/// are left out and the groups are of a hundred.
fn groups_with_games(doc: &Document, unit: Unit, token: &Token) -> Vec<Symbol> {
    let games: Vec<_> = placed(doc, unit, token).collect();
    let by_event = |games: &[(&GameSymbol, Range, Range)]| {
        let mut cuts = vec![0];
        for i in 1..games.len() {
            let start = *cuts.last().unwrap();
            if i - start >= GROUP || games[i].0.event != games[i - 1].0.event {
                cuts.push(i);
            }
        }
        cuts
    };
    let mut cuts = by_event(&games);
    let events = games.iter().any(|g| g.0.event.is_some());
    if !events || cuts.len() * 10 > games.len() {
        cuts = (0..games.len()).step_by(GROUP).collect();
    }
    let mut out = Vec::with_capacity(cuts.len());
    for (k, &from) in cuts.iter().enumerate() {
        token.check();
        let to = cuts.get(k + 1).copied().unwrap_or(games.len());
        let chunk = &games[from..to];
        let children: Vec<Symbol> = chunk
            .iter()
            .enumerate()
            .map(|(i, (symbol, range, selection_range))| Symbol {
                name: if symbol.name.is_empty() { format!("Game {}", from + i + 1) } else { symbol.name.clone() },
                detail: symbol.date.clone(),
                kind: SymbolKind::Game,
                range: *range,
                selection_range: *selection_range,
                children: None,
            })
            .collect();
        let (first, last) = (from + 1, to);
        let event = chunk[0].0.event.as_ref().filter(|e| chunk.iter().all(|g| g.0.event.as_ref() == Some(*e)));
        let name = match event {
            Some(event) => format!("{event} · games {first}-{last}"),
            None => format!("Games {first}-{last}"),
        };
        out.push(Symbol {
            name,
            detail: Some(format!("{} games", chunk.len())),
            kind: SymbolKind::Group,
            range: Range { start: chunk[0].1.start, end: chunk[chunk.len() - 1].1.end },
            selection_range: chunk[0].2,
            children: Some(children),
        });
    }
    out
}

/// The outline of a very big database: one symbol per hundred games. Only the
/// sections where a group starts or ends are placed (a group's first game
/// gives its name and start, its last game its end); the others are
/// counted, so a keystroke costs a sum per section and some two hundred
/// sections' places, not every game's.
fn groups(doc: &Document, unit: Unit, token: &Token, games: usize) -> Vec<Symbol> {
    let mut out = Vec::with_capacity(games.div_ceil(GROUP));
    // (first number, first game's range, selection and name)
    let mut group: Option<(usize, Range, Range, String)> = None;
    let mut finish =
        |(first, range, selection_range, name): (usize, Range, Range, String), last: usize, end: Position| {
            out.push(Symbol {
                name: format!("Games {first}-{last}"),
                detail: Some(name),
                kind: SymbolKind::Group,
                range: Range { start: range.start, end },
                selection_range,
                children: None,
            });
        };
    let mut last_end = Position::default();
    // The games before the section.
    let mut number = 0;
    for (k, (section, line)) in doc.sections.iter().zip(doc.section_lines()).enumerate() {
        if k % 256 == 0 {
            token.check();
        }
        let n = section.outline.symbols.len();
        if n == 0 {
            continue;
        }
        let (first, last) = (number + 1, number + n);
        // The first game from `first` on that starts a group (`g % GROUP ==
        // 1`) or ends one (`g % GROUP == 0`).
        let boundary = if first % GROUP <= 1 { first } else { first + GROUP - first % GROUP };
        if boundary > last && last != games {
            number = last;
            continue;
        }
        let (line, column) = doc.section_position(section, line, unit);
        let place = |(l, c): LinePlace| Position {
            line: line as u32 + l,
            character: if l == 0 { column as u32 + c } else { c },
        };
        let range = |(a, b): (LinePlace, LinePlace)| Range { start: place(a), end: place(b) };
        let places = line_symbols(doc, section, unit);
        for (i, symbol) in section.outline.symbols.iter().enumerate() {
            number += 1;
            let LineSymbol { span, selection } = places[i];
            let span = range(span);
            if (number - 1) % GROUP == 0 {
                if let Some(done) = group.take() {
                    finish(done, number - 1, last_end);
                }
                let name = if symbol.name.is_empty() { format!("Game {number}") } else { symbol.name.clone() };
                group = Some((number, span, range(selection), name));
            }
            last_end = span.end;
        }
    }
    if let Some(done) = group.take() {
        finish(done, number, last_end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Options;

    /// A span's place as the rope gives it.
    fn by_the_rope(doc: &Document, span: &std::ops::Range<usize>, unit: Unit) -> Range {
        let place = |offset| {
            let (line, column) = doc.position(offset, unit);
            Position { line: line as u32, character: column as u32 }
        };
        Range { start: place(span.start), end: place(span.end) }
    }

    fn names(symbols: Vec<Symbol>) -> Vec<String> {
        symbols.into_iter().map(|s| s.name).collect()
    }

    #[test]
    fn a_big_database_is_outlined_by_hundreds() {
        let game = |i: usize| format!("[White \"W{i}\"]\n[Black \"B{i}\"]\n\n1. e4 e5 *\n\n");
        let small: String = (1..=GROUP_ABOVE).map(game).collect();
        let doc = Document::open(small, 1, &Options::default());
        let listed = names(symbols(&doc, Unit::Utf16, &Token::never()));
        assert_eq!(listed.len(), GROUP_ABOVE);
        assert_eq!(listed[0], "W1 - B1, *");
        let big: String = (1..=GROUP_ABOVE + 50).map(game).collect();
        let doc = Document::open(big, 1, &Options::default());
        let groups = symbols(&doc, Unit::Utf16, &Token::never());
        let listed: Vec<&str> = groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(listed.len(), 11);
        assert_eq!((listed[0], listed[10]), ("Games 1-100", "Games 1001-1050"));
        // The groups open on their games, each named by its players.
        let inside = |g: &Symbol| g.children.as_ref().map_or(0, Vec::len);
        assert_eq!(groups.iter().map(inside).sum::<usize>(), GROUP_ABOVE + 50);
        assert_eq!(groups[10].children.as_ref().unwrap()[49].name, "W1050 - B1050, *");
        for g in &groups {
            for child in g.children.as_ref().unwrap() {
                assert!(g.range.start <= child.range.start && child.range.end <= g.range.end, "{g:?}");
            }
        }
    }

    /// A database of 2,000 games from a few events: a group for each event
    /// (cut at a hundred games), every game inside named "White - Black,
    /// Event Round, Result".
    #[test]
    fn a_big_database_is_grouped_by_event_with_its_games_inside() {
        let events = ["Wijk aan Zee 2024", "Moscow 1925", "Dortmund 1992"];
        let game = |i: usize| {
            let event = events[(i - 1) * events.len() / 2000];
            format!(
                "[Event \"{event}\"]\n[Round \"{}\"]\n[White \"White{i}\"]\n[Black \"Black{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n",
                i % 13 + 1
            )
        };
        let doc = Document::open((1..=2000).map(game).collect(), 1, &Options::default());
        let groups = symbols(&doc, Unit::Utf16, &Token::never());
        assert_eq!(groups[0].name, "Wijk aan Zee 2024 · games 1-100");
        // The first event has 667 games: 7 groups, the last of 67.
        assert_eq!(groups[6].name, "Wijk aan Zee 2024 · games 601-667");
        assert_eq!(groups[7].name, "Moscow 1925 · games 668-767");
        let all: Vec<&Symbol> = groups.iter().flat_map(|g| g.children.as_ref().unwrap()).collect();
        assert_eq!(all.len(), 2000);
        let found = all.iter().find(|g| g.name.starts_with("White1234 - Black1234")).expect("findable by its players");
        assert_eq!(found.name, format!("White1234 - Black1234, Moscow 1925 {}, 1-0", 1234 % 13 + 1));
    }

    /// The groups of a big database are those of every game placed one by
    /// one and grouped (what the answer was before only the sections at a
    /// group's ends were placed), with several games to a section and
    /// after random edits.
    #[test]
    fn groups_equal_every_game_placed_and_grouped() {
        use crate::ide::document::ByteChange;
        let by_walking = |doc: &Document, unit: Unit| -> Vec<(String, Range, Range, Option<String>)> {
            let all: Vec<_> = placed(doc, unit, &Token::never()).collect();
            all.chunks(GROUP)
                .enumerate()
                .map(|(k, chunk)| {
                    let (first, range, selection) = &chunk[0];
                    let number = k * GROUP + 1;
                    let name = if first.name.is_empty() { format!("Game {number}") } else { first.name.clone() };
                    let end = chunk[chunk.len() - 1].1.end;
                    (
                        format!("Games {number}-{}", number + chunk.len() - 1),
                        Range { start: range.start, end },
                        *selection,
                        Some(name),
                    )
                })
                .collect()
        };
        // Every third game without tags, after a game without a result: it
        // starts again at move 1 and joins the section before it.
        let game = |i: usize| {
            if i.is_multiple_of(3) {
                "1. d4 d5 *\n\n".to_owned()
            } else if (i + 1).is_multiple_of(3) {
                format!("[White \"W{i}\"]\r\n\n1. e4 {{😀}} e5\n\n")
            } else {
                format!("[White \"W{i}\"]\r\n\n1. e4 {{😀}} e5 *\n\n")
            }
        };
        let mut doc = Document::open((1..=GROUP_ABOVE + 321).map(game).collect(), 1, &Options::default());
        assert!(doc.sections.iter().any(|s| s.outline.symbols.len() > 1));
        let mut next = crate::test_support::below(0x05ee_d0f6_a3e5);
        const SNIPPETS: &[&str] = &["", "\n", "[White \"Ж\"]\n", "*\n\n", "1. e4 *\n\n", "e4 "];
        for round in 0..40 {
            if round > 0 {
                let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 8);
                let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
                doc.apply_changes(vec![change], doc.version + 1, &Options::default());
            }
            let games: usize = doc.sections.iter().map(|s| s.outline.symbols.len()).sum();
            for unit in [Unit::Utf16, Unit::Char] {
                let got: Vec<_> = groups(&doc, unit, &Token::never(), games)
                    .into_iter()
                    .map(|s| (s.name, s.range, s.selection_range, s.detail))
                    .collect();
                assert_eq!(got, by_walking(&doc, unit), "round {round}");
            }
        }
    }

    /// The places kept per section, after random edits, are the rope's
    /// positions of the games' spans.
    #[test]
    fn symbols_after_random_edits_stand_where_the_rope_says() {
        use crate::ide::document::ByteChange;
        const SNIPPETS: &[&str] = &["", "\n", "\r\n", "\r", "😀", "é", "[White \"Ж\"]\n", "*\n\n", "{\n}", "e4 "];
        let mut next = crate::test_support::below(0x0bad_5eed_1234_5678);
        let game = |i: usize| format!("[White \"W{i}\"]\n[Black \"Б{i}\"]\r\n\n1. e4 {{😀}} e5 *\n\n");
        let mut doc = Document::open((1..=12).map(game).collect(), 1, &Options::default());
        for _ in 0..150 {
            let std::ops::Range { start, end } = crate::test_support::random_span(&mut next, &doc.text, 8);
            let change = ByteChange { range: Some(start..end), text: SNIPPETS[next(SNIPPETS.len())].to_owned() };
            doc.apply_changes(vec![change], doc.version + 1, &Options::default());
            for unit in [Unit::Utf16, Unit::Char] {
                let got = symbols(&doc, unit, &Token::never());
                let want: Vec<_> = doc
                    .sections
                    .iter()
                    .flat_map(|s| s.outline.symbols.iter().map(move |g| (s.start, g)))
                    .map(|(base, g)| {
                        let shift = |r: &std::ops::Range<usize>| r.start + base..r.end + base;
                        (by_the_rope(&doc, &shift(&g.span), unit), by_the_rope(&doc, &shift(&g.selection), unit))
                    })
                    .collect();
                let got: Vec<_> = got.iter().map(|s| (s.range, s.selection_range)).collect();
                assert_eq!(got, want, "{:?}", doc.text);
            }
        }
    }
}
