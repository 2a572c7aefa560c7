//! The Laws of Chess end to end: games generated to a fivefold repetition,
//! to seventy-five moves and to a dead position (long ones among them),
//! each with one move written after its end, in English, Russian and German,
//! as PGN and as manuscripts (plain text and Markdown), checked by the real
//! binary; what the test expects is counted here on its own, from FEN
//! strings, not from the engine's hashes. The language server shows the
//! same findings and its hover says why; `--compare` reads two scoresheets
//! of one game and finds where they part.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls_tests::damage::{self, Format, Kind, clean_manuscript, clean_pgn};
use chess_ls_tests::generate::{RenderOptions, SplitMix64, random_game, render_game};
use chess_ls_tests::lsp_client::Client;
use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role};

const LANGUAGES: [Language; 3] = [Language::En, Language::Ru, Language::De];

/// A position as 9.2.2 compares positions: the FEN without its clocks,
/// with an en-passant square only where a capture there is legal.
fn key(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// What the Laws say of a game, counted move by move: the plies (0-based)
/// where a draw could first be claimed in each run without a capture or
/// pawn move (threefold) and where fifty moves were reached, and the ply
/// after which the game ended by rule, if it did.
#[derive(Debug, Default)]
struct Expected {
    claims: Vec<usize>,
    ended_after: Option<usize>,
}

fn expected(moves: &[Move]) -> Expected {
    let mut pos = Chess::default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    seen.insert(key(&pos), 1);
    let mut claimed = false;
    let mut out = Expected::default();
    for (ply, &m) in moves.iter().enumerate() {
        pos.play_unchecked(m);
        if pos.halfmoves() == 0 {
            seen.clear();
            claimed = false;
        }
        let count = seen.entry(key(&pos)).or_insert(0);
        *count += 1;
        let mate = pos.is_checkmate();
        if (*count == 3 && !claimed) || (pos.halfmoves() == 100 && !mate) {
            out.claims.push(ply);
        }
        claimed |= *count == 3;
        let dead = pos.is_insufficient_material();
        if *count >= 5 || pos.halfmoves() >= 150 || dead || mate || pos.is_stalemate() {
            out.ended_after = Some(ply);
            break;
        }
    }
    out
}

/// `prefix` random plies (a game that has not ended), then two pieces of
/// each side walking back and forth until the same position stands for the
/// fifth time, then one more move.
fn to_fivefold(seed: u64, prefix: usize) -> Option<Vec<Move>> {
    let mut moves = random_game(seed, prefix);
    if moves.len() < prefix {
        return None;
    }
    let mut pos = position_after(&moves);
    let reversible = |mv: &Move| !mv.is_capture() && mv.role() != Role::Pawn && !mv.is_castle();
    let back = |pos: &Chess, mv: &Move| {
        pos.legal_moves()
            .into_iter()
            .find(|b| b.from() == Some(mv.to()) && Some(b.to()) == mv.from() && !b.is_capture())
    };
    for _ in 0..12 {
        let white: Vec<Move> = pos.legal_moves().into_iter().filter(|m| reversible(m)).collect();
        let cycle = white.iter().find_map(|&w| {
            let mut p1 = pos.clone();
            p1.play_unchecked(w);
            p1.legal_moves().into_iter().filter(|m| reversible(m)).find_map(|b| {
                let mut p2 = p1.clone();
                p2.play_unchecked(b);
                let w2 = back(&p2, &w)?;
                let mut p3 = p2.clone();
                p3.play_unchecked(w2);
                let b2 = back(&p3, &b)?;
                Some([w, b, w2, b2])
            })
        })?;
        for mv in cycle {
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        if expected(&moves).ended_after.is_some() {
            break;
        }
    }
    let end = expected(&moves).ended_after?;
    moves.truncate(end + 1);
    let extra = *pos_after(&moves).legal_moves().first()?;
    moves.push(extra);
    Some(moves)
}

/// `prefix` random plies, then a walk of moves without a capture or pawn
/// move into positions not seen before, never mating, until each player
/// has made 75 such moves; then one more move.
fn to_seventy_five(seed: u64, prefix: usize) -> Option<Vec<Move>> {
    let mut rng = SplitMix64::new(seed ^ 0x75);
    let mut moves = random_game(seed, prefix);
    if moves.len() < prefix {
        return None;
    }
    let mut pos = position_after(&moves);
    let mut seen = std::collections::HashSet::new();
    seen.insert(key(&pos));
    while pos.halfmoves() < 150 {
        let fresh: Vec<(Move, Chess)> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_capture() && m.role() != Role::Pawn)
            .filter_map(|m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                (!seen.contains(&key(&next)) && !next.legal_moves().is_empty()).then_some((m, next))
            })
            .collect();
        if fresh.is_empty() {
            return None;
        }
        let (m, next) = fresh[rng.below(fresh.len())].clone();
        seen.insert(key(&next));
        pos = next;
        moves.push(m);
    }
    let extra = *pos.legal_moves().first()?;
    moves.push(extra);
    Some(moves)
}

