//! The analysis against python-chess on the shared corpus of real files:
//! what python-chess reads cleanly gives no error here, and the real
//! transcription errors it finds in hand-typed files are found here too.
//!
//! The reference is `VALIDATION-python-chess.txt` beside the corpus: one row
//! per file (games, games with errors) and, for files with errors, the first
//! few errors as `game#N [Event]: illegal san: 'MOVE' in FEN`. Where we
//! rightly (or knowingly) disagree with python-chess,
//! `tests/analysis-known-differences.tsv` says so with the reason; a row that
//! no longer matches anything fails the test, so the list stays true.
//!
//! The corpus lives outside the repository (`../shared/corpus`); without it
//! the tests pass with a note on stderr.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chess_ls::analysis::{Code, DocumentReport, Options, Severity, analyze_text};

/// The hand-typed files with real transcription errors (VALIDATION point 7).
const HAND_TYPED: [&str; 2] = ["chess/m60mg.pgn", "chess/m60mg_edited.pgn"];

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if dir.join("VALIDATION-python-chess.txt").is_file() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent; the corpus tests check nothing", dir.display());
        None
    }
}

/// One row of the per-file table of the validation report.
#[derive(Debug)]
struct Row {
    file: String,
    games_with_errors: usize,
    /// The errors python-chess gives as examples: game number (1-based, in
    /// python-chess's count) and the move as written.
    examples: Vec<(usize, String)>,
}

fn validation_rows(dir: &Path) -> Vec<Row> {
    let path = dir.join("VALIDATION-python-chess.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut rows: Vec<Row> = Vec::new();
    for line in text.lines() {
        if let Some(example) = line.trim_start().strip_prefix("e.g. game#") {
            let Some(row) = rows.last_mut() else { continue };
            let number = example.split(' ').next().and_then(|n| n.parse().ok());
            let san = example.split_once(": illegal san: '").and_then(|(_, rest)| rest.split('\'').next());
            if let (Some(number), Some(san)) = (number, san) {
                row.examples.push((number, san.to_owned()));
            }
            continue;
        }
        // `file | games | games with errors | kinds | examples`
        let cells: Vec<&str> = line.split(" | ").collect();
        if line.starts_with(' ') || cells.len() < 4 {
            continue;
        }
        let (Ok(_), Ok(games_with_errors)) = (cells[1].trim().parse::<usize>(), cells[2].trim().parse::<usize>())
        else {
            continue;
        };
        // `scid/res_gameLatin1.pgn [NOT valid UTF-8]`
        let file = cells[0].split(" [").next().unwrap_or(cells[0]).trim().to_owned();
        rows.push(Row { file, games_with_errors, examples: Vec::new() });
    }
    assert!(rows.len() > 100, "{} has only {} file rows: has its layout changed?", path.display(), rows.len());
    rows
}

/// A row of `tests/analysis-known-differences.tsv`.
#[derive(Debug)]
enum Difference {
    /// We report errors with these codes in a file python-chess reads cleanly.
    Errors(BTreeSet<String>),
    /// python-chess reports a move of a game as illegal (`game#N MOVE`, the
    /// key of the row); we do not.
    Missed,
}

fn known_differences() -> BTreeMap<(String, String), Difference> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis-known-differences.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        let [file, scope, reason] = cells[..] else {
            panic!("{}:{}: expected file<TAB>scope<TAB>reason", path.display(), i + 1);
        };
        assert!(reason.trim().len() > 10, "{}:{}: `{file}` needs a reason", path.display(), i + 1);
        let difference = match scope.strip_prefix("game#") {
            Some(rest) => {
                let number = rest.split_once(' ').map(|(n, _)| n.parse::<usize>());
                assert!(matches!(number, Some(Ok(_))), "{}:{}: expected game#N MOVE", path.display(), i + 1);
                Difference::Missed
            }
            None => {
                let codes: BTreeSet<String> = scope.split(',').map(str::to_owned).collect();
                for code in &codes {
                    assert!(Code::from_str(code).is_some(), "{}:{}: unknown code `{code}`", path.display(), i + 1);
                }
                Difference::Errors(codes)
            }
        };
        out.insert((file.to_owned(), scope.to_owned()), difference);
    }
    out
}

fn analyze_file(path: &Path) -> (String, DocumentReport) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let report = analyze_text(&text, &Options::default());
    (text, report)
}

