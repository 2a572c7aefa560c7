//! Writes a generated manuscript (a book of prose with random legal games
//! in it): the input of the manuscript benchmark (`bench/manuscript.sh`).
//!
//! ```text
//! gen-manuscript [--lang LANG] [--size SIZE] [--seed SEED] OUT.{txt,md,tex}
//! ```
//!
//! The format follows OUT's extension; `--size 1MB` (the default; KB and MB
//! are powers of 1000) writes whole chapters until the book holds at least
//! that many bytes.

use std::process::ExitCode;

use chess_ls::analysis::languages::Language;
use chess_ls_tests::manuscript::{Layout, book};

const USAGE: &str = "usage: gen-manuscript [--lang LANG] [--size SIZE] [--seed SEED] OUT.{txt,md,tex}";

fn main() -> ExitCode {
    let mut language = Language::En;
    let mut size = 1_000_000;
    let mut seed = 1;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        let parsed = match arg.as_str() {
            "--lang" => value()
                .and_then(|v| Language::from_code(&v).ok_or(format!("unknown language {v}")))
                .map(|l| language = l),
            "--size" => value().and_then(|v| parse_size(&v)).map(|s| size = s),
            "--seed" => value().and_then(|v| v.parse().map_err(|e| format!("--seed: {e}"))).map(|s| seed = s),
            _ if out.is_none() && !arg.starts_with("--") => {
                out = Some(arg.clone());
                Ok(())
            }
            _ => Err(format!("unexpected {arg}")),
        };
        if let Err(message) = parsed {
            eprintln!("gen-manuscript: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let Some(out) = out else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let layout = match out.rsplit('.').next() {
        Some("md") => Layout::Markdown,
        Some("tex") => Layout::Latex,
        _ => Layout::Text,
    };
    let generated = book(seed, size, language, layout);
    if let Err(e) = std::fs::write(&out, &generated.text) {
        eprintln!("gen-manuscript: cannot write {out}: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!(
        "gen-manuscript: wrote {} bytes ({} games in {} runs of notation, {}) to {out}",
        generated.text.len(),
        generated.games,
        generated.runs,
        language.name()
    );
    ExitCode::SUCCESS
}

fn parse_size(s: &str) -> Result<usize, String> {
    let upper = s.to_ascii_uppercase();
    let (digits, factor) = match upper.strip_suffix("MB") {
        Some(d) => (d, 1_000_000),
        None => match upper.strip_suffix("KB") {
            Some(d) => (d, 1_000),
            None => (upper.as_str(), 1),
        },
    };
    digits.trim().parse::<usize>().map(|n| n * factor).map_err(|e| format!("--size {s}: {e}"))
}
