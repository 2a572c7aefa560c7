//! One engine for every front end: for every file of the project's own
//! fixtures and for generated games in every language, notation and format
//! (PGN, Markdown, LaTeX, plain text), each with LF, CRLF and lone CR line
//! ends, and with faults injected, the diagnostics the language server
//! publishes on open are those of `chess-ls --check` (code, start line and
//! column, in UTF-32 positions), and `--fix` after the server's "fix all"
//! ends where `--fix` alone ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls_tests::binary::chess_ls;
use chess_ls_tests::generate::{RenderOptions, SplitMix64, corpus};
use chess_ls_tests::lsp_client::Client;
use chess_ls_tests::manuscript::{Layout, book};
use serde_json::{Value, json};

/// A finding as both front ends can say it: code, 1-based line and column
/// (Unicode scalar values).
type Finding = (String, u64, u64);

/// The texts to compare, each with its file name (the extension says how
/// it is read).
fn texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![fixtures.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixtures").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Some(ext) = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase) else { continue };
            if !["pgn", "md", "tex", "txt"].contains(&ext.as_str()) {
                continue;
            }
            // The server is handed text; a file in another encoding is the
            // command line's business alone (tested in cli_publisher).
            let Ok(text) = String::from_utf8(std::fs::read(&path).expect("read")) else { continue };
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_owned();
            let name = path.strip_prefix(&fixtures).unwrap().to_string_lossy().replace(['/', '\\'], "_");
            out.push((format!("fixture_{}.{ext}", name.rsplit_once('.').unwrap().0), text));
        }
    }
    let mut rng = SplitMix64::new(0x5eed);
    for (i, language) in Language::ALL.into_iter().enumerate() {
        let mut style = MoveStyle::for_language(language);
        let clean = corpus(100 + i as u64, 4, &style, &RenderOptions::default());
        out.push((format!("gen_{}.pgn", language.code()), clean.clone()));
        out.push((format!("gen_{}_faults.pgn", language.code()), with_faults(&clean, &mut rng)));
        style.long = true;
        let long = corpus(200 + i as u64, 2, &style, &RenderOptions::default());
        out.push((format!("gen_{}_long.pgn", language.code()), with_faults(&long, &mut rng)));
    }
    for (i, language) in [Language::En, Language::Ru, Language::Uk, Language::De, Language::Fr, Language::Figurine]
        .into_iter()
        .enumerate()
    {
        for layout in [Layout::Text, Layout::Markdown, Layout::Latex] {
            let written = book(300 + i as u64, 3000, language, layout).text;
            let name = format!("book_{}.{}", language.code(), layout.extension());
            out.push((name.replace(".", "_faults."), with_faults(&written, &mut rng)));
            out.push((name, written));
        }
    }
    // Every text with each kind of line end.
    let mut all = Vec::new();
    for (name, text) in out {
        let lf = text.replace("\r\n", "\n").replace('\r', "\n");
        let (stem, ext) = name.rsplit_once('.').unwrap();
        all.push((format!("{stem}_crlf.{ext}"), lf.replace('\n', "\r\n")));
        all.push((format!("{stem}_cr.{ext}"), lf.replace('\n', "\r")));
        all.push((name, text));
    }
    all
}

/// Damage of the kinds every front end must see alike: a look-alike in a
/// square, a wrong check mark, a move number off by one, a piece sent
/// where it cannot go.
fn with_faults(text: &str, rng: &mut SplitMix64) -> String {
    let mut out = text.to_owned();
    for _ in 0..6 {
        let candidates: Vec<usize> = out
            .char_indices()
            .filter(|&(i, c)| matches!(c, 'a'..='h') && out[i + 1..].starts_with(|d: char| ('1'..='8').contains(&d)))
            .map(|(i, _)| i)
            .collect();
        if candidates.is_empty() {
            break;
        }
        let at = candidates[rng.below(candidates.len())];
        let rank_at = at + 1;
        let replacement = match rng.below(4) {
            0 if out[at..].starts_with('e') => "е".to_owned() + &out[rank_at..rank_at + 1],
            1 => format!("{}+", &out[at..rank_at + 1]),
            2 => {
                let rank = out.as_bytes()[rank_at];
                format!("{}{}", &out[at..rank_at], if rank == b'8' { '1' } else { (rank + 1) as char })
            }
            _ => format!("{}{}", if out[at..].starts_with('a') { 'h' } else { 'a' }, &out[rank_at..rank_at + 1]),
        };
        out.replace_range(at..rank_at + 1, &replacement);
    }
    out
}

