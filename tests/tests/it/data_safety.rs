//! Nothing the user wrote is lost.
//!
//! - Formatting (`textDocument/formatting`): over random documents with
//!   comments (one-line and multi-line, with odd characters), `;` comments,
//!   `%` escapes, variations, NAGs and irregular blanks, the layout keeps
//!   every non-blank character in order, every comment and escape byte for
//!   byte, the same games with the same findings, and formatting twice
//!   changes nothing more.
//! - Writing files (`--fix`, `--translate --write`): a run killed at any
//!   moment leaves each file either as it was or completely rewritten, never
//!   in between (the text is written to a temporary file that is renamed
//!   over the original).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chess_ls::analysis::Options;
use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::ide::document::Document;
use chess_ls::ide::format::format_text;
use chess_ls::syntax;
use chess_ls_tests::generate::{RenderOptions, SplitMix64, corpus, random_game, render_game};
use proptest::prelude::*;

/// Odd things people and exporters put in comments.
const COMMENT_TEXTS: &[&str] = &[
    "good move",
    "a\nmulti-line\n  comment",
    "tab\there",
    "😀 emoji and ♘ figurine",
    "right\u{200F}to\u{200E}left marks",
    "no\u{00A0}break\u{2003}em space",
    "zero\u{200B}width",
    "[%clk 0:03:12]",
    "(not a variation) and ; not a line comment",
    "\r\nCRLF inside\r\n",
    "",
    "  padded  ",
];

/// A random document: games whose moves are followed, here and there, by
/// comments, variations, NAGs, line comments and odd blanks.
fn document(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::new();
    for g in 0..1 + rng.below(3) {
        let style = MoveStyle::for_language(if rng.below(2) == 0 { Language::En } else { Language::Ru });
        let moves = random_game(seed * 7 + g as u64, 10 + rng.below(40));
        let opts = RenderOptions { headers: rng.below(3) != 0, ..RenderOptions::default() };
        let game = render_game(&moves, &style, &opts);
        let mut text = String::new();
        let mut at = 0;
        for m in &game.moves {
            text.push_str(&game.text[at..m.byte_range.end]);
            at = m.byte_range.end;
            match rng.below(14) {
                0 => text.push_str(&format!(" {{{}}}", COMMENT_TEXTS[rng.below(COMMENT_TEXTS.len())])),
                1 => text.push_str(&format!(" ${}", rng.below(140))),
                2 => text.push_str(&format!(" ({})", m.san)),
                3 => text.push_str(&format!(" ({} {{{}}})", m.san, COMMENT_TEXTS[rng.below(COMMENT_TEXTS.len())])),
                4 => text.push_str(" ; a line comment\n"),
                5 => text.push_str(&format!(" ({} ; comment in a variation\n)", m.san)),
                6 => text.push_str("\n% an escape line\n"),
                7 => text.push_str(["  ", "\t", "\n", "\r\n", "\n\n"][rng.below(5)]),
                8 => text.push_str(&format!(" ({} ({}))", m.san, m.san)),
                _ => {}
            }
        }
        text.push_str(&game.text[at..]);
        out.push_str(&text);
        out.push_str(["\n\n", "\n", "\r\n\r\n"][rng.below(3)]);
    }
    out
}