/// A random game played out to a dead position (the last pieces able to
/// mate taken), at least `min` plies long, then one more move.
fn to_dead_position(seed: u64, min: usize) -> Option<Vec<Move>> {
    let mut moves = random_game(seed, 3000);
    let pos = position_after(&moves);
    if moves.len() < min || !pos.is_insufficient_material() {
        return None;
    }
    moves.push(*pos.legal_moves().first()?);
    Some(moves)
}

fn position_after(moves: &[Move]) -> Chess {
    pos_after(moves)
}

fn pos_after(moves: &[Move]) -> Chess {
    let mut pos = Chess::default();
    for &m in moves {
        pos.play_unchecked(m);
    }
    pos
}

/// The game written in `language` as PGN and as two manuscripts (plain
/// text and Markdown: prose, then the moves in one paragraph), each with
/// the byte range of every move.
fn records(moves: &[Move], language: Language) -> Vec<(String, &'static str, Vec<std::ops::Range<usize>>)> {
    let style = MoveStyle::for_language(language);
    let pgn = render_game(moves, &style, &RenderOptions::default());
    let ranges = pgn.moves.iter().map(|m| m.byte_range.clone()).collect();
    let mut out = vec![(pgn.text, "pgn", ranges)];
    let bare = render_game(moves, &style, &RenderOptions { headers: false, ..RenderOptions::default() });
    for (head, ext) in [("A game from the club championship.\n\n", "txt"), ("# The game\n\nFrom the club.\n\n", "md")] {
        let text = format!("{head}{}", bare.text);
        let ranges =
            bare.moves.iter().map(|m| m.byte_range.start + head.len()..m.byte_range.end + head.len()).collect();
        out.push((text, ext, ranges));
    }
    out
}

/// The byte offset of a 1-based line and column counted in characters.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
    start + text[start..].chars().take(column - 1).map(char::len_utf8).sum::<usize>()
}

