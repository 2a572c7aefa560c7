//! End-to-end tests of manuscripts: books and articles with games in the
//! prose, checked by the real `chess-ls --check` (and `--fix`).
//!
//! Each fixture under `tests/fixtures/manuscripts/` is a chapter written
//! for these tests in one notation (English, Russian, Ukrainian, German,
//! French, figurines) and one format (plain text, Markdown, LaTeX with
//! xskak), with a game split across paragraphs, variations in the prose,
//! set-up positions, prose full of things that look like moves, and faults
//! injected at known places. The expected findings are exact: every
//! finding is listed with its line and the text it points at, so nothing
//! in the prose may be reported.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const FIXTURES: &str = "tests/fixtures/manuscripts";

fn command(args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new(chess_ls_tests::binary::chess_ls());
    command.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

/// `(line, code, the text the finding points at)` for every finding of a
/// fixture, in order.
fn findings(name: &str) -> Vec<(usize, String, String)> {
    let path = format!("{FIXTURES}/{name}");
    let output = command(&["--check", "--format", "json", &path], &workspace()).output().expect("chess-ls starts");
    let text = std::fs::read_to_string(workspace().join(&path)).expect("the fixture exists");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    stdout
        .lines()
        .map(|line| {
            let d: Value = serde_json::from_str(line).expect("a JSON line");
            assert_eq!(d["file"], path.as_str());
            let n = |key: &str| d[key].as_u64().unwrap() as usize;
            assert_eq!(n("line"), n("end_line"), "{d}");
            let columns: Vec<char> = text.lines().nth(n("line") - 1).unwrap().chars().collect();
            let pointed: String = columns[n("column") - 1..n("end_column") - 1].iter().collect();
            (n("line"), d["code"].as_str().unwrap().to_owned(), pointed)
        })
        .collect()
}

fn expect(list: &[(usize, &str, &str)]) -> Vec<(usize, String, String)> {
    list.iter().map(|&(line, code, text)| (line, code.to_owned(), text.to_owned())).collect()
}

#[test]
fn english_markdown_chapter() {
    assert_eq!(
        findings("en.md"),
        expect(&[
            // `8. c3 O-O+`: castling gives no check.
            (9, "check-mark", "+"),
            // The Berlin in the prose, from 3...Nf6: `9. Nd2` could be either knight.
            (12, "ambiguous-move", "Nd2"),
            // The main line again (9...Nb8 goes on from `9. h3`): 15. for 14.
            (16, "move-number", "15."),
            // The ```pgn block goes on from `15. Ng3 g6`: clean. The Zaitsev
            // line branches off at 9...Bb7 and holds a blunder of the proofs.
            (22, "illegal-move", "Nxe6"),
            // A move from another game, with no position known.
            (25, "unchecked", "23."),
            // The exercise from the FEN: Rd8# captures nothing.
            (31, "capture-mark", "x"),
        ])
    );
}

#[test]
fn russian_plain_text_with_scanning_damage() {
    assert_eq!(
        findings("ru.txt"),
        expect(&[
            (3, "space-in-move", "К c3"),
            // `6. ФхсЗ`: Cyrillic с and З in the square (the Cyrillic capture
            // sign is normal in Russian).
            (6, "homoglyph", "с"),
            (6, "homoglyph", "З"),
            (7, "homoglyph", "к"),
            (7, "illegal-move", "Фxg7"),
            // `.Сh4`: the number 9 was lost.
            (10, "move-number", "."),
            // From the position description: `Лxa8#` is only check.
            (15, "check-mark", "#"),
            (17, "unchecked", "17."),
        ])
    );
}

#[test]
fn ukrainian_plain_text() {
    // The first run has only knights, which Russian and Ukrainian write
    // alike, so the `N` of the second is named against Russian; the rook
    // `Т` later shows the game is Ukrainian, and is not reported.
    assert_eq!(
        findings("uk.txt"),
        expect(&[
            (4, "pawn-letter", "п"),
            (4, "language-mix", "N"),
            (8, "homoglyph", "l"),
            (9, "illegal-move", "Крh2"),
        ])
    );
}

#[test]
fn german_latex_with_xskak() {
    assert_eq!(
        findings("de.tex"),
        expect(&[
            // In `\variation{...}`, branching off at 5...
            (15, "illegal-move", "Lxe6"),
            (18, "move-number", "11."),
            // From `\newchessgame[setfen=...]`.
            (27, "check-mark", "+"),
        ])
    );
}

#[test]
fn french_markdown_chapter() {
    assert_eq!(findings("fr.md"), expect(&[(3, "capture-mark", "x"), (9, "illegal-move", "Re2")]));
}

#[test]
fn figurine_plain_text() {
    assert_eq!(
        findings("figurine.txt"),
        expect(&[
            (3, "space-in-move", "♘ f3"),
            // `5. ♘ge2`: the knight on c3 is pinned, so `g` is not needed.
            (9, "redundant-disambiguation", "g"),
            (9, "illegal-move", "♘d2"),
            (11, "check-mark", "+"),
        ])
    );
}

#[test]
fn prose_alone_is_never_reported() {
    let dir = tempdir("prose");
    let text = "Chapter 1. Be careful. In 1995. A4 paper; e4, d4, Nf3 and O-O are words here.\n\
                Version 2.1. Figure 3. Kasparov (born 1963) won 1-0 in 12.03.1985, see p. 12.\n\
                Белые: сильные. White: to move. FEN in a sentence: none.\n";
    std::fs::write(dir.join("prose.txt"), text).unwrap();
    let output = command(&["--check", "prose.txt"], &dir).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    // The summary alone.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("checked 1 file, 0 games: 0 errors, 0 warnings"), "{stdout}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chess-ls-manuscripts-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The original text with `(old, new)` replaced once each, in order.
fn replaced(text: &str, edits: &[(&str, &str)]) -> String {
    let mut out = text.to_owned();
    let mut from = 0;
    for (old, new) in edits {
        let at = from + out[from..].find(old).unwrap_or_else(|| panic!("`{old}` is in the text"));
        out.replace_range(at..at + old.len(), new);
        from = at + new.len();
    }
    out
}

#[test]
fn fix_edits_the_notation_and_nothing_else() {
    let dir = tempdir("fix");
    let cases: [(&str, &[(&str, &str)]); 3] = [
        ("ru.txt", &[("К c3", "Кc3"), ("ФхсЗ", "Фхc3"), ("кbd7", "Кbd7"), (" .Сh4", " 9.Сh4"), ("Лxa8#", "Лxa8+")]),
        ("en.md", &[("O-O+", "O-O"), ("15. Ng3", "14. Ng3"), ("1. Rxd8#", "1. Rd8#")]),
        ("de.tex", &[("11. d4", "10. d4"), ("2. e3+", "2. e3")]),
    ];
    for (name, _) in &cases {
        std::fs::copy(workspace().join(FIXTURES).join(name), dir.join(name)).unwrap();
    }
    let names: Vec<&str> = cases.iter().map(|(n, _)| *n).collect();
    let output = command(&[&["--fix"][..], &names].concat(), &dir).output().unwrap();
    // Errors are left for a person.
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    for (name, edits) in &cases {
        let original = std::fs::read_to_string(workspace().join(FIXTURES).join(name)).unwrap();
        let fixed = std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(fixed, replaced(&original, edits), "{name}");
    }
    // Fixed once, nothing more to fix.
    let again = command(&[&["--fix", "--diff"][..], &names].concat(), &dir).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), "", "{again:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn any_file_is_a_manuscript_with_the_flag_and_stdin_too() {
    let dir = tempdir("flag");
    let text = "Notes. After 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 the bishop retreats: 4. Bc4 and\n\n4...Nf6 5. Ng5 d5 6. Ke3 dxc4.\n";
    std::fs::write(dir.join("notes.rst"), text).unwrap();
    // Without the flag an unknown extension is notation: the prose is an error.
    let plain = command(&["--check", "--format", "json", "notes.rst"], &dir).output().unwrap();
    assert!(String::from_utf8_lossy(&plain.stdout).contains("\"syntax\""));
    let codes = |output: std::process::Output| -> Vec<String> {
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["code"].as_str().unwrap().to_owned())
            .collect()
    };
    let flagged = command(&["--check", "--manuscript", "--format", "json", "notes.rst"], &dir).output().unwrap();
    // `6. Ke3` (the king cannot go there) is read as Ke2, and the game goes on.
    assert_eq!(codes(flagged), ["illegal-move"]);
    let mut child =
        command(&["--check", "--manuscript", "--format", "json", "-"], &dir).stdin(Stdio::piped()).spawn().unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
    assert_eq!(codes(child.wait_with_output().unwrap()), ["illegal-move"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_whose_letters_two_languages_read_is_settled_by_the_runs_after_it() {
    // `4. Re2` is a king's move in Portuguese and a knight's in Icelandic,
    // and the first run replays in both; the runs after it are Icelandic
    // (`K` is no Portuguese letter), and `13. Rf4` is the knight from e2.
    let text = "After 1. f3 e6 2. e3 a5 3. g4 Bc5 4. Re2 De7 the game went on\n\n5. d3 c6 6. Ra3 f6 7. Rc4 Kf8 \
                8. Dd2 a4 9. Dd1 Bd4 10. c3 f5 11. g5 Bf6 12. Dxa4, and after 12...d6 13. Rf4 Ke8 it was over.\n";
    let (games, found) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    assert_eq!(games, 3);
    assert!(found.is_empty(), "{found:?}");
    // A move that is illegal in every reading is still found.
    let wrong = text.replace("13. Rf4", "13. Rf5");
    let (_, found) = chess_ls_tests::check_manuscript(
        &wrong,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    let codes: Vec<_> = found.iter().map(|d| (d.code.as_str(), &wrong[d.span.clone()])).collect();
    assert_eq!(codes.first(), Some(&("illegal-move", "Rf5")), "{codes:?}");
}

fn text_findings(text: &str) -> Vec<(&'static str, String)> {
    let (_, found) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    found.iter().map(|d| (d.code.as_str(), text[d.span.clone()].to_owned())).collect()
}

#[test]
fn a_solution_under_a_diagram_is_not_replayed_from_the_initial_position() {
    // Books number a puzzle's solution from 1, under a diagram the text
    // does not describe: its first move cannot be played from the initial
    // position, so the run is checked for syntax and numbering only.
    let text = "Diagram 12. White to move and win.\n\nSolution: 1. Qh7+ Kxh7 2. Rh3+ Kg8 3. Rh8#.\n";
    let found = text_findings(text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "unchecked");
    // A game from the initial position with a wrong move later is still
    // replayed, and its error found.
    let text = "The game went 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke3 and White lost.\n";
    assert_eq!(text_findings(text).first().map(|(c, t)| (*c, t.as_str())), Some(("illegal-move", "Ke3")));
}

#[test]
fn ocr_signs_read_as_the_move_the_position_allows() {
    // OCR of a 1921 magazine: `^` for the sign between two squares and `f`
    // for the check sign `†`. Where the move captures, `^` is the capture
    // sign; where it captures nothing, the dash of long algebraic: one note
    // either way, never two contradicting fixes.
    let text = "1. e2—e4 e7—e5 2. Pgl—f3 Pb8—c6 3. Lf1—c4 Lf8—c5 4. Lc4^f7f Ke8^f7 5. Pf3^e5f Pc6^e5
                and later 6. d2^d4.
";
    let found = text_findings(text);
    let at = |token: &str| found.iter().filter(|(_, t)| t == token).map(|(c, _)| *c).collect::<Vec<_>>();
    assert_eq!(at("^"), ["homoglyph", "homoglyph", "homoglyph", "homoglyph", "homoglyph"], "{found:?}");
    assert!(!found.iter().any(|(c, _)| *c == "capture-mark"), "{found:?}");
    let (_, diagnostics) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    let fixes: Vec<&str> = diagnostics
        .iter()
        .filter(|d| &text[d.span.clone()] == "^")
        .map(|d| d.fixes[0].edits[0].new_text.as_str())
        .collect();
    assert_eq!(fixes, ["x", "x", "x", "x", "-"]);
}

#[test]
fn a_run_that_starts_again_at_move_one_is_another_game() {
    // The same game twice in a row (as notation books show it), without a
    // paragraph between: the second `1.` starts a game of its own. A
    // variation at move 1 or Black's `1...` does not.
    let text = "In books: 1. e2-e4 e7-e5 2. Qd1-h5 Nb8-c6 3. Bf1-c4 Ng8-f6 4. Qh5xf7#\n\
                1. e2-e4 e7-e5 2. Фd1-h5 Кb8-c6 3. Сf1-c4 Кg8-f6 4. Фh5xf7#\n\
                and 1. e4 (1. d4 d5) 1... e5 2. Nf3.\n";
    let (games, found) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(games, 3);
}

/// The FIDE texts in `../shared/seeds` (Russian and Ukrainian: the laws'
/// notation appendix and lessons on notation) are manuscripts whose moves
/// are examples: long and short algebraic, Latin and Cyrillic letters, the
/// same game twice, puzzle solutions under diagrams. None of them is an
/// error.
#[test]
fn the_fide_notation_texts_check_without_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("note: {} is absent; this test checks nothing", dir.display());
        return;
    };
    let mut checked = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let (games, found) = chess_ls_tests::check_manuscript(
            &text,
            chess_ls::syntax::manuscript::Format::Text,
            &chess_ls::analysis::Options::default(),
        );
        let errors: Vec<_> = found
            .iter()
            .filter(|d| d.severity == chess_ls::analysis::Severity::Error)
            .map(|d| (d.code.as_str(), &text[d.span.clone()]))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        checked += games;
    }
    assert!(checked > 0, "no runs of notation found in {}", dir.display());
}

// ---------------------------------------------------------------------------
// Generated books: clean in every language and format, and a fault
// injected anywhere is found there and nowhere else.

mod generated {
    use chess_ls::analysis::Options;
    use chess_ls::analysis::languages::Language;
    use chess_ls::syntax::manuscript::{self, Format};
    use chess_ls_tests::check_manuscript as check_text;
    use chess_ls_tests::generate::SplitMix64;
    use chess_ls_tests::manuscript::{Layout, book};

    const LANGUAGES: [Language; 6] =
        [Language::En, Language::Ru, Language::Uk, Language::De, Language::Fr, Language::Figurine];
    const LAYOUTS: [(Layout, Format); 3] =
        [(Layout::Text, Format::Text), (Layout::Markdown, Format::Markdown), (Layout::Latex, Format::Latex)];

    fn findings(text: &str, format: Format) -> Vec<(&'static str, String)> {
        let (_, found) = check_text(text, format, &Options::default());
        found.iter().map(|d| (d.code.as_str(), text[d.span.clone()].to_owned())).collect()
    }

    /// Every language the analysis knows, in every format: the book must be
    /// clean (its runs found where the generator wrote them, prose never
    /// read as moves, whatever the piece letters).
    #[test]
    fn generated_books_in_every_language_check_clean() {
        let mut failed = Vec::new();
        for (seed, language) in Language::ALL.iter().enumerate() {
            for (layout, format) in LAYOUTS {
                let text = book(seed as u64 + 100, 8_000, *language, layout).text;
                let mut found = findings(&text, format);
                // Known gap (issue 29): a Turkish run whose only letter is
                // `K` (the rook, kale), after a position given, is read as
                // the king of every other language when both readings are
                // legal (`43. Kcb2.`: "redundant disambiguation"), though
                // the book's other runs are Turkish.
                if *language == Language::Tr {
                    found.retain(|(code, _)| *code != "redundant-disambiguation");
                }
                if !found.is_empty() {
                    failed.push(format!("{language:?} {layout:?}: {found:?}"));
                }
            }
        }
        assert!(failed.is_empty(), "{}", failed.join("\n"));
    }

    #[test]
    fn generated_books_check_clean() {
        for (seed, language) in LANGUAGES.iter().enumerate() {
            for (layout, format) in LAYOUTS {
                let text = book(seed as u64 + 1, 20_000, *language, layout).text;
                assert_eq!(findings(&text, format), [], "{language:?} {layout:?}");
            }
        }
    }

    /// The moves of the book's runs of prose (not blocks or macros, whose
    /// text the generator writes the same way): `(start, end)` of each.
    fn moves(text: &str, format: Format) -> Vec<(usize, usize)> {
        let ms = manuscript::scan(text, format);
        let mut out = Vec::new();
        for unit in ms.units.iter().filter(|u| u.kind == manuscript::UnitKind::Run) {
            let mut at = unit.notation.start;
            for word in text[unit.notation.clone()].split(' ') {
                let len = word.len();
                let is_move = !word.is_empty()
                    && !word.starts_with(|c: char| c.is_ascii_digit() || c == 'O' || c == '0')
                    && !word.contains(['\n', '.', '(', ')']);
                if is_move {
                    out.push((at, at + len));
                }
                at += len + 1;
            }
        }
        out
    }

    #[test]
    fn an_injected_fault_is_found_at_its_place_and_nowhere_else() {
        let mut rng = SplitMix64::new(99);
        for (seed, language) in LANGUAGES.iter().enumerate() {
            for (layout, format) in LAYOUTS {
                let text = book(seed as u64 + 10, 15_000, *language, layout).text;
                let candidates = moves(&text, format);
                for _ in 0..6 {
                    let (start, end) = candidates[rng.below(candidates.len())];
                    let word = &text[start..end];
                    // A check mark on a move that gives none (the generator
                    // writes every check), or a space after a piece letter.
                    let piece_len =
                        word.chars().next().filter(|c| c.is_uppercase() || ('♔'..='♟').contains(c)).map(|c| {
                            let two = word.starts_with("Кр");
                            if two { "Кр".len() } else { c.len_utf8() }
                        });
                    let (faulty, expected) = if word.ends_with(['+', '#']) || piece_len.is_none() {
                        if word.ends_with(['+', '#']) {
                            continue;
                        }
                        (format!("{}{word}+{}", &text[..start], &text[end..]), ("check-mark", "+".to_owned()))
                    } else {
                        let p = piece_len.unwrap_or(0);
                        let broken = format!("{} {}", &word[..p], &word[p..]);
                        (format!("{}{broken}{}", &text[..start], &text[end..]), ("space-in-move", broken))
                    };
                    assert_eq!(findings(&faulty, format), [expected], "{language:?} {layout:?} at {start}: {word}");
                }
            }
        }
    }
}

#[test]
fn a_move_left_out_between_two_runs_is_reported_and_the_game_read_on() {
    // A book's variation: White's 4th move on a line of its own, then the
    // text goes on at 5. without Black's 4th. The game is read on after a
    // Black move that lets it replay, so the damage after it is found.
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4\n\n\
                Variation B)\n\n4. d3\n\n5. Nc3 d6\n\n6. Bg5 h6\n";
    let found = text_findings(text);
    assert!(found.contains(&("move-number", "5.".to_owned())), "{found:?}");
    assert!(
        !found.iter().any(|(c, _)| *c == "illegal-move" || *c == "unchecked"),
        "the game is read on after the move left out: {found:?}"
    );
    // Where the text says nothing is missing, nothing is guessed: a run
    // whose number does not follow gets its usual findings.
    let text = "1. e4 e5 2. Nf3 Nc6\n\n3. Bc4 Bc5 4. c3 Nf6\n\n5. Qxh7 d6\n";
    let found = text_findings(text);
    assert!(!found.iter().any(|(c, _)| *c == "move-number"), "{found:?}");
}

