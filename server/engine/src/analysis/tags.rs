//! Checks of tag values whose form PGN fixes (Date, Result, ...).

use super::diagnostic::{Code, Diagnostic, Fix};
use crate::syntax::GameSyntax;

pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

pub fn check(game: &GameSyntax<'_>, out: &mut Vec<Diagnostic>) {
    for tag in &game.tags {
        let Some(value) = &tag.value else {
            out.push(Diagnostic::new(
                Code::Tag,
                tag.span.clone(),
                format!("the tag {} has no value: write [{} \"...\"]", tag.name.text, tag.name.text),
            ));
            continue;
        };
        match tag.name.text {
            "Date" | "EventDate" | "UTCDate" if !is_pgn_date(value.text) => {
                out.push(Diagnostic::new(
                    Code::Tag,
                    value.span.clone(),
                    format!("\"{}\" is not a PGN date: write YYYY.MM.DD, with ?? for what is unknown", value.text),
                ));
            }
            "Result" if !RESULTS.contains(&value.text) => {
                let mut d = Diagnostic::new(
                    Code::Tag,
                    value.span.clone(),
                    format!("\"{}\" is not a PGN result: use 1-0, 0-1, 1/2-1/2 or *", value.text),
                );
                if let Some(normal) = normalize_result(value.text) {
                    d = d.with_fix(Fix::replace(format!("Write {normal}"), value.span.clone(), normal).preferred(true));
                }
                out.push(d);
            }
            "SetUp" if value.text != "0" && value.text != "1" => {
                out.push(Diagnostic::new(
                    Code::Tag,
                    value.span.clone(),
                    "SetUp is \"1\" when a FEN tag gives the start position, else \"0\"",
                ));
            }
            _ => {}
        }
    }
}

/// `YYYY.MM.DD` where any digit may be `?`.
fn is_pgn_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'.'
        && b[7] == b'.'
        && b.iter().enumerate().all(|(i, &c)| i == 4 || i == 7 || c.is_ascii_digit() || c == b'?')
}

/// The PGN spelling of a result written another way (`½-½`, `1 - 0`, `0:1`).
pub fn normalize_result(s: &str) -> Option<&'static str> {
    let compact: String = s
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '–' | '—' | '−' | ':' => '-',
            '∕' => '/',
            c => c,
        })
        .collect();
    match compact.as_str() {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" | "1/2" | "½" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert!(is_pgn_date("2024.01.31"));
        assert!(is_pgn_date("2024.??.??"));
        assert!(!is_pgn_date("31.01.2024"));
        assert!(!is_pgn_date("2024-01-31"));
    }

    #[test]
    fn results() {
        assert_eq!(normalize_result("½–½"), Some("1/2-1/2"));
        assert_eq!(normalize_result("1 - 0"), Some("1-0"));
        assert_eq!(normalize_result("2-0"), None);
    }
}