/// Writes each record to a file, checks them all in one run of the binary
/// and returns, per file, its findings as (code, ply) (the ply of the move
/// the finding is on, `None` elsewhere), and the codes of all findings.
#[expect(clippy::type_complexity, reason = "a test's own tuple of what the binary said")]
fn check_records(
    dir: &Path,
    records: &[(String, String, Vec<std::ops::Range<usize>>)],
) -> (Vec<Vec<(String, Option<usize>)>>, Vec<Vec<(String, String)>>) {
    let mut paths = Vec::new();
    for (name, text, _) in records {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("the scratch directory is writable");
        paths.push(path);
    }
    let out = Command::new(chess_ls_tests::binary::chess_ls())
        .args(["--check", "--format", "json", "--threads", "1"])
        .args(&paths)
        .output()
        .expect("chess-ls runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut found = vec![Vec::new(); records.len()];
    let mut messages = vec![Vec::new(); records.len()];
    for line in stdout.lines() {
        let d: Value = serde_json::from_str(line).expect("JSON Lines");
        let file = PathBuf::from(d["file"].as_str().expect("a file"));
        let Some(i) = paths.iter().position(|p| *p == file) else { continue };
        let (_, text, ranges) = &records[i];
        let at = offset(text, d["line"].as_u64().unwrap_or(1) as usize, d["column"].as_u64().unwrap_or(1) as usize);
        let ply = ranges.iter().position(|r| r.start <= at && at < r.end);
        let code = d["code"].as_str().unwrap_or_default().to_owned();
        messages[i].push((code.clone(), d["message"].as_str().unwrap_or_default().to_owned()));
        found[i].push((code, ply));
    }
    (found, messages)
}

/// Checks `moves` (ending with one move after the end by rule) in every
/// language and form: a `game-over` on that last move and nothing else
/// wrong with the moves, the claims where the count says, and a `result`
/// warning where the written result is not the rule's.
fn check_game(name: &str, moves: &[Move], rule: &str) {
    let expect = expected(&moves[..moves.len() - 1]);
    let end = expect.ended_after.unwrap_or_else(|| panic!("{name}: the generated game does not end by rule"));
    assert_eq!(end, moves.len() - 2, "{name}: the game ends right before its last move");
    let dir = crate::scratch_dir(&format!("laws-{name}"));
    let mut records = Vec::new();
    for language in LANGUAGES {
        for (text, ext, ranges) in self::records(moves, language) {
            records.push((format!("{name}-{}.{ext}", language.code()), text, ranges));
        }
    }
    let (found, messages) = check_records(&dir, &records);
    for (i, ((file, text, _), found)) in records.iter().zip(&found).enumerate() {
        let game_over: Vec<Option<usize>> =
            found.iter().filter(|(c, _)| c == "game-over").map(|(_, ply)| *ply).collect();
        assert_eq!(game_over, [Some(moves.len() - 1)], "{file}: one game-over, on the last move: {found:?}\n{text}");
        let claims: Vec<usize> = found.iter().filter(|(c, _)| c == "draw-claim").filter_map(|(_, ply)| *ply).collect();
        assert_eq!(claims, expect.claims, "{file}: the draw claims: {found:?}");
        let wrong: Vec<&(String, Option<usize>)> = found
            .iter()
            .filter(|(c, _)| !matches!(c.as_str(), "game-over" | "draw-claim" | "result" | "language-mix"))
            .collect();
        assert!(wrong.is_empty(), "{file}: nothing else is wrong: {wrong:?}");
        // The generator writes the result of the position after the last
        // move: where that is not the draw the rule gives, it is reported.
        if file.ends_with(".pgn") {
            let drawn = text.trim_end().ends_with("1/2-1/2");
            let result = found.iter().any(|(c, _)| c == "result");
            assert_eq!(result, !drawn, "{file}: a result other than the rule's, and only that, is reported: {found:?}");
        }
        let message = messages[i].iter().find(|(c, _)| c == "game-over").map_or("", |(_, m)| m.as_str());
        assert!(message.contains(&format!("(Article {rule})")), "{file}: the rule is named: {message}");
    }
}

#[test]
fn fivefold_repetition_ends_the_game_in_every_language_and_form() {
    // A short one and a long one (after 80 random plies).
    let short = (1..50).find_map(|seed| to_fivefold(seed, 6)).expect("a shuffle after a few moves");
    check_game("fivefold-short", &short, "9.6.1");
    let long = (1..200).find_map(|seed| to_fivefold(seed, 80)).expect("a shuffle after 80 plies");
    assert!(long.len() > 90);
    check_game("fivefold-long", &long, "9.6.1");
}

#[test]
fn seventy_five_moves_end_the_game_in_every_language_and_form() {
    let game = (1..200).find_map(|seed| to_seventy_five(seed, 30)).expect("a walk of 150 plies");
    assert!(game.len() > 150);
    check_game("seventy-five", &game, "9.6.2");
}

#[test]
fn a_dead_position_ends_the_game_in_every_language_and_form() {
    let game = (1..400).find_map(|seed| to_dead_position(seed, 150)).expect("a long game to a dead position");
    check_game("dead", &game, "5.2.2");
}

#[test]
fn a_move_after_mate_is_game_over_in_manuscripts_too() {
    let dir = crate::scratch_dir("laws-mate");
    let records: Vec<(String, String, Vec<std::ops::Range<usize>>)> = [
        ("mate.md", "# Мат\n\nКороткая партия: 1. f3 e5 2. g4 Фh4# 3. Крf2\n"),
        ("mate.txt", "Kurze Partie: 1. f3 e5 2. g4 Dh4# 3. Kf2\n"),
        ("mate.pgn", "1. f3 e5 2. g4 Qh4# 3. Kf2 0-1\n"),
    ]
    .into_iter()
    .map(|(name, text)| {
        let at = text.rfind("3. ").unwrap_or(0) + 3;
        let end = text[at..].find([' ', '\n']).map_or(text.len(), |e| at + e);
        (name.to_owned(), text.to_owned(), std::iter::once(at..end).collect())
    })
    .collect();
    for ((file, _, _), found) in records.iter().zip(check_records(&dir, &records).0) {
        assert_eq!(found, [("game-over".to_owned(), Some(0))], "{file}");
    }
}

#[test]
fn the_editor_shows_the_laws_and_the_hover_says_why() {
    let moves = (1..50).find_map(|seed| to_fivefold(seed, 6)).expect("a shuffle");
    let expect = expected(&moves[..moves.len() - 1]);
    let game = render_game(&moves, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    let uri = "file:///games/fivefold.pgn";
    let mut client = Client::start();
    client.initialize(&["utf-8"], json!({}));
    client.open(uri, &game.text);
    let params = client.diagnostics(uri, 1);
    let diagnostics = params["diagnostics"].as_array().expect("diagnostics");
    let of = |code: &str| diagnostics.iter().filter(|d| d["code"] == code).cloned().collect::<Vec<_>>();
    let over = of("game-over");
    assert_eq!(over.len(), 1, "{params}");
    assert_eq!(over[0]["severity"], 1, "an error");
    assert!(over[0]["message"].as_str().unwrap_or_default().contains("fivefold repetition"), "{over:?}");
    let claims = of("draw-claim");
    assert_eq!(claims.len(), expect.claims.len(), "{params}");
    assert!(claims.iter().all(|d| d["severity"] == 3), "information: {claims:?}");
    // The hover on the move that made the fifth time names the rule and
    // the earlier times.
    let last = &game.moves[moves.len() - 2];
    let (line, character) = utf8_position(&game.text, last.byte_range.start);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(value.contains("Laws of Chess"), "{value}");
    assert!(value.contains("fifth time"), "{value}");
    assert!(value.contains("9.6.1"), "{value}");
    // The hover on the move after it shows the finding.
    let extra = &game.moves[moves.len() - 1];
    let (line, character) = utf8_position(&game.text, extra.byte_range.start);
    let hover = client.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
    );
    assert!(hover["contents"]["value"].as_str().unwrap_or_default().contains("game-over"), "{hover}");
    client.shutdown();
}

fn utf8_position(text: &str, offset: usize) -> (u32, u32) {
    let line = text[..offset].matches('\n').count();
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    (line as u32, (offset - start) as u32)
}

// --compare

struct Compared {
    code: i32,
    json: Value,
    human: String,
}

fn compare(dir: &Path, first: (&str, &str), second: (&str, &str)) -> Compared {
    let a = dir.join(first.0);
    let b = dir.join(second.0);
    std::fs::write(&a, first.1).expect("writable");
    std::fs::write(&b, second.1).expect("writable");
    let run = |json: bool| {
        let mut command = Command::new(chess_ls_tests::binary::chess_ls());
        command.arg("--compare").arg(&a).arg(&b);
        if json {
            command.args(["--format", "json"]);
        }
        command.output().expect("chess-ls runs")
    };
    let out = run(true);
    let human = run(false);
    assert_eq!(out.status.code(), human.status.code());
    Compared {
        code: out.status.code().unwrap_or(-1),
        json: serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        human: String::from_utf8_lossy(&human.stdout).into_owned(),
    }
}

fn a_game(seed: u64) -> Vec<Move> {
    (seed..seed + 50).map(|s| random_game(s, 70)).find(|m| m.len() == 70).expect("a 70-ply game")
}

#[test]
fn two_scoresheets_in_two_languages_agree() {
    let dir = crate::scratch_dir("compare-agree");
    let moves = a_game(1);
    let white = clean_pgn(&moves, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    let black = clean_manuscript(&moves, &MoveStyle::for_language(Language::Ru), Format::Text, 7);
    let c = compare(&dir, ("white.pgn", &white.text), ("black.txt", &black.text));
    assert_eq!(c.code, 0, "{}", c.human);
    assert_eq!(c.json["agree"], true);
    assert_eq!(c.json["agreed_plies"], 70);
    assert_eq!(c.json["first"]["language"], "en");
    assert_eq!(c.json["second"]["language"], "ru");
    assert!(c.human.contains("the records agree"), "{}", c.human);

    // The same moves with another result written: they differ there.
    let pgn = white.text.trim_end();
    let result = pgn.rsplit(' ').next().unwrap_or_default();
    let other = if result == "1-0" { "0-1" } else { "1-0" };
    let changed = format!("{}{other}\n", &pgn[..pgn.len() - result.len()])
        .replace(&format!("\"{result}\""), &format!("\"{other}\""));
    let c = compare(&dir, ("white.pgn", &white.text), ("changed.pgn", &changed));
    assert_eq!(c.code, 1, "{}", c.human);
    assert_eq!(c.json["steps"][0]["verdict"], "result", "{}", c.human);
}

#[test]
fn a_damaged_scoresheet_read_through_its_damage_agrees_and_says_where() {
    let dir = crate::scratch_dir("compare-damaged");
    let moves = a_game(11);
    let white = clean_pgn(&moves, &MoveStyle::for_language(Language::De), &RenderOptions::default());
    let black = clean_manuscript(&moves, &MoveStyle::for_language(Language::Ru), Format::Markdown, 3);
    let mut rng = SplitMix64::new(5);
    let damaged =
        damage::damage(&black, &[Kind::LookAlikeLetter, Kind::OneAsL], &mut rng).expect("room for two damages");
    let c = compare(&dir, ("white.pgn", &white.text), ("black.md", &damaged.text));
    assert_eq!(c.code, 0, "{}\n{}", c.human, damaged.text);
    let steps = c.json["steps"].as_array().expect("steps");
    let plies: Vec<u64> = steps.iter().map(|s| s["ply"].as_u64().unwrap_or(0)).collect();
    let mut damaged_plies: Vec<u64> = damaged.damages.iter().map(|d| d.ply as u64 + 1).collect();
    damaged_plies.sort_unstable();
    assert_eq!(plies, damaged_plies, "{}", c.human);
    assert!(
        steps.iter().all(|s| s["verdict"] == "mended" && !s["second"]["findings"].as_array().is_none_or(Vec::is_empty))
    );
}

#[test]
fn scoresheets_that_part_ways_are_told_move_by_move() {
    let dir = crate::scratch_dir("compare-part");
    let moves = a_game(21);
    let white = clean_pgn(&moves, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    // Black's sheet has another legal move at ply 31 and stops there.
    let mut other: Vec<Move> = moves[..30].to_vec();
    let pos = pos_after(&other);
    let alternative = pos.legal_moves().into_iter().find(|m| *m != moves[30]).expect("another legal move");
    other.push(alternative);
    let black = render_game(&other, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    let c = compare(&dir, ("white.pgn", &white.text), ("black.pgn", &black.text));
    assert_eq!(c.code, 1, "{}", c.human);
    assert_eq!(c.json["agree"], false);
    assert_eq!(c.json["agreed_plies"], 30);
    assert_eq!(c.json["steps"][0]["ply"], 31);
    assert_eq!(c.json["steps"][0]["verdict"], "diverge", "{}", c.human);

    // Black's sheet with an illegal move at ply 41 that the moves after it
    // do not save, and a sheet torn off after ply 50.
    let black = render_game(&moves, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    let at = black.moves[40].byte_range.clone();
    let mut broken = black.text.clone();
    broken.replace_range(at, "Фa1");
    let c = compare(&dir, ("white.pgn", &white.text), ("black.pgn", &broken));
    assert_eq!(c.code, 1, "{}", c.human);
    let step = &c.json["steps"][0];
    assert_eq!(step["ply"], 41, "{}", c.human);
    assert!(matches!(step["verdict"].as_str(), Some("second-damaged" | "only-first")), "{}", c.human);

    let torn = &black.text[..black.moves[50].byte_range.start];
    let c = compare(&dir, ("white.pgn", &white.text), ("black.pgn", torn));
    assert_eq!(c.code, 1, "{}", c.human);
    assert_eq!(c.json["agreed_plies"], 50);
    assert_eq!(c.json["steps"][0]["verdict"], "only-first");
}

#[test]
fn compare_fails_with_status_2_on_a_missing_file() {
    let out = Command::new(chess_ls_tests::binary::chess_ls())
        .args(["--compare", "no-such-file.pgn", "neither.pgn"])
        .output()
        .expect("chess-ls runs");
    assert_eq!(out.status.code(), Some(2));
}
