//! End-to-end tests of the publisher side of the command line: `--fix`
//! (and `--diff`), `--translate`, the `github` and `sarif` formats, files
//! in every encoding and line ending, and many files at once. The real
//! binary runs in a real process, in a scratch directory under
//! `CARGO_TARGET_TMPDIR` with relative paths, so that the snapshots are the
//! same on every machine.
//!
//! The encoded files are made here from UTF-8 text, with encoding_rs for the
//! 8-bit tables and the standard library for UTF-16 (not with chess-ls's own
//! encoder, which is what is under test), so no binary fixture is committed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chess_ls::analysis::languages::MoveStyle;
use chess_ls::analysis::{Code, Language, Options, Severity, analyze_text};
use chess_ls_tests::generate::{RenderOptions, corpus, random_game, render_game};
use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> String {
    let path = workspace().join("tests/fixtures/cli/publisher").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::scratch_dir(&format!("cli-publisher/{name}"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
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

/// Runs chess-ls in `dir`, with no terminal and no colour settings.
fn run_in(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(chess_ls_tests::binary::chess_ls())
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("chess-ls starts");
    Run {
        code: output.status.code().expect("chess-ls exits with a status"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("a directory");
    }
    std::fs::write(path, bytes).expect("the scratch directory is writable");
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).expect("the file exists")
}

// ---------------------------------------------------------------------------
// Encodings.

/// The ways a file can be encoded, as chess-ls names them in SARIF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Enc {
    Utf8,
    Utf8Bom,
    Utf16LeBom,
    Utf16BeBom,
    Windows1251,
    Cp866,
    Koi8R,
    Latin1,
    Windows1252,
}

impl Enc {
    fn name(self) -> &'static str {
        match self {
            Enc::Utf8 | Enc::Utf8Bom => "utf-8",
            Enc::Utf16LeBom => "utf-16le",
            Enc::Utf16BeBom => "utf-16be",
            Enc::Windows1251 => "windows-1251",
            Enc::Cp866 => "cp866",
            Enc::Koi8R => "koi8-r",
            Enc::Latin1 => "latin-1",
            Enc::Windows1252 => "windows-1252",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Enc::Utf8Bom => "utf-8-bom",
            other => other.name(),
        }
    }

    fn encode(self, text: &str) -> Vec<u8> {
        let table = |encoding: &'static encoding_rs::Encoding| {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable, "{self:?} cannot hold {text:?}");
            bytes.into_owned()
        };
        match self {
            Enc::Utf8 => text.as_bytes().to_vec(),
            Enc::Utf8Bom => [b"\xEF\xBB\xBF", text.as_bytes()].concat(),
            Enc::Utf16LeBom => {
                let mut out = vec![0xFF, 0xFE];
                text.encode_utf16().for_each(|u| out.extend_from_slice(&u.to_le_bytes()));
                out
            }
            Enc::Utf16BeBom => {
                let mut out = vec![0xFE, 0xFF];
                text.encode_utf16().for_each(|u| out.extend_from_slice(&u.to_be_bytes()));
                out
            }
            Enc::Windows1251 => table(encoding_rs::WINDOWS_1251),
            Enc::Cp866 => table(encoding_rs::IBM866),
            Enc::Koi8R => table(encoding_rs::KOI8_R),
            Enc::Windows1252 => table(encoding_rs::WINDOWS_1252),
            Enc::Latin1 => text.chars().map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character")).collect(),
        }
    }
}

const LINE_ENDINGS: [(&str, &str); 3] = [("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")];

/// A Western file: Latin-1 letters in tags and a comment, a wrong check
/// mark and a wrong move number to fix, and (in the Windows-1252 variant)
/// typographic quotes and a dash from 0x80-0x9F.
const WESTERN: &str = "[Event \"Championnat de France\"]\n[Site \"Besançon\"]\n\
    [White \"Réti\"]\n[Black \"Müller\"]\n[Result \"*\"]\n\n\
    {Partie écrite à la main.} 1. e4 e5 2. Nf3+ Nc6 3. Bb5 a6 5. Ba4 Nf6 *\n";

fn western_1252() -> String {
    WESTERN.replace("à la main.", "à la main – “notes”.")
}

/// Each diagnostic as (file, code, line, column, end line, end column).
type Found = Vec<(String, String, u64, u64, u64, u64)>;

fn json_diagnostics(stdout: &str) -> Found {
    stdout
        .lines()
        .map(|line| {
            let d: Value = serde_json::from_str(line).expect("JSON Lines");
            let n = |key: &str| d[key].as_u64().expect("a number");
            (
                d["file"].as_str().expect("file").to_owned(),
                d["code"].as_str().expect("code").to_owned(),
                n("line"),
                n("column"),
                n("end_line"),
                n("end_column"),
            )
        })
        .collect()
}