fn language_id(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, e)| e) {
        Some("md") => "markdown",
        Some("tex") => "latex",
        Some("txt") => "plaintext",
        _ => "pgn",
    }
}

/// Writes the texts into a fresh directory; returns their paths.
fn write_all(dir: &Path, texts: &[(String, String)]) -> Vec<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("mkdir");
    texts
        .iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("write");
            path
        })
        .collect()
}

/// What `--check --format json` reports, by file name.
fn cli_findings(paths: &[PathBuf]) -> BTreeMap<String, Vec<Finding>> {
    let out = Command::new(chess_ls()).args(["--check", "--format", "json"]).args(paths).output().expect("runs");
    let mut found: BTreeMap<String, Vec<Finding>> = BTreeMap::new();
    for line in String::from_utf8(out.stdout).expect("UTF-8").lines() {
        let d: Value = serde_json::from_str(line).expect("JSON Lines");
        let file = Path::new(d["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
        let finding =
            (d["code"].as_str().unwrap().to_owned(), d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap());
        found.entry(file).or_default().push(finding);
    }
    found
}

fn uri_of(name: &str) -> String {
    format!("file:///agreement/{name}")
}

/// A client that speaks UTF-32 columns, with every text open.
fn open_all(texts: &[(String, String)]) -> Client {
    let mut client = Client::start();
    let init = client.initialize(&["utf-32"], json!({}));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-32");
    for (name, text) in texts {
        client.open_as(&uri_of(name), language_id(name), text);
    }
    client
}

#[test]
fn the_server_publishes_what_check_reports_for_every_text() {
    let texts = texts();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("agreement-check");
    let paths = write_all(&dir, &texts);
    let cli = cli_findings(&paths);
    let mut client = open_all(&texts);
    let mut compared = 0;
    let mut with_findings = 0;
    for (name, _) in &texts {
        let published = client.diagnostics(&uri_of(name), 1);
        let server: Vec<Finding> = published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let start = &d["range"]["start"];
                (
                    d["code"].as_str().unwrap().to_owned(),
                    start["line"].as_u64().unwrap() + 1,
                    start["character"].as_u64().unwrap() + 1,
                )
            })
            .collect();
        let from_cli = cli.get(name).cloned().unwrap_or_default();
        assert_eq!(server, from_cli, "{name}: the server published other findings than --check");
        compared += 1;
        with_findings += usize::from(!server.is_empty());
    }
    // The comparison is not vacuous: most damaged texts have findings.
    assert!(compared > 150 && with_findings > 60, "{compared} texts, {with_findings} with findings");
    client.shutdown();
}

/// Applies LSP text edits (UTF-32 columns; lines end at `\n`, `\r\n` or a
/// lone `\r`) to a text.
fn apply_lsp_edits(text: &str, edits: &[Value]) -> String {
    let mut line_starts = vec![0];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
        }
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            line_starts.push(i + 1);
        }
        i += 1;
    }
    let offset = |p: &Value| {
        let start = line_starts[p["line"].as_u64().unwrap() as usize];
        let column = p["character"].as_u64().unwrap() as usize;
        start + text[start..].chars().take(column).map(char::len_utf8).sum::<usize>()
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| (offset(&e["range"]["start"]), offset(&e["range"]["end"]), e["newText"].as_str().unwrap()))
        .collect();
    spans.sort();
    let mut out = text.to_owned();
    for (start, end, new) in spans.into_iter().rev() {
        out.replace_range(start..end, new);
    }
    out
}

