//! Archives at scale, end to end: compressed files (gzip, bzip2, xz, zstd)
//! and zip archives give the very findings of the plain files; `--fix`
//! refuses them; a text read from stdin in batches of games gives the
//! findings of the same text read whole; `chess-ls.toml` project settings
//! and the `--ignore`/`--select` flags; directory searches that respect
//! `.gitignore` and hidden files. The compressed files are made here with
//! the crates' encoders, so no binary fixture is committed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chess_ls::analysis::languages::MoveStyle;
use chess_ls_tests::generate::{RenderOptions, corpus};
use serde_json::Value;

/// A fresh, empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    crate::scratch_dir(&format!("archives/{name}"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs chess-ls in `dir`, with `stdin` as its standard input.
fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(chess_ls_tests::binary::chess_ls())
        .args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chess-ls starts");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let output = child.wait_with_output().expect("chess-ls runs");
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The JSON Lines of a run, with the file name of each replaced by `as`
/// (when given), to compare runs over differently named files.
fn findings(run: &Run, rename: Option<&str>) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|line| {
            let mut v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            if let Some(name) = rename {
                v["file"] = Value::from(name);
            }
            v
        })
        .collect()
}

/// Games with mistakes in several languages' ways: an illegal king move, a
/// blocked queen, a missing promotion piece, a Russian game.
const DAMAGED: &str = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Nf3 *\n\n\
[Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 dxc4 3. e4 Qxd1 *\n\n\
[Event \"c\"]\n[Result \"*\"]\n\n1. e4 d5 2. exd5 Кf6 3. Сb5+ Сd7 4. Сxd7+ Фxd7 5. Кe2 Фg4 *\n";

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::default()).unwrap();
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 3).unwrap()
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in members {
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file(*name, options).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn each_compression_gives_the_findings_of_the_plain_file() {
    let dir = scratch("compressed");
    std::fs::write(dir.join("games.pgn"), DAMAGED).unwrap();
    let plain = run_in(&dir, &["--check", "--format", "json", "games.pgn"], None);
    assert_eq!(plain.code, 1, "{}", plain.stderr);
    let expected = findings(&plain, None);
    assert_eq!(expected.len(), 2, "{}", plain.stdout);
    type Compress = fn(&[u8]) -> Vec<u8>;
    let made: [(&str, Compress); 4] =
        [("games.pgn.gz", gzip), ("games.pgn.bz2", bzip2), ("games.pgn.xz", xz), ("games.pgn.zst", zstd)];
    for (name, compress) in made {
        std::fs::write(dir.join(name), compress(DAMAGED.as_bytes())).unwrap();
        let run = run_in(&dir, &["--check", "--format", "json", name], None);
        assert_eq!(run.code, 1, "{name}: {}", run.stderr);
        assert_eq!(findings(&run, Some("games.pgn")), expected, "{name}");
        assert!(run.stderr.contains("checked 1 file, 3 games: 2 errors"), "{name}: {}", run.stderr);
        // By content, whatever the name, and from stdin too.
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let run = run_in(&dir, &["--check", "--format", "json", "-"], Some(&bytes));
        assert_eq!(findings(&run, Some("games.pgn")), expected, "{name} from stdin");
    }
    // A directory search finds them all, and the plain file.
    let run = run_in(&dir, &["--check", "."], None);
    assert!(run.stdout.contains("checked 5 files, 15 games: 10 errors"), "{}", run.stdout);
    // A damaged one is said to be damaged, not read as text.
    let mut broken = gzip(DAMAGED.as_bytes());
    broken.truncate(broken.len() / 2);
    std::fs::write(dir.join("broken.pgn.gz"), broken).unwrap();
    let run = run_in(&dir, &["--check", "broken.pgn.gz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("broken.pgn.gz") && run.stderr.contains("gzip"), "{}", run.stderr);
}

#[test]
fn each_member_of_a_zip_archive_is_a_file_of_its_own() {
    let dir = scratch("zip");
    let other =
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 Bg4 7. dxe5 Qxd1 8. Rxd1 fxe5 9. Rd3 Rb8 *\n";
    let clean = "[Event \"clean\"]\n\n1. e4 e5 *\n";
    std::fs::write(dir.join("twic.pgn"), DAMAGED).unwrap();
    std::fs::write(dir.join("other.pgn"), other).unwrap();
    let archive = zip(&[
        ("twic.pgn", DAMAGED.as_bytes()),
        ("readme.txt", b"not read: only .pgn members are"),
        ("sub/other.pgn", other.as_bytes()),
        ("clean.pgn.gz", &gzip(clean.as_bytes())),
    ]);
    std::fs::write(dir.join("twic.zip"), &archive).unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "twic.zip"], None);
    let found = findings(&run, None);
    let expected: Vec<Value> = [("twic.pgn", "twic.zip:twic.pgn"), ("other.pgn", "twic.zip:sub/other.pgn")]
        .iter()
        .flat_map(|(plain, member)| {
            let run = run_in(&dir, &["--check", "--format", "json", plain], None);
            findings(&run, Some(member))
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(found, expected, "{}", run.stderr);
    assert!(run.stderr.contains("checked 3 files, 5 games"), "{}", run.stderr);
    // From stdin the members are named after `-`.
    let run = run_in(&dir, &["--check", "--format", "json", "-"], Some(&archive));
    assert_eq!(found.len(), findings(&run, None).len(), "{}", run.stderr);
    assert!(run.stdout.contains("\"file\":\"-:twic.pgn\""), "{}", run.stdout);
}

#[test]
fn the_modes_that_write_refuse_compressed_files() {
    let dir = scratch("refuse");
    let bytes = gzip(DAMAGED.as_bytes());
    std::fs::write(dir.join("games.pgn.gz"), &bytes).unwrap();
    std::fs::write(dir.join("games.zip"), zip(&[("g.pgn", DAMAGED.as_bytes())])).unwrap();
    for args in
        [&["--fix", "games.pgn.gz"][..], &["--translate", "ru", "--write", "games.pgn.gz"], &["--fix", "games.zip"]]
    {
        let run = run_in(&dir, args, None);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("cannot rewrite") && run.stderr.contains("rewrites only plain files"),
            "{}",
            run.stderr
        );
    }
    assert_eq!(std::fs::read(dir.join("games.pgn.gz")).unwrap(), bytes);
    // Read, not written: the diff of the fixes of what it holds.
    let run = run_in(&dir, &["--fix", "--diff", "games.pgn.gz"], None);
    assert!(
        (run.stdout.clone() + &run.stderr).contains("checked 1 file, 3 games: 2 errors"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn a_stream_read_in_batches_gives_the_findings_of_the_whole_text() {
    // Some 20 MB: more than two batches of `--check`'s stream reader.
    let games = corpus(19, 20_000, &MoveStyle::default(), &RenderOptions::default());
    let damaged = games.replace(" Bb5 ", " Bb6 ").replace(" O-O ", " O-O-O ");
    assert!(damaged.len() > 16 << 20, "{}", damaged.len());
    let dir = scratch("stream");
    std::fs::write(dir.join("big.pgn"), &damaged).unwrap();
    let whole = run_in(&dir, &["--check", "--format", "json", "big.pgn"], None);
    let expected = findings(&whole, Some("-"));
    assert!(expected.len() > 100, "{}", expected.len());
    let streamed = run_in(&dir, &["--check", "--format", "json", "-"], Some(damaged.as_bytes()));
    assert_eq!(streamed.code, whole.code);
    let found = findings(&streamed, None);
    assert_eq!(found.len(), expected.len());
    assert!(found == expected, "the streamed findings differ from the whole file's");
    let summary = |run: &Run| run.stderr.lines().last().unwrap_or_default().split(" in ").next().unwrap().to_owned();
    assert_eq!(summary(&streamed), summary(&whole));
    // Bare games on lines of their own, too: some 10 MB, more than one
    // batch (the whole 20 MB again took a minute of the test command).
    let mut bare = String::new();
    for line in damaged.lines().filter(|l| !l.starts_with('[') && !l.is_empty()) {
        if bare.len() > 10 << 20 {
            break;
        }
        bare.push_str(line);
        bare.push('\n');
    }
    assert!(bare.len() > 8 << 20, "{} (`cli::stream::BATCH` is 8 MB)", bare.len());
    std::fs::write(dir.join("bare.pgn"), &bare).unwrap();
    let whole = run_in(&dir, &["--check", "--format", "json", "bare.pgn"], None);
    let streamed = run_in(&dir, &["--check", "--format", "json", "-"], Some(bare.as_bytes()));
    assert!(findings(&streamed, None) == findings(&whole, Some("-")), "bare games differ");
}

#[test]
fn a_project_file_sets_the_language_and_the_codes_and_flags_override_it() {
    let dir = scratch("settings");
    let sub = dir.join("ru");
    std::fs::create_dir_all(&sub).unwrap();
    // Russian letters that read as English in `auto` (С is also a Latin C
    // look-alike): with the project's language they are bishops.
    let game = "1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 4. Сa4 Кf6 5. O-O Сe7 6. Ke3 *\n";
    std::fs::write(sub.join("g.pgn"), game).unwrap();
    std::fs::write(dir.join("g.pgn"), game).unwrap();
    let before = findings(&run_in(&dir, &["--check", "--format", "json", "ru/g.pgn"], None), None);
    assert!(before.iter().any(|d| d["code"] == "illegal-move"), "{before:?}");
    std::fs::write(
        sub.join("chess-ls.toml"),
        "language = \"ru\"\nignore = [\"illegal-move\"]\n\n[severity]\nlanguage-mix = \"info\"\n",
    )
    .unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "ru/g.pgn", "g.pgn"], None);
    let after = findings(&run, None);
    assert!(!after.iter().any(|d| d["file"] == "ru/g.pgn" && d["code"] == "illegal-move"), "{after:?}");
    assert!(after.iter().any(|d| d["file"] == "g.pgn" && d["code"] == "illegal-move"), "{after:?}");
    // The flags override the file: --select keeps only what it names.
    let run = run_in(&dir, &["--check", "--format", "json", "--select", "homoglyph", "ru/g.pgn"], None);
    let selected = findings(&run, None);
    assert!(!selected.is_empty() && selected.iter().all(|d| d["code"] == "homoglyph"), "{selected:?}");
    // ... and --ignore adds to the file's, --no-config leaves it unread.
    let run = run_in(&dir, &["--check", "--format", "json", "--ignore", "illegal-move", "g.pgn"], None);
    assert!(!findings(&run, None).iter().any(|d| d["code"] == "illegal-move"));
    let run = run_in(&dir, &["--check", "--format", "json", "--no-config", "ru/g.pgn"], None);
    assert_eq!(findings(&run, None), before);
    // A mistake in the file is said, with the file's name.
    std::fs::write(sub.join("chess-ls.toml"), "ignore = [\"no-such-code\"]\n").unwrap();
    let run = run_in(&dir, &["--check", "ru/g.pgn"], None);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("chess-ls.toml") && run.stderr.contains("unknown code \"no-such-code\""),
        "{}",
        run.stderr
    );
    let run = run_in(&dir, &["--check", "--ignore", "nonsense", "g.pgn"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("unknown code \"nonsense\""), "{}", run.stderr);
}

#[test]
fn directory_searches_respect_gitignore_and_hidden_files() {
    let dir = scratch("gitignore");
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::create_dir_all(dir.join("build")).unwrap();
    std::fs::create_dir_all(dir.join(".cache")).unwrap();
    let bad = "1. e4 e5 2. Ke3 *\n";
    for name in ["a.pgn", "build/b.pgn", ".cache/c.pgn", ".d.pgn", "notes.md", "e.pgn.gz"] {
        let bytes = if name.ends_with(".gz") { gzip(bad.as_bytes()) } else { bad.as_bytes().to_vec() };
        let bytes = if name.ends_with(".md") { b"# Notes\n\n```pgn\n1. e4 e5 2. Ke3 *\n```\n".to_vec() } else { bytes };
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    std::fs::write(dir.join(".gitignore"), "build/\n").unwrap();
    let files = |run: &Run| {
        let mut files: Vec<String> =
            findings(run, None).iter().map(|d| d["file"].as_str().unwrap().to_owned()).collect();
        files.dedup();
        files
    };
    let run = run_in(&dir, &["--check", "--format", "json", "."], None);
    assert_eq!(files(&run), ["./a.pgn", "./e.pgn.gz"], "{}", run.stderr);
    let run = run_in(&dir, &["--check", "--format", "json", "--no-ignore", "."], None);
    assert_eq!(files(&run), ["./.cache/c.pgn", "./.d.pgn", "./a.pgn", "./build/b.pgn", "./e.pgn.gz"]);
    let run = run_in(&dir, &["--check", "--format", "json", "--search-manuscripts", "."], None);
    assert_eq!(files(&run), ["./a.pgn", "./e.pgn.gz", "./notes.md"]);
    std::fs::write(dir.join("chess-ls.toml"), "[manuscript]\nsearch = true\n").unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "."], None);
    assert_eq!(files(&run), ["./a.pgn", "./e.pgn.gz", "./notes.md"]);
}

#[test]
fn a_byte_that_is_not_text_late_in_a_stream_is_reported_where_it_stands() {
    // A stream decided its encoding on its first MiB and failed the whole
    // run (exit 2, no finding) at a later byte that was not valid in it.
    // Now it reads such bytes as the same file read whole does: in a UTF-8
    // text each is a syntax error at its place and the rest is checked;
    // after a MiB of ASCII, `caf\xE9` is Latin-1 or Windows-1252, as the whole
    // file's guess says.
    let game = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
    let russian = "[Event \"р\"]\n[Result \"*\"]\n\n1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 *\n\n";
    let tail = b"[Event \"z\"]\n\n1. d4 d5 2. Kd3 *\n";
    let dir = scratch("late-bytes");
    for (name, head, bad) in [
        ("utf8.pgn", russian, &b"[Event \"\xFF\"]\n\n1. e4 e5 2. Ke3 {\x00} Nc6 *\n\n"[..]),
        ("ascii.pgn", game, &b"[Event \"caf\xE9\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n"[..]),
    ] {
        let mut bytes = head.repeat(((1 << 20) + (1 << 16)) / head.len()).into_bytes();
        bytes.extend_from_slice(bad);
        bytes.extend_from_slice(game.repeat(100).as_bytes());
        bytes.extend_from_slice(tail);
        std::fs::write(dir.join(name), &bytes).unwrap();
        let whole = run_in(&dir, &["--check", "--format", "json", "--select", "syntax,illegal-move", name], None);
        assert_eq!(whole.code, 1, "{name}: {}", whole.stderr);
        let expected = findings(&whole, Some("-"));
        let codes: Vec<_> = expected.iter().map(|d| d["code"].as_str().unwrap().to_owned()).collect();
        if name == "utf8.pgn" {
            assert_eq!(codes, ["syntax", "illegal-move", "syntax", "illegal-move"], "{name}: {}", whole.stdout);
            assert!(expected[0]["message"].as_str().unwrap().starts_with("the byte 0xFF here is not valid utf-8"));
            assert!(expected[2]["message"].as_str().unwrap().starts_with("a NUL byte here is not text"));
        } else {
            assert_eq!(codes, ["illegal-move", "illegal-move"], "{name}: {}", whole.stdout);
        }
        let streamed =
            run_in(&dir, &["--check", "--format", "json", "--select", "syntax,illegal-move", "-"], Some(&bytes));
        assert_eq!(streamed.code, 1, "{name}: {}", streamed.stderr);
        assert_eq!(findings(&streamed, None), expected, "{name} from stdin");
        // Compressed, the stream is named after the file.
        std::fs::write(dir.join(format!("{name}.gz")), gzip(&bytes)).unwrap();
        let gz = format!("{name}.gz");
        let packed = run_in(&dir, &["--check", "--format", "json", "--select", "syntax,illegal-move", &gz], None);
        assert_eq!(findings(&packed, Some("-")), expected, "{name}.gz");
    }
    // A manuscript read as a stream (compressed) too.
    let mut text = "Prose about 1. e4 e5 2. Nf3 Nc6 and more.\n\n".repeat(30_000).into_bytes();
    text.extend_from_slice(b"In the caf\xC3\xA9 1. e4 e5 2. Ke3 was played, \xFF.\n\nThen 1. d4 d5 2. Kd3 was bad.\n");
    std::fs::write(dir.join("book.txt"), &text).unwrap();
    std::fs::write(dir.join("book.txt.gz"), gzip(&text)).unwrap();
    let whole = run_in(&dir, &["--check", "--format", "json", "book.txt"], None);
    let packed = run_in(&dir, &["--check", "--format", "json", "book.txt.gz"], None);
    assert_eq!(packed.code, 1, "{}", packed.stderr);
    let expected = findings(&whole, Some("book.txt.gz"));
    assert!(expected.iter().any(|d| d["message"].as_str().unwrap().starts_with("the byte 0xFF")), "{}", whole.stdout);
    assert_eq!(findings(&packed, None), expected);
    // More such bytes than a text has fail the stream, as they fail the
    // whole file: exit 2, saying why.
    let mut bytes = game.repeat((2 << 20) / game.len()).into_bytes();
    bytes.extend(std::iter::repeat_n(b"1. e4 \xFF\xFE e5 *\n".as_slice(), 1000).flatten());
    let streamed = run_in(&dir, &["--check", "-"], Some(&bytes));
    assert_eq!(streamed.code, 2, "{}", streamed.stderr);
    assert!(streamed.stderr.contains("cannot read -: "), "{}", streamed.stderr);
    std::fs::write(dir.join("many.pgn"), &bytes).unwrap();
    let whole = run_in(&dir, &["--check", "many.pgn"], None);
    assert_eq!(whole.code, 2, "{}", whole.stderr);
    // So do they after a decided UTF-8 head, with the count.
    let mut bytes = russian.repeat((2 << 20) / russian.len()).into_bytes();
    bytes.extend(std::iter::repeat_n(b"1. e4 \xFF\xFE e5 *\n".as_slice(), 1000).flatten());
    let streamed = run_in(&dir, &["--check", "-"], Some(&bytes));
    assert_eq!(streamed.code, 2, "{}", streamed.stderr);
    assert!(streamed.stderr.contains("bytes are not valid utf-8 (0xFF at offset"), "{}", streamed.stderr);
}
