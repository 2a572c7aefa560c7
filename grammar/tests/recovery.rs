//! Error recovery at scale: junk inside one game of a long file stays with
//! that game, and every other game of the file parses cleanly.
//!
//! An editor reparses on every keystroke, so half-typed text (an open
//! variation, a comment without its `}`, a stray quote) is the normal case.
//! If the grammar let such junk spill over, one keystroke in game 3 would
//! flood the rest of a 1,000-game file with errors.

use tree_sitter::{Node, Parser, Tree};

const GAMES: usize = 1000;
/// The game that gets the junk, counting from 1.
const JUNK_GAME: usize = 3;

/// Where in its game the junk is written.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// In the middle of the movetext, between two moves.
    Movetext,
    /// In place of the tag section's second tag.
    Tags,
}

/// A game shaped like a real export, with a comment, a variation and a NAG.
fn game(number: usize, junk: Option<(Place, &str)>) -> String {
    let site = match junk {
        Some((Place::Tags, junk)) => junk.to_owned(),
        _ => "[Site \"Berlin\"]".to_owned(),
    };
    let middle = match junk {
        Some((Place::Movetext, junk)) => junk,
        _ => "",
    };
    format!(
        "[Event \"Game {number}\"]\n{site}\n[Date \"2024.01.{day:02}\"]\n[Round \"{number}\"]\n\
         [White \"Таль, Михаил\"]\n[Black \"Smyslov, Vasily\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{Ruy Lopez}} 4. Ba4 Nf6 5. O-O Be7 \
         (5... b5 6. Bb3 Bc5 $1) 6. Re1 b5 {middle} 7. Bb3 d6 8. c3 O-O 9. h3 Nb8\n\
         10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. Bg5 h6+ 1-0\n\n",
        day = number % 28 + 1,
        middle = middle,
    )
}

fn file(junk: (Place, &str)) -> String {
    (1..=GAMES).map(|number| game(number, (number == JUNK_GAME).then_some(junk))).collect()
}

fn parse(text: &str) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_chess::LANGUAGE.into()).expect("the chess grammar loads");
    parser.parse(text, None).expect("a parse without timeout always returns a tree")
}

/// True when the node is or contains an ERROR or a MISSING node.
fn has_syntax_error(node: Node) -> bool {
    if node.is_error() || node.is_missing() {
        return true;
    }
    let mut cursor = node.walk();
    node.children(&mut cursor).any(has_syntax_error)
}

/// Parses 1,000 games with `junk` in game 3 and checks that the file still
/// has 1,000 games, that game 3 (or the gap just before it) carries the
/// error, and that all other games are clean.
fn check(place: Place, junk: &str) {
    let text = file((place, junk));
    let tree = parse(&text);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let children: Vec<Node> = root.children(&mut cursor).collect();
    let games: Vec<Node> = children.iter().copied().filter(|n| n.kind() == "game").collect();
    assert_eq!(games.len(), GAMES, "junk {junk:?} ({place:?}) changed the number of games");

    for (index, game) in games.iter().enumerate() {
        let number = index + 1;
        if number != JUNK_GAME {
            assert!(
                !has_syntax_error(*game),
                "junk {junk:?} ({place:?}) in game {JUNK_GAME} left an error in game {number}: {}",
                text[game.byte_range()].lines().next().unwrap_or_default(),
            );
        }
    }

    // The junk is reported somewhere: inside game 3, or as an ERROR between
    // games 2 and 3 (a broken tag before the rest of the tag section).
    let third = games[JUNK_GAME - 1];
    let second_end = games[JUNK_GAME - 2].end_byte();
    let error_before_third =
        children.iter().any(|n| n.is_error() && n.start_byte() >= second_end && n.end_byte() <= third.start_byte());
    assert!(has_syntax_error(third) || error_before_third, "junk {junk:?} ({place:?}) is not reported at all");
    // Nothing else at the top level is an error.
    for node in &children {
        if node.is_error() {
            assert!(
                node.start_byte() >= second_end && node.end_byte() <= third.end_byte(),
                "junk {junk:?} ({place:?}) left an error at the top level at byte {}",
                node.start_byte(),
            );
        }
    }
}

#[test]
fn a_stray_closing_parenthesis_stays_in_its_game() {
    check(Place::Movetext, ")");
}

#[test]
fn an_unclosed_variation_stays_in_its_game() {
    check(Place::Movetext, "(6... Bb7 7. d4");
}

#[test]
fn an_unclosed_comment_stays_in_its_game() {
    check(Place::Movetext, "{a comment the writer did not close");
}

#[test]
fn an_unclosed_variation_with_an_unclosed_comment_stays_in_its_game() {
    check(Place::Movetext, "(6... Bb7 {because");
}

#[test]
fn stray_closing_brackets_stay_in_their_game() {
    check(Place::Movetext, "}) ]");
}

#[test]
fn a_stray_quote_stays_in_its_game() {
    check(Place::Movetext, "\"");
}

#[test]
fn text_that_is_not_notation_stays_in_its_game() {
    check(Place::Movetext, "<br/> @@ ~~ & Nxx9 Kj $");
}

#[test]
fn a_tag_without_its_closing_quote_stays_in_its_game() {
    check(Place::Tags, "[Site \"Berlin");
}

#[test]
fn a_tag_without_its_closing_bracket_stays_in_its_game() {
    check(Place::Tags, "[Site \"Berlin\"");
}

#[test]
fn a_tag_without_a_name_stays_in_its_game() {
    check(Place::Tags, "[\"Berlin\"]");
}

#[test]
fn the_clean_file_has_no_error() {
    let text: String = (1..=GAMES).map(|number| game(number, None)).collect();
    let tree = parse(&text);
    assert!(!has_syntax_error(tree.root_node()));
    let mut cursor = tree.root_node().walk();
    assert_eq!(tree.root_node().children(&mut cursor).filter(|n| n.kind() == "game").count(), GAMES);
}