/// The texts of the comments, line comments and escapes, in order.
fn comments(text: &str) -> Vec<String> {
    let tree = syntax::parse(text, None);
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        if matches!(node.kind(), "comment" | "line_comment" | "escape") {
            out.push(text[node.byte_range()].trim_end().to_owned());
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// What the analysis finds, without positions: each code with the text it
/// is about.
fn findings(text: &str) -> Vec<(String, String)> {
    let doc = Document::open(text.to_owned(), 1, &Options::default());
    doc.diagnostics().map(|d| (d.code.as_str().to_owned(), text[d.span.clone()].split_whitespace().collect())).collect()
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

proptest! {
    #![proptest_config(crate::proptest_config(200))]

    #[test]
    fn formatting_keeps_every_character_and_comment(seed in 0u64..1_000_000) {
        let text = document(seed);
        let doc = Document::open(text.clone(), 1, &Options::default());
        let readable = doc.sections.iter().all(|p| !p.tree(&doc).root_node().has_error());
        prop_assume!(readable);
        let formatted = format_text(&doc);
        // `format_text` gives up rather than lose a character; on a
        // document the grammar reads, it must not need to.
        prop_assert!(formatted.is_some(), "formatting gave up on {:?}", text);
        let formatted = formatted.unwrap();
        prop_assert_eq!(squeeze(&formatted), squeeze(&text));
        prop_assert_eq!(comments(&formatted), comments(&text), "a comment changed in {:?}", formatted);
        prop_assert_eq!(findings(&formatted), findings(&text), "the games changed: {:?}", formatted);
        let again = format_text(&Document::open(formatted.clone(), 1, &Options::default()));
        prop_assert_eq!(again.as_deref(), Some(formatted.as_str()), "formatting twice changed more");
    }
}

/// A random document whose variations are long and nested (up to three
/// deep), with NAGs and one-line comments: what the width must hold for.
fn long_variations(seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let style = MoveStyle::default();
    let line = |seed: u64, plies: usize| -> String {
        let moves = random_game(seed, plies);
        let game = render_game(&moves, &style, &RenderOptions { headers: false, ..RenderOptions::default() });
        let end = game.moves.last().map_or(0, |m| m.byte_range.end);
        game.text[..end].trim().to_owned()
    };
    let variation = |rng: &mut SplitMix64, depth: usize| -> String {
        let mut words: Vec<String> = line(rng.next_u64(), 2 + rng.below(30)).split(' ').map(str::to_owned).collect();
        if depth < 3 && rng.below(2) == 0 {
            let at = rng.below(words.len());
            words.insert(at, format!("({})", line(rng.next_u64(), 1 + rng.below(20))));
        }
        if rng.below(3) == 0 {
            let at = rng.below(words.len());
            words.insert(at, format!("{{{}}}", ["good", "a plan", "$1 (no)"][rng.below(3)]));
        }
        if rng.below(3) == 0 {
            let at = rng.below(words.len());
            words.insert(at, format!("${}", rng.below(140)));
        }
        format!("({})", words.join(" "))
    };
    let moves = random_game(seed, 20 + rng.below(60));
    let game = render_game(&moves, &style, &RenderOptions { headers: false, ..RenderOptions::default() });
    let mut text = String::new();
    let mut at = 0;
    for m in &game.moves {
        text.push_str(&game.text[at..m.byte_range.end]);
        at = m.byte_range.end;
        if rng.below(5) == 0 {
            text.push(' ');
            let depth = rng.below(3);
            let mut v = variation(&mut rng, depth);
            for _ in 0..depth {
                // Nested at the end: `(a (b (c)))`, parentheses piling up.
                v = format!("({} {v})", line(rng.next_u64(), 1 + rng.below(6)));
            }
            text.push_str(&v);
        }
    }
    text.push_str(&game.text[at..]);
    text.push('\n');
    text
}

proptest! {
    #![proptest_config(crate::proptest_config(200))]

    /// Every line Format Document writes is at most the width, variations
    /// included (their moves wrap like the main line's, a `(` never ends a
    /// line and a `)` never starts one), at any width from 20 columns.
    #[test]
    fn formatting_holds_the_width_in_variations(seed in 0u64..1_000_000, width in 20usize..=120) {
        let text = long_variations(seed);
        let doc = Document::open(text.clone(), 1, &Options::default());
        let readable = doc.sections.iter().all(|p| !p.tree(&doc).root_node().has_error());
        prop_assert!(readable, "the generator wrote a syntax error: {:?}", text);
        let formatted = chess_ls::ide::format::format_cancellable(&doc, width, &chess_ls::ide::cancel::Token::never());
        prop_assert!(formatted.is_some(), "formatting gave up on {:?}", text);
        let formatted = formatted.unwrap();
        prop_assert_eq!(squeeze(&formatted), squeeze(&text));
        for line in formatted.lines() {
            prop_assert!(line.chars().count() <= width, "{} columns at width {}: {:?} in\n{}", line.chars().count(), width, line, formatted);
            prop_assert!(!line.ends_with('('), "a line ends with `(`: {:?}", line);
            prop_assert!(!line.starts_with(')'), "a line starts with `)`: {:?}", line);
        }
        let again = chess_ls::ide::format::format_cancellable(
            &Document::open(formatted.clone(), 1, &Options::default()), width, &chess_ls::ide::cancel::Token::never());
        prop_assert_eq!(again.as_deref(), Some(formatted.as_str()), "formatting twice changed more");
    }
}

#[test]
fn a_variation_of_121_columns_is_wrapped_at_80() {
    let variation = "(5... Nf6 6. Nc3 Be7 7. Bd3 O-O 8. O-O d5 9. exd5 Nxd5 10. Nxd5 Qxd5 11. Qe2 Bf5 12. Bxf5 Qxf5)";
    let text = format!("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {variation} 6. Re1 b5 *\n");
    let formatted = format_text(&Document::open(text.clone(), 1, &Options::default())).expect("formats");
    // The variation is wrapped, not set on a line of its own.
    assert!(formatted.lines().count() >= 2, "{formatted}");
    assert!(!formatted.lines().any(|l| l.starts_with(')') || l.ends_with('(')), "{formatted}");
    for line in formatted.lines() {
        assert!(line.chars().count() <= 80, "{line:?} in\n{formatted}");
    }
    assert_eq!(squeeze(&formatted), squeeze(&text));
}

#[test]
fn a_line_comment_in_a_variation_stays_a_line_comment() {
    let text = "1. e4 e5 (1... c5 ; the Sicilian\n2. Nf3) 2. Nf3 {a\nlong comment} Nc6 *\n";
    let doc = Document::open(text.to_owned(), 1, &Options::default());
    let formatted = format_text(&doc).expect("formats");
    assert_eq!(comments(&formatted), comments(text), "{formatted:?}");
    assert_eq!(findings(&formatted), findings(text), "{formatted:?}");
}

/// A copy of `text` in a fresh directory, for one interrupted run.
fn fresh_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("writable");
    path
}

/// Runs `chess-ls ARGS FILE` to the end, once, for what a complete run
/// writes; then again and again killed after a growing delay, checking each
/// time that the file is the original or the complete result, and that no
/// half-written file took its place.
fn interrupted_runs_leave_whole_files(args: &[&str], original: &[u8], name: &str) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("interrupted-{name}"));
    let binary = chess_ls_tests::binary::chess_ls();
    let path = fresh_file(&root, name, original);
    let output = Command::new(&binary).args(args).arg(&path).stdout(Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.code().is_some_and(|c| c <= 1), "{args:?}: {:?} {stderr}", output.status);
    let complete = std::fs::read(&path).unwrap();
    assert_ne!(complete, original, "{args:?} changed nothing, so the test would prove nothing");

    let mut rng = SplitMix64::new(7);
    let mut outcomes = [0usize; 2];
    let started = Instant::now();
    // Delays from 0 to about the time of a whole run, densest early.
    let full = {
        let path = fresh_file(&root, name, original);
        let t = Instant::now();
        Command::new(&binary).args(args).arg(&path).stdout(Stdio::null()).stderr(Stdio::null()).status().unwrap();
        t.elapsed()
    };
    for round in 0..24 {
        let path = fresh_file(&root, name, original);
        let mut child =
            Command::new(&binary).args(args).arg(&path).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        let micros = full.as_micros() as usize * (round % 12 + 1) / 12;
        std::thread::sleep(Duration::from_micros((micros + rng.below(2000)) as u64));
        let _ = child.kill(); // SIGKILL: no destructor, no cleanup
        let _ = child.wait();
        let now = std::fs::read(&path).expect("the file is still there");
        if now == original {
            outcomes[0] += 1;
        } else if now == complete {
            outcomes[1] += 1;
        } else {
            panic!("{args:?} killed after {micros} µs left a file of {} bytes that is neither", now.len());
        }
        // A temporary file may be left beside it (a killed process cannot
        // clean up), but never under the file's own name.
        for entry in std::fs::read_dir(&root).unwrap() {
            let entry = entry.unwrap().file_name().into_string().unwrap();
            assert!(entry == name || (entry.starts_with('.') && entry.ends_with(".tmp")), "left behind: {entry}");
        }
        if started.elapsed() > Duration::from_secs(30) {
            break;
        }
    }
    eprintln!("{args:?}: {} runs killed before the rename, {} after", outcomes[0], outcomes[1]);
}

