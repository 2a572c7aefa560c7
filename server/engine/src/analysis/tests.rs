//! Analysis tests: each feeds a text to [`analyze_text`] and compares a
//! compact rendering of the diagnostics (code, exact token, message, fixes)
//! with the expected one, in the style of rust-analyzer's `check` helpers.
//!
//! The rendering is one line per diagnostic, ``code @ `token`: message``,
//! then one line per fix, `fix*` for the preferred one, with its edits as
//! `` `old` -> `new` ``. To regenerate the expectations after a deliberate
//! change, run the tests with `UPDATE_EXPECT=1` and `--test-threads=1`: each
//! mismatch prints an `@@ EXPECT <line> @@` block with the actual text.

use super::{Diagnostic, LanguageSource, Options, analyze_text};
use crate::analysis::Language;

fn render(source: &str, options: &Options) -> String {
    let report = analyze_text(source, options);
    let mut out = String::new();
    for d in report.diagnostics() {
        render_diagnostic(source, d, &mut out);
    }
    out
}

fn render_diagnostic(source: &str, d: &Diagnostic, out: &mut String) {
    use std::fmt::Write;
    // Messages and fix titles are plain text (editors show a backtick as
    // it is): what they quote is in double quotes.
    assert!(!d.message.contains('`'), "a backtick in the message: {}", d.message);
    for fix in &d.fixes {
        assert!(!fix.title.contains('`'), "a backtick in the fix title: {}", fix.title);
    }
    let _ = writeln!(out, "{} @ `{}`: {}", d.code, &source[d.span.clone()], d.message);
    for fix in &d.fixes {
        let star = if fix.preferred { "*" } else { "" };
        let edits: Vec<String> =
            fix.edits.iter().map(|e| format!("`{}` -> `{}`", &source[e.span.clone()], e.new_text)).collect();
        let _ = writeln!(out, "  fix{star} {} ({})", fix.title, edits.join(", "));
    }
}

#[track_caller]
fn check(source: &str, expect: &str) {
    check_with(source, &Options::default(), expect);
}

#[track_caller]
fn check_with(source: &str, options: &Options, expect: &str) {
    let actual = render(source, options);
    let expect = unindent(expect);
    if actual.trim_end() != expect.trim_end() {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            let line = std::panic::Location::caller().line();
            eprintln!("@@ EXPECT {line} @@\n{actual}@@ END @@");
        }
        panic!("for input:\n{source}\n--- expected:\n{}\n--- actual:\n{actual}", expect.trim_end());
    }
}

/// Checks that a text raises no diagnostic at all.
#[track_caller]
fn check_clean(source: &str) {
    let actual = render(source, &Options::default());
    assert!(actual.is_empty(), "for input:\n{source}\n--- expected nothing, got:\n{actual}");
}

/// The expected text is written indented inside the test; strip the common
/// indentation so that fix lines keep their two-space indent.
fn unindent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
    let indent =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect::<Vec<_>>().join("\n")
}

/// The language of each game and how it was decided.
fn languages(source: &str) -> Vec<(Language, LanguageSource)> {
    analyze_text(source, &Options::default()).games.iter().map(|g| (g.language, g.language_source)).collect()
}

/// A text that starts from a FEN position.
fn fen(fen: &str, moves: &str) -> String {
    format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n{moves}\n")
}

// The seed game of the FIDE text (Appendix C), as printed in the Russian
// and Ukrainian seeds, and in the other notations.

#[test]
fn seed_game_in_russian_has_only_the_stray_move_number() {
    check(
        "1. e4 e5 2. Кf3 Кf6 3. d4 exd4 4. e5 Кe4 5. Фxd4 d5 6. exd6e.p. Кxd6 7. Сg5 Кc6 8. Фe3+3 Сe7 9. Кbd2 0-0 10. 0-0-0 Лe8 11. Крb1 (=).",
        r#"
        move-number @ `3`: the move number 3 does not fit: this is Black's move 8
          fix* Remove the stray 3 (`3` -> ``)
    "#,
    );
}

#[test]
fn seed_game_is_clean_in_every_notation() {
    for text in [
        "1. e4 e5 2. Nf3 Nf6 3. d4 exd4 4. e5 Ne4 5. Qxd4 d5 6. exd6 e.p. Nxd6 7. Bg5 Nc6 8. Qe3+ Be7 9. Nbd2 0-0 10. 0-0-0 Re8 11. Kb1(=)",
        "1. e4 e5 2. Sf3 Sf6 3. d4 exd4 4. e5 Se4 5. Dxd4 d5 6. exd6 e.p. Sxd6 7. Lg5 Sc6 8. De3+ Le7 9. Sbd2 0-0 10. 0-0-0 Te8 11. Kb1 (=)",
        "1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4. e5 Ce4 5. Dxd4 d5 6. exd6 e.p. Cxd6 7. Fg5 Cc6 8. De3+ Fe7 9. Cbd2 0-0 10. 0-0-0 Te8 11. Rb1 (=)",
        "1. e4 e5 2. ♘f3 ♘f6 3. d4 exd4 4. e5 ♘e4 5. ♕xd4 d5 6. exd6 e.p. ♘xd6 7. ♗g5 ♘c6 8. ♕e3+ ♗e7 9. ♘bd2 0-0 10. 0-0-0 ♖e8 11. ♔b1 (=)",
        "1. e4 e5 2. ♘f3 ♞f6 3. d4 exd4 4. e5 ♞e4 5. ♕xd4 d5 6. exd6 e.p. ♞xd6 7. ♗g5 ♞c6 8. ♕e3+ ♝e7 9. ♘bd2 0-0 10. 0-0-0 ♜e8 11. ♔b1 (=)",
        "1. e4 e5 2. Кf3 Кf6 3. d4 e:d4 4. e5 Кe4 5. Ф:d4 d5 6. e:d6 е.р. К:d6 7. Сg5 Кc6 8. Фe3+ Сe7 9. Кbd2 0-0 10. 0-0-0 Лe8 11. Крb1 (=)",
        "1. e4 e5 2. Кf3 Кf6 3. d4 eхd4 4. e5 Кe4 5. Фхd4 d5 6. eхd6 Кхd6 7. Сg5 Кc6 8. Фe3 Сe7 9. Кbd2 0-0 10. 0-0-0 Лe8 11. Крb1",
        "1. e2-e4 e7-e5 2. Ng1-f3 Ng8-f6 3. d2-d4 e5xd4 4. e4-e5 Nf6-e4 5. Qd1xd4 d7-d5 6. e5xd6 Ne4xd6 7. Bc1-g5 Nb8-c6 8. Qd4-e3+ Bf8-e7 9. Nb1-d2 O-O 10. O-O-O Rf8-e8 11. Kc1-b1",
    ] {
        check_clean(text);
    }
    let languages = languages(
        "1. e4 e5 2. Sf3 Sf6 3. d4 exd4 4. e5 Se4 5. Dxd4 d5 *\n\n1. e4 e5 2. Cf3 Cf6 3. d4 exd4 4. e5 Ce4 5. Dxd4 d5 *\n\n1. e4 e5 2. ♘f3 ♘f6 *",
    );
    assert_eq!(languages.iter().map(|l| l.0).collect::<Vec<_>>(), [Language::De, Language::Fr, Language::Figurine]);
}

// illegal-move, with each kind of reason, in several notations.

#[test]
fn illegal_no_such_piece_can_reach() {
    check(
        "1. e4 e5 2. Nd4 Nc6 *",
        r#"
        illegal-move @ `Nd4`: Nd4 is illegal: no white knight can reach d4; read as d4, which the moves after it bear out
          fix* Write d4 (`Nd4` -> `d4`)
    "#,
    );
    check(
        "1. e4 e5 2. Кd4 Кc6 *",
        r#"
        illegal-move @ `Кd4`: Кd4 is illegal: no white knight can reach d4; read as d4, which the moves after it bear out
          fix* Write d4 (`Кd4` -> `d4`)
    "#,
    );
    check(
        "1. e4 e5 2. Sd4 Sc6 3. Lc4 *",
        r#"
        illegal-move @ `Sd4`: Sd4 is illegal: no white knight can reach d4; read as d4, which the moves after it bear out
          fix* Write d4 (`Sd4` -> `d4`)
    "#,
    );
    check(
        "1. e4 e5 2. Cd4 Cc6 *",
        r#"
        illegal-move @ `Cd4`: Cd4 is illegal: no white knight can reach d4; read as d4, which the moves after it bear out
          fix* Write d4 (`Cd4` -> `d4`)
    "#,
    );
    check(
        "1. e4 e5 2. ♘d4 ♘c6 *",
        r#"
        illegal-move @ `♘d4`: ♘d4 is illegal: no white knight can reach d4; read as d4, which the moves after it bear out
          fix* Write d4 (`♘d4` -> `d4`)
    "#,
    );
    // The piece is not on the board at all.
    check(
        &fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "1. Qd1 Kd7 *"),
        r#"
        illegal-move @ `Qd1`: Qd1 is illegal: White has no queen on the board; read as Kd1, which the moves after it bear out
          fix* Write Kd1 (`Qd1` -> `Kd1`)
    "#,
    );
}

#[test]
fn a_capture_that_lost_its_letter_is_read_as_the_capture_there() {
    check(
        "1. e4 d5 2. xd5 Qxd5 3. Nc3 *",
        r#"
        syntax @ `xd5`: "xd5" names no piece: the letter of the piece that captures was lost; the only such capture is exd5
          fix* Write exd5 (`xd5` -> `exd5`)
    "#,
    );
    // Several captures there: the one the moves after it bear out.
    check(
        "1. e4 d5 2. Nc3 Nf6 3. Nf3 e6 4. xd5 Nxd5 5. Nxd5 exd5 *",
        r#"
        syntax @ `xd5`: "xd5" names no piece: the letter of the piece that captures was lost; read as exd5, which the moves after it bear out
          fix* Write exd5 (`xd5` -> `exd5`)
          fix Write Nxd5 (`xd5` -> `Nxd5`)
    "#,
    );
}

#[test]
fn a_pawn_capture_with_its_files_only_is_read_with_the_position() {
    check(
        "1. e4 e5 2. d4 d6 3. de de 4. Qxd8+ Kxd8 *",
        r#"
        syntax @ `de`: "de" is a pawn capture written with its files only (an old short form); the only such capture is dxe5
          fix* Write dxe5 (`de` -> `dxe5`)
        syntax @ `de`: "de" is a pawn capture written with its files only (an old short form); the only such capture is dxe5
          fix* Write dxe5 (`de` -> `dxe5`)
    "#,
    );
    // No such capture: illegal, with the moves close to it.
    check(
        "1. e4 e5 2. de *",
        r#"
        illegal-move @ `de`: de is illegal: no white pawn of the d-file can take on the e-file
          fix Write d3 (`de` -> `d3`)
          fix Write d4 (`de` -> `d4`)
    "#,
    );
    // Two captures that the moves after it bear out alike: both named.
    check(
        "1. e4 d5 2. Nc3 Nf6 3. Nf3 c6 4. xd5 Qxd5 *",
        r#"
        syntax @ `xd5`: "xd5" names no piece: the letter of the piece that captures was lost; it may be exd5 or Nxd5
          fix Write exd5 (`xd5` -> `exd5`)
          fix Write Nxd5 (`xd5` -> `Nxd5`)
    "#,
    );
}