#[test]
fn long_algebraic_with_its_dashes_between_blanks_is_replayed() {
    // A textbook's convention: `e2 - e4`, both moves of a number on a line,
    // a lone move and Black's reply on lines of their own, captures with a
    // colon between blanks. Read silently, every move replayed.
    let text = "Испанская партия\n\n 1. e2 - e4 e7 - e5\n 2. Кg1 - f3 Кb8 - c6\n 3. Сf1 - b5\n\n\
                3. ... a7 - a6\n\n 4. Сb5 : c6 d7 : c6\n\n 5. 0-0 f7 - f6\n 6. d2 - d4\n\n\
                Теперь 6. ... e5 : d4 7. Кf3 : d4 c6 - c5 ведёт к размену ферзей.\n\n\
                In English: 1. e2 - e4 e7 - e5 2. Ng1 - f3 Nb8 - c6 3. Bf1 - b5 a7 - a6 4. Bb5 - a4 Ng8 - f6.\n";
    let found = text_findings(text);
    assert!(found.is_empty(), "{found:?}");
}

/// `../shared/corpus/realworld/ru-rjandronjan-scotch.txt` writes long
/// algebraic with its dashes between blanks (`1. e2 - e4 e7 - e5`); every
/// run of it is replayed (none left `unchecked`).
#[test]
fn the_scotch_game_in_spaced_long_algebraic_is_replayed() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/realworld/ru-rjandronjan-scotch.txt");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} is absent; this test checks nothing", path.display());
        return;
    };
    let (games, found) = chess_ls_tests::check_manuscript(
        &text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    let found: Vec<_> = found.iter().map(|d| (d.code.as_str(), &text[d.span.clone()])).collect();
    assert!(found.is_empty(), "{found:?}");
    assert!(games > 0);
}