/// Checks, fixes and re-checks one text written in several encodings and
/// with every line ending, all in one directory and one run per step.
fn fix_in_every_encoding(test: &str, text: &str, encodings: &[Enc]) {
    // The reference: the text in UTF-8 with LF, checked and fixed.
    let reference = scratch(&format!("{test}-reference"));
    write(&reference, "game.pgn", text);
    let expected = json_diagnostics(&run_in(&reference, &["--check", "--format", "json", "game.pgn"]).stdout);
    assert!(!expected.is_empty());
    let fixed_run = run_in(&reference, &["--fix", "game.pgn"]);
    assert!(fixed_run.code < 2, "{}", fixed_run.snapshot());
    let fixed = String::from_utf8(read(&reference, "game.pgn")).expect("UTF-8");
    assert_ne!(fixed, text, "something was fixed");

    let dir = scratch(test);
    let mut files = Vec::new();
    for &encoding in encodings {
        for (ending, eol) in LINE_ENDINGS {
            let name = format!("{}-{ending}.pgn", encoding.label());
            write(&dir, &name, encoding.encode(&text.replace('\n', eol)));
            files.push((name, encoding, eol));
        }
    }

    // The same findings at the same lines and columns (characters, not
    // bytes) in every encoding and with every line ending.
    let check = run_in(&dir, &["--check", "--format", "json", "."]);
    assert!(check.code < 2, "{}", check.snapshot());
    let found = json_diagnostics(&check.stdout);
    for (name, ..) in &files {
        let mine: Found = found
            .iter()
            .filter(|d| d.0 == format!("./{name}"))
            .map(|d| (String::new(), d.1.clone(), d.2, d.3, d.4, d.5))
            .collect();
        let want: Found = expected.iter().map(|d| (String::new(), d.1.clone(), d.2, d.3, d.4, d.5)).collect();
        assert_eq!(mine, want, "{name}");
    }

    // The encoding of each file, as the SARIF log names it.
    let sarif = run_in(&dir, &["--check", "--format", "sarif", "."]);
    let log: Value = serde_json::from_str(&sarif.stdout).expect("SARIF is JSON");
    let encodings_found: BTreeMap<String, String> = log["runs"][0]["artifacts"]
        .as_array()
        .expect("artifacts")
        .iter()
        .map(|a| {
            let uri = a["location"]["uri"].as_str().expect("uri").trim_start_matches("./");
            (uri.to_owned(), a["encoding"].as_str().expect("encoding").to_owned())
        })
        .collect();
    for (name, encoding, _) in &files {
        assert_eq!(encodings_found.get(name).map(String::as_str), Some(encoding.name()), "{name}");
    }

    // Fixed in place: byte for byte the reference's fix, in the file's own
    // encoding and line endings.
    let fix = run_in(&dir, &["--check", "--fix", "."]);
    assert!(fix.code < 2, "{}", fix.snapshot());
    for (name, encoding, eol) in &files {
        let bytes = read(&dir, name);
        assert!(
            bytes == encoding.encode(&fixed.replace('\n', eol)),
            "{name} is not the reference fix in {encoding:?}:\n{}",
            String::from_utf8_lossy(&bytes)
        );
    }
    // Nothing is left to fix.
    let again = run_in(&dir, &["--check", "--fix", "--diff", "."]);
    assert_eq!(again.stdout, "", "{}", again.snapshot());
}

#[test]
fn russian_files_are_fixed_in_their_own_encoding_and_line_endings() {
    fix_in_every_encoding(
        "russian",
        &fixture("fixable-ru.pgn"),
        &[Enc::Utf8, Enc::Utf8Bom, Enc::Utf16LeBom, Enc::Utf16BeBom, Enc::Windows1251, Enc::Cp866, Enc::Koi8R],
    );
}

#[test]
fn western_files_are_fixed_in_latin1() {
    fix_in_every_encoding("latin1", WESTERN, &[Enc::Latin1, Enc::Utf8Bom, Enc::Utf16LeBom]);
    fix_in_every_encoding("windows-1252", &western_1252(), &[Enc::Windows1252, Enc::Utf8]);
}