#[test]
fn latin_letters_that_move_as_cyrillic_pieces_are_read_as_look_alikes() {
    // Only `K`, moving as a knight: a Latin `K` typed for the Russian `К`,
    // not an English king that cannot go there.
    check(
        "1. e4 e5 2. Kf3 Kc6 *",
        r#"
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
    "#,
    );
    // An error of the text beside them (a capture with its files only) is
    // the same in every reading: it does not keep the look-alikes unread.
    check(
        "1. e4 Kf6 2. e5 Kd5 3. Kc3 Kxc3 4. dc d6 *",
        r#"
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
        syntax @ `dc`: "dc" is a pawn capture written with its files only (an old short form); the only such capture is dxc3
          fix* Write dxc3 (`dc` -> `dxc3`)
    "#,
    );
    // A promotion's letter is no sign of another alphabet.
    check(
        &fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. Kd2 Ka3 2. e8=K *"),
        r#"
        illegal-move @ `e8=K`: e8=K is illegal: a pawn cannot promote to a king: write the queen, rook, bishop or knight
          fix Write e8=Q (`e8=K` -> `e8=Q`)
          fix Write e8=R (`e8=K` -> `e8=R`)
          fix Write e8=B (`e8=K` -> `e8=B`)
          fix Write e8=N (`e8=K` -> `e8=N`)
    "#,
    );
}

#[test]
fn a_game_in_transliterated_letters_is_read_so_with_one_note() {
    // Ukrainian or Russian letters transliterated to Latin: `F` for `Ф`,
    // `S` for `С`, `Kr` for `Кр`, `K` for `К`. No language reads them all;
    // read as the transliteration, the game is legal, and one note says so.
    check(
        "1. e4 e5 2. Kf3 Kc6 3. Sc4 Sc5 4. Kc3 Kf6 5. Fe2 d6 6. Sxf7+ Krxf7 *",
        r#"
        language-mix @ `K`: the piece letters of this game are Russian written in Latin letters (K = К, S = С, L = Л, F = Ф, Kr = Кр), as machine transliteration leaves them; read so ("K" is the first)
    "#,
    );
    // A game in one language's letters is not read so.
    check_clean("1. e4 e5 2. Sf3 Sc6 3. Lc4 Lc5 *");
}

#[test]
fn a_c_with_cedilla_in_a_square_is_the_file_c() {
    // A French blog typed on a French keyboard: `Cç3`, `ç6`.
    check(
        "1. d4 Cf6 2. Cf3 d5 3. Cç3 ç6 *",
        r#"
        homoglyph @ `ç`: "ç" in a square is U+00E7 LATIN SMALL LETTER C WITH CEDILLA, a look-alike of "c" (U+0063)
          fix* Write c (`ç` -> `c`)
        homoglyph @ `ç`: "ç" in a square is U+00E7 LATIN SMALL LETTER C WITH CEDILLA, a look-alike of "c" (U+0063)
          fix* Write c (`ç` -> `c`)
    "#,
    );
}

#[test]
fn a_character_stuck_to_the_end_of_a_move_is_removed_by_its_fix() {
    let report = analyze_text("1. e4 e5 2. Nf3 Nc6— 3. Bb5 a6 *", &Options::default());
    let fixes: Vec<(&str, &str)> = report
        .diagnostics()
        .filter(|d| d.code == crate::analysis::Code::Syntax)
        .filter_map(|d| d.fixes.iter().find(|f| f.preferred).map(|f| (f.title.as_str(), f.edits[0].new_text.as_str())))
        .collect();
    assert_eq!(fixes, [("Remove \"—\"", "")]);
}

#[test]
fn a_move_number_written_twice_is_found_with_its_fix() {
    check(
        "1. e4 e5 2. 2. Nf3 Nc6 *",
        r#"
        move-number @ `2. 2.`: the move number "2." is written twice
          fix* Write 2. (`2. 2.` -> `2.`)
    "#,
    );
}

#[test]
fn illegal_move_of_the_wrong_side() {
    check(
        "1. e4 e5 2. Nf6 *",
        r#"
        illegal-move @ `Nf6`: Nf6 is illegal: no white knight can reach f6; Black could make this move, but it is White's turn (is a move missing or written twice?); read as Nf3, the only move close to what is written
          fix* Write Nf3 (`Nf6` -> `Nf3`)
    "#,
    );
}

#[test]
fn illegal_path_blocked() {
    check(
        "1. Bc4 e5 *",
        r#"
        illegal-move @ `Bc4`: Bc4 is illegal: the path of the bishop on f1 to c4 is blocked by the white pawn on e2; read as c4, which the moves after it bear out
          fix* Write c4 (`Bc4` -> `c4`)
    "#,
    );
    check(
        "1. e4 e5 2. Фd3 Кc6 *",
        r#"
        illegal-move @ `Фd3`: Фd3 is illegal: the path of the queen on d1 to d3 is blocked by the white pawn on d2; read as Фf3, which the moves after it bear out
          fix* Write Фf3 (`Фd3` -> `Фf3`)
          fix Write d3 (`Фd3` -> `d3`)
          fix Write Сd3 (`Фd3` -> `Сd3`)
    "#,
    );
    check(
        "1. Lc4 e5 2. Sf3 *",
        r#"
        illegal-move @ `Lc4`: Lc4 is illegal: the path of the bishop on f1 to c4 is blocked by the white pawn on e2; read as c4, which the moves after it bear out
          fix* Write c4 (`Lc4` -> `c4`)
    "#,
    );
    check(
        "1. Fc4 e5 2. Cf3 *",
        r#"
        illegal-move @ `Fc4`: Fc4 is illegal: the path of the bishop on f1 to c4 is blocked by the white pawn on e2; read as c4, which the moves after it bear out
          fix* Write c4 (`Fc4` -> `c4`)
    "#,
    );
    check(
        "1. ♗c4 e5 *",
        r#"
        illegal-move @ `♗c4`: ♗c4 is illegal: the path of the bishop on f1 to c4 is blocked by the white pawn on e2; read as c4, which the moves after it bear out
          fix* Write c4 (`♗c4` -> `c4`)
    "#,
    );
}

#[test]
fn illegal_pinned_piece() {
    check(
        "1. e4 e5 2. d4 Bb4+ 3. Nc3 Nf6 4. Nd5 *",
        r#"
        illegal-move @ `Nd5`: Nd5 is illegal: the knight on c3 is pinned against the king on e1 by the black bishop on b4; read as d5, the only move close to what is written
          fix* Write d5 (`Nd5` -> `d5`)
    "#,
    );
    check(
        "1. e4 e5 2. d4 Сb4+ 3. Кc3 Кf6 4. Кd5 *",
        r#"
        illegal-move @ `Кd5`: Кd5 is illegal: the knight on c3 is pinned against the king on e1 by the black bishop on b4; read as d5, the only move close to what is written
          fix* Write d5 (`Кd5` -> `d5`)
    "#,
    );
    check(
        "1. e4 e5 2. d4 Lb4+ 3. Sc3 Sf6 4. Sd5 *",
        r#"
        illegal-move @ `Sd5`: Sd5 is illegal: the knight on c3 is pinned against the king on e1 by the black bishop on b4; read as d5, the only move close to what is written
          fix* Write d5 (`Sd5` -> `d5`)
    "#,
    );
    check(
        "1. e4 e5 2. d4 Fb4+ 3. Cc3 Cf6 4. Cd5 *",
        r#"
        illegal-move @ `Cd5`: Cd5 is illegal: the knight on c3 is pinned against the king on e1 by the black bishop on b4; read as d5, the only move close to what is written
          fix* Write d5 (`Cd5` -> `d5`)
    "#,
    );
    check(
        "1. e4 e5 2. d4 ♗b4+ 3. ♘c3 ♘f6 4. ♘d5 *",
        r#"
        illegal-move @ `♘d5`: ♘d5 is illegal: the knight on c3 is pinned against the king on e1 by the black bishop on b4; read as d5, the only move close to what is written
          fix* Write d5 (`♘d5` -> `d5`)
    "#,
    );
}

#[test]
fn illegal_king_left_in_check() {
    check(
        "1. e4 e5 2. d4 Bb4+ 3. a3 *",
        r#"
        illegal-move @ `a3`: a3 is illegal: the king on e1 is in check from the black bishop on b4, and this move does not parry it; read as c3, the only move close to what is written
          fix* Write c3 (`a3` -> `c3`)
    "#,
    );
    check(
        "1. e4 f5 2. Qh5+ Kf7 *",
        r#"
        illegal-move @ `Kf7`: Kf7 is illegal: the king would stand in check on f7 from the white queen on h5
    "#,
    );
    check(
        "1. e4 f5 2. Фh5+ Крf7 *",
        r#"
        illegal-move @ `Крf7`: Крf7 is illegal: the king would stand in check on f7 from the white queen on h5
    "#,
    );
    check(
        "1. e4 f5 2. Dh5+ Kf7 *",
        r#"
        illegal-move @ `Kf7`: Kf7 is illegal: the king would stand in check on f7 from the white queen on h5
    "#,
    );
    check(
        "1. e4 f5 2. Dh5+ Rf7 *",
        r#"
        illegal-move @ `Rf7`: Rf7 is illegal: the king would stand in check on f7 from the white queen on h5
    "#,
    );
    check(
        "1. e4 f5 2. ♕h5+ ♔f7 *",
        r#"
        illegal-move @ `♔f7`: ♔f7 is illegal: the king would stand in check on f7 from the white queen on h5
    "#,
    );
}

