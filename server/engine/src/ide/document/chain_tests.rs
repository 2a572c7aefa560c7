//! The one chain of manuscript games (the document's): where each run
//! starts, what is reported, and that prose never is.

use crate::analysis::manuscript::StartKind;
use crate::analysis::{Code, Options};
use crate::ide::check::check_text as check_whole;
use crate::ide::document::{Document, Kind};
use crate::syntax::manuscript::Format;

/// The games and findings of a manuscript, as `--check` has them.
fn check_text(text: &str, format: Format, options: &Options) -> (usize, Vec<crate::analysis::Diagnostic>) {
    let found = check_whole(text, Kind::from_manuscript(Some(format)), options, &Default::default(), &());
    (found.games, found.diagnostics)
}

/// `(code, the text it points at)` for every diagnostic.
fn check(text: &str, format: Format) -> Vec<(&'static str, String)> {
    let (_, found) = check_text(text, format, &Options::default());
    found.iter().map(|d| (d.code.as_str(), text[d.span.clone()].to_owned())).collect()
}

/// The start of every game, in order, as the document's chain found them.
fn starts(text: &str, format: Format) -> Vec<StartKind> {
    let doc = Document::open_as(Kind::from_manuscript(Some(format)), text.to_owned(), 1, &Options::default());
    doc.sections.iter().filter_map(|s| s.chain.as_ref()).flat_map(|c| c.games.iter().map(|g| g.start().kind)).collect()
}

#[test]
fn a_game_goes_on_across_paragraphs_and_variations_branch_off_in_the_prose() {
    let text = "The Spanish: 1. e4 e5 2. Nf3 Nc6 3. Bb5, and now\n\n3...a6 4. Ba4 Nf6 is the main line. After 3...Nf6 4.O-O Nxe4 we have the Berlin; 4. d3 is quieter.\n\nThe main line goes on 5. O-O Be7 6. Re1 b5.";
    assert_eq!(check(text, Format::Text), []);
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Initial, Continues, Variation, Variation, Continues]);
}

#[test]
fn a_line_that_ends_where_the_game_ends_is_no_reason_to_leave_the_main_line() {
    // `3. Bc4` branches off where the first run ends; `3...a6 4. Ba4` then
    // goes on from the main line (the bishop on b5), not from the Italian.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5. The Italian is 3. Bc4. Black answers 3...a6 4. Ba4 Nf6.";
    assert_eq!(check(text, Format::Text), []);
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Initial, Variation, Continues]);
    // When the newer line is a main line too, the moves decide: `4. Bb3`
    // is legal only with the bishop on c4... no: on b5 it goes to a4 or c4;
    // Bb3 needs the bishop on c4 (or a4).
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6\n\nOr 4. Bc4 Nf6. Then 4...b5 5. Bb3 wins time.";
    assert_eq!(check(text, Format::Text), []);
}

#[test]
fn a_run_in_the_sentence_of_a_variation_goes_on_from_it() {
    // `4...d6` is an alternative to the main line's `4...Nf6`, and the
    // sentence goes on with it: `5. d4 exd4` is legal after either, but
    // `7...dxe5` (in the bracket after it) needs the pawn on d6.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6\n\nThe move 4...d6, which does not stop White's plan: 5. d4 exd4 (after 5...Bb6 6. dxe5 Nxe5 7. Nxe5 dxe5 8. Bxf7+ White wins a pawn) 6. cxd4 and White has the centre.\n\n5. d4 exd4 6. cxd4 Bb4+";
    assert_eq!(check(text, Format::Text), []);
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Initial, Variation, Continues, Variation, Continues, Continues]);
    // A run after the bracket its variation stood in goes on from the main
    // line: `7...Nxe4` needs the knight on f6.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 is the main line (the old move was 4...d6) and 5. d4 exd4 6. cxd4 follows.\n\n6...Bb4+ 7. Bd2 Nxe4";
    assert_eq!(check(text, Format::Text), []);
    // An abbreviation's dot, an initial's and an ordinal's before a word in
    // lower case end no sentence (`dr. Perlis`, `az 1912. san-sebastiani
    // versenyen`, as a Hungarian magazine has it).
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6\n\nThe move 4...d6, which dr. Perlis and J. Mieses played in the 1912. tournament: 5. d4 exd4 6. cxd4 Bb6.\n\nThen 7. Nc3 Nf6 8. O-O.\n";
    assert_eq!(check(text, Format::Text), []);
    // A sentence's end between them, likewise.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6, though 4...d6 is played too. Now 5. d4 exd4 6. cxd4 follows.\n\n6...Bb4+ 7. Bd2 Nxe4";
    assert_eq!(check(text, Format::Text), []);
}