#[test]
fn fixing_in_the_editor_then_with_fix_ends_where_fix_alone_ends() {
    let texts = texts();
    let mut client = open_all(&texts);
    let mut after_fix_all = Vec::new();
    let mut fixed_in_editor = 0;
    for (name, text) in &texts {
        let uri = uri_of(name);
        client.diagnostics(&uri, 1);
        let actions = client.call(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                "context": {"diagnostics": [], "only": ["source.fixAll.chess-ls"]},
            }),
        );
        let edits: Vec<Value> = actions
            .as_array()
            .into_iter()
            .flatten()
            .filter(|a| a["kind"] == "source.fixAll.chess-ls")
            .flat_map(|a| a["edit"]["changes"][&uri].as_array().cloned().unwrap_or_default())
            .collect();
        fixed_in_editor += usize::from(!edits.is_empty());
        after_fix_all.push((name.clone(), apply_lsp_edits(text, &edits)));
    }
    client.shutdown();
    assert!(fixed_in_editor > 30, "only {fixed_in_editor} texts had certain fixes");

    let fix = |dir: &str, texts: &[(String, String)]| -> Vec<String> {
        let paths = write_all(&Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir), texts);
        Command::new(chess_ls()).args(["--check", "--fix"]).args(&paths).output().expect("runs");
        paths.iter().map(|p| std::fs::read_to_string(p).expect("read")).collect()
    };
    let alone = fix("agreement-fix-alone", &texts);
    let after = fix("agreement-fix-after-editor", &after_fix_all);
    for (((name, _), a), b) in texts.iter().zip(&alone).zip(&after) {
        assert_eq!(a, b, "{name}: --fix after the editor's fix-all ends elsewhere than --fix alone");
    }
}

/// Requests read snapshots: an edit sent while a slow request runs is
/// applied at once and its diagnostics are published before the slow
/// request answers (which, its version being stale, may answer "content
/// modified").
#[test]
fn an_edit_during_a_slow_request_is_published_first() {
    let style = MoveStyle::for_language(Language::En);
    let text = corpus(7, 3000, &style, &RenderOptions::default());
    let uri = "file:///agreement/slow.pgn";
    let mut client = Client::start();
    client.initialize(&["utf-16"], json!({}));
    client.open(uri, &text);
    let first = client.diagnostics(uri, 1);
    assert_eq!(first["diagnostics"].as_array().unwrap().len(), 0);
    // The whole document's semantic tokens (some megabytes of answer), then
    // at once an edit that makes the first move illegal.
    let slow = client.send_request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
    let at = text.find("e4").or_else(|| text.find("d4")).expect("a pawn move");
    let line = text[..at].matches('\n').count() as u32;
    let character = (at - text[..at].rfind('\n').map_or(0, |n| n + 1)) as u32;
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{
                "range": {"start": {"line": line, "character": character + 1}, "end": {"line": line, "character": character + 2}},
                "text": "6",
            }],
        }),
    );
    let mut order = Vec::new();
    while order.len() < 2 {
        let message = client.next_message().expect("the server answers");
        if message["method"] == "textDocument/publishDiagnostics" && message["params"]["version"] == 2 {
            assert!(!message["params"]["diagnostics"].as_array().unwrap().is_empty(), "the illegal move is found");
            order.push("diagnostics");
        } else if message["id"] == slow && message.get("method").is_none() {
            let cancelled = message["error"]["code"] == -32801;
            assert!(cancelled || message["result"]["data"].is_array(), "{message}");
            order.push("slow request");
        }
    }
    assert_eq!(order, ["diagnostics", "slow request"]);
    client.shutdown();
}

/// Translation changes the letters and nothing else: generated English
/// games with faults injected, translated into Russian and back, come back
/// byte for byte (issue 15), and so do the other languages through English.
#[test]
fn translation_there_and_back_gives_the_text_back() {
    use chess_ls::analysis::Options;
    use chess_ls::analysis::rewrite::Rewrite;
    use chess_ls::ide::Batch;
    use chess_ls::ide::document::Kind;
    use chess_ls::ide::settings::Filter;
    let mut rng = SplitMix64::new(77);
    for (i, language) in Language::ALL.into_iter().enumerate() {
        let mut style = MoveStyle::for_language(language);
        for long in [false, true] {
            style.long = long;
            let text = with_faults(&corpus(500 + i as u64, 6, &style, &RenderOptions::default()), &mut rng);
            let options = Options { language: Some(language), ..Options::default() };
            let other = if language == Language::Ru { Language::En } else { Language::Ru };
            let there =
                Batch::new(&options, &Filter::default()).rewrite(&text, Kind::Pgn, Rewrite::Translate(other)).text;
            assert_ne!(there, text, "{language:?}: something was translated");
            let options = Options { language: Some(other), ..Options::default() };
            let back =
                Batch::new(&options, &Filter::default()).rewrite(&there, Kind::Pgn, Rewrite::Translate(language)).text;
            assert_eq!(back, text, "{language:?} (long: {long}) -> {other:?} -> back");
        }
    }
}