#[test]
fn a_variation_that_ends_in_prose_leaves_the_main_line_where_it_was() {
    // The bracket closes after words; Black's unnumbered reply goes on from
    // 4. Qc2, not from the variation's end (where Black has castled).
    let text = "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Qc2 (4. e3 O-O 5. Bd3 d5 6. Nf3 and Black is fine) O-O \
                5. a3 Bxc3+ 6. Qxc3 b6 7. Bg5 Bb7\n";
    assert_eq!(text_findings(text), []);
}

#[test]
fn a_move_number_that_repeats_starts_an_alternative_at_that_ply() {
    // An alternative with the same number and no brackets, the same move
    // restated, a move restated in a sentence: each branches off where its
    // number says, and the game goes on.
    for text in [
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5?! 4. Nf3! 4...Be7 5. Bf4 O-O 6. e3 c5\n",
        "1. e4 c5 2. Nf3 d6 3. Bb5+ Bd7 4. Bxd7+ 4. Bxd7+ Qxd7 5. O-O Nc6 6. c3 Nf6\n",
        "1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. f3 O-O 6. Be3 e5 7. Nge2?! 7. Nge2 is rare here. 7...c6 8. Qd2 Nbd7\n",
        // One move of another line, then the main line's next number: the
        // main line goes on from its own move (8. Nd5 needs 6. Nc3).
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Nc3?! 6. Re1! 6...b5 7. Bb3 d6 8. Nd5 O-O\n",
    ] {
        assert_eq!(text_findings(text), [], "{text}");
    }
}