#[test]
fn a_game_that_goes_on_past_an_undecided_move_can_be_gone_on_from() {
    // `4...Ng6` is illegal, and `Nf6` and `Nh6` fit the moves after it
    // alike: the game is read on as Nf6, and the run after it goes on from
    // its end (it was not replayed: the record stopped at the undecided
    // move).
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Ng6 5. d3\n\n5... d6 6. c3 g6\n";
    assert_eq!(check(text, Format::Text), [("illegal-move", "Ng6".to_owned())]);
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Initial, Continues]);
}

#[test]
fn a_typeset_book_s_spaced_dots_make_the_move_black_s() {
    // `3. . . Nf6`: the number's dot and two more, spaced (and four dots,
    // `3. . . . Nf6`): Black's move, an alternative to `3...a6`.
    let text =
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6. Also 3. . . Nf6, after which 4. O-O Nxe4 is the Berlin; or 3. . . . d6 4. d4.";
    assert_eq!(check(text, Format::Text), []);
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Initial, Variation, Continues, Variation]);
}

#[test]
fn a_game_goes_on_only_in_its_own_language() {
    // A Russian game, then the same move number in English: not that game.
    let text = "1. e4 e5 2. Кf3 Кc6. Затем 3. Сb5 a6.\n\nIn English: 3. Bb5 a6.";
    assert_eq!(check(text, Format::Text), [("unchecked", "3.".to_owned())]);
    // Letters that Russian and Ukrainian share, then a Ukrainian rook.
    let text = "1. e4 e5 2. Кf3 Кf6 3. Кxe5 d6 4. Кf3 Кxe4 5. d4 d5 6. Сd3 Сe7 7. 0-0 Кc6 8. c4 Кb4 9. Сe2 0-0 10. Кc3 Сf5 11. a3 Кxc3 12. bxc3 Кc6 13. Тe1.";
    assert_eq!(check(text, Format::Text), []);
}

#[test]
fn positions_given_before_a_run() {
    // A FEN with every field; a board alone (the side from `1...`); a
    // position description; a FEN that is no position.
    let text = "Diagram 1: 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1. Solution: 1. Rd8#.\n\n\
                Diagram 2: 3r2k1/5ppp/8/8/8/8/5PPP/6K1. Black mates: 1...Rd1#.\n\n\
                White: Kg1, Rd1; pawns f2, g2, h2. Black: Kg8; pawns f7, g7, h7. 1. Rd8#\n\n\
                Diagram 3: 8/8/8/8/8/8/8/8 w - - 0 1, then 1. Kd2.";
    assert_eq!(check(text, Format::Text), [("invalid-position", "8/8/8/8/8/8/8/8 w - - 0 1".to_owned())]);
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Position, Position, Written, Position]);
}

#[test]
fn a_run_with_no_known_start_is_checked_for_syntax_and_numbering_and_says_so() {
    let text = "In another game 23. Qh5 Nf6 25. Qxf7+ Kh8 26. Qе8 was played.";
    assert_eq!(
        check(text, Format::Text),
        [
            ("unchecked", "23.".to_owned()),
            ("move-number", "25.".to_owned()),
            ("move-number", "26.".to_owned()),
            ("homoglyph", "е".to_owned())
        ]
    );
    let (_, found) = check_text(text, Format::Text, &Options::default());
    assert_eq!(found.iter().filter(|d| d.code == Code::Unchecked).count(), 1);
    assert!(found[0].message.contains("start at 23."), "{}", found[0].message);
    // A game that goes on past a move that could not be read (read as the
    // likeliest move after which the moves after it replay): the run after
    // it goes on from its end.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Qh8 Nf6 and then 5. O-O Be7.";
    let (_, found) = check_text(text, Format::Text, &Options::default());
    let codes: Vec<&str> = found.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["illegal-move"], "{found:?}");
    use StartKind::*;
    assert_eq!(starts(text, Format::Text), [Initial, Continues]);
}