#[test]
fn illegal_castling() {
    // The right is lost: the king has moved.
    check(
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Ke2 Nf6 5. Ke1 d6 6. O-O *",
        r#"
        illegal-move @ `O-O`: O-O is illegal: White can no longer castle kingside: the king or that rook has moved (or the rook was captured)
    "#,
    );
    check(
        "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. Крe2 Кf6 5. Крe1 d6 6. 0-0 *",
        r#"
        illegal-move @ `0-0`: 0-0 is illegal: White can no longer castle kingside: the king or that rook has moved (or the rook was captured)
    "#,
    );
    check(
        "1. e4 e5 2. Sf3 Sc6 3. Lc4 Lc5 4. Ke2 Sf6 5. Ke1 d6 6. 0-0 *",
        r#"
        illegal-move @ `0-0`: 0-0 is illegal: White can no longer castle kingside: the king or that rook has moved (or the rook was captured)
    "#,
    );
    check(
        "1. e4 e5 2. Cf3 Cc6 3. Fc4 Fc5 4. Re2 Cf6 5. Re1 d6 6. O-O *",
        r#"
        illegal-move @ `O-O`: O-O is illegal: White can no longer castle kingside: the king or that rook has moved (or the rook was captured)
    "#,
    );
    check(
        "1. e4 e5 2. ♘f3 ♘c6 3. ♗c4 ♗c5 4. ♔e2 ♘f6 5. ♔e1 d6 6. O-O *",
        r#"
        illegal-move @ `O-O`: O-O is illegal: White can no longer castle kingside: the king or that rook has moved (or the rook was captured)
    "#,
    );
    // Through an attacked square, out of check, blocked, no right in the FEN.
    check(
        &fen("r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1", "1. O-O *"),
        r#"
        illegal-move @ `O-O`: O-O is illegal: the king would cross or land on f1, which the black queen on f3 attacks
    "#,
    );
    check(
        &fen("r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1", "1. O-O-O *"),
        r#"
        illegal-move @ `O-O-O`: O-O-O is illegal: White may not castle out of check
    "#,
    );
    check(
        &fen("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "1. O-O-O *"),
        r#"
        illegal-move @ `O-O-O`: O-O-O is illegal: castling queenside is blocked by the white knight on b1
    "#,
    );
    check(
        &fen("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "1. O-O-O *"),
        r#"
        illegal-move @ `O-O-O`: O-O-O is illegal: White can no longer castle queenside: the king or that rook has moved (or the rook was captured)
    "#,
    );
}

#[test]
fn illegal_promotion() {
    // The knight's `N` makes the game English: alone, `e8=K` also reads as
    // Turkish, where `K` is the rook (kale), and so is legal.
    check(
        &fen("8/4P3/8/8/8/8/k7/4K1N1 w - - 0 1", "1. Nf3 Kb3 2. e8=K *"),
        r#"
        illegal-move @ `e8=K`: e8=K is illegal: a pawn cannot promote to a king: write the queen, rook, bishop or knight
          fix Write e8=Q (`e8=K` -> `e8=Q`)
          fix Write e8=R (`e8=K` -> `e8=R`)
          fix Write e8=B (`e8=K` -> `e8=B`)
          fix Write e8=N (`e8=K` -> `e8=N`)
    "#,
    );
    check(
        &fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. e8=Q Kb2 2. e4=Q *"),
        r#"
        illegal-move @ `e4=Q`: e4=Q is illegal: White has no pawn on the board
    "#,
    );
}

// ambiguous-move: the candidates written the FIDE 18.9 way.

#[test]
fn ambiguous_knights_in_every_notation() {
    check(
        "1. Nf3 Nf6 2. d4 d5 3. Nd2 *",
        r#"
        ambiguous-move @ `Nd2`: Nd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2
          fix Write Nbd2 (`Nd2` -> `Nbd2`)
          fix Write Nfd2 (`Nd2` -> `Nfd2`)
    "#,
    );
    check(
        "1. Кf3 Кf6 2. d4 d5 3. Кd2 *",
        r#"
        ambiguous-move @ `Кd2`: Кd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2
          fix Write Кbd2 (`Кd2` -> `Кbd2`)
          fix Write Кfd2 (`Кd2` -> `Кfd2`)
    "#,
    );
    check(
        "1. Sf3 Sf6 2. d4 d5 3. Sd2 *",
        r#"
        ambiguous-move @ `Sd2`: Sd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2
          fix Write Sbd2 (`Sd2` -> `Sbd2`)
          fix Write Sfd2 (`Sd2` -> `Sfd2`)
    "#,
    );
    check(
        "1. Cf3 Cf6 2. d4 d5 3. Cd2 *",
        r#"
        ambiguous-move @ `Cd2`: Cd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2
          fix Write Cbd2 (`Cd2` -> `Cbd2`)
          fix Write Cfd2 (`Cd2` -> `Cfd2`)
    "#,
    );
    check(
        "1. ♘f3 ♘f6 2. d4 d5 3. ♘d2 *",
        r#"
        ambiguous-move @ `♘d2`: ♘d2 is ambiguous: the knight on b1 and the knight on f3 can go to d2
          fix Write ♘bd2 (`♘d2` -> `♘bd2`)
          fix Write ♘fd2 (`♘d2` -> `♘fd2`)
    "#,
    );
}

#[test]
fn fide_18_9_file_rank_and_both() {
    // Knights on g1 and e1 (18.9.1: the file), on g5 and g1 (18.9.2: the
    // rank), on h2 and d4 (18.9.3: the file is preferred).
    check(
        &fen("4k3/8/8/8/8/8/8/3KN1N1 w - - 0 1", "1. Nf3 *"),
        r#"
        ambiguous-move @ `Nf3`: Nf3 is ambiguous: the knight on e1 and the knight on g1 can go to f3
          fix Write Nef3 (`Nf3` -> `Nef3`)
          fix Write Ngf3 (`Nf3` -> `Ngf3`)
    "#,
    );
    check(
        &fen("4k3/8/8/6N1/8/8/8/3K2N1 w - - 0 1", "1. Nf3 *"),
        r#"
        ambiguous-move @ `Nf3`: Nf3 is ambiguous: the knight on g1 and the knight on g5 can go to f3
          fix Write N1f3 (`Nf3` -> `N1f3`)
          fix Write N5f3 (`Nf3` -> `N5f3`)
    "#,
    );
    check(
        &fen("4k3/8/8/8/3N4/8/7N/3K4 w - - 0 1", "1. Кf3 *"),
        r#"
        ambiguous-move @ `Кf3`: Кf3 is ambiguous: the knight on h2 and the knight on d4 can go to f3
          fix Write Кhf3 (`Кf3` -> `Кhf3`)
          fix Write Кdf3 (`Кf3` -> `Кdf3`)
    "#,
    );
    // Three queens: a4 shares the file with a2 and the rank with c4.
    check(
        &fen("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "1. Qb3 *"),
        r#"
        ambiguous-move @ `Qb3`: Qb3 is ambiguous: the queen on a2, the queen on a4 and the queen on c4 can go to b3
          fix Write Q2b3 (`Qb3` -> `Q2b3`)
          fix Write Qa4b3 (`Qb3` -> `Qa4b3`)
          fix Write Qcb3 (`Qb3` -> `Qcb3`)
    "#,
    );
    check(
        &fen("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "1. Qab3 *"),
        r#"
        ambiguous-move @ `Qab3`: Qab3 is ambiguous: the queen on a2 and the queen on a4 can go to b3
          fix Write Q2b3 (`Qab3` -> `Q2b3`)
          fix Write Qa4b3 (`Qab3` -> `Qa4b3`)
    "#,
    );
    // The written disambiguations are all right.
    check_clean(&fen("4k3/8/8/8/8/8/8/3KN1N1 w - - 0 1", "1. Ngf3 *"));
    check_clean(&fen("4k3/8/8/6N1/8/8/8/3K2N1 w - - 0 1", "1. N5f3 *"));
    check_clean(&fen("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "1. Qa4b3 *"));
    check_clean(&fen("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "1. Q2b3 *"));
    check_clean(&fen("7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1", "1. Qcb3 *"));
}

#[test]
fn fide_18_9_capture_with_disambiguation() {
    check(
        &fen("4k3/8/8/4N3/8/5p2/8/3K2N1 w - - 0 1", "1. Nxf3 *"),
        r#"
        ambiguous-move @ `Nxf3`: Nxf3 is ambiguous: the knight on g1 and the knight on e5 can go to f3
          fix Write Ngxf3 (`Nxf3` -> `Ngxf3`)
          fix Write Nexf3 (`Nxf3` -> `Nexf3`)
    "#,
    );
    check_clean(&fen("4k3/8/8/4N3/8/5p2/8/3K2N1 w - - 0 1", "1. Ngxf3 *"));
    check_clean(&fen("4k3/8/8/4N3/8/5p2/8/3K2N1 w - - 0 1", "1. Ngf3 *"));
}

#[test]
fn fide_18_9_a_pinned_knight_does_not_make_a_move_ambiguous() {
    // The f3 knight is pinned by the d5 bishop: only b1 can go to d2.
    check_clean(&fen("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "1. Nd2 *"));
    check(
        &fen("4k3/8/8/3b4/8/5N2/8/1N5K w - - 0 1", "1. Nbd2 *"),
        r#"
        redundant-disambiguation @ `b`: "b" is not needed: no other knight can go to d2
          fix* Remove "b" (`b` -> ``)
    "#,
    );
}

// Recovery: a move that could not be read is resolved when the rest of
// the game decides, and the replay goes on; otherwise one `unchecked` note.

#[test]
fn ambiguous_move_resolved_by_the_moves_after_it() {
    check(
        &fen("4k3/8/8/4N3/8/5p2/8/3K2N1 w - - 0 1", "1. Nxf3 Ke7 2. Nd3 Kd6 3. Nf4 *"),
        r#"
        ambiguous-move @ `Nxf3`: Nxf3 is ambiguous: the knight on g1 and the knight on e5 can go to f3; read as Ngxf3, the only one that the moves after it bear out
          fix* Write Ngxf3 (`Nxf3` -> `Ngxf3`)
          fix Write Nexf3 (`Nxf3` -> `Nexf3`)
    "#,
    );
}

#[test]
fn ambiguous_move_that_nothing_decides_is_checked_under_both_readings() {
    check(
        "1. Nf3 Nf6 2. d4 d5 3. Nd2 e6 4. e4 *",
        r#"
        ambiguous-move @ `Nd2`: Nd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2; Nbd2 and Nfd2 fit the moves after it alike, so the rest of the game is checked under each, and read on as Nbd2
          fix Write Nbd2 (`Nd2` -> `Nbd2`)
          fix Write Nfd2 (`Nd2` -> `Nfd2`)
    "#,
    );
}

#[test]
fn illegal_move_with_one_likely_reading_is_recovered() {
    // `Nf4` for `Nf3`: the same piece one character away is likelier than
    // the pawn move `f4`.
    check(
        "1. e4 e5 2. Nf4 Nc6 3. Bc4 Nf6 4. Ng5 d5 *",
        r#"
        illegal-move @ `Nf4`: Nf4 is illegal: no white knight can reach f4; read as Nf3, which the moves after it bear out
          fix* Write Nf3 (`Nf4` -> `Nf3`)
          fix Write f4 (`Nf4` -> `f4`)
    "#,
    );
    // A guessed move's marks are not checked; its fix writes them right.
    check(
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf6+ *",
        r#"
        illegal-move @ `Qxf6`: Qxf6+ is illegal: no white queen can reach f6; read as Qxf7, the only move close to what is written
          fix* Write Qxf7# (`Qxf6+` -> `Qxf7#`)
        result @ `*`: the result * contradicts the final position: Black is checkmated, so the result is 1-0
          fix* Write 1-0 (`*` -> `1-0`)
    "#,
    );
}

#[test]
fn illegal_move_that_nothing_decides_is_read_on_under_its_likeliest_reading() {
    // `Ke2` is not borne out (`Bb5` is blocked after it), so the rest is
    // checked for what is wrong whatever White played: nothing certain.
    check(
        "1. e4 e5 2. Ke4 (2. Nf3 Nc6 3. Bb5 Qf6 4. Qh5) 2... Nc6 3. Bb5 *\n\n1. d4 d5 2. Qd3 Qd6 3. Qxd5 *",
        r#"
        illegal-move @ `Ke4`: Ke4 is illegal: e4 is occupied by White's own pawn; read on as Ke2, the likeliest reading, though the moves after it do not bear it out: the rest of the game is checked for what is wrong whatever was meant here
          fix Write Ke2 (`Ke4` -> `Ke2`)
        illegal-move @ `Qh5`: Qh5 is illegal: the path of the queen on d1 to h5 is blocked by the white knight on f3
        unchecked @ `Bb5`: not checked for certain, since it depends on how Ke4 is read: if it is Ke2, Bb5 is illegal: the path of the bishop on f1 to b5 is blocked by the white king on e2
        illegal-move @ `Qxd5`: Qxd5 is illegal: the path of the queen on d3 to d5 is blocked by the white pawn on d4
    "#,
    );
}

#[test]
fn a_move_wrong_whatever_was_meant_before_it_is_reported() {
    // `Qc6` is no legal move and nothing after it decides what was meant;
    // `Rc4` is impossible after any move of Black's there: an error.
    let out = render("1. e4 e5 2. Qf3 Qc6 3. Rc4 Nf6 4. Qe2 *", &Options::default());
    assert!(out.contains("illegal-move @ `Qc6`"), "{out}");
    assert!(out.contains("illegal-move @ `Rc4`: Rc4 is illegal: no white rook can reach c4"), "{out}");
}

#[test]
fn text_that_swallowed_a_move_is_no_illegal_move() {
    check(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 <br> a6 4. Ba4 *",
        r#"
        syntax @ `<br>`: "<br>" is not chess notation
    "#,
    );
    check(
        "1. e4 e5 2. Nf3 Nc6 3. Q a6 4. Bc4 *",
        r#"
        space-in-move @ `Q a6`: "Q a6" is one move broken by a space (as scanned text often has it): write Qa6; Q a6 is read as two moves, Ba6 b6 (the likeliest moves after which the game goes on)
          fix* Write Qa6 (`Q a6` -> `Qa6`)
    "#,
    );
}

// missing-promotion

#[test]
fn missing_promotion_reads_a_queen_and_goes_on() {
    check(
        &fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. e8 Kb2 2. Qe4 *"),
        r#"
        missing-promotion @ `e8`: the pawn reaches the last rank but no piece is named; read as a promotion to a queen (e8=Q)
          fix* Promote to a queen (Q) (`` -> `Q`)
          fix Promote to a rook (R) (`` -> `R`)
          fix Promote to a bishop (B) (`` -> `B`)
          fix Promote to a knight (N) (`` -> `N`)
    "#,
    );
    check(
        &fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. e8 Крb2 2. Фe4 *"),
        r#"
        missing-promotion @ `e8`: the pawn reaches the last rank but no piece is named; read as a promotion to a queen (e8=Ф)
          fix* Promote to a queen (Ф) (`` -> `Ф`)
          fix Promote to a rook (Л) (`` -> `Л`)
          fix Promote to a bishop (С) (`` -> `С`)
          fix Promote to a knight (К) (`` -> `К`)
    "#,
    );
    check_clean(&fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. e8Ф Крb2 2. Фe4 *"));
    // A pawn more for Black: a knight alone against a bare king could not
    // mate, and the position would be dead (5.2.2).
    check_clean(&fen("8/4P2p/8/8/8/8/k7/4K3 w - - 0 1", "1. e8=N Kb2 2. Nd6 *"));
    check_clean(&fen("8/4P2p/8/8/8/8/k7/4K3 w - - 0 1", "1. e8S Kb2 2. Sd6 *"));
    // A figurine in a game written with letters is a mix of notations.
    check(
        &fen("8/4P2p/8/8/8/8/k7/4K3 w - - 0 1", "1. e8♘ Kb2 *"),
        r#"
        language-mix @ `♘`: "♘" is the figurine of the knight, but this game is in English: write N
          fix* Write N (`♘` -> `N`)
    "#,
    );
    check_clean(&fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. e8q Kb2 *"));
}

#[test]
fn a_figurine_font_s_code_in_a_game_of_letters_is_read_as_its_piece() {
    // A PDF copy of a Portuguese game that kept a few figurines of its
    // font (`¥` for the bishop, `¦` for the rook): read on, each reported
    // with the game's own letter as the fix.
    check(
        "1.e4 e5 2.Cf3 Cc6 3.¥b5 a6 4.Ba4 Cf6 5.O-O Be7 6.¦e1 b5 *",
        r#"
        homoglyph @ `¥`: "¥" (U+00A5 YEN SIGN) is where a figurine font draws "♗" (bishop): text copied from a PDF; this game is in Portuguese: write B
          fix* Write B (`¥` -> `B`)
        homoglyph @ `¦`: "¦" (U+00A6 BROKEN BAR) is where a figurine font draws "♖" (rook): text copied from a PDF; this game is in Portuguese: write T
          fix* Write T (`¦` -> `T`)
    "#,
    );
}

// invalid-position: a FEN tag or a position description.

#[test]
fn invalid_fen() {
    check(
        &fen("8/8/8/8/8/8/8/4K3 w - - 0 1", "1. Ke2 *"),
        r#"
        invalid-position @ `8/8/8/8/8/8/8/4K3 w - - 0 1`: the FEN is not a legal position: Black has no king
    "#,
    );
    check(
        &fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "1. e4 *"),
        r#"
        invalid-position @ `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1`: this FEN cannot be read: invalid turn part in fen
    "#,
    );
    check(
        &fen("4k3/8/8/8/8/8/8/4K2P w - - 0 1", "1. Kd2 *"),
        r#"
        invalid-position @ `4k3/8/8/8/8/8/8/4K2P w - - 0 1`: the FEN is not a legal position: a pawn stands on h1, on the first or last rank
    "#,
    );
    check(
        &fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "1. Kd2 *"),
        r#"
        invalid-position @ `4k3/4R3/8/8/8/8/8/4K3 w - - 0 1`: the FEN is not a legal position: Black is in check, but it is White's move
    "#,
    );
    check(
        &fen("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", "1. Kd2 *"),
        r#"
        invalid-position @ `4k3/8/8/8/8/8/8/4K3 w KQ - 0 1`: the FEN is not a legal position: the castling rights do not fit the king and rooks
    "#,
    );
}

#[test]
fn invalid_position_description() {
    check(
        "Белые: Крc1, Фf2, Лe1; пп. a3, b2.\n1. Фf7 *",
        r#"
        invalid-position @ `Белые: Крc1, Фf2, Лe1; пп. a3, b2.`: the described position is not legal: Black has no king
    "#,
    );
    check(
        "Белые: Крc1, Фf2, Лe1, Лe1; пп. a3, b2.\nЧёрные: Крg8.\n1. Лe8# *",
        r#"
        invalid-position @ `Лe1`: two pieces are placed on e1: the white rook is there already
    "#,
    );
    check(
        "Белые: Крc1, Фf2, Лe1; пп. a3, b2.\nЧёрные: Крg8; пп. h8.\n1. Лe8# *",
        r#"
        invalid-position @ `h8`: a pawn cannot stand on h8, on the first or last rank
    "#,
    );
    check(
        "Белые: Крc1, Фf2, Лe1; пп. a3, b2.\nЧёрные: Крe8.\n1. Фf7+ *",
        r#"
        invalid-position @ `Белые: Крc1, Фf2, Лe1; пп. a3, b2.
        Чёрные: Крe8.`: the described position is not legal: Black is in check, but it is White's move
    "#,
    );
}

// result

#[test]
fn result_contradicted_by_the_final_position() {
    check(
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1",
        r#"
        result @ `0-1`: the result 0-1 contradicts the final position: Black is checkmated, so the result is 1-0
          fix* Write 1-0 (`0-1` -> `1-0`)
    "#,
    );
    check(
        "1. e4 e5 2. Фh5 Кc6 3. Сc4 Кf6 4. Фxf7# *",
        r#"
        result @ `*`: the result * contradicts the final position: Black is checkmated, so the result is 1-0
          fix* Write 1-0 (`*` -> `1-0`)
    "#,
    );
    check(
        "1. f3 e5 2. g4 Dh4# 1/2-1/2",
        r#"
        result @ `1/2-1/2`: the result 1/2-1/2 contradicts the final position: White is checkmated, so the result is 0-1
          fix* Write 0-1 (`1/2-1/2` -> `0-1`)
    "#,
    );
    check_clean("1. f3 e5 2. g4 Dh4# 0-1");
    // Stalemate.
    check(
        &fen("k7/8/1Q6/8/8/8/8/4K3 w - - 0 1", "1. Qc7 1-0"),
        r#"
        result @ `1-0`: the result 1-0 contradicts the final position: Black is stalemated, so the result is 1/2-1/2
          fix* Write 1/2-1/2 (`1-0` -> `1/2-1/2`)
    "#,
    );
    check_clean(&fen("k7/8/1Q6/8/8/8/8/4K3 w - - 0 1", "1. Qc7 ½-½"));
}

#[test]
fn result_disagreeing_with_the_result_tag() {
    check(
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 0-1",
        r#"
        result @ `0-1`: the game ends with 0-1 but its Result tag says 1-0
          fix Write 1-0 (`0-1` -> `1-0`)
          fix Write 0-1 in the Result tag (`1-0` -> `0-1`)
    "#,
    );
    check(
        "[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        r#"
        result @ `0-1`: the Result tag says 0-1, but the final position proves 1-0: Black is checkmated
          fix* Write 1-0 (`0-1` -> `1-0`)
    "#,
    );
}

// check-mark, capture-mark, en-passant-mark

#[test]
fn wrong_check_marks() {
    check(
        "1. e4 e5 2. Nf3+ Nc6 3. Bb5# a6 *",
        r##"
        check-mark @ `+`: "+" is wrong: the move gives no check
          fix* Remove the mark (`+` -> ``)
        check-mark @ `#`: "#" is wrong: the move gives no check
          fix* Remove the mark (`#` -> ``)
    "##,
    );
    check(
        "1. e4 e5 2. Кf3+ Кc6 *",
        r#"
        check-mark @ `+`: "+" is wrong: the move gives no check
          fix* Remove the mark (`+` -> ``)
    "#,
    );
    check(
        "1. e4 f5 2. Qh5# g6 *",
        r##"
        check-mark @ `#`: "#" is wrong: the move gives check, not mate
          fix* Write + (`#` -> `+`)
    "##,
    );
    check(
        "1. e4 f5 2. Qh5++ g6 *",
        r#"
        check-mark @ `++`: "++" means mate (or, in some Russian texts, double check), but this is a single check
          fix* Write + (`++` -> `+`)
    "#,
    );
    // A mate written `++` or `#`, a check `+`: all right.
    check_clean("1. f3 e5 2. g4 Qh4++ 0-1");
    check_clean("1. e4 f5 2. Qh5+ g6 *");
}

#[test]
fn wrong_capture_signs() {
    check(
        "1. e4 e5 2. Nxf3 Nc6 *",
        r#"
        capture-mark @ `x`: the capture sign is wrong: f3 is empty, the move captures nothing
          fix* Remove the capture sign (`x` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. Кхf3 Кc6 *",
        r#"
        capture-mark @ `х`: the capture sign is wrong: f3 is empty, the move captures nothing
          fix* Remove the capture sign (`х` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. S:f3 Sc6 3. Lb5 *",
        r#"
        capture-mark @ `:`: the capture sign is wrong: f3 is empty, the move captures nothing
          fix* Remove the capture sign (`:` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. Cxf3 Cc6 *",
        r#"
        capture-mark @ `x`: the capture sign is wrong: f3 is empty, the move captures nothing
          fix* Remove the capture sign (`x` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. ♘xf3 ♞c6 *",
        r#"
        capture-mark @ `x`: the capture sign is wrong: f3 is empty, the move captures nothing
          fix* Remove the capture sign (`x` -> ``)
    "#,
    );
    check(
        "1. e2xe4 e7-e5 *",
        r#"
        capture-mark @ `x`: the capture sign is wrong: e4 is empty, the move captures nothing
          fix* Remove the capture sign (`x` -> ``)
    "#,
    );
}

#[test]
fn a_fix_that_adds_a_capture_writes_the_game_s_own_sign() {
    // `f3` for `B:f3` in a game that writes its captures with `:`.
    check(
        "1. e4 d5 2. e:d5 c6 3. d:c6 Nf6 4. c:b7 B:b7 5. Nf3 f3 6. g:f3 e6 *",
        r#"
        illegal-move @ `f3`: f3 is illegal: no black pawn can reach f3; read as Bxf3, which the moves after it bear out
          fix* Write B:f3 (`f3` -> `B:f3`)
    "#,
    );
}

#[test]
fn wrong_en_passant_marks() {
    check(
        "1. e4 d5 2. exd5 e.p. Qxd5 *",
        r#"
        en-passant-mark @ `e.p.`: this move is not an en-passant capture
          fix* Remove "e.p." (` e.p.` -> ``)
    "#,
    );
    check(
        "1. e4 d5 2. e5 f5 3. exf6 e.p. gxf6 4. d4е.р. *",
        r#"
        en-passant-mark @ `е.р.`: this move is not an en-passant capture
          fix* Remove "е.р." (`е.р.` -> ``)
    "#,
    );
}

// What FIDE makes optional is not reported.

#[test]
fn optional_marks_are_not_reported() {
    // The seed game without capture signs, check marks and `e.p.`.
    check_clean(
        "1. e4 e5 2. Nf3 Nf6 3. d4 ed4 4. e5 Ne4 5. Qd4 d5 6. ed6 Nd6 7. Bg5 Nc6 8. Qe3 Be7 9. Nbd2 0-0 10. 0-0-0 Re8 11. Kb1",
    );
    check_clean("1. e4 d5 2. e5 f5 3. ef6 gf6 4. Qh5 Kd7 *");
    check_clean("1. e4 e5 2. Кf3 Кc6 3. Кхe5 Кхe5 4. d4 Кc6 5. d5 Кe5 *");
    check_clean("1. f3 e5 2. g4 Qh4 0-1");
}

#[test]
fn missing_marks_are_reported_when_asked() {
    let options = Options { report_missing_check: true, report_missing_capture: true, ..Options::default() };
    check_with(
        "1. e4 d5 2. ed5 Qd5 3. Nc3 Qe5 4. Be2 Qe4 *",
        &options,
        r#"
        capture-mark @ `ed5`: the move captures but has no capture sign
          fix* Add the capture sign (`` -> `x`)
        capture-mark @ `Qd5`: the move captures but has no capture sign
          fix* Add the capture sign (`` -> `x`)
        check-mark @ `Qe5`: the move gives check but has no "+"
          fix* Add + (`` -> `+`)
    "#,
    );
    check_with(
        "1. f3 e5 2. g4 Qh4 0-1",
        &options,
        r##"
        check-mark @ `Qh4`: the move mates but has no "#"
          fix* Add # (`` -> `#`)
    "##,
    );
}

// homoglyph

#[test]
fn cyrillic_letters_in_squares() {
    check(
        "1. е4 e5 2. Кf3 Кc6 3. Сc4 Сс5 4. 0-0 Кf6 *",
        r#"
        homoglyph @ `е`: "е" in a square is U+0435 CYRILLIC SMALL LETTER IE, a look-alike of "e" (U+0065)
          fix* Write e (`е` -> `e`)
        homoglyph @ `с`: "с" in a square is U+0441 CYRILLIC SMALL LETTER ES, a look-alike of "c" (U+0063)
          fix* Write c (`с` -> `c`)
    "#,
    );
    check(
        "1. e4 а6 2. d4 e6 *",
        r#"
        homoglyph @ `а`: "а" in a square is U+0430 CYRILLIC SMALL LETTER A, a look-alike of "a" (U+0061)
          fix* Write a (`а` -> `a`)
    "#,
    );
    check(
        "1. е4 е5 2. Nf3 *",
        r#"
        homoglyph @ `е`: "е" in a square is U+0435 CYRILLIC SMALL LETTER IE, a look-alike of "e" (U+0065)
          fix* Write e (`е` -> `e`)
        homoglyph @ `е`: "е" in a square is U+0435 CYRILLIC SMALL LETTER IE, a look-alike of "e" (U+0065)
          fix* Write e (`е` -> `e`)
    "#,
    );
}

#[test]
fn digits_written_as_letters() {
    check(
        "1. e4 e5 2. Кf3 Кc6 3. Сc4 Кf6 4. 0-0 Сc5 5. Лel 0-0 *",
        r#"
        homoglyph @ `l`: "l" in a square is U+006C LATIN SMALL LETTER L, a look-alike of "1" (U+0031)
          fix* Write 1 (`l` -> `1`)
    "#,
    );
    check(
        "1. e4 e5 2. КfЗ Кc6 *",
        r#"
        homoglyph @ `З`: "З" in a square is U+0417 CYRILLIC CAPITAL LETTER ZE, a look-alike of "3" (U+0033)
          fix* Write 3 (`З` -> `3`)
    "#,
    );
    check(
        "1. Nf3 Nf6 2. g3 g6 3. Bg2 Bg7 4. O-O O-O 5. d3 d6 6. Nbd2 Nbd7 7. Re1 Re8 8. Nfl *",
        r#"
        homoglyph @ `l`: "l" in a square is U+006C LATIN SMALL LETTER L, a look-alike of "1" (U+0031)
          fix* Write 1 (`l` -> `1`)
    "#,
    );
}

#[test]
fn latin_letters_in_a_russian_game() {
    check(
        "1. e4 e5 2. Kf3 Кc6 3. Cc4 Сc5 4. Kpe2 *",
        r#"
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A) for the knight
          fix* Write К (`K` -> `К`)
        homoglyph @ `C`: "C" (U+0043 LATIN CAPITAL LETTER C) is a look-alike of the Russian letter "С" (U+0421) for the bishop
          fix* Write С (`C` -> `С`)
        homoglyph @ `Kp`: "Kp" (U+004B LATIN CAPITAL LETTER K, U+0070 LATIN SMALL LETTER P) is a look-alike of the Russian letter "Кр" (U+041A, U+0440) for the king
          fix* Write Кр (`Kp` -> `Кр`)
    "#,
    );
    // A Latin `K` that is no knight is the English king.
    check(
        &fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "1. e8Ф Kb2 *"),
        r#"
        language-mix @ `K`: "K" is the English letter for the king, but this game is in Russian: write Кр
          fix* Write Кр (`K` -> `Кр`)
    "#,
    );
}

#[test]
fn cyrillic_signs_in_a_latin_game() {
    check(
        "1. e4 e5 2. Nf3 Nc6 3. Nхe5 Nхe5 *",
        r#"
        homoglyph @ `х`: "х" as the capture sign is U+0445 CYRILLIC SMALL LETTER HA, a look-alike of "x" (U+0078)
          fix* Write x (`х` -> `x`)
        homoglyph @ `х`: "х" as the capture sign is U+0445 CYRILLIC SMALL LETTER HA, a look-alike of "x" (U+0078)
          fix* Write x (`х` -> `x`)
    "#,
    );
    check(
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. О-О *",
        r#"
        homoglyph @ `О`: "О" in castling is U+041E CYRILLIC CAPITAL LETTER O, a look-alike of "O" (U+004F)
          fix* Write O (`О` -> `O`)
        homoglyph @ `О`: "О" in castling is U+041E CYRILLIC CAPITAL LETTER O, a look-alike of "O" (U+004F)
          fix* Write O (`О` -> `O`)
    "#,
    );
}

// pawn-letter

#[test]
fn pawn_letters() {
    check(
        "1. Pe4 e5 2. Nf3 Nc6 3. pd4 *",
        r#"
        pawn-letter @ `P`: a pawn move is written without a letter: "P" is not needed
          fix* Remove "P" (`P` -> ``)
        pawn-letter @ `p`: a pawn move is written without a letter: "p" is not needed
          fix* Remove "p" (`p` -> ``)
    "#,
    );
    check(
        "1. пe4 e5 2. Кf3 *",
        r#"
        pawn-letter @ `п`: a pawn move is written without a letter: "п" is not needed
          fix* Remove "п" (`п` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Bd4 exd4 *",
        r#"
        pawn-letter @ `B`: a pawn move is written without a letter: "B" is not needed
          fix* Remove "B" (`B` -> ``)
    "#,
    );
    check(
        "1. Pe4 e5 2. Cf3 Cc6 3. Fb5 *",
        r#"
        pawn-letter @ `P`: a pawn move is written without a letter: "P" is not needed
          fix* Remove "P" (`P` -> ``)
    "#,
    );
    check(
        "1. ♙e4 e5 2. ♘f3 *",
        r#"
        pawn-letter @ `♙`: a pawn move is written without a letter: "♙" is not needed
          fix* Remove "♙" (`♙` -> ``)
    "#,
    );
}

// move-number

#[test]
fn wrong_move_numbers() {
    check(
        "1. e4 e5 2. Nf3 Nc6 4. Bb5 a6 *",
        r#"
        move-number @ `4.`: the move number 4 does not fit: this is White's move 3
          fix* Write 3. (`4.` -> `3.`)
    "#,
    );
    check(
        "1. e4 e5 2. Nf3 Nc6 3... Bb5 a6 *",
        r#"
        move-number @ `3...`: "3..." marks a move of Black, but it is White's move 3
          fix* Write 3. (`3...` -> `3.`)
    "#,
    );
    // Black's move numbers, book style and PGN style, are all right.
    check_clean("1. e4 1... e5 2. Nf3 2...Nc6 3.Bb5 3…a6 *");
    check_clean("1. e4 e5 2) Nf3 Nc6 3 Bb5 *");
}

// language-mix

#[test]
fn letters_of_two_languages() {
    check(
        "1. e4 e5 2. Nf3 Кc6 3. Bb5 *",
        r#"
        language-mix @ `К`: "К" is the Russian letter for the knight, but this game is in English: write N
          fix* Write N (`К` -> `N`)
    "#,
    );
    check(
        "1. e4 e5 2. Nf3 Sc6 3. Bb5 *",
        r#"
        language-mix @ `S`: "S" is the German letter for the knight, but this game is in English: write N
          fix* Write N (`S` -> `N`)
    "#,
    );
    check(
        "1. e4 e5 2. Кf3 Nc6 3. Сb5 *",
        r#"
        language-mix @ `N`: "N" is the English letter for the knight, but this game is in Russian: write К
          fix* Write К (`N` -> `К`)
    "#,
    );
}

#[test]
fn undecided_language_is_reported_when_it_changes_the_findings() {
    // `Nd2` is a knight (English) or a bishop (Romanian) move: either
    // reading is legal, nothing is wrong, and an info says which reading
    // is assumed (notation.md: the assumed language is reported when it is
    // not obvious).
    check(
        "1. g4 f5 2. d4 g6 3. Nd2 *",
        r#"
        language-mix @ `N`: the moves read as legal in English and Romanian, with other pieces moving; assuming English (set the language to be sure)
    "#,
    );
    // Both readings find a mistake, at different places: which one is real
    // depends on the language, so the assumption is reported.
    check(
        "1. d3 e5 2. Nd2 Nf6 3. Nc3 *",
        r#"
        language-mix @ `N`: the notation language could not be decided: the moves read equally well in English and Romanian; assuming English (set the language to be sure)
        illegal-move @ `Nc3`: Nc3 is illegal: no white knight can reach c3
          fix Write Nh3 (`Nc3` -> `Nh3`)
          fix Write Nb3 (`Nc3` -> `Nb3`)
          fix Write Nc4 (`Nc3` -> `Nc4`)
          fix Write c3 (`Nc3` -> `c3`)
    "#,
    );
}

// tag

#[test]
fn malformed_tags() {
    check(
        "[Event \"x\"]\n[Date \"2024-01-31\"]\n[Result \"1:0\"]\n[SetUp \"yes\"]\n[EventDate \"2024.??.??\"]\n\n1. e4 *",
        r#"
        tag @ `2024-01-31`: "2024-01-31" is not a PGN date: write YYYY.MM.DD, with ?? for what is unknown
        tag @ `1:0`: "1:0" is not a PGN result: use 1-0, 0-1, 1/2-1/2 or *
          fix* Write 1-0 (`1:0` -> `1-0`)
        tag @ `yes`: SetUp is "1" when a FEN tag gives the start position, else "0"
        result @ `*`: the game ends with * but its Result tag says 1:0
          fix Write 1-0 (`*` -> `1-0`)
          fix Write * in the Result tag (`1:0` -> `*`)
    "#,
    );
}

// redundant-disambiguation

#[test]
fn redundant_disambiguation() {
    check(
        "1. e4 e5 2. Ngf3 Nc6 3. N1c3 *",
        r#"
        redundant-disambiguation @ `g`: "g" is not needed: no other knight can go to f3
          fix* Remove "g" (`g` -> ``)
        redundant-disambiguation @ `1`: "1" is not needed: no other knight can go to c3
          fix* Remove "1" (`1` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. Кgf3 *",
        r#"
        redundant-disambiguation @ `g`: "g" is not needed: no other knight can go to f3
          fix* Remove "g" (`g` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. Sgf3 Sbc6 3. Lb5 *",
        r#"
        redundant-disambiguation @ `g`: "g" is not needed: no other knight can go to f3
          fix* Remove "g" (`g` -> ``)
        redundant-disambiguation @ `b`: "b" is not needed: no other knight can go to c6
          fix* Remove "b" (`b` -> ``)
    "#,
    );
    // Long algebraic names the origin by style, not as a disambiguation.
    check_clean("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1c4 *");
}

// syntax and the `unchecked` info

#[test]
fn syntax_errors() {
    check(
        "1. e4 e5 ) 2. Nf3 *",
        r#"
        syntax @ `)`: unbalanced closing bracket in ")"
    "#,
    );
    check(
        "1. e4 e5 2. Nf3 ( 2. d4 *",
        r#"
        syntax @ ``: ")" is missing here
    "#,
    );
    check(
        "[Event \"x\"\n1. e4 *",
        r#"
        syntax @ ``: "]" is missing here
    "#,
    );
    check(
        "1. e4 e5 2. Nf3 Nc6 3. Z7 *",
        r#"
        syntax @ `Z7`: "Z7" is not chess notation
    "#,
    );
}

#[test]
fn unsupported_variant_is_not_checked() {
    check(
        "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Nc6 3. N@e5 *",
        r#"
        unchecked @ `[Variant "Crazyhouse"]`: the moves were not checked: the variant Crazyhouse is not supported
    "#,
    );
}

// Inference of the language from the letters and the replay.

#[test]
fn letters_that_mean_different_pieces_are_read_right() {
    // Dutch `P` is the knight, Finnish `R` the knight, French `R` the king,
    // German `B` a pawn.
    let cases = [
        ("1. e4 e5 2. Pf3 Pc6 3. Lb5 a6 4. Lxc6 dxc6 5. O-O *", Language::Nl),
        ("1. e4 e5 2. Rf3 Rc6 3. Lb5 a6 4. Lxc6 dxc6 *", Language::Fi),
        ("1. e4 e5 2. Re2 Re7 3. Rf3 Rf6 *", Language::Fr),
        ("1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Bd4 exd4 *", Language::De),
        ("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke2 *", Language::En),
        ("1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Axc6 dxc6 5. Re2 *", Language::Es),
        ("1. e4 e5 2. Jf3 Jc6 3. Sb5 a6 4. Sxc6 dxc6 5. Ke2 *", Language::Cs),
        ("1. e4 e5 2. Hf3 Hc6 3. Fb5 a6 4. Fxc6 dxc6 5. Ke2 *", Language::Hu),
    ];
    for (text, language) in cases {
        assert_eq!(languages(text)[0].0, language, "{text}");
    }
    check(
        "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Bd4 exd4 *",
        r#"
        pawn-letter @ `B`: a pawn move is written without a letter: "B" is not needed
          fix* Remove "B" (`B` -> ``)
    "#,
    );
    check_clean("1. e4 e5 2. Pf3 Pc6 3. Lb5 a6 4. Lxc6 dxc6 5. O-O *");
    check_clean("1. e4 e5 2. Rf3 Rc6 3. Lb5 a6 4. Lxc6 dxc6 *");
    check_clean("1. e4 e5 2. Re2 Re7 3. Rf3 Rf6 *");
    // The language is decided per game.
    assert_eq!(
        languages("1. e4 e5 2. Re2 Re7 *\n\n1. e4 e5 2. Rf3 Rc6 *\n\n1. a4 a5 2. Ra3 Ra6 *")
            .iter()
            .map(|l| l.0)
            .collect::<Vec<_>>(),
        [Language::Fr, Language::Fi, Language::En]
    );
}

#[test]
fn a_chosen_language_is_used_as_is() {
    let options = Options { language: Some(Language::En), ..Options::default() };
    check_with(
        "1. e4 e5 2. Sf3 *",
        &options,
        r#"
        language-mix @ `S`: "S" is the German letter for the knight, but this game is in English: write N
          fix* Write N (`S` -> `N`)
    "#,
    );
}

// Variations replay from the position before the move they replace.

#[test]
fn variations_replay_from_before_the_move_they_replace() {
    check_clean("1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5 3. exd5) 3. Nf3) 2... Nc6 (2... d6 3. d4 (3. Bc4 Be7)) 3. Bb5 *");
    check_clean("1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 *");
    check(
        "1. e4 e5 2. Nf3 (2. f4 exf4 (2... d5 3. Nf6) 3. Bc4) Nc6 3. Bb5 *",
        r#"
        illegal-move @ `Nf6`: Nf6 is illegal: no white knight can reach f6; Black could make this move, but it is White's turn (is a move missing or written twice?); read as Nf3, the only move close to what is written
          fix* Write Nf3 (`Nf6` -> `Nf3`)
    "#,
    );
    check_clean("1. e4 e5 (1... c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Bb5) 2. Nf3 *");
}

// Where a game starts: FEN + SetUp, Chess960, a position description.

#[test]
fn games_from_a_fen() {
    check_clean(&fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "1. O-O O-O-O 2. Rfe1 Rde8 *"));
    check_clean(&fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 21", "21. exd6 e.p. Kd7 22. Kd2 *"));
    check(
        &fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 21", "1. exd6 Kd7 *"),
        r#"
        move-number @ `1.`: the move number 1 does not fit: this is White's move 21
          fix* Write 21. (`1.` -> `21.`)
    "#,
    );
}

#[test]
fn chess960_from_the_variant_tag() {
    // The king castles from f1 with the h1 rook, over the square g1.
    let start =
        "[Variant \"Chess960\"]\n[FEN \"nrbbqknr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKNR w HBhb - 0 1\"]\n[SetUp \"1\"]\n\n";
    check_clean(&format!("{start}1. Nh3 Nh6 2. O-O O-O 3. Kh1 Kh8 *"));
    check(
        &format!("{start}1. O-O *"),
        r#"
        illegal-move @ `O-O`: O-O is illegal: castling kingside is blocked by the white knight on g1
    "#,
    );
    // The king on g1 castles short with the h1 rook, but the f1 rook
    // stands where that rook must go.
    check(
        "[Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n[SetUp \"1\"]\n\n9. O-O *",
        r#"
        illegal-move @ `O-O`: O-O is illegal: castling kingside is blocked by the white rook on f1
    "#,
    );
}

#[test]
fn lookalikes_in_a_position_description_are_reported_with_their_fix() {
    // As notation.md and the seed write it: a Cyrillic `с` in `Крс1`, a
    // Cyrillic `а` in `Ла8`, Latin `K` and `C` among Russian letters, `l`
    // for `1`. The board is set up as meant, and each is reported.
    check(
        "Белые: Крс1, Фf2, Лdl, Лh1, Ke4, Кe6; пп. a3, b2, c2, c5, g3.\nЧёрные: Крg8, Фd8, Ла8, Лf8, Cg4, Сg7; пп. b7, c6, f7, g6, h7.\n1. Кxg7 Крxg7 2. Фd4+ Крg8 3. Кf6+ Крg7 *",
        r#"
        homoglyph @ `с`: "с" in a square is U+0441 CYRILLIC SMALL LETTER ES, a look-alike of "c" (U+0063)
          fix* Write c (`с` -> `c`)
        homoglyph @ `l`: "l" in a square is U+006C LATIN SMALL LETTER L, a look-alike of "1" (U+0031)
          fix* Write 1 (`l` -> `1`)
        homoglyph @ `K`: "K" (U+004B LATIN CAPITAL LETTER K) is a look-alike of the Russian letter "К" (U+041A)
          fix* Write К (`K` -> `К`)
        homoglyph @ `а`: "а" in a square is U+0430 CYRILLIC SMALL LETTER A, a look-alike of "a" (U+0061)
          fix* Write a (`а` -> `a`)
        homoglyph @ `C`: "C" (U+0043 LATIN CAPITAL LETTER C) is a look-alike of the Russian letter "С" (U+0421)
          fix* Write С (`C` -> `С`)
    "#,
    );
}

#[test]
fn games_from_a_position_description() {
    check_clean(
        "Белые: Крc1, Фf2, Лe1, Лh1, Кe4, Кe6; пп. a3, b2, c2, c5, g3.\nЧёрные: Крg8, Фd8, Лa8, Лf8, Сg4, Сg7; пп. b7, c6, f7, g6, h7.\n1. Кxg7 Крxg7 2. Фd4+ Крg8 3. Кf6+ Крg7 *",
    );
    check_clean("White: Kc1, Qf2, Re1; pawns a3, b2.\nBlack: Kg8; pawns h7, g7.\n1. Qf7+ Kh8 2. Re8# 1-0");
    // The move number says whose move it is and how far the game is.
    check_clean("Белые: Крc1, Фf2, Лe1; пп. a3, b2.\nЧёрные: Крg8; пп. h7, g7.\n23. Фf7+ Крh8 24. Лe8# 1-0");
    check_clean("Белые: Крc1, Фf2, Лe1; пп. a3, b2.\nЧёрные: Крg8; пп. h7, g7.\n23... Крh8 24. Фf8# 1-0");
    // The pawns after `пп.` are on the board: without f7, g7 and h7 the
    // rook would give no mate.
    check_clean("Белые: Крc1, Лe1; пп. a3.\nЧёрные: Крg8; пп. f7, g7, h7.\n1. Лe8# 1-0");
    check(
        "Белые: Крc1, Лe1; пп. a3.\nЧёрные: Крg8; пп. f7, h7.\n1. Лe8# 1-0",
        r##"
        check-mark @ `#`: "#" is wrong: the move gives check, not mate
          fix* Write + (`#` -> `+`)
    "##,
    );
}

#[test]
fn null_moves_count_the_move_numbers_on() {
    check_clean("1. e4 e5 2. Nf3 -- 3. Bb5 *");
    check(
        "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- 4. Qf8 *",
        r#"
        illegal-move @ `--`: a null move is not possible while the king is in check
        unchecked @ `Qf8`: the rest of this game (1 move) was not checked: the move -- before it could not be read
    "#,
    );
}

// Every move-level code, the same in every notation: each case is written
// in English and translated letter by letter.

/// The text with the English piece letters of moves (a capital K, Q, R, B
/// or N that starts a move or follows `=`) replaced by the language's.
fn translate(text: &str, language: Language) -> String {
    use shakmaty::Role;
    let mut out = String::with_capacity(text.len() * 2);
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let starts_move = prev.is_none_or(|p| matches!(p, ' ' | '.' | '(' | '=' | '\n'));
        let role = match c {
            'K' => Some(Role::King),
            'Q' => Some(Role::Queen),
            'R' => Some(Role::Rook),
            'B' => Some(Role::Bishop),
            'N' => Some(Role::Knight),
            _ => None,
        };
        let before_square = chars.peek().is_some_and(|n| matches!(n, 'a'..='h' | '1'..='8' | 'x'));
        match role {
            Some(role) if starts_move && (before_square || prev == Some('=')) => {
                out.push_str(language.letter(role));
            }
            _ => out.push(c),
        }
        prev = Some(c);
    }
    out
}

#[test]
fn every_move_code_in_every_notation() {
    use super::Code;
    let promotion = "[FEN \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n";
    let cases: [(String, Code, &str); 14] = [
        ("1. e4 e5 ) 2. Nf3 *".into(), Code::Syntax, ")"),
        ("1. e4 f5 2. Qh5+ Kf7 *".into(), Code::IllegalMove, "Kf7"),
        ("1. Nf3 Nf6 2. d4 d5 3. Nd2 *".into(), Code::AmbiguousMove, "Nd2"),
        (format!("{promotion}1. e8 Kb2 2. Qe4 *"), Code::MissingPromotion, "e8"),
        ("1. f3 e5 2. g4 Qh4# 1-0".into(), Code::Result, "1-0"),
        ("1. e4 e5 2. Nf3+ Nc6 *".into(), Code::CheckMark, "+"),
        ("1. e4 f5 2. Qh5# g6 *".into(), Code::CheckMark, "#"),
        ("1. e4 e5 2. Nxf3 Nc6 *".into(), Code::CaptureMark, "x"),
        ("1. e4 d5 2. exd5 e.p. Qxd5 *".into(), Code::EnPassantMark, "e.p."),
        ("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. Rel *".into(), Code::Homoglyph, "l"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. О-О Nf6 *".into(), Code::Homoglyph, "О"),
        ("1. e4 e5 3. Nf3 Nc6 *".into(), Code::MoveNumber, "3."),
        ("1. e4 e5 2. Ngf3 Nc6 *".into(), Code::RedundantDisambiguation, "g"),
        // A move past which the game goes on, read as the likeliest move
        // after which the rest replays (`resync.rs`): nothing after it is
        // left unchecked.
        ("1. Nf3 Nf6 2. Qh8 e6 3. e4 *".into(), Code::IllegalMove, "Qh8"),
    ];
    for language in [Language::En, Language::Ru, Language::De, Language::Fr, Language::Figurine] {
        let mut all = cases.to_vec();
        // The pawn letter and a letter of another language differ by
        // language.
        let pawn = language.pawn_letters()[0];
        all.push(("1. @e4 e5 2. Nf3 *".to_owned(), Code::PawnLetter, "P"));
        let foreign = if language == Language::Ru { "S" } else { "К" };
        all.push((format!("1. e4 e5 2. Nf3 {foreign}c6 3. Bb5 *"), Code::LanguageMix, "FOREIGN"));
        for (text, code, token) in all {
            // The pawn letter goes in after the translation, which would
            // take a German `B` for the bishop.
            let text = translate(&text, language).replace('@', pawn);
            let token = match token {
                "P" => pawn.to_owned(),
                "FOREIGN" => foreign.to_owned(),
                token => translate(token, language),
            };
            let report = analyze_text(&text, &Options::default());
            let found: Vec<(super::Code, &str)> =
                report.diagnostics().map(|d| (d.code, &text[d.span.clone()])).collect();
            let at = if code == Code::Unchecked { 1 } else { 0 };
            assert!(
                found.get(at) == Some(&(code, token.as_str())),
                "{language:?}: expected {code} at `{token}` as finding {at} in\n{text}\ngot {found:?}"
            );
        }
    }
}

#[test]
fn a_brace_inside_a_comment_does_not_hide_the_rest_of_the_game() {
    // PGN comments do not nest: `{a { b}` ends at its first `}`, and the
    // illegal king move after it is found.
    let found = render("1. e4 e5 {a { b} 2. Nf3 Nc6 3. Ke3 *", &Options::default());
    assert!(found.starts_with("illegal-move @ `Ke3`"), "{found}");
    assert!(!found.contains("syntax"), "{found}");
    // A comment that holds one balanced pair is still one comment.
    check_clean("1. e4 e5 {a {b} c} 2. Nf3 Nc6 *");
}

#[test]
fn castling_that_mixes_the_digit_and_the_letter_is_reported_with_its_fix() {
    let found = render("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-O Nf6 5. d3 O-0 *", &Options::default());
    assert_eq!(found.matches("homoglyph @ `0-O`").count(), 1, "{found}");
    assert!(found.contains("fix* Write 0-0 (`0-O` -> `0-0`)"), "{found}");
    assert!(found.contains("homoglyph @ `O-0`") && found.contains("fix* Write O-O"), "{found}");
    check_clean("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 O-O *");
}

#[test]
fn castling_with_the_small_letter_o_is_reported_with_its_fix() {
    // A club report's `o-o`: read as castling, said to be a look-alike.
    let found = render("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. o-o Nf6 5. d3 o-o *", &Options::default());
    assert_eq!(found.matches("homoglyph @ `o-o`").count(), 2, "{found}");
    assert!(found.contains("fix* Write O-O (`o-o` -> `O-O`)"), "{found}");
    assert!(!found.contains("illegal"), "{found}");
}

/// The typographic `×` (a copy from a printed page, a figurine font) as the
/// capture sign: a look-alike of `x`, fixed at its character; in a Russian
/// game too (its capture sign is `:`, `x` or the Cyrillic `х`).
#[test]
fn the_multiplication_sign_as_the_capture_sign_is_reported_with_its_fix() {
    let found = render("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. B×c6 d×c6 5. O-O *", &Options::default());
    assert_eq!(found.matches("homoglyph @ `×`").count(), 2, "{found}");
    assert!(found.contains("fix* Write x (`×` -> `x`)"), "{found}");
    assert!(!found.contains("illegal"), "{found}");
    let ru = render("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. С×c6 d×c6 5. 0-0 *", &Options::default());
    assert_eq!(ru.matches("homoglyph @ `×`").count(), 2, "{ru}");
}

/// `Bxf7 + Kxf7`: a check sign after a blank is the move's (said, with
/// the fix that joins it), not an unreadable token that the game is
/// resynchronised past.
#[test]
fn a_check_sign_standing_alone_after_a_move_is_the_moves() {
    let found = render("1. e4 e5 2. Bc4 Nc6 3. Bxf7 + Kxf7 4. Nf3 d6 5. Ng5 + Ke8 6. Qh5+ g6 *", &Options::default());
    assert_eq!(found.matches("space-in-move @ `Bxf7 +`").count(), 1, "{found}");
    assert_eq!(found.matches("space-in-move @ `Ng5 +`").count(), 1, "{found}");
    assert!(found.contains("`Bxf7 +` -> `Bxf7+`"), "{found}");
    assert!(!found.contains("syntax") && !found.contains("illegal"), "{found}");
}

#[test]
fn nags_past_255_are_no_nags() {
    let found = render("1. e4 $1 e5 $256 2. Nf3 $0001 Nc6 $99999999999999999999 *", &Options::default());
    let codes: Vec<&str> = found.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(codes.len(), 2, "{found}");
    assert!(
        codes[0].starts_with("syntax @ `$256`") && codes[1].starts_with("syntax @ `$99999999999999999999`"),
        "{found}"
    );
}

#[test]
fn a_tie_between_two_languages_that_both_replay_says_which_is_assumed() {
    // `R` is the French king and the Finnish knight: both replay.
    let report = analyze_text("1. e4 e5 2. Re2 Re7 *", &Options::default());
    let found: Vec<_> = report.diagnostics().collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].code, found[0].severity),
        (crate::analysis::Code::LanguageMix, crate::analysis::Severity::Info)
    );
    assert!(found[0].message.contains("French") && found[0].message.contains("Finnish"), "{}", found[0].message);
    // Chosen, nothing to say.
    let fr = Options { language: Some(Language::Fr), ..Options::default() };
    assert_eq!(analyze_text("1. e4 e5 2. Re2 Re7 *", &fr).diagnostics().count(), 0);
}

#[test]
fn coordinate_moves_without_a_piece_letter_move_what_stands_on_the_first_square() {
    // What engines and many databases write (UCI): `g1f3`, castling as the
    // king's two-square move, a lower-case promotion letter.
    check_clean("1. e2e4 e7e5 2. g1f3 b8c6 3. f1c4 g8f6 4. e1g1 f8c5 5. d2d3 e8g8 *");
    check_clean("[FEN \"8/4P3/8/8/8/8/k7/4K2R w K - 0 1\"]\n\n1. e7e8q Ka3 2. e1g1 Kb2 *");
    check(
        "1. e2e4 e7e5 2. g1g3 *",
        r#"
        illegal-move @ `g1g3`: g1g3 is illegal: no white knight can reach g3
    "#,
    );
}

#[test]
fn a_pawn_capture_may_name_the_piece_it_takes() {
    check_clean("1. d2-d4 Sg8-f6 2. c2-c4 e7-e5 3. d4xe5 Sf6-e4 4. Sb1-d2 Se4-c3 5. b2xSc3 Lf8-b4 *");
    check_clean("1. e4 d5 2. exPd5 Nf6 *");
    check_clean("1. d2-d4 e7-e5 2. d4xPe5 *");
}

#[test]
fn a_wrongly_named_piece_taken_is_reported_with_the_right_one() {
    check(
        "1. e2-e4 d7-d5 2. e4xBd5 *",
        r#"
        capture-mark @ `B`: "B" names a bishop, but the piece taken on d5 is a pawn
          fix* Remove the letter (`B` -> ``)
    "#,
    );
    check(
        "1. e4 e5 2. Sf3 Sf6 3. Sxe5 Sxe4 4. Sxf7 Se4xLf2 *",
        r#"
        capture-mark @ `L`: "L" names a bishop, but the piece taken on f2 is a pawn
          fix* Remove the letter (`L` -> ``)
    "#,
    );
    check(
        "1. e2-e4 d7-d5 2. e4xd5 Dd8xd5 3. Sb1-c3 Dd5-a5 4. Sg1-f3 Sg8-f6 5. Lf1-c4 Lc8-g4 6. Lc4xf7+ Ke8xLf7 7. Sf3-e5+ Kf7-e8 8. Se5xLg4 Sf6xTg4 *",
        r#"
        capture-mark @ `T`: "T" names a rook, but the piece taken on g4 is a knight
          fix* Write S (`T` -> `S`)
    "#,
    );
}

#[test]
fn games_written_one_after_another_start_again_at_move_one() {
    // The seed's example: the scholar's mate four times, in English,
    // Russian, long algebraic and Russian long algebraic.
    check_clean(
        "1. e4 e5 2. Qh5?! Nc6 3. Bc4 Nf6?? 4. Qxf7#\n\n1. e4 e5 2.Фh5?! Кc6 3. Сc4 Кf6?? 4. Фxf7#\n\n1. e2-e4 e7-e5\n2. Qd1-h5?! Nb8-c6\n3. Bf1-c4 Ng8-f6??\n4. Qh5-f7#\n\n1. e2-e4 e7-e5\n2. Фd1-h5?! Кb8-c6\n3. Сf1-c4 Кg8-f6??\n4. Фh5-f7#\n",
    );
    let text = "1. e4 e5 2. Nf3 Nc6\n\n1. d4 d5 2. Ke3 *";
    let tree = crate::syntax::parse(text, None);
    assert_eq!(crate::syntax::lower(&tree, text).len(), 2);
    check(
        text,
        r#"
        illegal-move @ `Ke3`: Ke3 is illegal: no white king can reach e3
          fix Write e3 (`Ke3` -> `e3`)
          fix Write Be3 (`Ke3` -> `Be3`)
    "#,
    );
}

#[test]
fn an_undecided_move_is_carried_forward_under_each_reading() {
    // Both knights can go to d2 and both readings fit the moves after it:
    // the rest is still checked, and the illegal `Ke3` is found under both.
    check(
        "1. e4 e5 2. Nf3 Nc6 3. d3 Nf6 4. Be2 d6 5. Nd2 Be7 6. Ke3 O-O *",
        r#"
        ambiguous-move @ `Nd2`: Nd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2; Nbd2 and Nfd2 fit the moves after it alike, so the rest of the game is checked under each, and read on as Nbd2
          fix Write Nbd2 (`Nd2` -> `Nbd2`)
          fix Write Nfd2 (`Nd2` -> `Nfd2`)
        illegal-move @ `Ke3`: Ke3 is illegal: no white king can reach e3; Kf1, a3, b3 and c3 fit the moves after it alike, so the rest of the game is checked under each, and read on as Kf1
    "#,
    );
}

// The Laws of Chess: game-over after an end by rule, draw-claim where a
// draw could have been claimed, and the result against an end by rule.

#[test]
fn a_move_after_checkmate_is_game_over_not_illegal() {
    check(
        "1. f3 e5 2. g4 Qh4# 3. Kf2 Qxf2 0-1",
        r#"
        game-over @ `Kf2`: the game was already over after 2... Qh4#: checkmate, Black wins (Article 5.1.1), so the result is 0-1; this move and the one after it are not part of the game
    "#,
    );
    // The same in Russian and in German.
    check(
        "1. f3 e5 2. g4 Фh4# 3. Крf2 0-1",
        r#"
        game-over @ `Крf2`: the game was already over after 2... Фh4#: checkmate, Black wins (Article 5.1.1), so the result is 0-1; this move is not part of the game
    "#,
    );
    check(
        "1. f3 e5 2. g4 Dh4# 3. Kf2 0-1",
        r#"
        game-over @ `Kf2`: the game was already over after 2... Dh4#: checkmate, Black wins (Article 5.1.1), so the result is 0-1; this move is not part of the game
    "#,
    );
}

#[test]
fn a_move_after_stalemate_is_game_over() {
    check(
        &fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "1. Qf7 Kh7 1/2-1/2"),
        r#"
        game-over @ `Kh7`: the game was already over after 1. Qf7: stalemate, a draw (Article 5.2.1), so the result is 1/2-1/2; this move is not part of the game
    "#,
    );
}

#[test]
fn seventy_five_moves_end_the_game_and_fifty_could_be_claimed() {
    // The clock stands at 98 plies: with 50... Ka7 each player has made
    // fifty moves without a capture or a pawn move.
    check(
        &fen("k7/8/8/8/8/8/8/1R5K w - - 98 50", "50. Rc1 Ka7 51. Rd1 *"),
        r#"
        draw-claim @ `Ka7`: a draw by the fifty-move rule could be claimed here (Article 9.3): with 50... Ka7 each player has made 50 moves without a capture or a pawn move
    "#,
    );
    check(
        &fen("k7/8/8/8/8/8/8/1R5K w - - 148 75", "75. Rc1 Ka7 76. Rd1 1-0"),
        r#"
        game-over @ `Rd1`: the game was already over after 75... Ka7: 75 moves by each player without a capture or a pawn move, a draw by the seventy-five-move rule (Article 9.6.2), so the result is 1/2-1/2; this move is not part of the game
        result @ `1-0`: the result 1-0 contradicts the final position: 75 moves by each player without a capture or a pawn move, a draw by the seventy-five-move rule (Article 9.6.2), so the result is 1/2-1/2
          fix* Write 1/2-1/2 (`1-0` -> `1/2-1/2`)
    "#,
    );
    // Unless the last move mates (9.6.2).
    check_clean(&fen("k7/8/1K6/8/8/8/8/7R w - - 149 75", "75. Rh8# 1-0"));
}

#[test]
fn a_dead_position_ends_the_game() {
    // The last pawn taken: king and knight against a bare king.
    check(
        &fen("8/8/4k3/8/3p4/8/2N5/4K3 w - - 0 1", "1. Nxd4+ Kd5 2. Nf3 1/2-1/2"),
        r#"
        game-over @ `Kd5`: the game was already over after 1. Nxd4+: a dead position, a draw: neither side has the material to mate (Article 5.2.2), so the result is 1/2-1/2; this move and the one after it are not part of the game
    "#,
    );
    // A wall of blocked pawns that neither king can pass, reached by a
    // capture in Russian notation.
    check(
        &fen("8/4k3/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/5н2 w - - 0 1", "1. Крxf1 Крd7 *").replace('н', "n"),
        r#"
        game-over @ `Крd7`: the game was already over after 1. Крxf1: a dead position, a draw: the pawns are blocked and neither king can reach an enemy pawn (Article 5.2.2), so the result is 1/2-1/2; this move is not part of the game
        result @ `*`: the result * contradicts the final position: a dead position, a draw: the pawns are blocked and neither king can reach an enemy pawn (Article 5.2.2), so the result is 1/2-1/2
          fix* Write 1/2-1/2 (`*` -> `1/2-1/2`)
    "#,
    );
}

#[test]
fn repetitions_follow_the_laws() {
    // Threefold: a claim, naming the earlier times; fivefold: the end,
    // and a result that says otherwise is wrong.
    check(
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 1-0",
        r#"
        draw-claim @ `Ng8`: a draw by threefold repetition could be claimed here (Article 9.2): after 4... Ng8 the same position, White to move, stands for the third time (after the start and 2... Ng8 before)
        game-over @ `e4`: the game was already over after 8... Ng8: the same position for the fifth time, a draw by fivefold repetition (it stood after the start, 2... Ng8, 4... Ng8 and 6... Ng8 before) (Article 9.6.1), so the result is 1/2-1/2; this move is not part of the game
        result @ `1-0`: the result 1-0 contradicts the final position: the same position for the fifth time, a draw by fivefold repetition (Article 9.6.1), so the result is 1/2-1/2
          fix* Write 1/2-1/2 (`1-0` -> `1/2-1/2`)
    "#,
    );
    // The same squares with castling rights lost are another position
    // (9.2.2): the king's walk Ke2-e1 costs White its castling, so the
    // start does not come back.
    check_clean("1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 *");
    // A variation replaces the move before it: its repetitions count the
    // line's positions before that move.
    check(
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 (4. Nc3 Ng8 5. Nb1) 4... Ng8 *",
        r#"
        draw-claim @ `Nb1`: a draw by threefold repetition could be claimed here (Article 9.2): after 5. Nb1 the same position, Black to move, stands for the third time (after 1. Nf3 and 3. Nf3 before)
        draw-claim @ `Ng8`: a draw by threefold repetition could be claimed here (Article 9.2): after 4... Ng8 the same position, White to move, stands for the third time (after the start and 2... Ng8 before)
    "#,
    );
}

#[test]
fn en_passant_counts_only_when_it_can_be_taken() {
    // After 1. e4 the pawn on d4 can take en passant: that position is not
    // the one after 3. Ng1 and 5. Ng1, where it no longer can (9.2.2).
    check_clean(&fen("4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1", "1. e4 Kd7 2. Nf3 Ke8 3. Ng1 Kd7 4. Nf3 Ke8 5. Ng1 *"));
    // With the black pawn on a4 no capture was ever possible: the third
    // time comes with 5. Ng1.
    check(
        &fen("4k3/8/8/8/p7/8/4P3/4K1N1 w - - 0 1", "1. e4 Kd7 2. Nf3 Ke8 3. Ng1 Kd7 4. Nf3 Ke8 5. Ng1 *"),
        r#"
        draw-claim @ `Ng1`: a draw by threefold repetition could be claimed here (Article 9.2): after 5. Ng1 the same position, Black to move, stands for the third time (after 1. e4 and 3. Ng1 before)
    "#,
    );
}

#[test]
fn turkish_games_read_in_turkish() {
    // Şah, vezir, kale, fil, at: `K` is the rook and `A` the knight, as the
    // Turkish Wikipedia and club pages write them.
    let game = "1. e4 e5 2. Af3 Ac6 3. Fc4 Af6 4. Ag5 d5 5. exd5 Axd5 6. Axf7 Şxf7 7. Vf3+ Şe6 8. Ac3 Ab4 \
                9. a3 Axc2+ 10. Şd1 Axa1 11. Axd5 Vd6 12. d4 c6 13. Kf1 *";
    check_clean(game);
    assert_eq!(languages(game)[0].0, Language::Tr);
    // The king's Ş typed without its cedilla is a look-alike, fixed.
    let plain = game.replace('Ş', "S");
    let found = render(&plain, &Options::default());
    assert!(found.contains("homoglyph") || found.contains("look-alike"), "{found}");
    assert_eq!(found.matches("fix* Write Ş (`S` -> `Ş`)").count(), 3, "{found}");
    assert!(!found.contains("illegal-move"), "{found}");
    // An illegal move is reported with the Turkish letters in its fix.
    let wrong = game.replace("11. Axd5", "11. Axd6");
    let found = render(&wrong, &Options::default());
    assert!(found.contains("illegal-move @ `Axd6`"), "{found}");
    assert!(found.contains("`Axd6` -> `Axd5`"), "{found}");
}

#[test]
fn a_comment_closed_with_a_parenthesis_loses_no_moves() {
    // `{...)`: the grammar reads on to the next `}`, through the moves.
    let text = "1. e4 e5 2. Nf3 {the usual) 2...Nc6 3. Bb5 a6 {the Spanish} 4. Ba4 Nf6 5. Ke3 *";
    let found = render(text, &Options::default());
    assert_eq!(found.matches("syntax @ `{the usual)`").count(), 1, "{found}");
    assert!(found.contains("`)` -> `}`"), "{found}");
    // The game goes on to its illegal fifth move, read after 2...Nc6 and 3. Bb5 a6.
    assert!(found.contains("illegal-move @ `Ke3`"), "{found}");
    assert!(!found.contains("move-number") && !found.contains("unchecked"), "{found}");
    // A `)` that a `(` opens, or words after the bracket: a comment as written.
    for text in [
        "1. e4 e5 2. Nf3 {as (in) game 2} Nc6 3. Bb5 {a} a6 *",
        "1. e4 e5 2. Nf3 {see a) and b) played 2...Nc6 {x} Nc6 3. Bb5 a6 *",
        // One level of braces inside a comment, as the grammar reads it.
        "1. e4 e5 2. Nf3 {a) 2...Nc6 {main} b) 2...d6} Nc6 3. Bb5 a6 *",
    ] {
        let found = render(text, &Options::default());
        assert!(found.trim().is_empty(), "{text}: {found}");
    }
}

#[test]
fn an_empty_fen_tag_is_the_standard_start() {
    let text = "[FEN \"\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 Ke7 5. Ke3 *";
    let found = render(text, &Options::default());
    assert_eq!(found.matches("invalid-position @ `[FEN \"\"]`").count(), 1, "{found}");
    assert!(found.contains("illegal-move @ `Ke3`"), "{found}");
    assert!(found.contains("`[FEN \"\"]` -> ``"), "{found}");
    // A FEN that holds a wrong position still stops the game.
    let found = render("[FEN \"junk\"]\n\n1. e4 e5 2. Ke3 *", &Options::default());
    assert!(found.contains("invalid-position") && !found.contains("illegal-move"), "{found}");
}

#[test]
fn a_word_of_a_piece_letter_and_damage_is_one_unread_move() {
    // `N?6`: read as the novelty sign `N`, the sign `?` and the move
    // number `6`, the next number seemed a move early and a correct
    // castling illegal. Now one unread move, read on from by the position.
    let tail = "5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. Ke3 *";
    for word in ["N?6", "N■6", "N6"] {
        let text = format!("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 {word} {tail}");
        let found = render(&text, &Options::default());
        let lines: Vec<&str> = found.lines().filter(|l| !l.starts_with(' ')).collect();
        assert_eq!(lines.len(), 2, "{word}: {found}");
        assert!(lines[0].starts_with(&format!("syntax @ `{word}`")), "{word}: {found}");
        assert!(lines[0].contains("Nf6"), "{word}: {found}");
        assert!(lines[1].starts_with("illegal-move @ `Ke3`"), "{word}: {found}");
    }
    // The novelty sign and a glued sign after a move stay as they are.
    let found = render("1. e4 e5 2. Nf3 Nc6 3. Bb5!N a6 4. Ba4 N Nf6 *", &Options::default());
    assert!(found.trim().is_empty(), "{found}");
    // A move left out after a comment: the comment is no damaged move.
    let found = render(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 {Nice 6} 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *",
        &Options::default(),
    );
    assert!(!found.contains("read as"), "{found}");
    assert!(!found.contains("`{Nice 6}` ->"), "{found}");
}