/// The `chess-ls.toml` files of [`every_setting_means_the_same_in_the_editor_and_with_check`]:
/// every key of the file, alone and together (none first: the findings
/// every other is held against).
const SETTINGS_FILES: &[&str] = &[
    "",
    "ignore = [\"check-mark\"]\n",
    "ignore = [\"homoglyph\", \"move-number\"]\n",
    "select = [\"illegal-move\", \"syntax\"]\n",
    "select = [\"check-mark\", \"move-number\", \"homoglyph\"]\n",
    "[severity]\nmove-number = \"info\"\ncheck-mark = \"error\"\nillegal-move = \"warning\"\n",
    "language = \"de\"\n",
    "language = \"auto\"\nmissing-check-marks = true\n",
    "missing-capture-signs = true\n",
    "encoding = \"utf-8\"\n",
    "[manuscript]\nsearch = true\n",
    "[manuscript]\nall = true\n",
    "[normalize]\ncastling = \"0-0\"\n",
    "ignore = [\"tag\"]\nmissing-check-marks = true\nmissing-capture-signs = true\nselect = [\"check-mark\", \"capture-mark\", \"illegal-move\", \"ambiguous-move\"]\n[severity]\ncapture-mark = \"hint\"\n",
];

/// A finding with its severity, as both front ends say it.
type Reported = (String, u64, u64, String);

fn lsp_severity(n: &Value) -> String {
    match n.as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "info",
        _ => "hint",
    }
    .to_owned()
}