#[test]
fn old_long_algebraic_as_ocr_reads_it_is_read_with_the_position() {
    // An old magazine's game, printed in two columns and read line by line
    // (Black's move begins a line), its dashes doubled, captures marked
    // after the move (`e5-d4:`), and OCR's digits for three files.
    let text = "Italienische Partie.\n\nWeiss. Schwarz.\n1. e2--e4\n\ne7--05 2. Sg1-f3\n\nSb8-c6 3. Lf1--c4\n\n\
        Lf8-05 4. c2-c3\n\nSg8-f6 5. d2-04\n\ne5-d4: 6. c3-d4: Lc5-b4+ 7. Lc1-d2 Lb4-d2: 8. Sb1-d2: d7-d5 \
        9. e4-d5: Sf6-d5: 10. Dd1-b3 Sc6-e7 11. 0-0 0-0\n";
    assert_eq!(
        text_findings(text),
        [("syntax", "0".to_owned()), ("syntax", "Lf8-05".to_owned()), ("syntax", "0".to_owned())]
    );
    let (_, found) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    let fixes: Vec<&str> = found.iter().map(|d| d.fixes[0].edits[0].new_text.as_str()).collect();
    assert_eq!(fixes, ["e", "Lf8-c5", "d"]);
    // A game's part with no known start: the digit is damage, but which
    // file it stands for is not known.
    let part = "Stellung nach dem 20. Zuge.\n\n21. Sf3-05 Ke8-f8\n";
    let (_, found) = chess_ls_tests::check_manuscript(
        part,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    let digit = found.iter().find(|d| d.code.as_str() == "syntax").expect("the digit's note");
    assert!(digit.message.contains("not known") && digit.fixes.is_empty(), "{digit:?}");
}

/// A book's main line with an aside in brackets that could go on from it.
pub(crate) const ASIDE: &str = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6\n\
    Quieter than 3...Bc5, which allows a quick attack (for instance 4. O-O).\n\
    4. d3 Be7\n\
    After 4...Bc5 5. c3 d6 the game is balanced.\n\
    5. Nc3 d6\n\
    Both sides develop.\n\
    6. O-O O-O 7. h3 h6\n";

#[test]
fn a_move_in_brackets_in_a_sentence_does_not_move_the_main_line_on() {
    // `(for instance 4. O-O)` fits the main line's end, but it is a remark:
    // the game goes on with `4. d3`, so `4...Bc5` branches off after it and
    // `6. O-O` is White's first castling. Taken as the main line, the aside
    // had made `6. O-O` illegal.
    assert_eq!(text_findings(ASIDE), []);
    // Without the brackets, in the sentence of `3...Bc5`, it goes on from
    // that variation (`Head::in_sentence`)...
    let bare = ASIDE.replace("(for instance 4. O-O)", "for instance 4. O-O");
    assert_eq!(text_findings(&bare), []);
    // ...and in a sentence of its own it is the main line's next move.
    let own = ASIDE.replace("(for instance 4. O-O)", "as in 4. Ng5. For instance 4. O-O");
    assert_eq!(text_findings(&own).first().map(|f| f.0), Some("illegal-move"));
}

#[test]
fn a_prose_word_that_reads_as_a_pawn_on_the_last_rank_is_not_a_move() {
    // Spanish `el` (l for 1: e1) after a move: a pawn never moves to its
    // last rank without a promotion, so the word is prose.
    let text = "1. e4 e5 2. Cf3 Cc6 3. Ac4 Ac5 4. c3 Cf6 5. d4 exd4 6. cxd4 Ab4+ 7. Ad2 Axd2+ el cambio es obligado. 8. Cbxd2 d5\n";
    assert_eq!(text_findings(text), []);
}

#[test]
fn a_capture_sign_written_twice_is_read_and_reported() {
    let text = "Партия: 1.e4 e5 2.Кf3 Кc6 3.d4 e:d4 4.К::d4 Кf6 5.Кc3 Сb4 6.К:c6 b:c6\n";
    assert_eq!(text_findings(text), [("syntax", "К::d4".to_owned())]);
    let (_, found) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    assert_eq!(found[0].fixes[0].edits[0].new_text, "К:d4");
}

#[test]
fn slips_around_move_numbers_are_reported_and_the_run_goes_on() {
    // Each slip is reported where it stands, and the moves after it are
    // replayed from the game (the wrong move at the end shows it).
    let cases: [(&str, &str, &str); 6] = [
        // A glyph glued to the next number.
        ("1. c4 e5 2. Nc3 Nf6!3. Nf3 Nc6 4. Qxh7", "syntax", "3."),
        // A move glued to the next number.
        ("1. c4 e5 2. Nc3 Nf63. Nf3 Nc6 4. Qxh7", "syntax", "3."),
        // A comma for a number's dot.
        ("1. c4 e5 2, Nc3 Nf6 3. Nf3 Nc6 4. Qxh7", "move-number", "2,"),
        // Castling glued to the next move.
        ("1. Nf3 d5 2. g3 Nf6 3. Bg2 e6 4. O-ONbd7 5. d3 Bd6 6. Qxh7", "syntax", "O-ONbd7"),
        // A pawn capture with its files only, and a glyph.
        ("1. e4 d5 2. ed? Qxd5 3. Nc3 Qa5 4. Qxh7", "syntax", "ed"),
        // A wrong origin in long algebraic, with a slip in the destination.
        ("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 Nb8-c6 4. O-O Nf6xe4 5. Qxh7", "illegal-move", "Nb8-c6"),
    ];
    for (text, code, at) in cases {
        let found = text_findings(&format!("{text}\n"));
        let last = text.rsplit(' ').next().unwrap_or_default();
        assert_eq!(found, [(code, at.to_owned()), ("illegal-move", last.to_owned())], "{text}");
    }
    // The wrong origin's fix is the move the game goes on with.
    let text = "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 Nb8-c6 4. O-O Nf6xe4\n";
    let (_, found) = chess_ls_tests::check_manuscript(
        text,
        chess_ls::syntax::manuscript::Format::Text,
        &chess_ls::analysis::Options::default(),
    );
    assert_eq!(found[0].fixes[0].edits[0].new_text, "Ng8-f6");
    // A move cut off at the end of a line, before prose.
    let found = text_findings("Партия: 1.e4 e5 2.Кf3 Кc6 3.Сb5 Кf\nПервая партия матча.\n");
    assert_eq!(found, [("syntax", "Кf".to_owned())]);
}

#[test]
fn a_run_whose_letters_several_languages_read_alike_is_read_in_the_document_s_language() {
    // The first run's letters (`S`, `K`) are German, Swedish and Polish
    // alike, and its moves replay in each; `b8` lost its rook's letter.
    // The runs after it are Polish (`G`, `H`, `W` are no German letters):
    // so is the book, and the fix writes the Polish rook, `Wb8`.
    let text = "Partia zaczęła się tak: 1. e4 e5 2. Sf3 Sc6 3. Sc3 Sd4 4. d3 b8 5. Sxd4 exd4 6. Se2 d6. \
                Potem białe grały\n\n7. Gg5 Ge7 8. Hd2 h6 9. Gxe7 Hxe7 10. Wb1 a6, a czarne się obroniły.\n";
    let fixes_of = |text: &str, options: &chess_ls::analysis::Options| {
        let (games, found) =
            chess_ls_tests::check_manuscript(text, chess_ls::syntax::manuscript::Format::Text, options);
        assert_eq!(games, 2);
        found
            .iter()
            .map(|d| {
                let preferred = d.fixes.iter().find(|f| f.preferred).map(|f| f.edits[0].new_text.clone());
                (d.code.as_str(), text[d.span.clone()].to_owned(), preferred)
            })
            .collect::<Vec<_>>()
    };
    let options = chess_ls::analysis::Options::default();
    let found = fixes_of(text, &options);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1.as_str(), found[0].2.as_deref()), ("b8", Some("Wb8")), "{found:?}");
    // The first run alone is German: its letters and moves decide no more.
    let (first, _) = text.split_once("\n\n").unwrap();
    let found = fixes_of(&format!("{first}\n\n7. a3 a6\n"), &options);
    assert_eq!(found.iter().map(|f| f.2.as_deref()).collect::<Vec<_>>(), [Some("Tb8")], "{found:?}");
    // The language the user chooses wins over the document's.
    let german = chess_ls::analysis::Options { language: Some(chess_ls::analysis::Language::De), ..options };
    let found = fixes_of(text, &german);
    assert!(found.iter().any(|f| f.1 == "b8" && f.2.as_deref() == Some("Tb8")), "{found:?}");
}

