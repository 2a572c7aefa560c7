//! Hostile input, third round (issue 35): archives that hide or lack
//! members, names and text that would forge output lines, settings files
//! that are huge or not the user's, writes over read-only files and stale
//! temporary names, and inputs that made `--fix`, `--fix --diff`, SARIF
//! and the stream reader quadratic. Each test fails on the code before the
//! change it backs (RELIABILITY.md, third round).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::scratch_dir(&format!("hostile3/{name}"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs chess-ls in `dir` with `args`, `stdin` as its standard input, and
/// `env` set.
fn run(dir: &Path, args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Run {
    let mut child = Command::new(chess_ls_tests::binary::chess_ls())
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chess-ls starts");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("a pipe");
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let output = child.wait_with_output().expect("chess-ls runs");
    if let Some(writer) = writer {
        writer.join().expect("the writer");
    }
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A game with an illegal move (`2. Ke3`).
const ILLEGAL: &str = "1. e4 e5 2. Ke3 *\n";

fn crc(bytes: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    crc.sum()
}

/// A stored member's local header and data.
fn local(name: &str, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
    out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
    out.extend_from_slice(&crc(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(data);
    out
}

/// A central directory entry of a stored member whose local header is at
/// `offset`.
fn central(name: &str, data: &[u8], offset: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
    out.extend_from_slice(&[20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
    out.extend_from_slice(&crc(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&(name.len() as u16).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&0o100644u32.wrapping_shl(16).to_le_bytes());
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out
}

/// The end of central directory record.
fn end(entries: usize, size: usize, offset: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(entries as u16).to_le_bytes());
    out.extend_from_slice(&(entries as u16).to_le_bytes());
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A zip archive of members (deflated), made with the zip crate.
fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in members {
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file(*name, options).expect("a member");
        w.write_all(bytes).expect("its bytes");
    }
    w.finish().expect("the archive").into_inner()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).expect("gzip");
    e.finish().expect("gzip")
}

#[test]
fn a_member_the_local_headers_hide_is_read_from_the_central_directory() {
    let dir = scratch("hidden-member");
    // A clean member, then bytes that a reader of local headers takes for
    // the central directory's start, then the member with the illegal
    // game: `unzip` and Python's zipfile extract it by the central
    // directory; a reader of local headers stops before it.
    let clean = b"1. e4 e5 *\n";
    let mut bytes = local("clean.pgn", clean);
    bytes.extend_from_slice(b"PK\x01\x02 not the central directory");
    let hidden_at = bytes.len();
    bytes.extend_from_slice(&local("hidden.pgn", ILLEGAL.as_bytes()));
    let cd_at = bytes.len();
    let cd = [central("clean.pgn", clean, 0), central("hidden.pgn", ILLEGAL.as_bytes(), hidden_at)].concat();
    bytes.extend_from_slice(&cd);
    bytes.extend_from_slice(&end(2, cd.len(), cd_at));
    std::fs::write(dir.join("book.zip"), &bytes).unwrap();
    let out = run(&dir, &["--check", "--format", "json", "book.zip"], None, &[]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("book.zip:hidden.pgn") && out.stdout.contains("illegal-move"), "{}", out.stdout);

    // A member inside another's data: refused as overlapping (a zip bomb
    // of overlapping members expands without end), never clean.
    let inner = local("hidden.pgn", ILLEGAL.as_bytes());
    let mut bytes = local("readme.pgn", &inner);
    let cd_at = bytes.len();
    let cd =
        [central("readme.pgn", &inner, 0), central("hidden.pgn", ILLEGAL.as_bytes(), 30 + "readme.pgn".len())].concat();
    bytes.extend_from_slice(&cd);
    bytes.extend_from_slice(&end(2, cd.len(), cd_at));
    std::fs::write(dir.join("overlap.zip"), &bytes).unwrap();
    let out = run(&dir, &["--check", "overlap.zip"], None, &[]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("members overlap"), "{}", out.stderr);
}

#[test]
fn an_archive_with_nothing_to_check_fails_as_an_empty_directory_does() {
    let dir = scratch("nothing-to-check");
    let inner = zip(&[("games.pgn", ILLEGAL.as_bytes())]);
    std::fs::write(dir.join("readme.zip"), zip(&[("readme.txt", b"no games here")])).unwrap();
    std::fs::write(dir.join("nested.zip"), zip(&[("inner.zip", &inner)])).unwrap();
    for name in ["readme.zip", "nested.zip"] {
        let out = run(&dir, &["--check", name], None, &[]);
        assert_eq!(out.code, 2, "{name}: {}{}", out.stdout, out.stderr);
        assert!(out.stderr.contains("nothing was checked"), "{name}: {}", out.stderr);
        // The same archive through a pipe.
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let out = run(&dir, &["--check", "-"], Some(&bytes), &[]);
        assert_eq!(out.code, 2, "{name} on stdin: {}{}", out.stdout, out.stderr);
    }
}

#[test]
fn sarif_names_members_inside_their_archive() {
    let dir = scratch("sarif-members");
    let members: Vec<(String, &[u8])> = ["../../etc/x.pgn", "/abs/y.pgn", "dir/./ok.pgn", "a/../../z.pgn"]
        .iter()
        .map(|n| (n.to_string(), ILLEGAL.as_bytes()))
        .chain((0..3000).map(|i| (format!("m{i}.pgn"), ILLEGAL.as_bytes())))
        .collect();
    let refs: Vec<(&str, &[u8])> = members.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    std::fs::write(dir.join("book.zip"), zip(&refs)).unwrap();
    let out = run(&dir, &["--check", "--format", "sarif", "book.zip"], None, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let log: Value = serde_json::from_str(&out.stdout).expect("a SARIF log");
    let artifacts = log["runs"][0]["artifacts"].as_array().expect("artifacts");
    assert_eq!(artifacts.len(), members.len());
    for artifact in artifacts {
        let uri = artifact["location"]["uri"].as_str().expect("a URI");
        // One segment after the archive: nothing for `..` to climb out of.
        let member = uri.strip_prefix("book.zip%3A").unwrap_or_else(|| panic!("{uri}"));
        assert!(!member.contains('/'), "{uri}");
    }
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().all(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["index"].is_u64()));
}

#[test]
fn gzip_errors_are_named_for_what_failed_and_padding_and_stubs_are_read() {
    let dir = scratch("gzip");
    // The gzip is valid; its text is not UTF-8 (nor any 8-bit text).
    let mut text = vec![0xFFu8; 4000];
    text.extend_from_slice(ILLEGAL.as_bytes());
    std::fs::write(dir.join("bad-text.pgn.gz"), gzip(&text)).unwrap();
    let out = run(&dir, &["--check", "--encoding", "utf-8", "bad-text.pgn.gz"], None, &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(!out.stderr.contains("not a valid gzip"), "{}", out.stderr);
    // A damaged gzip is still called one.
    let mut damaged = gzip(ILLEGAL.as_bytes());
    let half = damaged.len() / 2;
    damaged[half..].fill(0x55);
    std::fs::write(dir.join("damaged.pgn.gz"), damaged).unwrap();
    let out = run(&dir, &["--check", "damaged.pgn.gz"], None, &[]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("not a valid gzip file"), "{}", out.stderr);
    // Zero padding after the last member, as `gzip -t` accepts it.
    let padded = [gzip(ILLEGAL.as_bytes()), vec![0; 4096]].concat();
    std::fs::write(dir.join("padded.pgn.gz"), padded).unwrap();
    let out = run(&dir, &["--check", "--format", "json", "padded.pgn.gz"], None, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("illegal-move"), "{}", out.stdout);
    // A zip behind a stub (a self-extracting archive), as unzip reads it.
    let stub =
        [b"MZ stub of a self-extracting archive ".repeat(30), zip(&[("games.pgn", ILLEGAL.as_bytes())])].concat();
    std::fs::write(dir.join("sfx.zip"), stub).unwrap();
    let out = run(&dir, &["--check", "--format", "json", "sfx.zip"], None, &[]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.contains("sfx.zip:games.pgn"), "{}", out.stdout);
}

#[test]
fn a_read_only_file_is_not_rewritten() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("read-only");
    // A look-alike Cyrillic `е`: a certain fix.
    let text = "1. е4 e5 2. Nf3 Nc6 *\n";
    for args in [&["--fix", "game.pgn"][..], &["--translate", "ru", "--write", "game.pgn"]] {
        let path = dir.join("game.pgn");
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644));
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let out = run(&dir, args, None, &[]);
        assert_eq!(out.code, 2, "{args:?}: {}{}", out.stdout, out.stderr);
        assert!(out.stderr.contains("read-only"), "{args:?}: {}", out.stderr);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{args:?}");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o444);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
}

/// `n` games, each with one certain fix (a look-alike Cyrillic `е`).
fn games_with_a_fix_each(n: usize) -> String {
    (0..n).map(|i| format!("[Event \"{i}\"]\n\n1. е4 e5 2. Nf3 Nc6 *\n\n")).collect()
}

#[test]
fn fix_and_its_diff_take_every_fix_of_many_games() {
    let dir = scratch("many-fixes");
    let text = games_with_a_fix_each(3000);
    std::fs::write(dir.join("games.pgn"), &text).unwrap();
    let diff = run(&dir, &["--fix", "--diff", "games.pgn"], None, &[]);
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert!(diff.stderr.contains("would fix 3000 problems"), "{}", diff.stderr);
    // The diff is one `patch` applies, and gives what --fix writes.
    std::fs::write(dir.join("games.diff"), &diff.stdout).unwrap();
    std::fs::copy(dir.join("games.pgn"), dir.join("patched.pgn")).unwrap();
    let status = Command::new("patch").arg("-s").arg(dir.join("patched.pgn")).arg(dir.join("games.diff")).status();
    let fixed = run(&dir, &["--fix", "games.pgn"], None, &[]);
    assert_eq!(fixed.code, 0, "{}{}", fixed.stdout, fixed.stderr);
    let written = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(written, text.replace('е', "e"));
    if let Ok(status) = status {
        assert!(status.success());
        assert_eq!(std::fs::read_to_string(dir.join("patched.pgn")).unwrap(), written);
    }
}

/// The characters no line of output may carry as they are: ESC, the C1
/// controls, the bidirectional controls.
fn has_terminal_control(text: &str) -> bool {
    text.chars().any(|c| {
        c == '\u{1b}'
            || ('\u{80}'..='\u{9f}').contains(&c)
            || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    })
}

/// The lines a log viewer or a GitHub Actions runner would see (every line
/// break a terminal or the runner honours), and that of them which a runner
/// would read as a workflow command it was not meant to.
fn forged_lines(text: &str, github: bool) -> Vec<String> {
    text.split(['\n', '\r', '\u{0b}', '\u{0c}', '\u{85}', '\u{2028}', '\u{2029}'])
        .filter(|line| {
            let line = line.trim_start();
            let legit =
                github && ["::error file=", "::warning file=", "::notice file="].iter().any(|c| line.starts_with(c));
            (line.starts_with("::") && !legit) || line.contains("##[")
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn names_tags_and_settings_cannot_forge_a_line_a_command_or_an_escape() {
    let dir = scratch("forged-lines");
    let games = dir.join("games");
    std::fs::create_dir_all(&games).unwrap();
    for name in [
        "a\n::error::forged by a name.pgn",
        "b\u{1b}[2J\u{1b}]0;title\u{7}.pgn",
        "c\u{202e}gnp.exe.pgn",
        "d\r::error::cr.pgn",
        "e ##[error]old.pgn",
    ] {
        std::fs::write(games.join(name), ILLEGAL).unwrap();
    }
    std::fs::write(
        games.join("tags.pgn"),
        "[Event \"x\r::error::forged by a tag\"]\n[Site \"\u{1b}[31m\u{9b}1m\u{202e}\"]\n\n1. e4 e5 2. Ke3 {\n::error::forged by a comment\n",
    )
    .unwrap();
    std::fs::write(games.join("book.zip"), zip(&[("m\n::error::forged by a member.pgn", ILLEGAL.as_bytes())])).unwrap();
    // A settings file whose values forge lines in the errors that quote them.
    let settings = dir.join("settings");
    std::fs::create_dir_all(&settings).unwrap();
    std::fs::write(
        settings.join("chess-ls.toml"),
        "language = \"\\u001b[2J\\n::error::forged by a setting\"\nignore = [\"\\r::error::code\"]\n",
    )
    .unwrap();
    std::fs::write(settings.join("game.pgn"), ILLEGAL).unwrap();
    // And --fix's notes name the files they fix.
    let fixes = dir.join("fixes");
    std::fs::create_dir_all(&fixes).unwrap();
    for format in ["human", "json", "github", "sarif"] {
        std::fs::write(fixes.join("f\n::error::forged by a fixed file.pgn"), "1. е4 e5 *\n").unwrap();
        let runs = [
            run(&dir, &["--check", "--format", format, "games"], None, &[]),
            run(&dir, &["--check", "--format", format, "settings/game.pgn"], None, &[]),
            run(&dir, &["--fix", "--format", format, "fixes"], None, &[]),
        ];
        for (i, out) in runs.iter().enumerate() {
            assert!(out.code == 1 || out.code == 2 || i == 2, "{format} {i}: {}{}", out.stdout, out.stderr);
            for (stream, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
                assert!(!has_terminal_control(text), "{format} {i} {stream}: {text:?}");
                let forged = forged_lines(text, format == "github" && stream == "stdout");
                assert!(forged.is_empty(), "{format} {i} {stream}: {forged:?}\n{text}");
            }
        }
        assert!(runs[1].stderr.contains("unknown language"), "{}", runs[1].stderr);
        if format == "json" {
            // JSON keeps the names whole, as escapes.
            let names: Vec<String> = runs[0]
                .stdout
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()["file"].as_str().unwrap().to_owned())
                .collect();
            assert!(names.iter().any(|n| n.contains("b\u{1b}[2J")), "{names:?}");
            assert!(names.iter().any(|n| n.contains("c\u{202e}gnp")), "{names:?}");
        }
    }
}

#[test]
fn settings_values_are_quoted_in_part_and_a_settings_file_is_bounded() {
    let dir = scratch("big-settings");
    std::fs::write(dir.join("game.pgn"), ILLEGAL).unwrap();
    let long = "x".repeat(60_000);
    let cases = [
        format!("language = \"{long}\"\n"),
        format!("ignore = [\"{long}\"]\n"),
        format!("encoding = \"{long}\"\n"),
        format!("[severity]\nsyntax = \"{long}\"\n"),
        format!("language = {long}\n"),
        format!("{long} = 1\n"),
        // 16 MB: past the bound on a settings file.
        format!("language = \"{}\"\n", "x".repeat(16 << 20)),
    ];
    for (i, settings) in cases.iter().enumerate() {
        std::fs::write(dir.join("chess-ls.toml"), settings).unwrap();
        let out = run(&dir, &["--check", "game.pgn"], None, &[]);
        assert_eq!(out.code, 2, "{i}: {}", out.stderr);
        assert!(out.stderr.contains("chess-ls.toml"), "{i}: {}", out.stderr);
        assert!(out.stderr.len() < 2000, "{i}: {} bytes of stderr: {}", out.stderr.len(), &out.stderr[..2000]);
    }
    assert!(run(&dir, &["--check", "game.pgn"], None, &[]).stderr.contains("larger than a settings file may be"));
}

#[test]
fn a_settings_file_of_another_user_is_not_applied_silently() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("foreign-settings");
    std::fs::write(dir.join("game.pgn"), ILLEGAL).unwrap();
    let settings = dir.join("chess-ls.toml");
    // It would hide every illegal move.
    std::fs::write(&settings, "ignore = [\"illegal-move\"]\n").unwrap();
    let mine = run(&dir, &["--check", "game.pgn"], None, &[]);
    assert_eq!(mine.code, 0, "the user's own file applies: {}{}", mine.stdout, mine.stderr);
    let other = std::fs::metadata(&dir).unwrap().uid() + 4242;
    if Command::new("chown").arg(other.to_string()).arg(&settings).status().map_or(true, |s| !s.success()) {
        eprintln!("note: cannot give a file to another user here (not root); the rest is skipped");
        return;
    }
    let out = run(&dir, &["--check", "game.pgn"], None, &[]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("owned by another user") && out.stderr.contains("CHESS_LS_SAFE_SETTINGS"),
        "{}",
        out.stderr
    );
    // --fix does not act on it either.
    let out = run(&dir, &["--fix", "game.pgn"], None, &[]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    // Allowed by name, by its directory, or all.
    for allow in [settings.display().to_string(), dir.display().to_string(), "*".to_owned()] {
        let out = run(&dir, &["--check", "game.pgn"], None, &[("CHESS_LS_SAFE_SETTINGS", &allow)]);
        assert_eq!(out.code, 0, "{allow}: {}{}", out.stdout, out.stderr);
    }
    // --no-config reads none: the illegal move is found.
    assert_eq!(run(&dir, &["--check", "--no-config", "game.pgn"], None, &[]).code, 1);
}

#[test]
fn an_absurd_number_of_threads_is_bounded() {
    let dir = scratch("threads");
    std::fs::write(dir.join("game.pgn"), ILLEGAL).unwrap();
    // Before, a billion threads were started one by one: no answer in
    // minutes. A run that still goes after 60 s hangs.
    let mut child = Command::new(chess_ls_tests::binary::chess_ls())
        .args(["--check", "--threads", "1000000000", "game.pgn"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chess-ls starts");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("--threads 1000000000 still starting threads after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1));
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("more than this machine can use"), "{stderr}");
}

#[test]
fn semantic_tokens_of_a_huge_document_are_bounded_as_ranges_are() {
    use chess_ls::analysis::Options;
    use chess_ls::ide::document::Document;
    use chess_ls::ide::line_index::Unit;
    use chess_ls::lsp::handlers::semantic_tokens;
    use tower_lsp_server::ls_types::SemanticTokensRangeResult;
    // 4 MB of games: a client without range support asked for all of it
    // (a 100 MB document took 7.9 GB and 50 s), and a range over the whole
    // document cost the same.
    let game = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
    let text = game.repeat((4 << 20) / game.len());
    let lines = text.lines().count() as u32;
    let doc = Document::open(text.clone(), 1, &Options::default());
    let snap = chess_ls::ide::Snapshot::new(std::sync::Arc::new(doc), chess_ls::ide::cancel::Token::never());
    let last_line = |data: &[tower_lsp_server::ls_types::SemanticToken]| data.iter().map(|t| t.delta_line).sum::<u32>();
    let (full, _) = semantic_tokens::full(&snap, Unit::Utf16, "1".into());
    let shown = last_line(&full.data);
    assert!(shown > 0 && shown < lines / 4, "tokens up to line {shown} of {lines}");
    let Some(SemanticTokensRangeResult::Tokens(range)) = semantic_tokens::range(&snap, 0..text.len(), Unit::Utf16)
    else {
        panic!("tokens");
    };
    assert!(last_line(&range.data) < lines / 4);
    // A range of a few lines is answered whole, wherever it is.
    let middle = text.len() / 2;
    let Some(SemanticTokensRangeResult::Tokens(small)) =
        semantic_tokens::range(&snap, middle..middle + 1000, Unit::Utf16)
    else {
        panic!("tokens");
    };
    assert!(!small.data.is_empty());
}

#[test]
fn an_unchanged_or_invalid_configuration_analyses_nothing_again() {
    use chess_ls_tests::lsp_client::Client;
    use serde_json::json;
    const URI: &str = "file:///tmp/hostile3/config.pgn";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, ILLEGAL);
    let _ = client.diagnostics(URI, 1);
    // Garbage, the same values again, and what only hovers and formatting
    // read: before, each analysed every open document again under the
    // state's lock and published its diagnostics.
    for settings in [
        json!(null),
        json!("garbage"),
        json!({"chess-ls": {"language": "no-such-language", "reportMissingCheckMarks": "yes"}}),
        json!({"chess-ls": {"language": "auto", "reportMissingCheckMarks": false}}),
        json!({"chess-ls": {"boardStyle": "letters", "formatWidth": 60}}),
    ] {
        client.notify("workspace/didChangeConfiguration", json!({ "settings": settings }));
    }
    // Then one that changes the analysis: its diagnostics are the only ones.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"chess-ls": {"reportMissingCheckMarks": true}}}),
    );
    let _ = client.diagnostics(URI, 1);
    // Anything published late would be here after a round trip.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let _ = client
        .call("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 1}}));
    let more = client.notifications.iter().filter(|n| n["method"] == "textDocument/publishDiagnostics").count();
    assert_eq!(more, 0, "{:?}", client.notifications);
    assert!(client.shutdown().success());
}

#[test]
fn a_request_nested_deeper_than_the_parser_goes_gets_an_error_response() {
    use chess_ls_tests::lsp_client::Client;
    use serde_json::json;
    const URI: &str = "file:///tmp/hostile3/nested.pgn";
    let mut client = Client::start();
    client.initialize(&[], json!({}));
    client.open(URI, ILLEGAL);
    let _ = client.diagnostics(URI, 1);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    client
        .send_raw(format!(r#"{{"jsonrpc":"2.0","method":"textDocument/hover","params":{deep},"id":4242}}"#).as_bytes());
    let answer = client.wait_for(|m| m["id"] == 4242).expect("an answer, not silence");
    assert!(answer["error"].is_object(), "{answer}");
    // The session goes on.
    let _ = client
        .call("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 1}}));
    assert!(client.shutdown().success());
}

#[test]
fn running_out_of_memory_is_an_error_with_nothing_half_written() {
    let dir = scratch("memory-limit");
    // 32 MB of games with a certain fix in each: `--fix` holds some 22 times
    // its file, far above the 300 MB of address space the run gets.
    let game = "[Event \"x\"]\n\n1. е4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
    let text = game.repeat((32 << 20) / game.len());
    std::fs::write(dir.join("big.pgn"), &text).unwrap();
    let binary = chess_ls_tests::binary::chess_ls();
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 300000 && exec \"$0\" --fix big.pgn")
        .arg(&binary)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    // Before, Rust aborted: status 134 (SIGABRT), "memory allocation of N
    // bytes failed".
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("error: out of memory"), "{stderr}");
    assert!(std::fs::read(dir.join("big.pgn")).unwrap() == text.as_bytes(), "the file is as it was");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.len() <= 2, "at most a temporary file is left beside it: {left:?}");
}