/// Under a project file of every key, the editor and the command line
/// agree on everything the file changes: the findings and their
/// severities, the quick-fixes offered (only for findings reported), what
/// Fix All leaves for `--fix`, and the findings hovers and the board view
/// name (`chess-ls.toml` with `ignore = ["check-mark"]` once showed no
/// finding but still offered, and Fix All applied, the removal of the mark).
#[test]
fn every_setting_means_the_same_in_the_editor_and_with_check() {
    let mut rng = SplitMix64::new(0x5e77);
    let mut texts: Vec<(String, String)> = Vec::new();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for name in
        ["ru-errors.pgn", "cli/ru-warnings.pgn", "manuscripts/en.md", "manuscripts/de.tex", "manuscripts/ru.txt"]
    {
        let text = std::fs::read_to_string(fixtures.join(name)).expect("fixture");
        texts.push((name.replace('/', "_"), text));
    }
    for (i, language) in [Language::En, Language::Ru, Language::De].into_iter().enumerate() {
        let style = MoveStyle::for_language(language);
        let clean = corpus(400 + i as u64, 3, &style, &RenderOptions::default());
        texts.push((format!("gen_{}_faults.pgn", language.code()), with_faults(&clean, &mut rng)));
        let written = book(500 + i as u64, 2000, language, Layout::Markdown).text;
        texts.push((format!("book_{}_faults.md", language.code()), with_faults(&written, &mut rng)));
    }
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("agreement-settings");
    let _ = std::fs::remove_dir_all(&root);
    let mut client = Client::start();
    client.initialize(&["utf-32"], json!({}));
    // Where the findings stand with no settings: the places hovered.
    let mut probes: BTreeMap<String, Vec<(u64, u64)>> = BTreeMap::new();
    let mut changed_by_settings = 0;
    let mut baseline: BTreeMap<String, Vec<Reported>> = BTreeMap::new();
    for (n, settings) in SETTINGS_FILES.iter().enumerate() {
        let dir = root.join(format!("s{n}"));
        let paths = write_all(&dir, &texts);
        if !settings.is_empty() {
            std::fs::write(dir.join("chess-ls.toml"), settings).expect("write settings");
        }
        let out = Command::new(chess_ls()).args(["--check", "--format", "json"]).args(&paths).output().expect("runs");
        assert!(out.status.code().is_some_and(|c| c < 2), "{settings}: {}", String::from_utf8_lossy(&out.stderr));
        let mut cli: BTreeMap<String, Vec<Reported>> = BTreeMap::new();
        let mut messages: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for line in String::from_utf8(out.stdout).expect("UTF-8").lines() {
            let d: Value = serde_json::from_str(line).expect("JSON Lines");
            let file = Path::new(d["file"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
            cli.entry(file.clone()).or_default().push((
                d["code"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["severity"].as_str().unwrap().to_owned(),
            ));
            messages.entry(file).or_default().push(d["message"].as_str().unwrap().to_owned());
        }
        for ((name, text), path) in texts.iter().zip(&paths) {
            let uri = format!("file://{}", path.display());
            client.open_as(&uri, language_id(name), text);
            let published = client.diagnostics(&uri, 1);
            let server: Vec<Reported> = published["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let start = &d["range"]["start"];
                    (
                        d["code"].as_str().unwrap().to_owned(),
                        start["line"].as_u64().unwrap() + 1,
                        start["character"].as_u64().unwrap() + 1,
                        lsp_severity(&d["severity"]),
                    )
                })
                .collect();
            let from_cli = cli.get(name).cloned().unwrap_or_default();
            assert_eq!(server, from_cli, "{name} under {settings:?}: the editor's findings are not --check's");
            if n == 0 {
                probes.insert(name.clone(), from_cli.iter().take(8).map(|f| (f.1 - 1, f.2 - 1)).collect());
                baseline.insert(name.clone(), from_cli.clone());
            } else if baseline.get(name) != Some(&from_cli) {
                changed_by_settings += 1;
            }
            let reported: Vec<(String, String)> = from_cli.iter().map(|f| (f.0.clone(), f.3.clone())).collect();
            let said = messages.get(name).cloned().unwrap_or_default();

            // Quick-fixes only for findings reported, at their severity.
            let lines = text.split_inclusive(['\n', '\r']).count() as u64 + 1;
            let actions = client.call(
                "textDocument/codeAction",
                json!({
                    "textDocument": {"uri": uri},
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}},
                    "context": {"diagnostics": [], "only": ["quickfix"]},
                }),
            );
            for action in actions.as_array().into_iter().flatten() {
                for d in action["diagnostics"].as_array().into_iter().flatten() {
                    let finding = (d["code"].as_str().unwrap_or_default().to_owned(), lsp_severity(&d["severity"]));
                    assert!(
                        reported.contains(&finding),
                        "{name} under {settings:?}: a quick-fix {:?} for {finding:?}, which is not reported",
                        action["title"]
                    );
                }
            }

            // Hovers and the board view name only findings reported.
            for &(line, character) in probes.get(name).into_iter().flatten() {
                let position =
                    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
                let hover = client.call("textDocument/hover", position.clone());
                let shown = hover["contents"]["value"].as_str().unwrap_or_default().to_owned();
                for code in chess_ls::analysis::Code::ALL {
                    for severity in ["error", "warning", "info", "hint"] {
                        if shown.contains(&format!("{severity} ({})", code.as_str())) {
                            let finding = (code.as_str().to_owned(), severity.to_owned());
                            assert!(
                                reported.contains(&finding),
                                "{name} under {settings:?}: the hover at {line}:{character} shows {finding:?}, not reported:\n{shown}"
                            );
                        }
                    }
                }
                let board = client.call("chess-ls/positionAt", position);
                let tried_in_hover = shown.contains("as written");
                assert_eq!(
                    board["tried"].is_object(),
                    tried_in_hover,
                    "{name} under {settings:?} at {line}:{character}: the board view and the hover disagree on the move tried\n{shown}\n{board}"
                );
                for message in board["tried"]["findings"].as_array().into_iter().flatten() {
                    assert!(
                        said.iter().any(|m| m == message.as_str().unwrap_or_default()),
                        "{name} under {settings:?}: the board view names {message}, not reported"
                    );
                }
            }
        }

        // Fix All in the editor, then --fix, ends where --fix alone ends.
        let mut after_fix_all = Vec::new();
        for ((name, text), path) in texts.iter().zip(&paths) {
            let uri = format!("file://{}", path.display());
            let actions = client.call(
                "textDocument/codeAction",
                json!({
                    "textDocument": {"uri": uri},
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                    "context": {"diagnostics": [], "only": ["source.fixAll.chess-ls"]},
                }),
            );
            let edits: Vec<Value> = actions
                .as_array()
                .into_iter()
                .flatten()
                .filter(|a| a["kind"] == "source.fixAll.chess-ls")
                .flat_map(|a| a["edit"]["changes"][&uri].as_array().cloned().unwrap_or_default())
                .collect();
            after_fix_all.push((name.clone(), apply_lsp_edits(text, &edits)));
            client.notify("textDocument/didClose", json!({"textDocument": {"uri": uri}}));
        }
        let fix = |sub: &str, texts: &[(String, String)]| -> Vec<String> {
            let dir = root.join(format!("s{n}-{sub}"));
            let paths = write_all(&dir, texts);
            if !settings.is_empty() {
                std::fs::write(dir.join("chess-ls.toml"), settings).expect("write settings");
            }
            Command::new(chess_ls()).args(["--check", "--fix"]).args(&paths).output().expect("runs");
            paths.iter().map(|p| std::fs::read_to_string(p).expect("read")).collect()
        };
        let alone = fix("fix-alone", &texts);
        let after = fix("fix-after-editor", &after_fix_all);
        for (((name, _), a), b) in texts.iter().zip(&alone).zip(&after) {
            assert_eq!(
                a, b,
                "{name} under {settings:?}: --fix after the editor's Fix All ends elsewhere than --fix alone"
            );
        }
    }
    // The settings change what is reported: the comparison is not of
    // unchanged findings.
    assert!(changed_by_settings > 40, "the settings changed the findings of only {changed_by_settings} texts");
    client.shutdown();
}