/// Some 400 KB of Russian games with a few safe mistakes (look-alike Latin
/// letters for Cyrillic ones), so that `--fix` has work to write.
fn damaged_russian() -> Vec<u8> {
    let text = corpus(3, 1000, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
    text.replacen("Кf3", "Kf3", 50).into_bytes()
}

#[test]
fn an_interrupted_fix_leaves_the_file_whole() {
    interrupted_runs_leave_whole_files(&["--fix"], &damaged_russian(), "games.pgn");
}

#[test]
fn an_interrupted_translation_leaves_the_file_whole() {
    let text = corpus(5, 1000, &MoveStyle::for_language(Language::En), &RenderOptions::default());
    interrupted_runs_leave_whole_files(&["--translate", "ru", "--write"], text.as_bytes(), "english.pgn");
}

// Second round (issue 17): the write keeps the file's identity and privacy,
// never loses a concurrent write, cleans up after a signal, and never goes
// through a link out of a searched directory.

/// A scratch directory of its own for one test.
fn scratch(name: &str) -> PathBuf {
    crate::scratch_dir(&format!("safety-{name}"))
}

/// A game `--fix` rewrites (a Latin `K` for the Cyrillic knight letter).
const FIXABLE: &str = "[Event \"a\"]\n\n1. e4 e5 2. Кf3 Кc6 3. Kc3 Сc5 *\n";

/// A shell script for `CHESS_LS_TEST_WRITE_HOOK` (see `cli/write.rs`): its
/// arguments are the stage, the file and the temporary file.
fn hook_script(dir: &Path, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("hook.sh");
    std::fs::write(&path, format!("#!/bin/sh\nexec >/dev/null 2>&1\n{body}\n")).expect("writable");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// Runs the binary with ARGS (and the hook, if any) to its end, with a
/// timeout; the exit code (`None` if a signal ended it), stdout, stderr.
fn run(args: &[&std::ffi::OsStr], hook: Option<&Path>) -> (Option<i32>, String, String) {
    let mut command = Command::new(chess_ls_tests::binary::chess_ls());
    command.args(args).stdin(Stdio::null());
    if let Some(hook) = hook {
        command.env("CHESS_LS_TEST_WRITE_HOOK", hook);
    }
    let output = command.output().expect("chess-ls starts");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// The temporary files left in `dir`.
fn temporaries_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_write_made_while_the_file_is_replaced_is_not_lost() {
    // Another program appends to the file just before the new copy takes
    // its place: after every check that can be made beforehand. The old
    // writer renamed over it and lost the appended text with exit 0.
    let english = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n";
    for (mode, args, text) in
        [("fix", &["--fix"][..], FIXABLE), ("translate", &["--translate", "ru", "--write"][..], english)]
    {
        let dir = scratch(&format!("concurrent-{mode}"));
        let path = dir.join("game.pgn");
        std::fs::write(&path, text).unwrap();
        let hook = hook_script(
            &dir,
            "[ \"$1\" = exchange ] && printf '\\n[Event \"appended\"]\\n\\n1. d4 *\\n' >> \"$2\"\nexit 0",
        );
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| os(a)).collect();
        all.push(path.as_os_str());
        let (code, stdout, stderr) = run(&all, Some(&hook));
        assert_eq!(code, Some(2), "{mode}: {stdout}{stderr}");
        assert!(stderr.contains("changed on disk"), "{mode}: {stderr}");
        let now = std::fs::read_to_string(&path).unwrap();
        assert_eq!(now, format!("{text}\n[Event \"appended\"]\n\n1. d4 *\n"), "{mode}");
        assert!(temporaries_in(&dir).is_empty(), "{mode}: {:?}", temporaries_in(&dir));
    }
    // A write just after the exchange lands in the new file and stays.
    let dir = scratch("concurrent-after");
    let path = dir.join("game.pgn");
    std::fs::write(&path, FIXABLE).unwrap();
    let hook = hook_script(&dir, "[ \"$1\" = exchanged ] && printf '{after}\\n' >> \"$2\"\nexit 0");
    let (code, _, stderr) = run(&[os("--fix"), path.as_os_str()], Some(&hook));
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{}{{after}}\n", FIXABLE.replace("Kc3", "Кc3")));
}

#[test]
fn the_temporary_file_is_private_before_a_byte_is_written() {
    use std::os::unix::fs::PermissionsExt;
    // A read-only file (0400) is not rewritten at all since issue 35
    // (`hostile::third_round::a_read_only_file_is_not_rewritten`).
    for (original, expected) in [(0o600, "600"), (0o644, "600"), (0o640, "600")] {
        let dir = scratch(&format!("private-{original:o}"));
        let path = dir.join("game.pgn");
        std::fs::write(&path, FIXABLE).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(original)).unwrap();
        let log = dir.join("modes.log");
        let hook = hook_script(
            &dir,
            &format!("[ \"$1\" = created ] && {{ stat -c '%a %s' \"$3\" >> '{log}'; }}\nexit 0", log = log.display()),
        );
        let (code, _, stderr) = run(&[os("--fix"), path.as_os_str()], Some(&hook));
        assert_eq!(code, Some(0), "{stderr}");
        let seen = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(seen.trim(), format!("{expected} 0"), "mode {original:o}: the temporary file was {seen:?}");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, original, "the new file keeps the original's mode");
        assert!(std::fs::read_to_string(&path).unwrap().contains("Кc3"));
    }
}

