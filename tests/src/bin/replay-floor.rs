//! The replay floor: the least work that checks a file of SAN games, to
//! compare `chess-ls --check` with (`bench/floor.sh`).
//!
//! ```text
//! replay-floor FILE.pgn            # replays with shakmaty alone
//! replay-floor --chess-ls FILE.pgn # counts the plies chess-ls replays
//! ```
//!
//! It reads the file, skips tag lines, `{...}` and `;` comments, NAGs,
//! move numbers and results (a result ends a game), parses every other
//! token with shakmaty's SAN parser and plays it, and prints the games
//! and moves it replayed. It stops at the first token that is not a legal
//! move (exit 1): it is a floor for clean files, with none of what
//! `--check` adds (other languages, marks, look-alikes, recovery, spans).
//! With `--chess-ls` it instead lowers and analyses the file as
//! `--check` does and prints the games and plies chess-ls replayed, so that
//! the bench can check that both replay the same moves.

use std::io::Write;
use std::process::ExitCode;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (chess_ls, path) = match args.as_slice() {
        [path] if !path.starts_with('-') => (false, path),
        [flag, path] if flag == "--chess-ls" => (true, path),
        _ => {
            eprintln!("usage: replay-floor [--chess-ls] FILE.pgn");
            return ExitCode::from(2);
        }
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("replay-floor: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let counted = if chess_ls { Ok(chess_ls_plies(&bytes)) } else { replay(&bytes) };
    match counted {
        Ok((games, moves)) => {
            // This tool reports on stdout (the lint against printing
            // guards the language server, whose stdout is the protocol).
            let _ = writeln!(std::io::stdout(), "{games} games, {moves} moves");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("replay-floor: {path}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Replays every game of `text` with shakmaty; the games and moves played.
fn replay(text: &[u8]) -> Result<(usize, usize), String> {
    let mut pos = Chess::default();
    let (mut games, mut moves) = (0, 0);
    // Whether the current game has had a move (a result without moves is
    // still a game).
    let mut in_game = false;
    let mut in_comment = false;
    for line in text.split(|&b| b == b'\n') {
        if !in_comment && line.first() == Some(&b'[') {
            continue;
        }
        for token in line.split(|b| b.is_ascii_whitespace()) {
            if token.is_empty() {
                continue;
            }
            if in_comment {
                in_comment = !token.contains(&b'}');
                continue;
            }
            if matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
                games += 1;
                pos = Chess::default();
                in_game = false;
                continue;
            }
            match token[0] {
                b'{' => in_comment = !token.contains(&b'}'),
                b';' => break,
                b'$' => {}
                b'0'..=b'9' => {
                    // A move number, `12.` or `12...`, maybe glued to its move.
                    let number = token.iter().take_while(|b| b.is_ascii_digit() || **b == b'.').count();
                    if number < token.len() {
                        play(&mut pos, &token[number..])?;
                        moves += 1;
                        in_game = true;
                    }
                }
                _ => {
                    play(&mut pos, token)?;
                    moves += 1;
                    in_game = true;
                }
            }
        }
    }
    if in_game {
        games += 1;
    }
    Ok((games, moves))
}

fn play(pos: &mut Chess, token: &[u8]) -> Result<(), String> {
    let text = || String::from_utf8_lossy(token).into_owned();
    let san = SanPlus::from_ascii(token).map_err(|e| format!("{}: {e}", text()))?;
    let m = san.san.to_move(pos).map_err(|e| format!("{}: {e}", text()))?;
    pos.play_unchecked(m);
    Ok(())
}

/// The games of `text` and the plies chess-ls replayed in them, as
/// `--check` lowers and analyses them.
fn chess_ls_plies(bytes: &[u8]) -> (usize, usize) {
    use chess_ls::analysis::{self, Options};
    use chess_ls::ide::check::{for_each_game, per_section};
    let text = String::from_utf8_lossy(bytes);
    let options = Options::default();
    let units = per_section(&text, |parser, unit| {
        let mut plies = 0;
        let games = for_each_game(parser, unit, |game, source, _| {
            plies += analysis::analyze_game(game, source, &options).plies;
        });
        (games, plies)
    });
    units.into_iter().fold((0, 0), |(g, p), (games, plies)| (g + games, p + plies))
}