/// 1-based line of a byte offset, for messages.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

fn is_move_error(code: Code) -> bool {
    matches!(code, Code::IllegalMove | Code::AmbiguousMove)
}

#[test]
fn files_python_chess_reads_cleanly_have_no_errors() {
    let Some(dir) = corpus_dir() else { return };
    let known = known_differences();
    let mut failures = Vec::new();
    let mut used = BTreeSet::new();
    let mut checked = 0;
    for row in validation_rows(&dir).iter().filter(|r| r.games_with_errors == 0) {
        let allowed: BTreeSet<&str> = known
            .iter()
            .filter_map(|((file, scope), d)| match d {
                Difference::Errors(codes) if *file == row.file => {
                    used.insert((file.clone(), scope.clone()));
                    Some(codes.iter().map(String::as_str))
                }
                _ => None,
            })
            .flatten()
            .collect();
        let (text, report) = analyze_file(&dir.join(&row.file));
        checked += 1;
        let errors: Vec<_> = report.diagnostics().filter(|d| d.severity == Severity::Error).collect();
        if !allowed.is_empty() && !errors.iter().any(|d| allowed.contains(d.code.as_str())) {
            failures.push(format!("{}: listed in the known differences, but has no such error any more", row.file));
        }
        for d in errors.iter().filter(|d| !allowed.contains(d.code.as_str())) {
            let shown: String = text[d.span.clone()].chars().take(40).collect();
            failures.push(format!(
                "{}:{}: {} at `{shown}`: {}",
                row.file,
                line_of(&text, d.span.start),
                d.code,
                d.message
            ));
        }
    }
    for ((file, scope), d) in &known {
        if matches!(d, Difference::Errors(_)) && !used.contains(&(file.clone(), scope.clone())) {
            failures.push(format!(
                "{file}: listed in the known differences, but not a clean file of the validation report"
            ));
        }
    }
    assert!(checked > 100, "only {checked} files python-chess reads cleanly were found");
    assert!(
        failures.is_empty(),
        "{} errors in files python-chess reads cleanly (justify in tests/analysis-known-differences.tsv or fix):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn python_chess_errors_in_hand_typed_files_are_found() {
    let Some(dir) = corpus_dir() else { return };
    let known = known_differences();
    let rows = validation_rows(&dir);
    let mut failures = Vec::new();
    let mut used = BTreeSet::new();
    for file in HAND_TYPED {
        let row = rows.iter().find(|r| r.file == file).unwrap_or_else(|| panic!("{file} is not in the report"));
        assert!(!row.examples.is_empty(), "the report gives no example error for {file}");
        let (text, report) = analyze_file(&dir.join(file));

        // python-chess counts games like us in these files (tags, movetext,
        // blank line), so game numbers can be compared.
        let expected_games: usize = std::fs::read_to_string(dir.join(file))
            .map(|t| t.lines().filter(|l| l.starts_with("[White ")).count())
            .unwrap_or(0);
        assert_eq!(report.games.len(), expected_games, "{file}: game count");

        for (game, san) in &row.examples {
            let key = (file.to_owned(), format!("game#{game} {san}"));
            let excused = known.contains_key(&key);
            used.insert(key);
            let found = report
                .games
                .get(game - 1)
                .is_some_and(|g| g.diagnostics.iter().any(|d| is_move_error(d.code) && text[d.span.clone()] == **san));
            if found && excused {
                failures
                    .push(format!("{file}: game#{game} `{san}` is found now: remove it from the known differences"));
            } else if !found && !excused {
                failures.push(format!("{file}: game#{game} `{san}`: python-chess finds it illegal, we report no illegal-move or ambiguous-move there"));
            }
        }

        // The first error of a game is the one python-chess reads on a right
        // board, so every game it flags must be flagged here too. (Past the
        // first error its board may be wrong: see the known differences.)
        let flagged = report.games.iter().filter(|g| g.diagnostics.iter().any(|d| is_move_error(d.code))).count();
        if flagged < row.games_with_errors {
            failures.push(format!(
                "{file}: python-chess finds errors in {} games, we find illegal or ambiguous moves in only {flagged}",
                row.games_with_errors
            ));
        }
    }
    for ((file, scope), d) in &known {
        if matches!(d, Difference::Missed) && !used.contains(&(file.clone(), scope.clone())) {
            failures
                .push(format!("{file}: `{scope}` is listed in the known differences, but is no example of the report"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