#[test]
fn generated_russian_games_are_detected_in_each_8bit_encoding() {
    // Games alone (tags in Latin letters, moves with Cyrillic letters) and
    // games with Cyrillic tags: each 8-bit encoding is recognised.
    let dir = scratch("detect-generated");
    let style = MoveStyle::for_language(Language::Ru);
    let games = corpus(5, 3, &style, &RenderOptions::default());
    let short =
        render_game(&random_game(8, 12), &style, &RenderOptions { headers: false, ..RenderOptions::default() }).text;
    let tagged = games.replace("chess-ls random game", "Чемпионат СССР, полуфинал");
    let uk = corpus(6, 2, &MoveStyle::for_language(Language::Uk), &RenderOptions::default())
        .replace("chess-ls random game", "Чемпіонат України");
    let mut expected = BTreeMap::new();
    for encoding in [Enc::Windows1251, Enc::Cp866, Enc::Koi8R] {
        for (kind, text) in [("games", &games), ("short", &short), ("tagged", &tagged)] {
            let name = format!("{kind}-{}.pgn", encoding.label());
            write(&dir, &name, encoding.encode(text));
            expected.insert(name, encoding.name().to_owned());
        }
    }
    write(&dir, "uk-windows-1251.pgn", Enc::Windows1251.encode(&uk));
    expected.insert("uk-windows-1251.pgn".to_owned(), "windows-1251".to_owned());
    let run = run_in(&dir, &["--check", "--format", "sarif", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let log: Value = serde_json::from_str(&run.stdout).expect("SARIF");
    let found: BTreeMap<String, String> = log["runs"][0]["artifacts"]
        .as_array()
        .expect("artifacts")
        .iter()
        .map(|a| {
            let uri = a["location"]["uri"].as_str().expect("uri").trim_start_matches("./");
            (uri.to_owned(), a["encoding"].as_str().expect("encoding").to_owned())
        })
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn a_file_whose_encoding_cannot_be_decided_is_reported_and_left_alone() {
    let dir = scratch("undecided");
    // One byte above 0x7F, alone in a comment: `Б` in Windows-1251, `а` in
    // KOI8-R, `┴` in CP866, `Á` in Latin-1. Nothing decides.
    let undecided: &[u8] = b"1. e4 {\xC1} e5 2. Nf3+ *\n";
    write(&dir, "undecided.pgn", undecided);
    write(&dir, "clean.pgn", "1. e4 e5 2. Nf3+ Nc6 *\n");
    write(&dir, "bad-bom.pgn", b"\xEF\xBB\xBF1. e4 \xFF *\n");
    let check = run_in(&dir, &["--check", "undecided.pgn", "bad-bom.pgn"]);
    // Checked as UTF-8 with the byte reported (and how to name another
    // encoding), not refused whole.
    assert_eq!(check.code, 1);
    insta::assert_snapshot!("undecided_encoding", check.snapshot());

    let fix = run_in(&dir, &["--fix", "undecided.pgn", "clean.pgn"]);
    assert_eq!(fix.code, 2, "{}", fix.snapshot());
    assert_eq!(read(&dir, "undecided.pgn"), undecided, "never mangled");
    assert_eq!(read(&dir, "clean.pgn"), b"1. e4 e5 2. Nf3 Nc6 *\n", "the other file is fixed");

    // Named, it is read.
    let named = run_in(&dir, &["--check", "--encoding", "koi8-r", "undecided.pgn"]);
    assert_eq!(named.code, 0, "{}", named.snapshot());
    let bad_name = run_in(&dir, &["--check", "--encoding", "ebcdic", "undecided.pgn"]);
    assert_eq!(bad_name.code, 2);
    assert!(bad_name.stderr.contains("unknown encoding \"ebcdic\""), "{}", bad_name.stderr);
}

#[test]
fn a_few_bytes_that_are_not_text_are_reported_and_the_file_is_never_rewritten() {
    let dir = scratch("invalid-bytes");
    // A NUL in a tag, a stray byte in a UTF-8 comment, and a wrong check
    // mark that `--fix` would remove with certainty.
    let damaged: Vec<u8> =
        ["[Event \"a\0b\"]\n\n1. e4 e5 2. Кf3+ {Ход \u{2014} ".as_bytes(), b"\xFF", "} Кc6 *\n".as_bytes()].concat();
    let damaged = &damaged[..];
    write(&dir, "damaged.pgn", damaged);
    let check = run_in(&dir, &["--check", "--format", "json", "damaged.pgn"]);
    assert_eq!(check.code, 1, "{}", check.snapshot());
    let found: Vec<Value> = check.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let at = |d: &Value| {
        (d["code"].as_str().unwrap().to_owned(), d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap())
    };
    let codes: Vec<(String, u64, u64)> = found.iter().map(at).collect();
    assert_eq!(
        codes,
        [("syntax".to_owned(), 1, 10), ("check-mark".to_owned(), 3, 16), ("syntax".to_owned(), 3, 25)],
        "{}",
        check.stdout
    );
    assert!(found[0]["message"].as_str().unwrap().starts_with("a NUL byte here is not text"), "{}", check.stdout);
    assert!(
        found[2]["message"].as_str().unwrap().starts_with("the byte 0xFF here is not valid utf-8"),
        "{}",
        check.stdout
    );

    let fix = run_in(&dir, &["--fix", "damaged.pgn"]);
    assert_eq!(fix.code, 2, "{}", fix.snapshot());
    assert!(fix.stderr.contains("damaged.pgn is not written: 2 bytes of it are not valid utf-8"), "{}", fix.snapshot());
    assert_eq!(read(&dir, "damaged.pgn"), damaged, "never written");
    let translate = run_in(&dir, &["--translate", "en", "--write", "damaged.pgn"]);
    assert_eq!(translate.code, 2, "{}", translate.snapshot());
    assert_eq!(read(&dir, "damaged.pgn"), damaged, "never written");
}

#[test]
fn a_directory_without_notation_files_fails_the_run() {
    // A CI job pointed at the wrong folder must not pass.
    let dir = scratch("empty-dirs");
    std::fs::create_dir_all(dir.join("empty")).expect("a directory");
    write(&dir, "notes/readme.txt", "no games here\n");
    write(&dir, "games/a.pgn", "1. e4 e5 *\n");
    let run = run_in(&dir, &["--check", "empty", "notes", "games"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("no notation file under empty"), "{}", run.stderr);
    assert!(run.stderr.contains("no notation file under notes"), "{}", run.stderr);
    assert!(run.stdout.contains("checked 1 file"), "the other directory is still checked: {}", run.stdout);
}

#[test]
fn a_character_the_encoding_cannot_hold_fails_that_file_only() {
    let dir = scratch("unencodable");
    let text = "[Event \"Партия\"]\n\n1. e4 e5 2. Кf3 Кc6 *\n";
    let cp1251 = Enc::Windows1251.encode(text);
    write(&dir, "ru-1251.pgn", &cp1251);
    write(&dir, "ru-utf8.pgn", text);
    let run = run_in(&dir, &["--translate", "figurine", "--write", "ru-1251.pgn", "ru-utf8.pgn"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    insta::assert_snapshot!("unencodable_figurine", run.snapshot());
    assert_eq!(read(&dir, "ru-1251.pgn"), cp1251, "nothing written");
    assert_eq!(
        String::from_utf8(read(&dir, "ru-utf8.pgn")).expect("UTF-8"),
        "[Event \"Партия\"]\n\n1. e4 e5 2. ♘f3 ♘c6 *\n"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("the directory")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

// ---------------------------------------------------------------------------
// --fix

#[test]
fn fix_reports_what_it_changed_and_what_is_left() {
    let dir = scratch("fix-report");
    let text = fixture("fixable-ru.pgn");
    write(&dir, "fixable-ru.pgn", &text);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("fixable-ru.pgn"), std::fs::Permissions::from_mode(0o640)).expect("chmod");
    }
    let run = run_in(&dir, &["--check", "--fix", "fixable-ru.pgn"]);
    assert_eq!(run.code, 1, "the illegal move is left: {}", run.snapshot());
    insta::assert_snapshot!("fix_report", run.snapshot());
    let fixed = String::from_utf8(read(&dir, "fixable-ru.pgn")).expect("UTF-8");
    insta::assert_snapshot!("fix_result", fixed);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.join("fixable-ru.pgn")).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o777, 0o640, "permissions kept");
    }
    // The two rounds of the second game: the disambiguation first, then the
    // look-alike inside the rewritten move.
    assert!(fixed.contains("3. Кce2 Кf6"), "{fixed}");
    // Nothing fixable is left: the fixed text has no diagnostic with a safe
    // fix, and --diff shows nothing.
    let left = analyze_text(&fixed, &Options::default());
    let fixable: Vec<_> = left.diagnostics().filter(|d| d.certain_fix().is_some()).collect();
    assert!(fixable.is_empty(), "{fixable:?}");
    assert_eq!(run_in(&dir, &["--fix", "--diff", "fixable-ru.pgn"]).stdout, "");

    // The machine formats keep stdout for the findings: the changes go to stderr.
    write(&dir, "again.pgn", &text);
    let json = run_in(&dir, &["--fix", "--format", "json", "again.pgn"]);
    assert_eq!(json.code, 1);
    for line in json.stdout.lines() {
        let d: Value = serde_json::from_str(line).expect("JSON Lines on stdout");
        assert!(
            d["code"] == "illegal-move" || d["code"] == "redundant-disambiguation" || d["severity"] == "info",
            "{line}"
        );
    }
    assert!(json.stderr.contains("again.pgn:8:32: fixed [homoglyph] `е` → `e`"), "{}", json.stderr);
}

#[test]
fn fix_diff_shows_the_changes_without_writing() {
    let dir = scratch("fix-diff");
    let text = fixture("fixable-ru.pgn");
    write(&dir, "fixable-ru.pgn", &text);
    let run = run_in(&dir, &["--check", "--fix", "--diff", "fixable-ru.pgn"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("fix_diff", run.snapshot());
    assert_eq!(String::from_utf8(read(&dir, "fixable-ru.pgn")).expect("UTF-8"), text);
    // The diff applies: patch(1), where it is installed, makes the fix.
    if apply_patch(&dir, run.stdout.as_bytes()) {
        let patched = String::from_utf8(read(&dir, "fixable-ru.pgn")).expect("UTF-8");
        write(&dir, "fixed-by-us.pgn", &text);
        let _ = run_in(&dir, &["--fix", "fixed-by-us.pgn"]);
        assert_eq!(patched, String::from_utf8(read(&dir, "fixed-by-us.pgn")).expect("UTF-8"));
    }
}

/// `--fix --diff` on a Windows-1251 file prints the diff in Windows-1251,
/// so that `patch` applies it to the file as it is (issue 15).
#[test]
fn fix_diff_of_a_windows_1251_file_is_in_its_encoding() {
    let dir = scratch("fix-diff-1251");
    let text = fixture("fixable-ru.pgn");
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1251.encode(&text);
    assert!(!unmappable);
    std::fs::write(dir.join("cp1251.pgn"), &bytes).expect("write");
    let output = Command::new(chess_ls_tests::binary::chess_ls())
        .args(["--check", "--fix", "--diff", "cp1251.pgn"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert!(String::from_utf8(output.stdout.clone()).is_err(), "the diff is not UTF-8");
    let (diff, _, bad) = encoding_rs::WINDOWS_1251.decode(&output.stdout);
    assert!(!bad && diff.contains("+++ cp1251.pgn") && diff.contains('К'), "{diff}");
    assert_eq!(std::fs::read(dir.join("cp1251.pgn")).expect("read"), bytes.as_ref(), "nothing written");
    if apply_patch(&dir, &output.stdout) {
        let patched = std::fs::read(dir.join("cp1251.pgn")).expect("read");
        std::fs::write(dir.join("fixed.pgn"), &bytes).expect("write");
        let _ = run_in(&dir, &["--fix", "fixed.pgn"]);
        assert_eq!(patched, std::fs::read(dir.join("fixed.pgn")).expect("read"));
    }
}

/// Generated games in several languages with faults injected at known
/// places (a Cyrillic look-alike in a square, a check mark on a move that
/// gives no check, a wrong move number): `--fix` gives back exactly the
/// clean text.
#[test]
fn fix_repairs_injected_faults_exactly() {
    let dir = scratch("fix-generated");
    let mut names = Vec::new();
    for (i, language) in
        [Language::En, Language::Ru, Language::De, Language::Fr, Language::Figurine].into_iter().enumerate()
    {
        let style = MoveStyle::for_language(language);
        let mut clean = String::new();
        let mut faulty = String::new();
        for g in 0..6u64 {
            let moves = random_game(1000 * i as u64 + g, 40 + 10 * g as usize);
            let game = render_game(&moves, &style, &RenderOptions::default());
            let mut text = game.text.clone();
            // Injections from the end, so that earlier byte ranges hold.
            let mut injections: Vec<(std::ops::Range<usize>, String)> = Vec::new();
            let quiet: Vec<_> = game.moves.iter().filter(|m| !m.san.contains(['+', '#'])).collect();
            if let Some(m) = quiet.get(quiet.len() / 2) {
                injections.push((m.byte_range.end..m.byte_range.end, "+".to_owned()));
            }
            if let Some(m) = game.moves.iter().skip(4).find(|m| m.san.contains(['a', 'c', 'e'])) {
                let (at, ch) = m.san.char_indices().rev().find(|(_, c)| "ace".contains(*c)).expect("a file letter");
                let cyrillic = match ch {
                    'a' => "а",
                    'c' => "с",
                    _ => "е",
                };
                // Only a square's file (a letter followed by a rank).
                if m.san[at + 1..].starts_with(|c: char| c.is_ascii_digit()) {
                    let start = m.byte_range.start + at;
                    injections.push((start..start + 1, cyrillic.to_owned()));
                }
            }
            if let Some(m) = game.moves.iter().find(|m| m.ply == 10) {
                let number = "6. ";
                let start = m.byte_range.start - number.len();
                assert_eq!(&text[start..m.byte_range.start], number);
                injections.push((start..start + 1, "7".to_owned()));
            }
            injections.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
            for (range, new) in injections {
                text.replace_range(range, &new);
            }
            if g > 0 {
                clean.push('\n');
                faulty.push('\n');
            }
            clean.push_str(&game.text);
            faulty.push_str(&text);
        }
        assert_ne!(clean, faulty);
        let name = format!("{}.pgn", language.code());
        write(&dir, &name, &faulty);
        names.push((name, clean));
    }
    let run = run_in(&dir, &["--fix", "."]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    for (name, clean) in &names {
        let fixed = String::from_utf8(read(&dir, name)).expect("UTF-8");
        assert_eq!(&fixed, clean, "{name}");
        assert!(analyze_text(&fixed, &Options::default()).diagnostics().all(|d| d.certain_fix().is_none()));
    }
    assert!(
        run.stdout.contains("fixed [homoglyph]")
            && run.stdout.contains("fixed [check-mark]")
            && run.stdout.contains("fixed [move-number]"),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------
// --translate

#[test]
fn translation_keeps_comments_variations_tags_and_layout() {
    let dir = scratch("translate-layout");
    let text = fixture("layout-en.pgn").replace('\n', "\r\n");
    write(&dir, "layout.pgn", &text);
    let ru = run_in(&dir, &["--translate", "ru", "layout.pgn"]);
    assert_eq!(ru.code, 0, "{}", ru.snapshot());
    insta::assert_snapshot!("translate_layout_ru", ru.snapshot().replace('\r', "⏎"));
    // Only the moves changed: the rest is the same, byte for byte.
    let strip = |s: &str| -> String { s.chars().filter(|c| c.is_ascii_punctuation() || c.is_whitespace()).collect() };
    assert_eq!(strip(&ru.stdout), strip(&text));
    write(&dir, "layout-ru.pgn", &ru.stdout);
    let back = run_in(&dir, &["--translate", "en", "layout-ru.pgn"]);
    assert_eq!(back.code, 0);
    assert_eq!(back.stdout, text);

    // In place, and as a diff.
    let diff = run_in(&dir, &["--translate", "de", "--diff", "layout.pgn"]);
    assert!(diff.stdout.starts_with("--- layout.pgn\n+++ layout.pgn\n"), "{}", diff.stdout);
    assert_eq!(String::from_utf8(read(&dir, "layout.pgn")).expect("UTF-8"), text, "--diff writes nothing");
    let write_run = run_in(&dir, &["--translate", "de", "--write", "layout.pgn"]);
    assert_eq!(write_run.code, 0, "{}", write_run.snapshot());
    assert_eq!(write_run.stdout, "");
    let written = String::from_utf8(read(&dir, "layout.pgn")).expect("UTF-8");
    assert!(written.contains("3. Lc4 Dh4+ 4. Kf1"));
    // The diff (made from the rewrite's edits, not by comparing the texts)
    // applies: patch(1), where it is installed, makes the same file.
    write(&dir, "layout.pgn", &text);
    if apply_patch(&dir, diff.stdout.as_bytes()) {
        assert_eq!(String::from_utf8(read(&dir, "layout.pgn")).expect("UTF-8"), written);
    }
}

#[test]
fn translation_round_trips_in_every_language() {
    let dir = scratch("translate-round-trip");
    let options = RenderOptions::default();
    let english = corpus(77, 8, &MoveStyle::for_language(Language::En), &options);
    write(&dir, "en.pgn", &english);
    for language in Language::ALL {
        let code = language.code();
        // en -> L -> en
        let there = run_in(&dir, &["--translate", code, "en.pgn"]);
        assert_eq!(there.code, 0, "en -> {code}: {}", there.stderr);
        let name = format!("from-en-{code}.pgn");
        write(&dir, &name, &there.stdout);
        let back = run_in(&dir, &["--translate", "en", &name]);
        assert_eq!(back.code, 0, "{code} -> en: {}", back.stderr);
        assert!(back.stdout == english, "en -> {code} -> en differs");
        // Games written in L: L -> ru -> L
        let native = corpus(78, 6, &MoveStyle::for_language(language), &options);
        let name = format!("native-{code}.pgn");
        write(&dir, &name, &native);
        let ru = run_in(&dir, &["--translate", "ru", &name]);
        assert_eq!(ru.code, 0, "{code} -> ru: {}", ru.stderr);
        let ru_name = format!("native-{code}-ru.pgn");
        write(&dir, &ru_name, &ru.stdout);
        let again = run_in(&dir, &["--translate", code, &ru_name]);
        assert_eq!(again.code, 0, "ru -> {code}: {}", again.stderr);
        assert!(again.stdout == native, "{code} -> ru -> {code} differs");
        // The translation checks clean.
        let check = run_in(&dir, &["--check", "--format", "json", &format!("from-en-{code}.pgn")]);
        assert_eq!((check.code, check.stdout.as_str()), (0, ""), "{code}");
    }
}

#[test]
fn translation_of_a_game_with_errors_says_so() {
    let dir = scratch("translate-errors");
    write(&dir, "bad.pgn", "1. e4 e5 2. Nf3 Nc6 3. Ke3 Nf6 4. Bc4 *\n");
    let run = run_in(&dir, &["--translate", "ru", "bad.pgn"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("translate_with_errors", run.snapshot());
}

// ---------------------------------------------------------------------------
// --format github

/// Undoes the escaping of a workflow command's data or property.
fn unescape(s: &str) -> String {
    s.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
}

#[test]
fn github_workflow_commands() {
    let dir = scratch("github");
    // A name with the characters a property must escape.
    let name = "a,b:c%d.pgn";
    std::fs::copy(workspace().join("tests/fixtures/cli/ru-errors.pgn"), dir.join(name)).expect("copy");
    write(&dir, "warnings.pgn", fixture("fixable-ru.pgn"));
    let run = run_in(&dir, &["--check", "--format", "github", name, "warnings.pgn"]);
    assert_eq!(run.code, 1);
    insta::assert_snapshot!("github", run.snapshot());
    assert!(run.stderr.starts_with("checked 2 files, 5 games:"), "{}", run.stderr);

    let json = run_in(&dir, &["--check", "--format", "json", name, "warnings.pgn"]);
    let json: Vec<Value> = json.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let commands: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(commands.len(), json.len(), "one command per diagnostic");
    for (command, d) in commands.iter().zip(&json) {
        let rest = command.strip_prefix("::").expect("a workflow command");
        let (head, message) = rest.split_once("::").expect("`::` before the message");
        let (kind, properties) = head.split_once(' ').expect("a command and its properties");
        let want_kind = match d["severity"].as_str().expect("severity") {
            "error" => "error",
            "warning" => "warning",
            _ => "notice",
        };
        assert_eq!(kind, want_kind);
        let pairs: Vec<(&str, &str)> = properties.split(',').map(|p| p.split_once('=').expect("key=value")).collect();
        let keys: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        assert_eq!(keys, ["file", "line", "col", "endLine", "endColumn", "title"]);
        for (_, value) in &pairs {
            assert!(!value.contains([':', ',', '\r', '\n']), "unescaped property in {command}");
        }
        assert!(!message.contains(['\r', '\n']));
        let value = |key: &str| unescape(pairs.iter().find(|p| p.0 == key).expect("the key").1);
        assert_eq!(value("file"), d["file"].as_str().expect("file"));
        for (key, json_key) in
            [("line", "line"), ("col", "column"), ("endLine", "end_line"), ("endColumn", "end_column")]
        {
            assert_eq!(value(key), d[json_key].to_string(), "{key} in {command}");
        }
        assert_eq!(value("title"), d["code"].as_str().expect("code"));
        let mut want = d["message"].as_str().expect("message").to_owned();
        for fix in d["fixes"].as_array().expect("fixes") {
            want.push_str("\nfix: ");
            want.push_str(fix["title"].as_str().expect("title"));
        }
        assert_eq!(unescape(message), want);
    }
}

// ---------------------------------------------------------------------------
// --format sarif

/// Checks a SARIF log against what SARIF 2.1.0 requires of the parts
/// chess-ls writes (by hand, so that it runs without Python too); returns
/// the results.
fn check_sarif_structure(log: &Value) -> Vec<Value> {
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().expect("$schema").ends_with("sarif-schema-2.1.0.json"));
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1, "one run");
    let run = &runs[0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "chess-ls");
    assert!(driver["version"].as_str().is_some_and(|v| !v.is_empty()));
    assert!(driver["informationUri"].as_str().is_some_and(|u| u.starts_with("https://")));
    let rules = driver["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().expect("id")).collect();
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(ids, codes, "one rule per code");
    for (rule, code) in rules.iter().zip(Code::ALL) {
        let level = match code.severity() {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info | Severity::Hint => "note",
        };
        assert_eq!(rule["defaultConfiguration"]["level"], level, "{code}");
        assert!(rule["shortDescription"]["text"].as_str().is_some_and(|t| !t.is_empty()));
    }
    let artifacts = run["artifacts"].as_array().expect("artifacts");
    let results = run["results"].as_array().expect("results").clone();
    let region_ok = |region: &Value| {
        let n = |k: &str| region[k].as_u64().unwrap_or_else(|| panic!("{k} in {region}"));
        assert!(n("startLine") >= 1 && n("startColumn") >= 1);
        assert!((n("endLine"), n("endColumn")) >= (n("startLine"), n("startColumn")));
    };
    for result in &results {
        let rule = result["ruleId"].as_str().expect("ruleId");
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(ids[index], rule);
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().expect("level")));
        assert!(result["message"]["text"].as_str().is_some_and(|t| !t.is_empty()));
        let location = &result["locations"][0]["physicalLocation"];
        let artifact = &location["artifactLocation"];
        let uri = artifact["uri"].as_str().expect("uri");
        let index = artifact["index"].as_u64().expect("index") as usize;
        assert_eq!(artifacts[index]["location"]["uri"], uri);
        region_ok(&location["region"]);
        for fix in result["fixes"].as_array().into_iter().flatten() {
            assert!(fix["description"]["text"].is_string());
            for change in fix["artifactChanges"].as_array().expect("artifactChanges") {
                assert_eq!(change["artifactLocation"]["uri"], uri);
                for replacement in change["replacements"].as_array().expect("replacements") {
                    region_ok(&replacement["deletedRegion"]);
                    assert!(replacement["insertedContent"]["text"].is_string());
                }
            }
        }
    }
    results
}

#[test]
fn sarif_log() {
    let dir = scratch("sarif");
    std::fs::copy(workspace().join("tests/fixtures/cli/ru-errors.pgn"), dir.join("ru-errors.pgn")).expect("copy");
    write(&dir, "ru 1251.pgn", Enc::Windows1251.encode(&fixture("fixable-ru.pgn")));
    let run = run_in(&dir, &["--check", "--format", "sarif", "ru-errors.pgn", "ru 1251.pgn", "missing.pgn"]);
    assert_eq!(run.code, 2);
    insta::assert_snapshot!("sarif", run.snapshot());
    let log: Value = serde_json::from_str(&run.stdout).expect("SARIF is JSON");
    let results = check_sarif_structure(&log);
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert!(
        invocation["toolExecutionNotifications"][0]["message"]["text"].as_str().expect("text").contains("missing.pgn")
    );

    // Each result's region is the JSON diagnostic's range.
    let json = run_in(&dir, &["--check", "--format", "json", "ru-errors.pgn", "ru 1251.pgn"]);
    let json: Vec<Value> = json.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(results.len(), json.len());
    for (result, d) in results.iter().zip(&json) {
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            (&region["startLine"], &region["startColumn"], &region["endLine"], &region["endColumn"]),
            (&d["line"], &d["column"], &d["end_line"], &d["end_column"])
        );
        assert_eq!(result["ruleId"], d["code"]);
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().expect("uri");
        assert_eq!(uri, d["file"].as_str().expect("file").replace(' ', "%20"));
    }

    // Against the SARIF 2.1.0 JSON schema, where Python is at hand.
    let path = dir.join("log.sarif");
    std::fs::write(&path, &run.stdout).expect("write the log");
    validate_sarif(&path);
}

/// Runs tests/scripts/validate-sarif, or says why not.
fn validate_sarif(path: &Path) {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!(
            "note: python3 is not installed; the SARIF schema check is skipped (the structure was checked by hand)"
        );
        return;
    }
    let script = workspace().join("tests/scripts/validate-sarif");
    let output = Command::new("bash").arg(&script).arg(path).output().expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => assert!(stdout.contains("valid against"), "{stdout}"),
        Some(77) => eprintln!("{}", stderr.trim()),
        _ => panic!("the SARIF log is not valid:\n{stdout}\n{stderr}"),
    }
}

// ---------------------------------------------------------------------------
// Many files.

#[test]
fn many_files_in_directories_are_checked_in_a_stable_order() {
    let dir = scratch("many");
    let style = MoveStyle::for_language(Language::Ru);
    for i in 0..150 {
        let mut text = corpus(i, 2, &style, &RenderOptions::default());
        if i % 37 == 0 {
            text.push_str("\n1. e4 e5 2. Крe3 *\n");
        }
        write(&dir, &format!("set-{}/game-{i:03}.pgn", i % 4), text);
    }
    let one = run_in(&dir, &["--check", "--format", "json", "--threads", "1", "."]);
    let two = run_in(&dir, &["--check", "--format", "json", "--threads", "2", "."]);
    assert_eq!(one.code, 1);
    assert_eq!(one.stdout, two.stdout);
    let files: Vec<String> = json_diagnostics(&one.stdout).into_iter().map(|d| d.0).collect();
    assert_eq!(
        files,
        [
            "./set-0/game-000.pgn",
            "./set-0/game-148.pgn",
            "./set-1/game-037.pgn",
            "./set-2/game-074.pgn",
            "./set-3/game-111.pgn"
        ]
    );
    // The summary is on stderr, with the elapsed time.
    let summary = one.stderr.trim_end();
    assert!(summary.starts_with("checked 150 files, 305 games: 5 errors, 0 warnings in "), "{summary}");
    assert!(summary.ends_with(" s"));
    // No progress bar when stderr is not a terminal.
    assert_eq!(one.stderr.lines().count(), 1);
}

#[test]
fn a_progress_bar_in_a_terminal_for_many_files() {
    let Some(script) = ["/usr/bin/script", "/bin/script"].into_iter().find(|p| Path::new(p).exists()) else {
        eprintln!("note: `script` is not installed; the progress bar test is skipped");
        return;
    };
    let dir = scratch("progress");
    for i in 0..120 {
        write(&dir, &format!("g{i:03}.pgn"), "1. e4 e5 2. Nf3 Nc6 *\n");
    }
    let binary = chess_ls_tests::binary::chess_ls();
    let line = format!("{} --check --format json .", binary.display());
    let output = Command::new(script)
        .args(["-qec", &line, "/dev/null"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let screen = String::from_utf8_lossy(&output.stdout);
    assert!(screen.contains("/120 files"), "no progress bar:\n{screen}");
    assert!(screen.contains("checked 120 files, 120 games"), "{screen}");
}

// ---------------------------------------------------------------------------
// Arguments.

#[test]
fn bad_combinations_of_arguments_fail_the_run() {
    let dir = scratch("arguments");
    write(&dir, "a.pgn", "1. e4 *\n");
    for (args, message) in [
        (&["--check", "--diff", "a.pgn"][..], "--diff goes with --fix or --translate"),
        (&["--translate", "xx", "a.pgn"][..], "unknown language \"xx\" for --translate"),
        (&["--translate", "ru", "--format", "json", "a.pgn"][..], "--format applies to --check and --fix"),
        (&["--fix", "-"][..], "standard input cannot be rewritten in place"),
        (&["--translate", "ru", "--write", "-"][..], "standard input cannot be rewritten in place"),
        (&["--fix"][..], "--fix needs at least one file"),
        (&["--check", "--write", "a.pgn"][..], "--translate"),
        (&["--translate", "ru", "--write", "--diff", "a.pgn"][..], "cannot be used with"),
    ] {
        let run = run_in(&dir, args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.snapshot());
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "");
    }
    assert_eq!(read(&dir, "a.pgn"), b"1. e4 *\n");
}

/// Applies a unified diff in `dir` with patch(1); false (with a note) where
/// patch is not installed.
fn apply_patch(dir: &std::path::Path, diff: &[u8]) -> bool {
    if Command::new("patch").arg("--version").output().is_err() {
        eprintln!("note: patch is not installed; the diff is not applied");
        return false;
    }
    let status = Command::new("patch")
        .args(["-s", "-p0"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(diff)?;
            child.wait()
        })
        .expect("patch runs");
    assert!(status.success(), "patch applies the diff");
    true
}
