//! Completion: the legal moves at the cursor, in the game's language,
//! filtered by what is typed, with the move number inserted where one is
//! due.

use shakmaty::{Chess, Color, Position, Role};
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionResponse, CompletionTextEdit, Position as LspPosition, TextEdit,
};

use crate::lsp::config::Settings;
use crate::lsp::convert;
use chess_ls_engine::analysis::languages::{Language, MoveStyle, render_move};
use chess_ls_engine::ide::document::Document;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::position::game_at;

pub fn complete(doc: &Document, position: LspPosition, unit: Unit, settings: &Settings) -> Option<CompletionResponse> {
    let offset = convert::offset(doc, position, unit);
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
    let (pos, language) = position_before(doc, word_start, settings)?;
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
    let range = convert::range(doc, &(word_start..offset), unit);
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
    let items: Vec<CompletionItem> = moves
        .into_iter()
        .enumerate()
        .map(|(i, (_, san, m))| {
            let mut insert = match &number {
                Some(n) => format!("{n}{san}"),
                None => san.clone(),
            };
            if glued {
                insert.push(' ');
            }
            let en = render_move(&pos, &m, &english);
            CompletionItem {
                label: san.clone(),
                kind: Some(CompletionItemKind::VALUE),
                detail: Some(if language == Language::En { format!("{m}") } else { format!("{en} · {m}") }),
                filter_text: Some(san),
                // The editors sort by this text: the order below, not the
                // alphabet.
                sort_text: Some(format!("{i:03}")),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text: insert })),
                ..CompletionItem::default()
            }
        })
        .collect();
    Some(CompletionResponse::Array(items))
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
fn position_before(doc: &Document, offset: usize, settings: &Settings) -> Option<(Chess, Language)> {
    let new_game = || Some((Chess::default(), settings.options.language.unwrap_or(Language::En)));
    // The game being written: the last one that starts before the cursor,
    // unless it already ended with a result (then a new game starts).
    let Some(at) = game_at(doc, offset, &settings.options) else { return new_game() };
    let tree = at.section.tree(doc);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let game_node = root.children(&mut cursor).find(|n| n.byte_range() == at.span)?;
    if game_node.child_by_field_name("result").is_some_and(|r| r.end_byte() <= at.local) {
        return new_game();
    }
    let language = at.trace.language.unwrap_or(Language::En);
    Some((at.position_for_next_move()?.clone(), language))
}
