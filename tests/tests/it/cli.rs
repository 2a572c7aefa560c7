//! End-to-end tests of `chess-ls --check`: the real binary in a real
//! process, with its exit status, stdout and stderr snapshotted together
//! (insta), and the JSON Lines checked against notation.md section 6.
//!
//! The binary comes from `chess_ls_tests::binary::chess_ls()`: Cargo builds
//! a dependency's library for this crate's tests but never its binaries, and
//! `CARGO_BIN_EXE_*` exists only inside the binary's own package. So the
//! first test that needs it runs `cargo build -p chess-ls --bin chess-ls` in
//! the same profile, once per test process (a `OnceLock`). That is robust
//! where the alternatives are not: Cargo releases its build lock before it
//! runs test binaries, so the nested build neither deadlocks nor races; it
//! is a no-op when the binary is up to date; and it can never test a stale
//! binary left in `target/` by an earlier build, which a mere path lookup
//! would.
//!
//! Every run uses the workspace root as its working directory and relative
//! paths, so the snapshots are the same on every machine.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const FIXTURES: &str = "tests/fixtures/cli";

/// What a run printed and how it ended.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The text a snapshot holds: the exit status, then both streams, with
    /// the elapsed time of the summary line masked.
    fn snapshot(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code,
            mask_elapsed(&self.stdout),
            mask_elapsed(&self.stderr)
        )
    }
}

/// `... in 0.42 s` at the end of a summary line becomes `... in [elapsed]`.
fn mask_elapsed(text: &str) -> String {
    text.lines()
        .map(|line| match line.rfind(" in ") {
            Some(at)
                if line.ends_with(" s")
                    && line[at + 4..line.len() - 2].chars().all(|c| c.is_ascii_digit() || c == '.') =>
            {
                format!("{} in [elapsed]\n", &line[..at])
            }
            _ => format!("{line}\n"),
        })
        .collect()
}