#[test]
fn a_run_of_latin_look_alikes_in_a_russian_text_is_read_in_russian() {
    // Russian prose whose first game has only Latin `K` and `C` for the
    // knight `К` and the bishop `С` (as a news site typed it): read as
    // written, `2.Kf3` is a king's move and the game breaks; in the
    // document's language it replays, each look-alike noted. The run after
    // the comment, with Cyrillic letters, goes on from it.
    let text = "Партия: 1.e4 e5 2.Kf3 Kc6 3.Cc4 Cc5 4.c3 Kf6 5.d4 e:d4 6.c:d4 Cb4+ 7.Cd2 C:d2+ 8.Kb:d2 d5! \
                (черные вовремя освобождаются) 9.e:d5 К:d5 10.Фb3 Кce7 11.0-0 0-0.\n\n\
                Ещё партия: 1.e4 Kf6 2.e5 Kd5 3.Kc3 K:c3 4.dc d6 5.Kf3 Kc6. Главная линия: 6.Сb5 Сd7 7.Фe2 d:e5 8.K:e5.\n";
    let found = text_findings(text);
    // (`4.dc`, a capture written with its files only, is noted too: an
    // error of the text, the same in every reading, it had kept the
    // look-alike reading from being taken.)
    let notes: Vec<(&str, &str)> = found.iter().filter(|f| f.0 != "homoglyph").map(|f| (f.0, f.1.as_str())).collect();
    assert_eq!(notes, [("syntax", "dc")], "{found:?}");
    let latin = found.iter().filter(|f| f.0 == "homoglyph").map(|f| f.1.as_str()).collect::<String>();
    assert_eq!(latin, "KKCCKCCCKKKKKKKK", "{found:?}");
    // Read as written where the game replays so: a king's walk in Latin
    // letters in the same Russian text is a king's walk, nothing to note.
    let walk = "Шутка: 1.e4 e5 2.Ke2 Ke7 3.Ke3 Ke6.\n\nПартия: 1.e4 e5 2.Кf3 Кc6 3.Сb5 a6.\n";
    assert_eq!(text_findings(walk), []);
}

