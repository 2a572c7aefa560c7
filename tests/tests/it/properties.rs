//! Properties of the analysis on random legal games: a clean game in any
//! language and style gives no diagnostic at all with the language inferred,
//! and a game with one injected fault gives exactly that diagnostic, at
//! exactly the token that is wrong, with nothing before it.
//!
//! The games come from [`chess_ls_tests::generate`], which records the byte
//! range of every move, so that a fault can be put at a known place.

use std::ops::Range;

use chess_ls::analysis::languages::{Language, MoveStyle, disambiguation};
use chess_ls::analysis::{Code, Diagnostic, Options, analyze_text};
use chess_ls_tests::generate::{RenderOptions, RenderedGame, random_game, render_game};
use proptest::prelude::*;
use shakmaty::{Chess, Move, Position, Role, Square};

/// How a game is written: everything in which real texts differ.
#[derive(Clone, Debug)]
struct Layout {
    seed: u64,
    max_plies: usize,
    /// 0: no capture sign, 1: `x`, 2: the old `:`, 3: the Cyrillic `х`
    /// in Russian and Ukrainian (`x` elsewhere).
    capture_sign: u8,
    check_marks: bool,
    castling_zeros: bool,
    promotion_equals: bool,
    figurine_black: bool,
    headers: bool,
    space_after_move_number: bool,
    wrap: bool,
}

fn layout(min_plies: usize) -> impl Strategy<Value = Layout> {
    (any::<u64>(), min_plies..240usize, 0..4u8, any::<[bool; 8]>()).prop_map(
        |(seed, max_plies, capture_sign, flags)| Layout {
            seed,
            max_plies,
            capture_sign,
            check_marks: flags[1],
            castling_zeros: flags[2],
            promotion_equals: flags[3],
            figurine_black: flags[4],
            headers: flags[5],
            space_after_move_number: flags[6],
            wrap: flags[7],
        },
    )
}

fn language() -> impl Strategy<Value = Language> {
    (0..Language::ALL.len()).prop_map(|i| Language::ALL[i])
}

impl Layout {
    fn style(&self, language: Language, long: bool) -> MoveStyle {
        MoveStyle {
            language,
            // A Russian or Ukrainian text may use the Cyrillic sign, which
            // is normal there.
            capture_sign: match self.capture_sign {
                0 => None,
                2 => Some(":"),
                3 if language.is_cyrillic() => Some("х"),
                _ => Some("x"),
            },
            check_marks: self.check_marks,
            long,
            castling_zeros: self.castling_zeros,
            promotion_equals: self.promotion_equals,
            figurine_black: self.figurine_black,
        }
    }

    fn render_options(&self) -> RenderOptions {
        RenderOptions {
            headers: self.headers,
            wrap_column: if self.wrap { Some(80) } else { None },
            space_after_move_number: self.space_after_move_number,
        }
    }

    fn render(&self, language: Language, long: bool) -> (Vec<Move>, RenderedGame) {
        let moves = random_game(self.seed, self.max_plies);
        let game = render_game(&moves, &self.style(language, long), &self.render_options());
        (moves, game)
    }
}

/// The findings, without the note that says which of two languages whose
/// readings both replay is assumed (short games in letters two languages
/// share get one; it is tested in the analysis' own tests).
fn analyse(text: &str) -> Vec<Diagnostic> {
    analyze_text(text, &Options::default())
        .diagnostics()
        .filter(|d| !(d.code == Code::LanguageMix && d.severity == chess_ls::analysis::Severity::Info))
        .cloned()
        .collect()
}

/// The diagnostics as text, for a failure message.
fn show(text: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = format!("--- text:\n{text}\n--- diagnostics:\n");
    for d in diagnostics {
        let token = text.get(d.span.clone()).unwrap_or("<bad span>");
        out.push_str(&format!("{} @ {:?} `{token}`: {}\n", d.code, d.span, d.message));
    }
    out
}

fn splice(text: &str, range: Range<usize>, new: &str) -> String {
    format!("{}{new}{}", &text[..range.start], &text[range.end..])
}

/// The position before each ply.
fn positions(moves: &[Move]) -> Vec<Chess> {
    let mut pos = Chess::default();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(pos.clone());
        pos.play_unchecked(m);
    }
    out
}