/// Normalize notation keeps each game's castling unless asked: a project's
/// `[normalize] castling` asks for the documents below it, the editor's
/// `normalizeCastling` for the others (and the project's goes first), a
/// settings change takes effect at once.
#[test]
fn normalize_writes_castling_as_the_project_or_the_editor_asks() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("agreement-castling");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("pgn-style")).unwrap();
    std::fs::write(root.join("pgn-style/chess-ls.toml"), "[normalize]\ncastling = \"O-O\"\n").unwrap();
    let game = "1. e4 e5 2. Кg1f3 Кc6 3. Сc4 Сc5 4. 0-0 Кf6 5. d3 0-0 *\n";
    let (inside, outside) = (root.join("pgn-style/g.pgn"), root.join("g.pgn"));
    let uri = |path: &Path| format!("file://{}", path.display());
    let mut client = Client::start();
    client.initialize(&["utf-32"], json!({"normalizeCastling": "keep"}));
    client.open(&uri(&inside), game);
    client.open(&uri(&outside), game);
    let _ = client.diagnostics(&uri(&inside), 1);
    let _ = client.diagnostics(&uri(&outside), 1);
    let normalized = |client: &mut Client, path: &Path| -> String {
        let actions = client.call(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri(path)}, "range": chess_ls_tests::lsp_client::range(0, 0, 0),
                   "context": {"diagnostics": [], "only": ["source.chess-ls"]}}),
        );
        let action = actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["title"].as_str().is_some_and(|t| t.starts_with("Normalize notation")))
            .unwrap_or_else(|| panic!("{actions}"))
            .clone();
        let action = if action["edit"].is_null() { client.call("codeAction/resolve", action) } else { action };
        let edits = action["edit"]["changes"][uri(path)].as_array().cloned().unwrap_or_default();
        apply_lsp_edits(game, &edits)
    };
    let keep = "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. 0-0 Кf6 5. d3 0-0 *\n";
    let letters = "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. O-O Кf6 5. d3 O-O *\n";
    assert_eq!(normalized(&mut client, &inside), letters);
    assert_eq!(normalized(&mut client, &outside), keep);
    // The editor asks for O-O: the document outside the project follows.
    client.notify("workspace/didChangeConfiguration", json!({"settings": {"chess-ls": {"normalizeCastling": "O-O"}}}));
    assert_eq!(normalized(&mut client, &outside), letters);
    // The project's setting goes first: asking for 0-0 in the editor leaves
    // the project's documents with O-O.
    client.notify("workspace/didChangeConfiguration", json!({"settings": {"chess-ls": {"normalizeCastling": "0-0"}}}));
    assert_eq!(normalized(&mut client, &inside), letters);
    assert_eq!(normalized(&mut client, &outside), keep);
    client.shutdown();
}