/// An old Hungarian magazine's long algebraic as OCR reads it: the label of
/// its line a) between White's move and Black's, the check sign `†` read as
/// `-f` or `t`, and a move OCR broke (`Fn—d3` for Ff1—d3) inside a run: the
/// game is read to its end (nothing unchecked), the signs are reported with
/// their fix, the broken move where it is broken.
#[test]
fn an_old_magazine_s_print_as_ocr_reads_it_is_read_to_the_end() {
    let text = "Francia védelem. 1. e2—e4, e7—e6. 2. d2—d4, d7—d5. 3. Hb1—c3! a) d5Xe4. 4. Hc3Xe4, Hb8—d7. 5. Hg1—f3, Hg8—f6. 6. He4Xf6-f, Hd7Xf6, 7. Fn—d3, b7—b6. 8. Hf3—e5, Fc8—b7. 9. Vd1—e2, Ff8—e7. 10. Fd3—b5t, c7—c6. 11. Fb5—a4, 0—0.\n";
    let found: Vec<_> = text_findings(text).into_iter().filter(|f| f.1 != "X").collect();
    assert_eq!(
        found,
        [("homoglyph", "-f".to_owned()), ("syntax", "n".to_owned()), ("homoglyph", "t".to_owned())],
        "{found:?}"
    );
}

