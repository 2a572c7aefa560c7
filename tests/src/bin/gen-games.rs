//! Writes random legal games as PGN in any notation language: the input of
//! the `--check` benchmark (`bench/check.sh`).
//!
//! ```text
//! gen-games [--lang LANG] (--size SIZE | --games N) [--seed SEED] OUT.pgn
//! gen-games [--lang LANG] (--size SIZE | --games N) [--seed SEED] --files N OUT_DIR
//! ```
//!
//! `--size 10MB` writes whole games until the file holds at least that many
//! bytes (KB, MB and GB are powers of 1000, KiB, MiB and GiB of 1024);
//! `--games N` writes exactly N games. The games depend only on the seed and
//! their number, never on the language, so `--lang en --size 10MB` followed
//! by `--lang ru --games N` (N as reported on stderr) writes the same games
//! in Russian.
//!
//! `--files N` cuts the same games into N files of about equal size (whole
//! games each), `OUT_DIR/games-0001.pgn` and on: the input of the publisher
//! benchmark (`bench/publisher.sh`: 1,000 files of 100 KB).

use std::process::ExitCode;

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls_tests::generate::{RenderOptions, corpus};

const USAGE: &str = "usage: gen-games [--lang LANG] (--size SIZE | --games N) [--seed SEED] \
                     [--files N] OUT (a file, or a directory with --files)";

/// How much to write.
enum Amount {
    Bytes(usize),
    Games(usize),
}

struct Args {
    language: Language,
    amount: Amount,
    seed: u64,
    /// Cut into this many files in the directory `out`.
    files: Option<usize>,
    out: String,
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("gen-games: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let text = generate(&args);
    let games = text.matches("[Event ").count();
    let written = match args.files {
        None => std::fs::write(&args.out, &text).map(|()| 1),
        Some(n) => write_files(&text, n, std::path::Path::new(&args.out)),
    };
    let files = match written {
        Ok(files) => files,
        Err(e) => {
            eprintln!("gen-games: cannot write {}: {e}", args.out);
            return ExitCode::FAILURE;
        }
    };
    let into = if files == 1 { String::new() } else { format!(" as {files} files") };
    eprintln!(
        "gen-games: wrote {games} games ({} bytes) in {}{into} to {}",
        text.len(),
        args.language.name(),
        args.out
    );
    ExitCode::SUCCESS
}

/// Cuts the games into `n` files of about equal size (at game starts) in
/// `dir`, which is created; returns how many files were written.
fn write_files(text: &str, n: usize, dir: &std::path::Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let parts = cut_into(text, n);
    for (i, part) in parts.iter().enumerate() {
        std::fs::write(dir.join(format!("games-{:04}.pgn", i + 1)), part)?;
    }
    Ok(parts.len())
}

/// At most `n` consecutive parts of about `len / n` bytes, each made of
/// whole games: part i ends where the first game at or after byte
/// `i * len / n` starts.
fn cut_into(text: &str, n: usize) -> Vec<&str> {
    let n = n.max(1);
    let mut parts = Vec::with_capacity(n);
    let mut start = 0;
    for i in 1..=n {
        let mut want = text.len() * i / n;
        while !text.is_char_boundary(want) {
            want += 1;
        }
        let end = if i == n || want >= text.len() {
            text.len()
        } else {
            text[want..].find("\n[Event ").map_or(text.len(), |at| want + at + 1)
        };
        if end > start {
            parts.push(&text[start..end]);
            start = end;
        }
    }
    parts
}

fn generate(args: &Args) -> String {
    let style = MoveStyle::for_language(args.language);
    let opts = RenderOptions::default();
    match args.amount {
        Amount::Games(games) => corpus(args.seed, games, &style, &opts),
        Amount::Bytes(size) => {
            // `corpus(seed, n)` is a prefix of `corpus(seed, m)` for n < m,
            // so guess a count (a game is about 1 KB), grow it until the
            // text is long enough, then cut after the first whole game that
            // reaches the size.
            let mut games = (size / 900).max(1);
            loop {
                let text = corpus(args.seed, games, &style, &opts);
                if text.len() >= size {
                    return cut_after_game_reaching(text, size);
                }
                games = games * 5 / 4 + 1;
            }
        }
    }
}

/// The text up to the end of the first game at or past `size` bytes; games
/// are separated by a blank line before their `[Event` tag.
fn cut_after_game_reaching(mut text: String, size: usize) -> String {
    // From a character's start (`--size 10MB` may fall inside a Cyrillic
    // letter).
    let mut at = size.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    if let Some(next) = text[at..].find("\n[Event ") {
        text.truncate(at + next);
    }
    text
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut language = Language::En;
    let mut amount = None;
    let mut seed = 2024;
    let mut files = None;
    let mut out = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--lang" => {
                let code = value("--lang")?;
                language = Language::from_code(&code).ok_or_else(|| format!("unknown language `{code}`"))?;
            }
            "--size" => amount = Some(Amount::Bytes(parse_size(&value("--size")?)?)),
            "--games" => {
                let n = value("--games")?;
                amount = Some(Amount::Games(n.parse().map_err(|_| format!("`{n}` is not a number of games"))?));
            }
            "--seed" => {
                let s = value("--seed")?;
                seed = s.parse().map_err(|_| format!("`{s}` is not a seed (an unsigned number)"))?;
            }
            "--files" => {
                let n = value("--files")?;
                files = Some(
                    n.parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("`{n}` is not a number of files"))?,
                );
            }
            "-h" | "--help" => return Err("writes random legal games".to_owned()),
            _ if arg.starts_with('-') => return Err(format!("unknown option `{arg}`")),
            _ if out.is_none() => out = Some(arg),
            _ => return Err(format!("one output file only (`{arg}`)")),
        }
    }
    Ok(Args {
        language,
        amount: amount.ok_or("--size or --games is needed")?,
        seed,
        files,
        out: out.ok_or("the output file is missing")?,
    })
}

/// `10MB`, `512KiB`, `1000000`: a number of bytes.
fn parse_size(text: &str) -> Result<usize, String> {
    let digits = text.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: f64 = number.parse().map_err(|_| format!("`{text}` is not a size such as 10MB"))?;
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("unknown unit in `{text}` (use B, KB, MB, GB, KiB, MiB or GiB)")),
    };
    // Sizes are small enough for f64 to hold exactly after rounding.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok((number * factor).round() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("10MB"), Ok(10_000_000));
        assert_eq!(parse_size("1.5 KiB"), Ok(1536));
        assert_eq!(parse_size("123"), Ok(123));
        assert!(parse_size("ten MB").is_err());
        assert!(parse_size("10XB").is_err());
    }

    #[test]
    fn size_is_reached_with_whole_games() {
        let args =
            Args { language: Language::Ru, amount: Amount::Bytes(20_000), seed: 1, files: None, out: String::new() };
        let text = generate(&args);
        assert!(text.len() >= 20_000 && text.len() < 40_000, "{}", text.len());
        assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
        let games = text.matches("[Event ").count();
        let same = Args { amount: Amount::Games(games), ..args };
        assert_eq!(generate(&same), text);
    }

    #[test]
    fn files_hold_whole_games_and_all_of_them() {
        let args =
            Args { language: Language::Ru, amount: Amount::Games(40), seed: 3, files: Some(7), out: String::new() };
        let text = generate(&args);
        let parts = cut_into(&text, 7);
        assert_eq!(parts.len(), 7);
        assert_eq!(parts.concat(), text);
        for part in &parts {
            assert!(part.starts_with("[Event "), "{part}");
        }
    }
}