#[test]
fn scanning_damage_maps_back_and_fixes_touch_notation_only() {
    // `К f3` is read as `Кf3`; it is illegal here (the knight is on f3
    // already), and the report covers the whole damaged move.
    let text = "1. Кf3 Кf6 2. К f3.";
    let (_, found) = check_text(text, Format::Text, &Options::default());
    let spans: Vec<(&str, &str)> = found.iter().map(|d| (d.code.as_str(), &text[d.span.clone()])).collect();
    assert_eq!(spans, [("illegal-move", "К f3"), ("space-in-move", "К f3")]);
    for d in &found {
        for fix in &d.fixes {
            for edit in &fix.edits {
                assert!(text.is_char_boundary(edit.span.start) && text.is_char_boundary(edit.span.end));
                assert!(edit.span.start >= text.find("К f3").unwrap(), "{fix:?}");
            }
        }
    }
    let text = "Ещё: 1. Кf3 кf6 .b3 d5 3. Сb2 Кe4.";
    assert_eq!(check(text, Format::Text), [("homoglyph", "к".to_owned()), ("move-number", ".".to_owned())]);
}

#[test]
fn latex_macros_chain_and_variations_stay_variations() {
    let text = "\\newchessgame\n\\mainline{1. e4 e5 2. Nf3 Nc6}\n\\variation{2... d6}\n\\mainline{3. Bb5}\n\\variation{3. Bc4 Bc5}\n\\mainline{3... a6 4. Ba4}\n";
    assert_eq!(check(text, Format::Latex), []);
    use StartKind::*;
    assert_eq!(starts(text, Format::Latex), [Initial, Variation, Continues, Variation, Continues]);
}

#[test]
fn markdown_blocks_and_prose_are_one_book() {
    let text = "```pgn\n1. e4 e5 2. Nf3 Nc6 3. Bb5\n```\n\nNow 3...a6 and then:\n\n```pgn\n4. Ba4 Nf6 *\n```\n\n```pgn\n[Event \"x\"]\n1. d4 d5 *\n```\n";
    assert_eq!(check(text, Format::Markdown), []);
    use StartKind::*;
    assert_eq!(starts(text, Format::Markdown), [Initial, Continues, Continues, Written]);
}

#[test]
fn lone_carriage_returns_end_lines_in_manuscripts_too() {
    let text = "# A game\r\r```pgn\r1. e4 e5 ; a comment\r2. Nf3 Nc6 3. Ke3 *\r```\r";
    assert_eq!(check(text, Format::Markdown), [("illegal-move", "Ke3".to_owned())]);
    let crlf = text.replace('\r', "\r\n");
    assert_eq!(check(&crlf, Format::Markdown), [("illegal-move", "Ke3".to_owned())]);
}

#[test]
fn a_prose_line_whose_first_move_fits_no_variation_is_not_reported_illegal() {
    // `tricks like Nxe4; on 8.Nxe4 comes Bxg5`: the move before `8.Nxe4` is
    // written in words, so `8.Nxe4` fits no place where the prose may
    // branch off inside a variation (`7.Bxf6 gxf6 8.Nb3`): not replayed,
    // not an illegal move.
    let text = "1.e4 c5 2.Nf3 e6 3.Nc3 Nc6 4.d4 cxd4 5.Nxd4 Nf6 6.Bg5 Be7 (now 7.Bxf6 gxf6 8.Nb3 a5 9.a4 Rg8) 7.Qd2 (guards against tricks like Nxe4, on 8.Nxe4 comes Bxg5) 7...d5 8.Bb5 Bd7";
    let found = check(text, Format::Text);
    assert!(!found.iter().any(|(code, _)| *code == "illegal-move"), "{found:?}");
    assert!(found.contains(&("unchecked", "8.".to_owned())), "{found:?}");
}

#[test]
fn black_s_move_under_white_s_number_goes_on_after_a_comment() {
    // `9. Nc3 ... (a comment) 9 Nxc3`: old newspapers give Black's move
    // under White's number after commenting on White's.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Nxe4 6. d4 b5 7. Bb3 d5 8. dxe5 Be6 9. Nc3 ... Not usual.\n\n9 Nxc3\n\n10. bxc3 Be7";
    let found = check(text, Format::Text);
    assert!(!found.iter().any(|(code, _)| *code == "unchecked" || *code == "illegal-move"), "{found:?}");
    // And `3. ... a6` with the dots apart is Black's third move.
    let text = "1. e4 e5 2. Nf3 Nc6\n\n3. Bb5 ....\n\nSome words.\n\n3. ... . a6\n\n4. Ba4 Nf6";
    let found = check(text, Format::Text);
    assert!(!found.iter().any(|(code, _)| *code == "unchecked"), "{found:?}");
}