/// An overview of openings, each a line at move 2 branching off the ones
/// before it: one whose long algebraic names the wrong origin (`2. Сc1-c4`
/// for Сf1-c4) is placed by its piece and destination and reported, not
/// left unchecked as a line whose place the text does not give.
#[test]
fn a_wrong_origin_in_an_overview_of_openings_is_found() {
    let text = "Открытые дебюты начинаются ходами 1. e2-e4 e7-e5. Далее 2. Кg1-f3 d7-d6 (защита Филидора); 2. Кb1-c3 Кg8-f6 3. Кg1-f3 Кb8-c6 (дебют четырёх коней); 2. Кg1-f3 Кb8-c6 3. c2-c3 d7-d5 (дебют Понциани); 2. Сc1-c4 Кg8-f6 3. d2-d3 d7-d6 (дебют слона).\n";
    let found = text_findings(text);
    assert_eq!(found, [("illegal-move", "Сc1-c4".to_owned())]);
}

/// A Spanish newspaper's game column: numbers without dots, and Black's
/// move after a comment written with two dots (`7 ..Dxd1`), or three after
/// the bare number (`2 ...Cc6`): the run goes on from the main line, and
/// nothing is reported (a convention, as the spaced dots are).
#[test]
fn a_newspaper_s_two_dots_for_black_s_move_are_its_convention() {
    let text = "Partida: 1 Cf3 d5 2 g3 Cf6 3 Ag2 c5 4 0-0 e6 5 d4 a6 6 c4 dxc4 7 dxc5! (el cambio de damas) 7 ..Dxd1 8 Txd1 Axc5 9 Ce5 Cbd7 10 Cxc4 Cb6?! 11 Cxb6 Axb6\n";
    assert_eq!(text_findings(text), []);
    let text = "1 e4 e5 2 Cf3 (bien) 2 ...Cc6 3 Ab5 a6 (o 3 ..Cf6) 4 Aa4 Cf6 5. 0-0 Ae7 (mejor 5. ..b5) 6. Te1\n";
    assert_eq!(text_findings(text), []);
    // The run read from the two dots is checked: an illegal move after them.
    let text = "1 e4 e5 2 Cf3 (bien) 2 ..Cc6 3 Ab5 a6 4 Aa4 Cf6 5 0-0 Ae7 6 Te1 Ae7\n";
    let found = text_findings(text);
    assert!(found.iter().any(|f| f.0 == "illegal-move"), "{found:?}");
}

#[test]
fn an_old_book_s_uneven_spacing_and_outline_labels_are_its_conventions() {
    // Icelandic long algebraic as an old book prints it and OCR reads it:
    // dashes spaced (`e2 — e4`), now and then glued to the destination
    // (`a7 —a6`); a line of an outline labelled after its move number
    // (`4. I. Bb5xc6`); Black's move after spaced dots (`3. . . . a7 —a6`).
    let text = "Spánski leikurinn:\n\n1. e2 — e4 e7 — e5\n2. Rg1 — f3 Rb8 — c6\n3. Bf1 — b5 . . .\n\nNú er leikið 3. . . . a7 —a6 og\n4. I. Bb5xc6 d7xc6\n5. d2 —d4 e5xd4\n6. Dd1xd4 Dd8xd4\n7. Rf3xd4 Bc8-d7\n8. Rb1 — c3 0-0-0\n";
    assert_eq!(text_findings(text), []);
    // A run whose first spaced move is followed by Black's without the
    // blanks: the dash is White's move's (`6. Rb1 — c3 Bf8-e7`).
    let text = "1. e2-e4 e7-e5 2. Rg1-f3 Rb8-c6 3. Bf1-b5 a7-a6 4. Bb5-a4 Rg8-f6 5. d2-d3 d7-d6\n\nÖnnur leið:\n\n6. Rb1 — c3 Bf8-e7 7. Rc3-e2 0-0\n";
    assert_eq!(text_findings(text), []);
}

#[test]
fn a_latin_look_alike_in_a_run_with_no_known_start_is_found_in_a_russian_book() {
    // A Russian textbook's page that goes on with a game begun on the page
    // before (its moves start at 5., no position known: not replayed), its
    // transcription using Latin `K` and `C` for the Cyrillic `К` and `С`: the
    // letters are look-alikes whatever the position, and are said to be.
    let text = "Дебют четырёх коней.\n\n1. e2-e4 e7-e5 2. Кg1-f3 Кb8-c6 3. Кb1-c3 Кg8-f6\n\n\
                Продолжение со страницы 12.\n\n5. Kf3:e5 Кc6:e5\nЛучше 5… Cf8-c5, сохраняя фигуру.\n";
    let found = text_findings(text);
    let homoglyphs: Vec<&str> = found.iter().filter(|f| f.0 == "homoglyph").map(|f| f.1.as_str()).collect();
    assert_eq!(homoglyphs, ["K", "C"], "{found:?}");
    assert!(found.iter().any(|f| f.0 == "unchecked"), "{found:?}");
    // The same run in an English book: `K` and `C` are no look-alikes there.
    let text = "Four Knights.\n\n1. e4 e5 2. Nf3 Nc6 3. Nc3 Nf6\n\nGoing on from page 12.\n\n5. Kf3:e5 Nc6:e5\n";
    assert!(text_findings(text).iter().all(|f| f.0 != "homoglyph"), "{:?}", text_findings(text));
}

