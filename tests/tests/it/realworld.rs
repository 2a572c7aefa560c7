//! Real texts with ground truth (`../shared/corpus/realworld/`, issue 16):
//! each excerpt checked as a user checks it (`chess-ls --check --format
//! json FILE`) and scored as the corpus's own scorer does: a problem of the
//! truth is found when a diagnostic of the same code (any code of damage to
//! the writing, for damage) overlaps its token; a false alarm is an error or
//! a warning on a move the truth says is correct. The floor below is what
//! the reader reaches today, so that no change loses a real-text finding or
//! adds a false alarm unnoticed; raise it as the reader learns.
//!
//! Without `../shared` the test passes with a note on stderr.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Problems found (of 90) and false alarms (on 1111 correct moves) today.
const FOUND_AT_LEAST: usize = 78;
const FALSE_ALARMS_AT_MOST: usize = 1;

const DAMAGE: [&str; 6] = ["syntax", "homoglyph", "space-in-move", "pawn-letter", "language-mix", "move-number"];

fn overlaps(d: &Value, line: u64, c0: u64, c1: u64) -> bool {
    let at = |k: &str| d[k].as_u64().unwrap_or(0);
    if at("line") != line {
        return false;
    }
    let end = if at("end_line") == line { at("end_column") } else { u64::MAX };
    at("column") < c1 && end > c0
}

#[test]
fn real_texts_keep_their_findings_and_gain_no_false_alarm() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/realworld");
    let Ok(truth) = std::fs::read_to_string(dir.join("truth.json")) else {
        eprintln!("note: {} is absent; the real-text test checks nothing", dir.display());
        return;
    };
    let truth: Vec<Value> = serde_json::from_str(&truth).expect("truth.json is JSON");
    let mut diagnostics: HashMap<String, Vec<Value>> = HashMap::new();
    for t in &truth {
        let file = t["file"].as_str().expect("a file name");
        let out = Command::new(chess_ls_tests::binary::chess_ls())
            .args(["--check", "--format", "json"])
            .arg(dir.join(file))
            .output()
            .expect("chess-ls runs");
        assert!(out.status.code().is_some_and(|c| c < 2), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        let found = String::from_utf8(out.stdout).expect("UTF-8 JSON");
        diagnostics.insert(
            file.to_owned(),
            found.lines().filter(|l| !l.is_empty()).map(|l| serde_json::from_str(l).expect("JSON Lines")).collect(),
        );
    }
    let (mut found, mut total, mut false_alarms, mut clean) = (0, 0, 0, 0);
    let mut missed = Vec::new();
    let mut alarms = Vec::new();
    for t in truth.iter().filter(|t| t["readable"].as_bool() == Some(true)) {
        let file = t["file"].as_str().unwrap_or_default();
        let ds = &diagnostics[file];
        let mut spots = Vec::new();
        for p in t["problems"].as_array().into_iter().flatten() {
            spots.push((p["line"].as_u64(), p["col"].as_u64()));
            if !matches!(p["scope"].as_str(), Some("main" | "variation")) {
                continue;
            }
            total += 1;
            let code = p["code"].as_str().unwrap_or_default();
            let (line, c0) = (p["line"].as_u64().unwrap_or(0), p["col"].as_u64().unwrap_or(0));
            let c1 = c0 + p["token"].as_str().unwrap_or_default().chars().count() as u64;
            let same_kind = |d: &Value| {
                let found = d["code"].as_str().unwrap_or_default();
                found == code || (DAMAGE.contains(&found) && DAMAGE.contains(&code))
            };
            if ds.iter().any(|d| same_kind(d) && overlaps(d, line, c0, c1)) {
                found += 1;
            } else {
                missed.push(format!("{file}:{line}:{c0} {}", p["token"]));
            }
        }
        for m in t["token_map"].as_array().into_iter().flatten() {
            let (line, col) = (m[0].as_u64(), m[1].as_u64());
            if spots.contains(&(line, col)) {
                continue;
            }
            clean += 1;
            let (line, col) = (line.unwrap_or(0), col.unwrap_or(0));
            let c1 = col + m[2].as_str().unwrap_or_default().chars().count() as u64;
            let alarm = |d: &&Value| matches!(d["severity"].as_str(), Some("error" | "warning"));
            if ds.iter().filter(alarm).any(|d| overlaps(d, line, col, c1)) {
                false_alarms += 1;
                alarms.push(format!("{file}:{line}:{col} {}", m[2]));
            }
        }
    }
    eprintln!("real texts: found {found}/{total} problems, {false_alarms} false alarms on {clean} correct moves");
    assert!(found >= FOUND_AT_LEAST, "found {found} of {total}, fewer than {FOUND_AT_LEAST}; missed: {missed:#?}");
    assert!(false_alarms <= FALSE_ALARMS_AT_MOST, "{false_alarms} false alarms: {alarms:#?}");
}
