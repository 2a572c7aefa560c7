//! Real texts with ground truth (`../shared/corpus/realworld/` and
//! `realworld2/`, issues 16 and 29):
//! each excerpt checked as a user checks it (`chess-ls --check --format
//! json FILE`) and scored as the corpus's own scorer does: a problem of the
//! truth is found when a diagnostic of the same code (any code of damage to
//! the writing, for damage) overlaps its token; a false alarm is an error or
//! a warning on a move the truth says is correct. The floor below is what
//! the reader reaches today, so that no change loses a real-text finding or
//! adds a false alarm unnoticed; raise it as the reader learns.
//!
//! For each look-alike or slip it finds whose intended move the truth
//! gives, the preferred fix must read as that move (the same piece to the
//! same square).
//!
//! Without `../shared` the test passes with a note on stderr.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use chess_ls::analysis::Language;
use chess_ls::syntax::lexicon;
use serde_json::Value;

/// What a shared set of real texts is held to: problems found at least,
/// false alarms on correct moves at most, found problems whose preferred
/// fix does not read as the intended move at most.
struct Floor {
    found: usize,
    false_alarms: usize,
    unintended: usize,
}

/// The first set (90 problems, 1,111 correct moves), today.
const SET_1: Floor = Floor { found: 83, false_alarms: 0, unintended: 0 };
/// The second set (105 problems, 1,374 correct moves; shared since
/// 2026-12-07), today (one fix is not read as the intended move here:
/// `.Ff5`, whose fix writes the lost move number `3...` before the move,
/// which this test's reading of a token does not take).
const SET_2: Floor = Floor { found: 82, false_alarms: 3, unintended: 1 };

const DAMAGE: [&str; 6] = ["syntax", "homoglyph", "space-in-move", "pawn-letter", "language-mix", "move-number"];

fn overlaps(d: &Value, line: u64, c0: u64, c1: u64) -> bool {
    let at = |k: &str| d[k].as_u64().unwrap_or(0);
    if at("line") != line {
        return false;
    }
    let end = if at("end_line") == line { at("end_column") } else { u64::MAX };
    at("column") < c1 && end > c0
}

/// What a written move moves where, as `N f3` (the piece in English, `P`
/// for a pawn, and the destination), in `language` (its letters as
/// written, look-alikes or transliterated); `O-O` / `O-O-O` for castling.
fn moves_what_where(written: &str, language: Language) -> Option<String> {
    let t = written.trim();
    let castle: String = t.chars().take_while(|c| matches!(c, 'O' | '0' | 'o' | '-' | '–')).collect();
    if castle.chars().filter(|c| matches!(c, 'O' | '0' | 'o')).count() >= 2 {
        return Some(
            if castle.chars().filter(|c| matches!(c, 'O' | '0' | 'o')).count() == 3 { "O-O-O" } else { "O-O" }.into(),
        );
    }
    let (piece, rest) = match lexicon::piece_len(t) {
        Some(n) if !t[..n].chars().all(|c| ('a'..='h').contains(&c)) => {
            let letter = &t[..n];
            let role = [language, Language::Figurine].into_iter().find_map(|l| {
                l.read_letter(letter)
                    .map(|r| r.role)
                    .or_else(|| l.transliterated_letter(letter).and_then(|right| l.role_of(right)))
            })?;
            (role.upper_char(), &t[n..])
        }
        _ => ('P', t),
    };
    let chars: Vec<char> = rest.chars().collect();
    let to = chars.windows(2).rev().find(|w| ('a'..='h').contains(&w[0]) && ('1'..='8').contains(&w[1]))?;
    Some(format!("{piece} {}{}", to[0], to[1]))
}

/// The token of `line` from column `c0` to `c1` (1-based, in characters)
/// after the edits of a fix inside it.
fn fixed_token(line: &str, c0: u64, c1: u64, edits: &[(u64, u64, String)]) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    let mut end = c1 as i64;
    let mut sorted = edits.to_vec();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.0));
    // One edit a place: the first diagnostic's.
    sorted.dedup_by_key(|e| e.0);
    for (a, b, new) in sorted {
        let (a, b) = ((a - 1) as usize, ((b - 1) as usize).min(chars.len()));
        chars.splice(a..b, new.chars());
        end += new.chars().count() as i64 - (b - a) as i64;
    }
    let end = (end.max(1) as usize - 1).min(chars.len());
    chars[((c0 - 1) as usize).min(end)..end].iter().collect()
}

#[test]
fn real_texts_keep_their_findings_and_gain_no_false_alarm() {
    hold("realworld", &SET_1);
}

#[test]
fn the_second_set_of_real_texts_keeps_its_findings() {
    hold("realworld2", &SET_2);
}

fn hold(set: &str, floor: &Floor) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus").join(set);
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
    let mut unintended = Vec::new();
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
                if let Some(intended) = p["intended"].as_str().filter(|_| matches!(code, "homoglyph" | "syntax")) {
                    let text = std::fs::read_to_string(dir.join(file)).expect("the excerpt is readable");
                    let line_text = text.lines().nth(line as usize - 1).unwrap_or_default();
                    let language = t["language"].as_str().and_then(Language::from_code).unwrap_or(Language::En);
                    let edits: Vec<(u64, u64, String)> = ds
                        .iter()
                        .filter(|d| overlaps(d, line, c0, c1))
                        .filter_map(|d| d["fixes"].as_array()?.iter().find(|f| f["preferred"].as_bool() == Some(true)))
                        .flat_map(|f| f["edits"].as_array().cloned().unwrap_or_default())
                        .filter(|e| e["line"].as_u64() == Some(line) && e["end_line"].as_u64() == Some(line))
                        .map(|e| {
                            let at = |k: &str| e[k].as_u64().unwrap_or(0);
                            (at("column"), at("end_column"), e["new_text"].as_str().unwrap_or_default().to_owned())
                        })
                        .filter(|&(a, b, _)| a + 1 >= c0 && b <= c1 + 1)
                        .collect();
                    let read = moves_what_where(&fixed_token(line_text, c0, c1, &edits), language);
                    if read != moves_what_where(intended, Language::En) {
                        unintended.push(format!(
                            "{file}:{line}:{c0} {}: the fix reads {read:?}, meant {intended}",
                            p["token"]
                        ));
                    }
                }
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
    eprintln!(
        "real texts ({set}): found {found}/{total} problems, {false_alarms} false alarms on {clean} correct moves, {} unintended fixes",
        unintended.len()
    );
    assert!(found >= floor.found, "found {found} of {total}, fewer than {}; missed: {missed:#?}", floor.found);
    assert!(false_alarms <= floor.false_alarms, "{false_alarms} false alarms: {alarms:#?}");
    assert!(unintended.len() <= floor.unintended, "fixes that do not read as the intended move: {unintended:#?}");
}