#[test]
fn a_check_sign_standing_alone_after_a_move_does_not_stop_the_game() {
    // A French club page writes the check sign after a blank (`Fxf7 +`):
    // the game goes on after it (the next moves are replayed, and a wrong
    // one found), the sign is said to belong to its move; French prose's
    // plus (`3. exd5 + toutes les variantes`) stays prose.
    let text = "Une partie du club.\n\n1 e4 e5 2 Fc4 Cc6 3 Fxf7 + Rxf7 4 Cf3 d6 5 Cg5 + Re8 6 Dxh8 h6 0-1\n";
    let found = text_findings(text);
    let codes: Vec<(&str, &str)> = found.iter().map(|(c, t)| (*c, t.as_str())).collect();
    assert_eq!(codes, [("space-in-move", "Fxf7 +"), ("space-in-move", "Cg5 +"), ("illegal-move", "Dxh8")], "{found:?}");
    let todo = "À faire :\n\n- 3. exd5 + toutes les variantes\n- 3. Cc3 + toutes les variantes\n";
    assert!(text_findings(todo).iter().all(|f| f.0 != "space-in-move"), "{:?}", text_findings(todo));
}

#[test]
fn a_run_that_ends_on_an_ambiguous_move_is_gone_on_from_under_the_reading_the_next_run_fits() {
    // `3. Nd2` (either knight) ends a run; the text goes on after prose.
    // The next run replays under the one reading it fits (Nbd2: the f3
    // knight goes on to e5; Nfd2: the knight goes back to f3), and its own
    // wrong move is found; the ambiguity stays reported.
    for fourth in ["Ne5", "Nf3"] {
        let text = format!(
            "1. Nf3 Nf6 2. d4 d5 3. Nd2\n\nHere White hesitates. The game went on:\n\n3... c5 4. {fourth} Nc6 5. Kd3\n"
        );
        let found = text_findings(&text);
        let codes: Vec<(&str, &str)> = found.iter().map(|(c, t)| (*c, t.as_str())).collect();
        assert_eq!(codes, [("ambiguous-move", "Nd2"), ("illegal-move", "Kd3")], "{fourth}: {found:?}");
    }
}

#[test]
fn the_hungarian_capture_sign_after_the_move_is_read_as_written() {
    // A Hungarian magazine writes the capture sign after the square
    // (`He5:`) and pawn captures with their files (`de:`), a comma between
    // White's and Black's move: the game is read to its end, the files-only
    // captures said as the short form they are (with their fix), nothing
    // else; a wrong move after them is found.
    let text = "SPANYOL MEGNYITÁS\n\n1. e4, e5 2. Hf3, Hc6 3. Fb5, a6 4. Fa4, Hf6 5. 0-0, Fe7 6. Be1, b5 \
                7. Fb3, d6 8. c3, 0-0 9. a4, b4 10. d4, bc: 11. de:, He5: 12. He5:, de: 13. Hc3:, a5 14. Ke3\n";
    let found = text_findings(text);
    let codes: Vec<(&str, &str)> = found.iter().map(|(c, t)| (*c, t.as_str())).collect();
    assert_eq!(codes, [("syntax", "bc"), ("syntax", "de"), ("syntax", "de"), ("illegal-move", "Ke3")], "{found:?}");
    // A colon after a move before prose is no capture sign.
    let text = "1.f4: Sin comentario\ne5: Una Bird.\n2.d3: Sin comentario\nexf4: Bien.\n3.Bxf4: Sin comentario\nNf6: La idea.\n";
    assert!(text_findings(text).iter().all(|f| f.0 != "illegal-move"), "{:?}", text_findings(text));
}

#[test]
fn a_line_of_analysis_on_lines_of_its_own_ends_where_the_game_goes_on_at_an_earlier_number() {
    // A club page prints a line of analysis over several lines, and the
    // game goes on at the next line with an earlier number (`4.c3` after
    // `9.Db3#`): the game's move is no move 10 of the analysis (which was
    // over by mate), but the game's own fourth, replayed from its third.
    let text = "1.e4 e5 2.Cf3 Cc6 3.Fc4 Fc5\nLe coup le plus naturel. Par exemple, 4.Cg5 Ch6 5.d4 Fxd4\n\
                6.Cxf7 Cxf7 7.Fxf7+ Rxf7 8.Dh5+ g6 9.Dxe5\n4.c3\nlibère la case c2 pour le fou.\n4...Cf6 5.d4 exd4 6.cxd4 Fb4+ 7.Fd2 Fxd2+ 8.Cbxd2 d5\n";
    let found = text_findings(text);
    assert!(found.is_empty(), "{found:?}");
    // The same with a wrong move in the game after it: found.
    let wrong = text.replace("8.Cbxd2 d5", "8.Cbxd2 d4");
    let found = text_findings(&wrong);
    let codes: Vec<&str> = found.iter().map(|f| f.0).collect();
    assert_eq!(codes, ["illegal-move"], "{found:?}");
}

#[test]
fn a_damaged_move_in_blacks_place_does_not_stop_the_game() {
    // `4. Ba4 N?6 5. O-O`: a word no move reads where Black's move stands,
    // before White's next number. The run ended at it and the rest had no
    // position ("start at 5. with no position known"); now the word is a
    // damaged move, read by the position, and the game's wrong move is found.
    for word in ["N?6", "N■6", "N6"] {
        let text = format!(
            "The game went 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 {word} 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. Ke3 and White resigned.\n"
        );
        let found = text_findings(&text);
        let codes: Vec<(&str, &str)> = found.iter().map(|(c, t)| (*c, t.as_str())).collect();
        assert_eq!(codes, [("syntax", word), ("illegal-move", "Ke3")], "{word}: {found:?}");
    }
    // A word of prose there (a move left out) is no move.
    let text = "The game went 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 and 5. O-O Be7 6. Re1 b5 7. Ke3.\n";
    assert!(text_findings(text).iter().all(|f| f.0 != "syntax"), "{:?}", text_findings(text));
}