#[test]
fn a_file_with_several_hard_links_is_refused_unchanged() {
    let dir = scratch("hard-links");
    let path = dir.join("game.pgn");
    std::fs::write(&path, FIXABLE).unwrap();
    let other = dir.join("other-name.txt");
    std::fs::hard_link(&path, &other).unwrap();
    for args in [&["--fix"][..], &["--translate", "en", "--write"][..]] {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| os(a)).collect();
        all.push(path.as_os_str());
        let (code, stdout, stderr) = run(&all, None);
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains("has 2 hard links") && stderr.contains("not changed"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), FIXABLE);
        assert_eq!(std::fs::read_to_string(&other).unwrap(), FIXABLE);
        assert!(temporaries_in(&dir).is_empty());
    }
}

#[test]
fn extended_attributes_owner_and_group_are_kept() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("xattr");
    let path = dir.join("game.pgn");
    std::fs::write(&path, FIXABLE).unwrap();
    match rustix::fs::setxattr(&path, "user.chess-ls.note", b"kept", rustix::fs::XattrFlags::empty()) {
        Ok(()) => {}
        Err(e) if e == rustix::io::Errno::NOTSUP => {
            eprintln!("skipped: the file system of {} has no user extended attributes", dir.display());
            return;
        }
        Err(e) => panic!("setxattr: {e}"),
    }
    // As root, the file can belong to someone else, as it would for a
    // run by an administrator.
    let root = rustix::process::geteuid().is_root();
    if root {
        std::os::unix::fs::chown(&path, Some(4321), Some(4322)).unwrap();
    }
    let (code, _, stderr) = run(&[os("--fix"), path.as_os_str()], None);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(std::fs::read_to_string(&path).unwrap().contains("Кc3"));
    let mut value = [0u8; 64];
    let len = rustix::fs::getxattr(&path, "user.chess-ls.note", &mut value[..]).expect("the attribute is still there");
    assert_eq!(&value[..len], b"kept");
    if root {
        let metadata = std::fs::metadata(&path).unwrap();
        assert_eq!((metadata.uid(), metadata.gid()), (4321, 4322));
    } else {
        eprintln!("not root: owner and group not tested");
    }
}

