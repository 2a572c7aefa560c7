//! Completion: the legal moves at the cursor, in the game's language,
//! filtered by what is typed and ordered as a player looks for them, each
//! with the text to insert (the move number where one is due, the
//! separator kept before what follows). Every front end only converts.

use std::ops::Range;

use shakmaty::{Chess, Color, Position, Role};

use super::document::Document;
use super::position::game_at;
use crate::analysis::Options;
use crate::analysis::languages::{Language, MoveStyle, render_move};
use crate::syntax::kinds;

/// The moves that may be typed at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completions {
    /// What is typed of the move so far, which an item replaces.
    pub span: Range<usize>,
    /// The game's language.
    pub language: Language,
    /// The moves, in the order to show them.
    pub items: Vec<Completion>,
}

/// One legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// In the game's language (`Кf3`): what is shown and filtered on.
    pub san: String,
    /// In English SAN (`Nf3`).
    pub english: String,
    /// The move with its squares (`Ng1-f3`).
    pub long: String,
    /// What replaces the typed text (`3. Кf3`, or `Кf3 ` before a result).
    pub insert: String,
}

/// The legal moves that may be typed at `offset`, or `None` where no move
/// is typed (prose, a tag, a comment, a move number being typed).
pub fn complete(doc: &Document, offset: usize, options: &Options) -> Option<Completions> {
    if !doc.in_notation(offset) {
        // Markdown prose: nothing to complete.
        return None;
    }
    // The text as typed: in a manuscript, a move being typed after a run is
    // not part of the run yet, so the parser's text has it blank.
    let text = &doc.text;
    // The word being typed: back to whitespace, a bracket or a move number.
    let word_start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| !c.is_whitespace() && !matches!(c, '(' | ')' | '{' | '}' | '.' | '…'))
        .last()
        .map_or(offset, |(i, _)| i);
    let typed = &text[word_start..offset];
    if typed.starts_with(|c: char| c.is_ascii_digit()) || typed.starts_with(['[', '"', '$', ';', '%']) {
        return None;
    }
    let (pos, language) = position_before(doc, word_start, options)?;
    // A move number is due before White's move unless one is already there.
    let before = text[..word_start].trim_end();
    let number_written = before.ends_with(['.', '…', ')'])
        && before.chars().rev().nth(1).is_some_and(|c| c.is_ascii_digit() || c == '.');
    // `13.` typed just now (the `.` triggers completion): the move comes
    // after a space, `13. Кb1`.
    let glued_number = number_written && !text[..word_start].ends_with(char::is_whitespace);
    let number = if pos.turn() == Color::White && !number_written {
        Some(format!("{}. ", pos.fullmoves()))
    } else if glued_number {
        Some(" ".to_owned())
    } else {
        None
    };
    let style = MoveStyle::for_language(language);
    let english = MoveStyle::default();
    // The move keeps its separator from what follows (`13. Кb1 *`, not
    // `13. Кb1*`) when the cursor stands right before a result, a bracket
    // or the next move.
    let glued = text[offset..].starts_with(|c: char| !c.is_whitespace());
    let typed_lower = typed.to_lowercase();
    let mut moves: Vec<(Order, String, shakmaty::Move)> = pos
        .legal_moves()
        .iter()
        .filter_map(|m| {
            let san = render_move(&pos, m, &style);
            san.to_lowercase().starts_with(&typed_lower).then(|| (order(&pos, m), san, *m))
        })
        .collect();
    moves.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let items = moves
        .into_iter()
        .map(|(_, san, m)| {
            let mut insert = match &number {
                Some(n) => format!("{n}{san}"),
                None => san.clone(),
            };
            if glued {
                insert.push(' ');
            }
            Completion { english: render_move(&pos, &m, &english), long: m.to_string(), san, insert }
        })
        .collect();
    Some(Completions { span: word_start..offset, language, items })
}

/// Where a move comes in the list, as a player looks for it: mates,
/// checks, captures (the bigger piece taken first), then the other piece
/// moves (king, queen, rook, bishop, knight; castling with the king), then
/// the pawn moves; the written move breaks the ties.
type Order = (u8, u8, u8);

fn order(pos: &Chess, m: &shakmaty::Move) -> Order {
    let mut after = pos.clone();
    after.play_unchecked(*m);
    let piece = |role: Role| match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    };
    let group = if after.is_checkmate() {
        0
    } else if after.is_check() {
        1
    } else if m.is_capture() {
        2
    } else if m.role() != Role::Pawn {
        3
    } else {
        4
    };
    (group, m.capture().map_or(5, piece), piece(m.role()))
}

/// The position where the move typed at `offset` would be played, and the
/// game's language.
fn position_before(doc: &Document, offset: usize, options: &Options) -> Option<(Chess, Language)> {
    let new_game = || Some((Chess::default(), options.language.unwrap_or(Language::En)));
    // The game being written: the last one that starts before the cursor,
    // unless it already ended with a result (then a new game starts).
    let Some(at) = game_at(doc, offset, options) else { return new_game() };
    let tree = at.section.tree(doc);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let game_node = root.children(&mut cursor).find(|n| n.byte_range() == at.span)?;
    if game_node.child_by_field_name(kinds::field::RESULT).is_some_and(|r| r.end_byte() <= at.local) {
        return new_game();
    }
    let language = at.trace.language.unwrap_or(Language::En);
    Some((at.position_for_next_move()?.clone(), language))
}
