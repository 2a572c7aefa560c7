//! Analysis tests: each feeds a text to [`analyze_text`] and compares a
//! compact rendering of the diagnostics (code, exact token, message, fixes)
//! with the expected one, in the style of rust-analyzer's `check` helpers.

use super::{Diagnostic, LanguageSource, Options, analyze_text};
use crate::analysis::Language;

/// One line per diagnostic, `code @ `token`: message`, then one line per fix
/// (`fix*` for the preferred one) with its edits as `old` -> `new`.
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
    let _ = writeln!(out, "{} @ `{}`: {}", d.code, &source[d.span.clone()], d.message);
    for fix in &d.fixes {
        let star = if fix.preferred { "*" } else { "" };
        let edits: Vec<String> = fix
            .edits
            .iter()
            .map(|e| format!("`{}` -> `{}`", &source[e.span.clone()], e.new_text))
            .collect();
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
    if actual.trim() != expect.trim() {
        panic!("for input:\n{source}\n--- expected:\n{}\n--- actual:\n{actual}", expect.trim());
    }
}

/// The expected text is written indented inside the test; strip the common
/// indentation so that fix lines keep their two-space indent.
fn unindent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().skip_while(|l| l.trim().is_empty()).collect();
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect::<Vec<_>>().join("\n")
}

/// The language and how it was decided, per game.
fn languages(source: &str) -> Vec<(Language, LanguageSource)> {
    analyze_text(source, &Options::default())
        .games
        .iter()
        .map(|g| (g.language, g.language_source))
        .collect()
}

#[test]
#[ignore = "a probe for development: prints the diagnostics of /tmp/x/probe.txt"]
fn probe() {
    let text = std::fs::read_to_string("/tmp/x/probe.txt").unwrap_or_default();
    for case in text.split("\n----\n") {
        println!("=== {case}");
        let report = analyze_text(case, &Options::default());
        for g in &report.games {
            println!("# {:?} {:?} plies={}", g.language, g.language_source, g.plies);
        }
        print!("{}", render(case, &Options::default()));
    }
}