#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    // SIGTERM and SIGINT arrive while the temporary file is complete and
    // not yet in place (the hook sends them at that moment, and waits).
    for (signal, status) in [("TERM", 143), ("INT", 130)] {
        let dir = scratch(&format!("signal-{signal}"));
        let path = dir.join("games.pgn");
        let original = damaged_russian();
        std::fs::write(&path, &original).unwrap();
        let hook = hook_script(&dir, &format!("[ \"$1\" = written ] && {{ kill -{signal} $PPID; sleep 3; }}\nexit 0"));
        let started = Instant::now();
        let (code, _, stderr) = run(&[os("--fix"), path.as_os_str()], Some(&hook));
        assert_eq!(code, Some(status), "SIG{signal}: {stderr}");
        assert!(started.elapsed() < Duration::from_secs(3) || cfg!(debug_assertions), "SIG{signal} was not prompt");
        assert!(temporaries_in(&dir).is_empty(), "SIG{signal} left {:?}", temporaries_in(&dir));
        assert_eq!(std::fs::read(&path).unwrap(), original, "SIG{signal}");
    }
}

#[test]
fn links_out_of_a_searched_directory_are_neither_read_nor_written() {
    let root = scratch("links");
    let outside = root.join("outside");
    let tree = root.join("tree");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(tree.join("sub")).unwrap();
    let secret = outside.join("credentials.pgn");
    let secret_text = "[Event \"password hunter2\"]\n\n1. e4 e5 2. Kf3 *\n";
    std::fs::write(&secret, secret_text).unwrap();
    std::os::unix::fs::symlink(&secret, tree.join("p.pgn")).unwrap();
    std::os::unix::fs::symlink("../../outside/credentials.pgn", tree.join("sub/q.pgn")).unwrap();
    // A link inside the tree to a file inside it is followed, and the file
    // is checked once.
    std::fs::write(tree.join("own.pgn"), FIXABLE).unwrap();
    std::os::unix::fs::symlink("own.pgn", tree.join("alias.pgn")).unwrap();
    for args in [&["--check"][..], &["--check", "--format", "github"], &["--fix"], &["--translate", "ru", "--write"]] {
        let mut all: Vec<&std::ffi::OsStr> = args.iter().map(|a| os(a)).collect();
        all.push(tree.as_os_str());
        let (code, stdout, stderr) = run(&all, None);
        assert!(matches!(code, Some(0 | 1)), "{args:?}: {stdout}{stderr}");
        let all_output = format!("{stdout}{stderr}");
        assert!(!all_output.contains("hunter2") && !all_output.contains("credentials"), "{args:?}: {all_output}");
        assert_eq!(all_output.matches("warning: skipped 2 symbolic links").count(), 1, "{args:?}: {all_output}");
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), secret_text, "{args:?} wrote through a link");
        assert!(std::fs::symlink_metadata(tree.join("p.pgn")).unwrap().file_type().is_symlink());
        if args == ["--check"] {
            assert!(all_output.contains("checked 1 file"), "{all_output}");
        }
    }
}

