//! `--compare A B`: two records of one game (White's and Black's
//! scoresheets) read and compared by the engine (`ide::compare`); this
//! file only reads the two files and prints the comparison, as text or as
//! one JSON object.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{Value, json};

use super::{Args, Format, sources};
use chess_ls_engine::analysis::Options;
use chess_ls_engine::ide::compare::{Comparison, RecordMove, compare};
use chess_ls_engine::ide::document::Kind;
use chess_ls_engine::ide::settings;

/// Compares the two files; returns the exit status: 0 when the records
/// agree, 1 when they differ, 2 when the run failed.
pub fn run(args: &Args, files: &[std::path::PathBuf]) -> i32 {
    match compared(args, files) {
        Ok((comparison, names)) => {
            let printed = match args.format {
                Format::Json => print_json(&comparison, &names),
                _ => print_human(&comparison, &names),
            };
            if let Err(e) = printed {
                eprintln!("error: cannot write the comparison: {e}");
                return 2;
            }
            if comparison.agree() { 0 } else { 1 }
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

fn compared(args: &Args, files: &[std::path::PathBuf]) -> Result<(Comparison, [String; 2]), String> {
    let [first, second] = files else { return Err("--compare takes two files".into()) };
    let language = args.lang.as_deref().map(settings::parse_language).transpose()?.flatten();
    let options = Options {
        language,
        report_missing_check: args.missing_check_marks,
        report_missing_capture: args.missing_capture_signs,
        document_language: None,
    };
    let read = |path: &Path| -> Result<(String, Kind), String> {
        let source = sources::read(path, None, false, false)?;
        let name = source.inner_name.as_deref().unwrap_or(&source.name);
        let kind = Kind::from_manuscript(sources::manuscript_format(name, args.manuscript));
        Ok((source.text, kind))
    };
    let (a, kind_a) = read(first)?;
    let (b, kind_b) = read(second)?;
    let comparison = compare((&a, kind_a), (&b, kind_b), &options);
    Ok((comparison, [first.display().to_string(), second.display().to_string()]))
}

fn describe(m: &Option<RecordMove>, name: &str) -> String {
    match m {
        Some(m) => format!("{name}:{}: {} (read as {})", m.line, m.written, m.read_as),
        None => format!("{name}: no move"),
    }
}

fn print_human(c: &Comparison, names: &[String; 2]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let language = |r: &chess_ls_engine::ide::compare::Record| r.language.map_or("?", |l| l.name());
    writeln!(out, "first:  {} ({}, {} plies)", names[0], language(&c.first), c.first.plies)?;
    writeln!(out, "second: {} ({}, {} plies)", names[1], language(&c.second), c.second.plies)?;
    for step in &c.steps {
        if step.first.is_none() && step.second.is_none() {
            writeln!(out, "{}: {}", step.verdict.as_str(), step.message)?;
            continue;
        }
        writeln!(out, "{} {}: {}", step.number, step.verdict.as_str(), step.message)?;
        writeln!(out, "    {}", describe(&step.first, &names[0]))?;
        writeln!(out, "    {}", describe(&step.second, &names[1]))?;
    }
    if c.agree() {
        writeln!(out, "the records agree ({} plies)", c.agreed)?;
    } else {
        writeln!(out, "the records differ: they agree on the first {} plies", c.agreed)?;
    }
    Ok(())
}

fn record_move(m: &Option<RecordMove>) -> Value {
    match m {
        None => Value::Null,
        Some(m) => json!({
            "written": m.written,
            "line": m.line,
            "read_as": m.read_as,
            "guessed": m.guessed,
            "findings": m.findings.iter().map(|(code, message)| json!({"code": code.as_str(), "message": message})).collect::<Vec<_>>(),
        }),
    }
}

fn print_json(c: &Comparison, names: &[String; 2]) -> io::Result<()> {
    let record = |r: &chess_ls_engine::ide::compare::Record, name: &str| {
        json!({
            "file": name,
            "language": r.language.map(|l| l.code()),
            "plies": r.plies,
            "stopped": r.stopped,
            "result": r.result,
        })
    };
    let value = json!({
        "first": record(&c.first, &names[0]),
        "second": record(&c.second, &names[1]),
        "agree": c.agree(),
        "agreed_plies": c.agreed,
        "steps": c.steps.iter().map(|s| json!({
            "ply": s.ply,
            "number": s.number,
            "verdict": s.verdict.as_str(),
            "message": s.message,
            "first": record_move(&s.first),
            "second": record_move(&s.second),
        })).collect::<Vec<_>>(),
    });
    let mut out = io::stdout().lock();
    writeln!(out, "{value}")
}