/// The move's text without a trailing check or mate mark.
fn core_len(san: &str) -> usize {
    san.trim_end_matches(['+', '#']).len()
}

/// Checks that `expected` (code, span) is the first diagnostic, and, when
/// `alone`, that nothing but an `unchecked` note follows it.
fn assert_first(
    text: &str,
    diagnostics: &[Diagnostic],
    code: Code,
    span: Range<usize>,
    alone: bool,
) -> Result<(), TestCaseError> {
    let first = diagnostics.first();
    prop_assert!(
        first.is_some_and(|d| d.code == code && d.span == span),
        "expected {code} at {span:?} `{}` first\n{}",
        &text[span.clone()],
        show(text, diagnostics)
    );
    if alone {
        prop_assert!(
            diagnostics[1..].iter().all(|d| d.code == Code::Unchecked),
            "expected only {code}\n{}",
            show(text, diagnostics)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::proptest_config(48))]

    /// (a) Every language, short and long, with and without the optional
    /// marks and headers: a legal game raises nothing at all.
    #[test]
    fn clean_games_are_clean_in_every_language(layout in layout(0)) {
        for language in Language::ALL {
            for long in [false, true] {
                let (_, game) = layout.render(language, long);
                let diagnostics = analyse(&game.text);
                prop_assert!(
                    diagnostics.is_empty(),
                    "{language:?} long={long}\n{}",
                    show(&game.text, &diagnostics)
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(crate::proptest_config(128))]

    /// (b) A move replaced by a piece move that no piece can make.
    #[test]
    fn an_illegal_move_is_found_where_it_is(
        layout in layout(1),
        language in language(),
        long in any::<bool>(),
        pick in any::<prop::sample::Index>(),
        role_pick in 0..5usize,
        square_pick in 0..64u32,
    ) {
        let (moves, game) = layout.render(language, long);
        prop_assume!(!moves.is_empty());
        let ply = pick.index(moves.len());
        let pos = &positions(&moves)[ply];
        let role = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight][role_pick];
        // The first square from `square_pick` on that no such piece can go to.
        let to = (0..64u32)
            .map(|i| Square::new((square_pick + i) % 64))
            .find(|&to| pos.san_candidates(role, to).is_empty())
            .expect("a piece cannot reach every square");
        let written = format!("{}{to}", language.letter(role));
        let range = game.moves[ply].byte_range.clone();
        let text = splice(&game.text, range.clone(), &written);
        let diagnostics = analyse(&text);
        let span = range.start..range.start + written.len();
        // The fault may make the whole game legal in another language
        // (`Rd7 ... Re8`: a Finnish knight that cannot go there is a French
        // king that can): then there is nothing wrong to find.
        let report = analyze_text(&text, &Options::default());
        prop_assume!(!(diagnostics.is_empty() && report.games.iter().any(|g| g.language != language)));
        // A recovered move may be a guess that later moves contradict; a
        // move that could not be read leaves only the `unchecked` note.
        let recovered = diagnostics.first().is_some_and(|d| d.fixes.iter().any(|f| f.preferred));
        assert_first(&text, &diagnostics, Code::IllegalMove, span, !recovered)?;
    }

    /// (b) A disambiguation that FIDE 18.9 needs, removed.
    #[test]
    fn a_stripped_disambiguation_is_an_ambiguous_move(
        layout in layout(40),
        language in language(),
        pick in any::<prop::sample::Index>(),
    ) {
        // Many random games never need a disambiguation: try the next
        // seeds rather than reject the case.
        let mut layout = layout;
        let (moves, game, before, needing) = loop {
            let (moves, game) = layout.render(language, false);
            let before = positions(&moves);
            let needing: Vec<usize> = (0..moves.len())
                .filter(|&ply| {
                    let need = disambiguation(&before[ply], &moves[ply]);
                    need.file || need.rank
                })
                .collect();
            if !needing.is_empty() || layout.seed % 64 == 63 {
                break (moves, game, before, needing);
            }
            layout.seed += 1;
        };
        prop_assume!(!needing.is_empty());
        let ply = needing[pick.index(needing.len())];
        let need = disambiguation(&before[ply], &moves[ply]);
        let rendered = &game.moves[ply];
        let letter_len = piece_text_len(&rendered.san);
        let origin_len = usize::from(need.file) + usize::from(need.rank);
        let origin = rendered.byte_range.start + letter_len..rendered.byte_range.start + letter_len + origin_len;
        let text = splice(&game.text, origin, "");
        let diagnostics = analyse(&text);
        let start = rendered.byte_range.start;
        let span = start..start + core_len(&rendered.san) - origin_len;
        assert_first(&text, &diagnostics, Code::AmbiguousMove, span, true)?;
    }

    /// (b) A `+` after a move that gives no check.
    #[test]
    fn a_false_check_mark_is_found(
        layout in layout(1),
        language in language(),
        long in any::<bool>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let (moves, game) = layout.render(language, long);
        let before = positions(&moves);
        let quiet: Vec<usize> = (0..moves.len())
            .filter(|&ply| {
                let mut after = before[ply].clone();
                after.play_unchecked(moves[ply]);
                !after.is_check()
            })
            .collect();
        prop_assume!(!quiet.is_empty());
        let ply = quiet[pick.index(quiet.len())];
        let end = game.moves[ply].byte_range.end;
        let text = splice(&game.text, end..end, "+");
        let diagnostics = analyse(&text);
        assert_first(&text, &diagnostics, Code::CheckMark, end..end + 1, true)?;
        prop_assert_eq!(diagnostics.len(), 1, "{}", show(&text, &diagnostics));
    }

    /// (b) A capture sign on a piece move that captures nothing.
    #[test]
    fn a_false_capture_sign_is_found(
        layout in layout(1),
        language in language(),
        long in any::<bool>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let (moves, game) = layout.render(language, long);
        let quiet: Vec<usize> = (0..moves.len())
            .filter(|&ply| matches!(moves[ply], Move::Normal { role, capture: None, .. } if role != Role::Pawn))
            .collect();
        prop_assume!(!quiet.is_empty());
        let ply = quiet[pick.index(quiet.len())];
        let rendered = &game.moves[ply];
        // The destination square is the last two characters of the move
        // without its mark; in long notation the hyphen before it goes.
        let dest = rendered.byte_range.start + core_len(&rendered.san) - 2;
        let (range, sign) = if long { (dest - 1..dest, "x") } else { (dest..dest, "x") };
        let text = splice(&game.text, range.clone(), sign);
        let diagnostics = analyse(&text);
        assert_first(&text, &diagnostics, Code::CaptureMark, range.start..range.start + 1, true)?;
        prop_assert_eq!(diagnostics.len(), 1, "{}", show(&text, &diagnostics));
    }

    /// (b) A move number that does not fit its ply.
    #[test]
    fn a_wrong_move_number_is_found(
        layout in layout(1),
        language in language(),
        long in any::<bool>(),
        pick in any::<prop::sample::Index>(),
        shift in 1..5u32,
    ) {
        let (moves, game) = layout.render(language, long);
        let white: Vec<usize> = (0..moves.len()).step_by(2).collect();
        prop_assume!(!white.is_empty());
        let ply = white[pick.index(white.len())];
        let start = game.moves[ply].byte_range.start;
        let head = &game.text[..start];
        let dot = head.rfind('.').expect("a White move has its number");
        let digits = head[..dot].len() - head[..dot].trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let number = ply / 2 + 1;
        let wrong = (number as u32 + shift).to_string();
        let text = splice(&game.text, dot - digits..dot, &wrong);
        let diagnostics = analyse(&text);
        let span = dot - digits..dot - digits + wrong.len() + 1;
        assert_first(&text, &diagnostics, Code::MoveNumber, span, true)?;
        prop_assert_eq!(diagnostics.len(), 1, "{}", show(&text, &diagnostics));
    }

    /// (b) A Cyrillic `а`, `с` or `е` in a square of a Russian game.
    #[test]
    fn a_cyrillic_letter_in_a_square_is_found(
        layout in layout(1),
        long in any::<bool>(),
        ukrainian in any::<bool>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let language = if ukrainian { Language::Uk } else { Language::Ru };
        let (moves, game) = layout.render(language, long);
        let candidates: Vec<usize> = (0..moves.len())
            .filter(|&ply| matches!(moves[ply].to().file().char(), 'a' | 'c' | 'e') && !moves[ply].is_castle())
            .collect();
        prop_assume!(!candidates.is_empty());
        let ply = candidates[pick.index(candidates.len())];
        let rendered = &game.moves[ply];
        let file = rendered.byte_range.start + core_len(&rendered.san) - 2 - promotion_len(&rendered.san, moves[ply]);
        let cyrillic = match &game.text[file..file + 1] {
            "a" => "а",
            "c" => "с",
            "e" => "е",
            other => panic!("`{other}` is not the destination file"),
        };
        let text = splice(&game.text, file..file + 1, cyrillic);
        let diagnostics = analyse(&text);
        assert_first(&text, &diagnostics, Code::Homoglyph, file..file + cyrillic.len(), true)?;
        prop_assert_eq!(diagnostics.len(), 1, "{}", show(&text, &diagnostics));
    }

    /// (b) The letter `l` for the digit `1` in a destination square.
    #[test]
    fn the_letter_l_for_one_is_found(
        layout in layout(1),
        language in language(),
        long in any::<bool>(),
        pick in any::<prop::sample::Index>(),
    ) {
        let (moves, game) = layout.render(language, long);
        let candidates: Vec<usize> = (0..moves.len())
            .filter(|&ply| moves[ply].to().rank().char() == '1' && !moves[ply].is_castle())
            .collect();
        prop_assume!(!candidates.is_empty());
        let ply = candidates[pick.index(candidates.len())];
        let rendered = &game.moves[ply];
        let rank = rendered.byte_range.start + core_len(&rendered.san) - 1 - promotion_len(&rendered.san, moves[ply]);
        prop_assert_eq!(&game.text[rank..rank + 1], "1");
        let text = splice(&game.text, rank..rank + 1, "l");
        let diagnostics = analyse(&text);
        assert_first(&text, &diagnostics, Code::Homoglyph, rank..rank + 1, true)?;
        prop_assert_eq!(diagnostics.len(), 1, "{}", show(&text, &diagnostics));
    }

    /// (b) A result that the final position or the Result tag contradicts.
    #[test]
    fn a_wrong_result_is_found(
        layout in layout(0),
        language in language(),
        pick in 0..3usize,
    ) {
        let mut end = Chess::default();
        for &m in &random_game(layout.seed, layout.max_plies) {
            end.play_unchecked(m);
        }
        // Without headers only a mate or a stalemate says what the result
        // is, so other games get their headers.
        let mut layout = layout;
        layout.headers |= !(end.is_checkmate() || end.is_stalemate());
        let (_, game) = layout.render(language, false);
        let others: Vec<&str> = ["1-0", "0-1", "1/2-1/2", "*"].into_iter().filter(|r| *r != game.result).collect();
        let wrong = others[pick];
        // The result token is the last thing of the text.
        let at = game.text.trim_end().len() - game.result.len();
        let text = splice(&game.text, at..at + game.result.len(), wrong);
        let diagnostics = analyse(&text);
        assert_first(&text, &diagnostics, Code::Result, at..at + wrong.len(), true)?;
        prop_assert_eq!(diagnostics.len(), 1, "{}", show(&text, &diagnostics));
    }
}

/// The byte length of the piece letter at the start of a rendered move
/// (`Кр`, `♘`, `N`), or 0 for a pawn move: everything before the first file
/// letter or rank digit.
fn piece_text_len(san: &str) -> usize {
    san.char_indices().find(|(_, c)| matches!(c, 'a'..='h' | '1'..='8')).map_or(0, |(i, _)| i)
}

/// The byte length of a promotion suffix (`=Q`, `Ф`) after the square.
fn promotion_len(san: &str, m: Move) -> usize {
    if m.promotion().is_none() {
        return 0;
    }
    let core = &san[..core_len(san)];
    let last_digit = core.rfind(|c: char| c.is_ascii_digit()).expect("a square");
    core.len() - last_digit - 1
}

#[test]
fn the_helpers_find_the_parts_of_a_move() {
    assert_eq!(piece_text_len("Крe2"), "Кр".len());
    assert_eq!(piece_text_len("N5f3"), 1);
    assert_eq!(piece_text_len("♘gf3"), "♘".len());
    assert_eq!(piece_text_len("exd5"), 0);
    assert_eq!(core_len("Nf3+"), 3);
}
