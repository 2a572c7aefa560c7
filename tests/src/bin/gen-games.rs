//! Writes random legal games as PGN in any notation language: the input of
//! the `--check` benchmark (`bench/check.sh`).
//!
//! ```text
//! gen-games [--lang LANG] (--size SIZE | --games N) [--seed SEED] OUT.pgn
//! ```
//!
//! `--size 10MB` writes whole games until the file holds at least that many
//! bytes (KB, MB and GB are powers of 1000, KiB, MiB and GiB of 1024);
//! `--games N` writes exactly N games. The games depend only on the seed and
//! their number, never on the language, so `--lang en --size 10MB` followed
//! by `--lang ru --games N` (N as reported on stderr) writes the same games
//! in Russian.

use std::process::ExitCode;

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls_tests::generate::{RenderOptions, corpus};

const USAGE: &str =
    "usage: gen-games [--lang LANG] (--size SIZE | --games N) [--seed SEED] OUT.pgn";

/// How much to write.
enum Amount {
    Bytes(usize),
    Games(usize),
}

struct Args {
    language: Language,
    amount: Amount,
    seed: u64,
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
    if let Err(e) = std::fs::write(&args.out, &text) {
        eprintln!("gen-games: cannot write {}: {e}", args.out);
        return ExitCode::FAILURE;
    }
    eprintln!(
        "gen-games: wrote {games} games ({} bytes) in {} to {}",
        text.len(),
        args.language.name(),
        args.out
    );
    ExitCode::SUCCESS
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
    if let Some(next) = text[size.min(text.len())..].find("\n[Event ") {
        text.truncate(size + next);
    }
    text
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut language = Language::En;
    let mut amount = None;
    let mut seed = 2024;
    let mut out = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--lang" => {
                let code = value("--lang")?;
                language = Language::from_code(&code)
                    .ok_or_else(|| format!("unknown language `{code}`"))?;
            }
            "--size" => amount = Some(Amount::Bytes(parse_size(&value("--size")?)?)),
            "--games" => {
                let n = value("--games")?;
                amount = Some(Amount::Games(
                    n.parse().map_err(|_| format!("`{n}` is not a number of games"))?,
                ));
            }
            "--seed" => {
                let s = value("--seed")?;
                seed =
                    s.parse().map_err(|_| format!("`{s}` is not a seed (an unsigned number)"))?;
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
        let args = Args {
            language: Language::Ru,
            amount: Amount::Bytes(20_000),
            seed: 1,
            out: String::new(),
        };
        let text = generate(&args);
        assert!(text.len() >= 20_000 && text.len() < 40_000, "{}", text.len());
        assert!(text.ends_with("\n") && !text.ends_with("\n\n"));
        let games = text.matches("[Event ").count();
        let same = Args { amount: Amount::Games(games), ..args };
        assert_eq!(generate(&same), text);
    }
}