fn command(args: &[&str]) -> Command {
    let mut command = Command::new(chess_ls_tests::binary::chess_ls());
    command
        .args(args)
        .current_dir(workspace())
        // The runs must not depend on the caller's environment.
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn finish(output: std::process::Output) -> Run {
    Run {
        code: output.status.code().expect("chess-ls exits with a status, not by a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

fn run(args: &[&str]) -> Run {
    finish(command(args).output().expect("chess-ls starts"))
}

fn run_with_stdin(args: &[&str], input: &str) -> Run {
    let mut child = command(args).stdin(Stdio::piped()).spawn().expect("chess-ls starts");
    child.stdin.take().expect("a stdin pipe").write_all(input.as_bytes()).expect("chess-ls reads stdin");
    finish(child.wait_with_output().expect("chess-ls ends"))
}

fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

/// Reads a file the way `chess-ls` does (UTF-8 without its byte order
/// mark, else Latin-1), so that columns can be checked against it.
fn read_text(path: &str) -> String {
    let bytes = std::fs::read(workspace().join(path)).expect("the fixture exists");
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

// ---------------------------------------------------------------------------
// The JSON Lines schema of notation.md section 6.

const DIAGNOSTIC_KEYS: [&str; 9] =
    ["file", "line", "column", "end_line", "end_column", "severity", "code", "message", "fixes"];
const FIX_KEYS: [&str; 4] = ["title", "edits", "preferred", "certain"];
const EDIT_KEYS: [&str; 5] = ["line", "column", "end_line", "end_column", "new_text"];
const SEVERITIES: [&str; 4] = ["error", "warning", "info", "hint"];
/// notation.md section 5, plus `unchecked` (info: the rest of a line was not
/// replayed after a move that could not be read), which the analysis adds.
const CODES: [&str; 19] = [
    "syntax",
    "illegal-move",
    "ambiguous-move",
    "missing-promotion",
    "invalid-position",
    "result",
    "check-mark",
    "capture-mark",
    "en-passant-mark",
    "homoglyph",
    "pawn-letter",
    "move-number",
    "language-mix",
    "tag",
    "redundant-disambiguation",
    "space-in-move",
    "unchecked",
    "game-over",
    "draw-claim",
];

fn keys(value: &Value) -> BTreeSet<&str> {
    value.as_object().expect("an object").keys().map(String::as_str).collect()
}

fn positive(value: &Value, key: &str) -> usize {
    let n = value[key].as_u64().unwrap_or_else(|| panic!("`{key}` is a non-negative integer in {value}"));
    assert!(n >= 1, "`{key}` is 1-based in {value}");
    usize::try_from(n).expect("fits")
}

/// The text between 1-based (line, column) positions counted in Unicode
/// scalar values, end exclusive; panics if a position is outside the text.
fn slice_by_chars(text: &str, start: (usize, usize), end: (usize, usize)) -> String {
    let offset = |(line, column): (usize, usize)| -> usize {
        let line_start: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
        let rest = &text[line_start..];
        let line_text = rest.split_inclusive('\n').next().unwrap_or("");
        let line_text = line_text.strip_suffix('\n').unwrap_or(line_text);
        let chars = line_text.chars().count();
        assert!(column <= chars + 1, "column {column} is past the end of line {line} ({chars} characters)");
        line_start + line_text.char_indices().nth(column - 1).map_or(line_text.len(), |(i, _)| i)
    };
    let (from, to) = (offset(start), offset(end));
    assert!(from <= to, "the end {end:?} is before the start {start:?}");
    text[from..to].to_owned()
}

/// Checks every line of `stdout` against the schema and returns the
/// diagnostics with, for each, the text its range covers.
fn parse_json_lines(stdout: &str) -> Vec<(Value, String)> {
    assert!(stdout.is_empty() || stdout.ends_with('\n'), "JSON Lines end with a newline");
    stdout
        .lines()
        .map(|line| {
            let d: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert_eq!(keys(&d), BTreeSet::from(DIAGNOSTIC_KEYS), "the keys of {line}");
            let file = d["file"].as_str().expect("`file` is a string");
            let severity = d["severity"].as_str().expect("`severity` is a string");
            assert!(SEVERITIES.contains(&severity), "severity `{severity}`");
            let code = d["code"].as_str().expect("`code` is a string");
            assert!(CODES.contains(&code), "code `{code}`");
            assert!(!d["message"].as_str().expect("`message` is a string").is_empty());
            let text = if file == "-" { None } else { Some(read_text(file)) };
            let range = |v: &Value| {
                ((positive(v, "line"), positive(v, "column")), (positive(v, "end_line"), positive(v, "end_column")))
            };
            let (start, end) = range(&d);
            let covered = text.as_deref().map(|t| slice_by_chars(t, start, end)).unwrap_or_default();
            for fix in d["fixes"].as_array().expect("`fixes` is an array") {
                assert_eq!(keys(fix), BTreeSet::from(FIX_KEYS), "the keys of a fix in {line}");
                assert!(fix["title"].is_string());
                // A certain fix is the preferred one of an error or warning
                // that is not a guess (the fix policy).
                if fix["certain"] == true {
                    assert_eq!(fix["preferred"], true, "{line}");
                    assert!(!["illegal-move", "missing-promotion", "syntax", "invalid-position"].contains(&code));
                    assert!(["error", "warning"].contains(&severity), "{line}");
                }
                let edits = fix["edits"].as_array().expect("`edits` is an array");
                assert!(!edits.is_empty(), "a fix with no edit in {line}");
                for edit in edits {
                    assert_eq!(keys(edit), BTreeSet::from(EDIT_KEYS), "the keys of an edit in {line}");
                    assert!(edit["new_text"].is_string());
                    let (start, end) = range(edit);
                    if let Some(text) = &text {
                        slice_by_chars(text, start, end);
                    }
                }
            }
            (d, covered)
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Runs.

#[test]
fn clean_english_game() {
    let run = run(&["--check", &fixture("clean-en.pgn")]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("clean_english_game", run.snapshot());
}

#[test]
fn russian_seed_game() {
    let run = run(&["--check", "examples/seed-ru.pgn"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    insta::assert_snapshot!("russian_seed_game", run.snapshot());
}

#[test]
fn russian_game_with_warnings_only() {
    let run = run(&["--check", &fixture("ru-warnings.pgn")]);
    assert_eq!(run.code, 0, "warnings alone do not fail the check");
    assert!(run.stdout.contains("warning["), "{}", run.stdout);
    insta::assert_snapshot!("russian_game_with_warnings_only", run.snapshot());
}

#[test]
fn russian_errors_human() {
    let run = run(&["--check", &fixture("ru-errors.pgn")]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("russian_errors_human", run.snapshot());
}

#[test]
fn russian_errors_json() {
    let run = run(&["--check", "--format", "json", &fixture("ru-errors.pgn")]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("russian_errors_json", run.snapshot());

    let diagnostics = parse_json_lines(&run.stdout);
    let find = |code: &str| {
        diagnostics.iter().find(|(d, _)| d["code"] == code).unwrap_or_else(|| panic!("no {code} in\n{}", run.stdout))
    };
    // `5. Кxf8` on line 6 stands after six Cyrillic letters (two bytes
    // each): column 47 in characters, where a byte count would say 53.
    let (illegal, text) = find("illegal-move");
    assert_eq!(text, "Кxf8");
    assert_eq!(
        (&illegal["file"], &illegal["line"], &illegal["column"], &illegal["end_line"], &illegal["end_column"]),
        (&Value::from(fixture("ru-errors.pgn")), &Value::from(6), &Value::from(47), &Value::from(6), &Value::from(51))
    );
    assert_eq!(illegal["severity"], "error");
    // `6. Кd2` in the second game: one fix per knight, each replacing
    // exactly the three characters of the move.
    let (ambiguous, text) = find("ambiguous-move");
    assert_eq!(text, "Кd2");
    assert_eq!(
        (&ambiguous["line"], &ambiguous["column"], &ambiguous["end_column"]),
        (&14.into(), &57.into(), &60.into())
    );
    let new_texts: BTreeSet<&str> = ambiguous["fixes"]
        .as_array()
        .expect("fixes")
        .iter()
        .flat_map(|f| f["edits"].as_array().expect("edits"))
        .map(|e| e["new_text"].as_str().expect("new_text"))
        .collect();
    assert_eq!(new_texts, BTreeSet::from(["Кbd2", "Кfd2"]));
    // The summary goes to stderr, so that stdout is JSON Lines only.
    assert!(run.stderr.starts_with("checked 1 file, 2 games: 2 errors"), "{}", run.stderr);
}

#[test]
fn json_columns_count_characters_in_every_encoding() {
    // Latin-1 (one character per byte, `é` twice before the move) and UTF-8
    // with a byte order mark (which is not a character of line 1).
    let run = run(&["--check", "--format", "json", &fixture("latin1.pgn"), &fixture("bom.pgn")]);
    assert_eq!(run.code, 1);
    let diagnostics = parse_json_lines(&run.stdout);
    let moves: Vec<(&str, &str, u64, u64)> = diagnostics
        .iter()
        .filter(|(d, _)| d["code"] == "illegal-move")
        .map(|(d, text)| {
            let column = |key: &str| d[key].as_u64().expect("a column");
            (d["file"].as_str().expect("file"), text.as_str(), column("column"), column("end_column"))
        })
        .collect();
    // In the decoded text `é` takes two bytes, so byte offsets would say 52.
    let (latin1, bom) = (fixture("latin1.pgn"), fixture("bom.pgn"));
    assert_eq!(moves, [(latin1.as_str(), "Ke3", 50, 53), (bom.as_str(), "Ke3", 13, 16)]);
    insta::assert_snapshot!("json_columns_count_characters_in_every_encoding", run.snapshot());
}

#[test]
fn stdin_is_read_for_a_dash() {
    let game = "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. Сa4 Кf6 5. 0-0 Сe8 *\n";
    let human = run_with_stdin(&["--check", "-"], game);
    assert_eq!(human.code, 1);
    insta::assert_snapshot!("stdin_human", human.snapshot());
    let json = run_with_stdin(&["--check", "--format", "json", "-"], game);
    assert_eq!(json.code, 1);
    for (d, _) in parse_json_lines(&json.stdout) {
        assert_eq!(d["file"], "-", "stdin is named as given");
    }
    insta::assert_snapshot!("stdin_json", json.snapshot());
}

#[test]
fn directories_are_searched_for_pgn_files_in_a_stable_order() {
    // tree/ holds b.pgn, a/Upper.PGN, a/z.pgn, a/b/c.pgn and notes.txt,
    // which is not checked (it would give an error).
    let path = fixture("tree");
    let human = run(&["--check", &path]);
    assert_eq!(human.code, 1);
    insta::assert_snapshot!("directory_human", human.snapshot());
    let json = run(&["--check", "--format", "json", &path]);
    let files: Vec<String> =
        parse_json_lines(&json.stdout).iter().map(|(d, _)| d["file"].as_str().expect("file").to_owned()).collect();
    assert_eq!(files, [format!("{path}/a/Upper.PGN"), format!("{path}/a/b/c.pgn"), format!("{path}/a/z.pgn")]);
    assert!(json.stderr.starts_with("checked 4 files, 4 games"), "{}", json.stderr);
    // The same order every time.
    for _ in 0..3 {
        assert_eq!(run(&["--check", "--format", "json", &path]).stdout, json.stdout);
    }
}

#[test]
fn a_missing_file_fails_the_run_after_checking_the_rest() {
    let run = run(&["--check", &fixture("no-such-file.pgn"), &fixture("ru-errors.pgn")]);
    assert_eq!(run.code, 2, "an unreadable file wins over errors");
    assert!(run.stdout.contains("error[illegal-move]"), "the readable file is still checked");
    insta::assert_snapshot!("missing_file", run.snapshot());
}

#[test]
fn bad_arguments_fail_the_run() {
    let unknown_language = run(&["--check", "--lang", "xx", &fixture("clean-en.pgn")]);
    assert_eq!(unknown_language.code, 2);
    assert!(unknown_language.stdout.is_empty());
    insta::assert_snapshot!("unknown_language", unknown_language.snapshot());

    let no_path = run(&["--check"]);
    assert_eq!(no_path.code, 2);
    insta::assert_snapshot!("no_path", no_path.snapshot());

    let unknown_format = run(&["--check", "--format", "yaml", &fixture("clean-en.pgn")]);
    assert_eq!(unknown_format.code, 2);
    assert!(unknown_format.stdout.is_empty());
}

#[test]
fn a_chosen_language_is_used() {
    let russian = run(&["--check", "--lang", "ru", &fixture("ru-warnings.pgn")]);
    assert_eq!(russian.code, 0, "{}", russian.snapshot());
    assert!(!russian.stdout.contains("language-mix"), "{}", russian.stdout);
    // Told the game is English, the checker reads the Cyrillic letters
    // anyway and says that they belong to another language.
    let english = run(&["--check", "--lang", "en", &fixture("ru-warnings.pgn")]);
    assert_eq!(english.code, 0, "{}", english.snapshot());
    assert!(
        english.stdout.contains("warning[language-mix]: \"К\" is the Russian letter for the knight"),
        "{}",
        english.stdout
    );
}

#[test]
fn no_colour_when_stdout_is_not_a_terminal() {
    let run = run(&["--check", &fixture("ru-errors.pgn")]);
    assert!(!run.stdout.contains('\x1b'), "escape codes in a pipe:\n{}", run.stdout);
    assert!(!run.stderr.contains('\x1b'));
}

#[test]
fn colour_in_a_terminal_unless_no_color() {
    // `script` (util-linux) gives the process a pseudo-terminal.
    let Ok(script) = which("script") else {
        eprintln!("note: `script` is not installed; the terminal colour test is skipped");
        return;
    };
    let binary = chess_ls_tests::binary::chess_ls();
    let line = format!("{} --check {}", binary.display(), fixture("ru-errors.pgn"));
    let in_terminal = |no_color: bool| {
        let mut command = Command::new(&script);
        command.args(["-qec", &line, "/dev/null"]).current_dir(workspace()).stdin(Stdio::null()).env_remove("NO_COLOR");
        if no_color {
            command.env("NO_COLOR", "1");
        }
        let output = command.output().expect("script runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let coloured = in_terminal(false);
    assert!(coloured.contains("error"), "no output through `script`: {coloured}");
    assert!(coloured.contains('\x1b'), "no colour in a terminal:\n{coloured}");
    assert!(!in_terminal(true).contains('\x1b'), "colour despite NO_COLOR");
}

fn which(name: &str) -> Result<PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file()).ok_or(())
}

#[test]
fn big_files_are_split_across_threads_without_moving_anything() {
    use chess_ls::analysis::languages::{Language, MoveStyle};
    use chess_ls_tests::generate::{RenderOptions, corpus};

    // Some 700 KB of legal Russian games, so that the checker cuts the file
    // into pieces (256 KB each), and one bad game at the very end, whose
    // position is known.
    let mut text = corpus(7, 700, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    assert!(text.len() > 600_000);
    let line = text.lines().count() + 2;
    text.push_str("\n1. e4 e5 2. Кf3 Кc6 3. Крe3 *\n");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-big-ru.pgn");
    std::fs::write(&path, &text).expect("the temporary directory is writable");
    let path = path.to_str().expect("a UTF-8 path");

    let one = run(&["--check", "--format", "json", "--threads", "1", path]);
    let two = run(&["--check", "--format", "json", "--threads", "2", path]);
    assert_eq!(one.code, 1, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout, "the output depends on the number of threads");
    assert_eq!(mask_elapsed(&one.stderr), mask_elapsed(&two.stderr));
    assert!(one.stderr.starts_with("checked 1 file, 701 games: 1 error, 0 warnings"), "{}", one.stderr);
    let diagnostics: Vec<(Value, String)> = parse_json_lines(&one.stdout);
    let [(d, _)] = &diagnostics[..] else { panic!("one diagnostic expected:\n{}", one.stdout) };
    assert_eq!(
        (&d["code"], &d["line"], &d["column"], &d["end_column"]),
        (&"illegal-move".into(), &line.into(), &24.into(), &28.into())
    );
}