#[test]
fn fix_leaves_the_findings_of_ignored_codes_as_they_are_written() {
    // Before, `--fix` fixed every certain finding, those of a code the
    // command line or `chess-ls.toml` ignores too.
    let dir = scratch("fix-ignored");
    let path = fresh_file(&dir, "a.pgn", FIXABLE.as_bytes());
    let (code, stdout, stderr) = run(&[os("--fix"), os("--ignore"), os("homoglyph"), path.as_os_str()], None);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), FIXABLE, "{stdout}{stderr}");
    assert!(!stdout.contains("homoglyph"), "an ignored code is not reported either: {stdout}");
    std::fs::write(dir.join("chess-ls.toml"), "ignore = [\"homoglyph\"]\n").unwrap();
    let (code, stdout, stderr) = run(&[os("--fix"), dir.as_os_str()], None);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), FIXABLE, "{stdout}{stderr}");
    // Without the setting it is fixed.
    std::fs::remove_file(dir.join("chess-ls.toml")).unwrap();
    let (code, stdout, stderr) = run(&[os("--fix"), path.as_os_str()], None);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_ne!(std::fs::read_to_string(&path).unwrap(), FIXABLE, "{stdout}{stderr}");
}

#[test]
fn a_panic_in_the_writer_leaves_the_file_as_it_was_and_keeps_the_others() {
    // Before, a panic in `cli/write.rs` (after the temporary file was made)
    // was not caught: the run ended with 101 and no report, and the
    // temporary file, or the original under a temporary name, was left.
    // `CHESS_LS_TEST_WRITE_PANIC=STAGE:NAME` makes one at each stage.
    let dir = scratch("writer-panic");
    for stage in ["created", "written", "exchange", "exchanged"] {
        for (args, before) in
            [(&["--fix"][..], FIXABLE), (&["--translate", "ru", "--write"], "1. e4 e5 2. Nf3 Nc6 *\n")]
        {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            for name in ["a.pgn", "b.pgn", "c.pgn"] {
                std::fs::write(dir.join(name), before).unwrap();
            }
            let output = Command::new(chess_ls_tests::binary::chess_ls())
                .args(args)
                .arg(&dir)
                .env("CHESS_LS_TEST_WRITE_PANIC", format!("{stage}:b.pgn"))
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            assert_eq!(output.status.code(), Some(2), "{stage} {args:?}: {all}");
            assert!(all.contains("an internal error stopped the write of") && all.contains("left as it was"), "{all}");
            assert_eq!(std::fs::read_to_string(dir.join("b.pgn")).unwrap(), before, "{stage} {args:?}: {all}");
            for name in ["a.pgn", "c.pgn"] {
                assert_ne!(std::fs::read_to_string(dir.join(name)).unwrap(), before, "{stage} {args:?} {name}: {all}");
            }
            assert_eq!(temporaries_in(&dir), Vec::<String>::new(), "{stage} {args:?}");
            if args[0] == "--fix" {
                assert!(all.contains("a.pgn:3:") && all.contains("c.pgn:3:"), "the others are reported: {all}");
            }
        }
    }
}

/// A `%` escapes its line only in the first column: formatting never glues
/// an escape to the `(` before it (a `;` comment it does glue), so the
/// formatted text reads as the original.
#[test]
fn formatting_keeps_an_escape_in_its_first_column() {
    let text = "1. e4 e5 (\n% a note for programs\n1... c5 2. Nf3) (;a comment\n1... e6) 2. Nf3 *\n";
    let doc = Document::open(text.to_owned(), 1, &Options::default());
    assert!(doc.sections.iter().all(|p| !p.tree(&doc).root_node().has_error()), "the example reads");
    let formatted = format_text(&doc).expect("formats");
    assert!(formatted.lines().any(|l| l == "% a note for programs"), "{formatted}");
    assert!(formatted.contains("(;a comment"), "{formatted}");
    let again = Document::open(formatted.clone(), 1, &Options::default());
    assert!(again.sections.iter().all(|p| !p.tree(&again).root_node().has_error()), "{formatted}");
    assert_eq!(findings(&formatted), findings(text));
}
