//! chess-ls in the browser: the engine's facade ([`Host`]) for the web page,
//! compiled to WebAssembly and run in the page's Web Worker.
//!
//! This crate is a front end, as the command line and the language server
//! are: it adds no analysis. It reads what the page is given (a file's
//! bytes: compressed, in any encoding, a Word, OpenDocument or EPUB
//! package) through the engine's input module, keeps the open documents in
//! a [`Host`] with the settings of a `chess-ls.toml` inside, and answers
//! the page's questions in the page's terms: offsets in UTF-16 code units
//! (what a JavaScript string and CodeMirror count), lines and columns as
//! `--format json` writes them (1-based, columns in characters), and JSON.
//!
//! [`Page`] is what JavaScript sees; [`Session`] does the work and is
//! tested natively (`cargo test -p chess-ls-web`).

use std::io::Read;

use chess_ls_engine::analysis::board;
use chess_ls_engine::analysis::languages::Language;
use chess_ls_engine::analysis::rewrite::Rewrite;
use chess_ls_engine::analysis::{Diagnostic, LanguageSource, Options, TextEdit};
use chess_ls_engine::ide::document::{ByteChange, Document, Kind};
use chess_ls_engine::ide::host::{Config, Host, Snapshot};
use chess_ls_engine::ide::hover::Hovered;
use chess_ls_engine::ide::line_index::Unit;
use chess_ls_engine::ide::position::WrongMove;
use chess_ls_engine::ide::rewrite::Scope;
use chess_ls_engine::ide::settings::Settings;
use chess_ls_engine::input::compressed::{self, Compression};
use chess_ls_engine::input::encoding;
use chess_ls_engine::syntax::containers::{self, Container, Limits, Package};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use wasm_bindgen::prelude::wasm_bindgen;

/// The most text a file may give the page (a compressed file or a package
/// expanded, all its parts together): as much as the command line reads
/// whole. A 64 MiB database opens in the page in about 4 s; bigger ones are
/// for `chess-ls --check`, which streams them.
pub const EXPAND_LIMIT: u64 = 64 << 20;

/// The page's engine: one per Web Worker. Every method takes and returns
/// JSON text (the worker passes it on as it is).
#[wasm_bindgen]
#[derive(Default)]
pub struct Page {
    session: Session,
}

#[wasm_bindgen]
impl Page {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Page {
        Page::default()
    }

    /// Settings from the text of a `chess-ls.toml` (the page's controls
    /// write one): `{"ok": true}` or `{"error": "..."}`.
    pub fn configure(&mut self, toml: &str) -> String {
        self.session.configure(toml).to_string()
    }

    /// A file's bytes read into the documents it holds (one, or one per
    /// part of a package or member of a zip archive).
    #[wasm_bindgen(js_name = readFile)]
    pub fn read_file(&mut self, name: &str, bytes: &[u8]) -> String {
        self.session.read_file(name, bytes).to_string()
    }

    pub fn open(&mut self, name: &str, kind: &str, text: String) -> String {
        self.session.open(name, kind, text).to_string()
    }

    /// An edit: `[{"from", "to", "insert"}]` in UTF-16 offsets of the text
    /// before it (CodeMirror's changes).
    pub fn change(&mut self, name: &str, changes: &str) -> String {
        self.session.change(name, changes).to_string()
    }

    pub fn close(&mut self, name: &str) {
        self.session.close(name);
    }

    pub fn diagnostics(&self, name: &str) -> String {
        self.session.diagnostics(name).to_string()
    }

    pub fn hover(&self, name: &str, at: usize) -> String {
        self.session.hover(name, at).to_string()
    }

    pub fn board(&self, name: &str, at: usize) -> String {
        self.session.board(name, at).to_string()
    }

    pub fn completions(&self, name: &str, at: usize) -> String {
        self.session.completions(name, at).to_string()
    }

    #[wasm_bindgen(js_name = fixAll)]
    pub fn fix_all(&self, name: &str) -> String {
        self.session.fix_all(name).to_string()
    }

    /// `language`: a language's code (`ru`) or `normalize`; `game_at`:
    /// the game around an offset, or the whole document when absent.
    pub fn rewrite(&self, name: &str, language: &str, game_at: Option<usize>) -> String {
        self.session.rewrite(name, language, game_at).to_string()
    }

    pub fn languages(&self) -> String {
        Session::languages().to_string()
    }
}

/// The open documents and their settings.
#[derive(Default)]
pub struct Session {
    host: Host,
    config: Config,
}

/// One change of an edit, as the page sends it.
#[derive(Deserialize)]
struct Change {
    from: usize,
    to: usize,
    insert: String,
}

#[derive(Serialize)]
struct Edit {
    from: usize,
    to: usize,
    insert: String,
}

fn error(message: impl Into<String>) -> Value {
    json!({ "error": message.into() })
}

impl Session {
    pub fn configure(&mut self, toml: &str) -> Value {
        let settings = match Settings::parse(toml) {
            Ok(settings) => settings,
            Err(e) => return error(format!("chess-ls.toml: {e}")),
        };
        self.config = settings.config(&Options::default());
        let analysed = self.host.set_config_all(&self.config);
        json!({ "ok": true, "analysedAgain": analysed })
    }

    /// What a file holds, as texts to open: `{"documents": [{"name",
    /// "kind", "text", "note"}]}` or `{"error"}`.
    pub fn read_file(&mut self, name: &str, bytes: &[u8]) -> Value {
        match read_documents(name, bytes) {
            Ok(documents) => json!({ "documents": documents }),
            Err(e) => error(format!("{name}: {e}")),
        }
    }

    /// Opens a document of a kind (`pgn`, `markdown`, `text`, `latex`,
    /// `html`, `typst`; anything else: by the name's extension).
    pub fn open(&mut self, name: &str, kind: &str, text: String) -> Value {
        let kind = Kind::detect(kind, name);
        self.host.open(name, kind, text, 1, &self.config);
        json!({ "ok": true, "kind": kind_name(kind) })
    }

    pub fn change(&mut self, name: &str, changes: &str) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return error(format!("{name} is not open")) };
        let changes: Vec<Change> = match serde_json::from_str(changes) {
            Ok(changes) => changes,
            Err(e) => return error(format!("a change the engine cannot read: {e}")),
        };
        let doc = snapshot.document();
        // Each range in the text as it was; applied from the last to the
        // first, each range is still in the text the ones before left.
        let mut bytes: Vec<ByteChange> = Vec::with_capacity(changes.len());
        for c in &changes {
            let (Some(from), Some(to)) = (byte_offset(doc, c.from), byte_offset(doc, c.to)) else {
                return error("a change outside the document");
            };
            if from > to {
                return error("a change that ends before it starts");
            }
            bytes.push(ByteChange { range: Some(from..to), text: c.insert.clone() });
        }
        bytes.sort_by_key(|c| std::cmp::Reverse(c.range.as_ref().map_or(0, |r| r.start)));
        let version = doc.version + 1;
        drop(snapshot);
        self.host.change(name, bytes, version);
        json!({ "ok": true, "version": version })
    }

    pub fn close(&mut self, name: &str) {
        self.host.close(name);
    }

    /// Every finding, in order: its range (UTF-16), its place as `--format
    /// json` gives it, severity, code, message and fixes.
    pub fn diagnostics(&self, name: &str) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return error(format!("{name} is not open")) };
        let doc = snapshot.document();
        let list: Vec<Value> = snapshot.diagnostics().iter().map(|d| diagnostic(doc, d)).collect();
        json!({ "version": doc.version, "diagnostics": list })
    }

    /// What a hover at `at` shows: its range, a title, lines of text, and
    /// the board (FEN, the squares of the move) where there is one.
    pub fn hover(&self, name: &str, at: usize) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return Value::Null };
        let doc = snapshot.document();
        let Some(offset) = byte_offset(doc, at) else { return Value::Null };
        let Some(found) = snapshot.hover(offset) else { return Value::Null };
        let (from, to) = (utf16_offset(doc, found.span.start), utf16_offset(doc, found.span.end));
        let mut out = match &found.what {
            Hovered::Move { own, english, language, after, standing } => {
                let title = if *language == Language::En {
                    own.clone()
                } else {
                    format!("{own} ({}) · English SAN {english}", language.name())
                };
                let notes = standing.as_ref().map(|s| s.notes()).unwrap_or_default();
                json!({ "kind": "move", "title": title, "status": board::status(after), "fen": board::fen(after), "laws": notes })
            }
            Hovered::Wrong { written, language, wrong } => wrong_json(written, wrong, *language),
            Hovered::Glyph { text, meaning } => json!({ "kind": "glyph", "title": text, "text": [meaning] }),
            Hovered::Nag { text, meaning } => json!({ "kind": "nag", "title": text, "text": [meaning] }),
            Hovered::Tag { name, meaning } => json!({ "kind": "tag", "title": name, "text": [meaning] }),
            Hovered::Result { meaning } => json!({ "kind": "result", "title": "Result", "text": [meaning] }),
            Hovered::Position(Ok(pos)) => {
                json!({ "kind": "position", "title": "Position", "status": board::status(pos), "fen": board::fen(pos) })
            }
            Hovered::Position(Err(why)) => {
                json!({ "kind": "position", "title": "Position", "text": [format!("This position is not legal: {why}")] })
            }
        };
        out["from"] = json!(from);
        out["to"] = json!(to);
        out
    }

    /// What the board beside the editor shows at `at`.
    pub fn board(&self, name: &str, at: usize) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return Value::Null };
        let doc = snapshot.document();
        let Some(offset) = byte_offset(doc, at) else { return Value::Null };
        let Some(found) = snapshot.board_at(offset) else { return Value::Null };
        let source = found.language_source.map(|s| match s {
            LanguageSource::Chosen => "set in the settings",
            LanguageSource::Letters => "decided from its piece letters",
            LanguageSource::Replay => "the reading under which its moves are legal",
            LanguageSource::Undecided => "could not be decided",
        });
        let last = found.last_move.as_ref().map(|m| {
            json!({
                "number": m.number, "san": m.san, "english": m.english, "uci": m.uci, "guessed": m.guessed,
                "from": utf16_offset(doc, m.span.start), "to": utf16_offset(doc, m.span.end),
            })
        });
        json!({
            "language": found.language.name(),
            "languageSource": source,
            "fen": found.position.as_ref().map(board::fen),
            "status": found.position.as_ref().map(board::status),
            "lastMove": last,
            "wrong": found.wrong.as_ref().map(|w| wrong_json(&w.written, w, found.language)),
        })
    }

    /// The legal moves that may be typed at `at`.
    pub fn completions(&self, name: &str, at: usize) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return Value::Null };
        let doc = snapshot.document();
        let Some(offset) = byte_offset(doc, at) else { return Value::Null };
        let Some(found) = snapshot.completions(offset) else { return Value::Null };
        let items: Vec<Value> = found
            .items
            .iter()
            .map(|c| json!({ "label": c.san, "english": c.english, "long": c.long, "insert": c.insert }))
            .collect();
        json!({
            "from": utf16_offset(doc, found.span.start),
            "to": utf16_offset(doc, found.span.end),
            "language": found.language.name(),
            "items": items,
        })
    }

    /// The edits of Fix All (the first round of `--fix`).
    pub fn fix_all(&self, name: &str) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return error(format!("{name} is not open")) };
        json!({ "edits": edits(snapshot.document(), &snapshot.fix_all()) })
    }

    /// The moves rewritten in a language (or normalised): the edits, the
    /// games rewritten and where the games with errors are.
    pub fn rewrite(&self, name: &str, language: &str, game_at: Option<usize>) -> Value {
        let Some(snapshot) = self.host.snapshot(name) else { return error(format!("{name} is not open")) };
        let rewrite = if language == "normalize" {
            Rewrite::Normalize
        } else {
            match Language::from_code(language) {
                Some(l) => Rewrite::Translate(l),
                None => return error(format!("no language has the code {language:?}")),
            }
        };
        rewrite_json(&snapshot, rewrite, game_at)
    }

    /// The languages a text can be read in or translated to.
    pub fn languages() -> Value {
        let list: Vec<Value> = Language::ALL.iter().map(|l| json!({ "code": l.code(), "name": l.name() })).collect();
        Value::Array(list)
    }
}

fn rewrite_json(snapshot: &Snapshot, rewrite: Rewrite, game_at: Option<usize>) -> Value {
    let doc = snapshot.document();
    let scope = match game_at.map(|at| byte_offset(doc, at)) {
        None => Scope::Document,
        Some(Some(offset)) => Scope::GameAt(offset),
        Some(None) => return error("a place outside the document"),
    };
    let done = snapshot.rewrite(rewrite, scope);
    let incomplete: Vec<Value> = done
        .incomplete
        .iter()
        .map(|&(at, errors)| {
            let (line, column) = doc.position(at, Unit::Char);
            json!({ "at": utf16_offset(doc, at), "line": line + 1, "column": column + 1, "errors": errors })
        })
        .collect();
    json!({ "edits": edits(doc, &done.edits), "games": done.games, "incomplete": incomplete })
}

fn wrong_json(written: &str, wrong: &WrongMove, language: Language) -> Value {
    let findings: Vec<String> = wrong
        .findings
        .iter()
        .map(|d| format!("{} ({}): {}", d.severity.as_str(), d.code.as_str(), d.message))
        .collect();
    let guess = wrong.guess.as_ref().map(|g| {
        let in_english = if language != Language::En { format!(" (English SAN {})", g.english) } else { String::new() };
        format!("A guess: the check went on as if {}{in_english} was played.", g.own)
    });
    json!({
        "kind": "wrong",
        "title": format!("{written} as written"),
        "text": findings,
        "status": format!("The position it was tried in · {}", board::status(&wrong.before)),
        "fen": board::fen(&wrong.before),
        "guess": guess,
    })
}

fn diagnostic(doc: &Document, d: &Diagnostic) -> Value {
    let (line, column) = doc.position(d.span.start, Unit::Char);
    let (end_line, end_column) = doc.position(d.span.end, Unit::Char);
    let fixes: Vec<Value> = d
        .fixes
        .iter()
        .map(|f| json!({ "title": f.title, "preferred": f.preferred, "certain": f.certain, "edits": edits(doc, &f.edits) }))
        .collect();
    json!({
        "from": utf16_offset(doc, d.span.start),
        "to": utf16_offset(doc, d.span.end),
        "line": line + 1,
        "column": column + 1,
        "endLine": end_line + 1,
        "endColumn": end_column + 1,
        "severity": d.severity.as_str(),
        "code": d.code.as_str(),
        "message": d.message,
        "unnecessary": d.unnecessary,
        "fixes": fixes,
    })
}

fn edits(doc: &Document, edits: &[TextEdit]) -> Vec<Edit> {
    edits
        .iter()
        .map(|e| Edit {
            from: utf16_offset(doc, e.span.start),
            to: utf16_offset(doc, e.span.end),
            insert: e.new_text.clone(),
        })
        .collect()
}

/// The byte offset of a UTF-16 offset (one inside a character's two units
/// is the character's start); `None` past the end.
fn byte_offset(doc: &Document, utf16: usize) -> Option<usize> {
    let rope = &doc.rope;
    if utf16 > rope.len_utf16_cu() {
        return None;
    }
    Some(rope.char_to_byte(rope.utf16_cu_to_char(utf16)))
}

/// The UTF-16 offset of a byte offset (one inside a character: its start).
fn utf16_offset(doc: &Document, byte: usize) -> usize {
    let rope = &doc.rope;
    rope.char_to_utf16_cu(rope.byte_to_char(byte.min(rope.len_bytes())))
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Pgn => "pgn",
        Kind::Markdown => "markdown",
        Kind::Text => "text",
        Kind::Latex => "latex",
        Kind::Html => "html",
        Kind::Typst => "typst",
    }
}

/// A text a file holds.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Opened {
    /// The file's name, or `file:member` for a part of a package or archive.
    pub name: String,
    pub kind: &'static str,
    pub text: String,
    /// How it was read, where that is worth saying (`gzip`, `windows-1251`,
    /// `the body of a Word document`).
    pub note: Option<String>,
}

/// The texts of a file: decompressed, decoded, a package's parts.
pub fn read_documents(name: &str, bytes: &[u8]) -> Result<Vec<Opened>, String> {
    if let Some(container) = Container::from_path(name) {
        let limits = Limits { member: EXPAND_LIMIT, total: EXPAND_LIMIT };
        let parts = containers::read(container, bytes, limits).map_err(|e| e.to_string())?;
        return Ok(parts
            .into_iter()
            .map(|part| {
                let kind = Kind::from_manuscript(Some(part.format));
                let (name, note) = match part.member {
                    Some(member) => (format!("{name}:{member}"), format!("a part of the {}", container.name())),
                    None => (name.to_owned(), format!("the body of the {}", container.name())),
                };
                Opened { name, kind: kind_name(kind), text: part.text, note: Some(note) }
            })
            .collect());
    }
    match Compression::detect(bytes, name) {
        Some(Compression::Zip) => read_zip(name, bytes),
        Some(compression) => {
            let mut out = Vec::new();
            compression
                .decoder(bytes)
                .take(EXPAND_LIMIT + 1)
                .read_to_end(&mut out)
                .map_err(|e| format!("not a valid {} file: {e}", compression.name()))?;
            if out.len() as u64 > EXPAND_LIMIT {
                return Err(too_big());
            }
            let inner = compressed::inner_name(name, compression);
            let mut opened = read_text(inner, out)?;
            opened.name = name.to_owned();
            opened.note = Some(match opened.note {
                Some(encoding) => format!("{}, {encoding}", compression.name()),
                None => compression.name().to_owned(),
            });
            Ok(vec![opened])
        }
        None if bytes.len() as u64 > EXPAND_LIMIT => Err(too_big()),
        None => Ok(vec![read_text(name, bytes.to_vec())?]),
    }
}

fn too_big() -> String {
    format!(
        "more than {} MiB of text, more than the page opens: check it with chess-ls --check, which streams it",
        EXPAND_LIMIT >> 20
    )
}

/// A zip archive's notation and manuscripts, each its own document (read
/// within the limits, members whose data overlap refused).
fn read_zip(name: &str, bytes: &[u8]) -> Result<Vec<Opened>, String> {
    let limits = Limits { member: EXPAND_LIMIT, total: EXPAND_LIMIT };
    let mut package = Package::open(bytes, limits, Container::Zip).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for member in package.files() {
        if !compressed::member_wanted(&member, true) {
            continue;
        }
        let Some(data) = package.member(&member).map_err(|e| e.to_string())? else { continue };
        for mut opened in read_documents(&member, &data)? {
            opened.name = format!("{name}:{}", opened.name);
            out.push(opened);
        }
    }
    if out.is_empty() {
        return Err("the zip archive holds no notation or manuscript".to_owned());
    }
    Ok(out)
}

/// A text file, in the encoding its bytes say (UTF-8, UTF-16 with its BOM,
/// or the single-byte code page its letters fit).
fn read_text(name: &str, bytes: Vec<u8>) -> Result<Opened, String> {
    let decoded = encoding::detect_owned(bytes).map_err(|e| e.to_string())?;
    let kind = Kind::detect("", name);
    let note = (decoded.encoding != encoding::Encoding::Utf8).then(|| decoded.encoding.name().to_owned());
    Ok(Opened { name: name.to_owned(), kind: kind_name(kind), text: decoded.text, note })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RU: &str = "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. Кf5 *\n";

    fn session(name: &str, text: &str) -> Session {
        let mut s = Session::default();
        s.open(name, "", text.to_owned());
        s
    }

    #[test]
    fn the_findings_are_the_engine_s_in_utf16_offsets_and_characters() {
        let s = session("a.pgn", RU);
        let found = s.diagnostics("a.pgn");
        let list = found["diagnostics"].as_array().unwrap();
        let illegal = list.iter().find(|d| d["code"] == "illegal-move").expect("the illegal move is found");
        let at = RU.find("Кf5").unwrap();
        let utf16 = RU[..at].encode_utf16().count();
        assert_eq!(illegal["from"], utf16);
        assert_eq!(illegal["to"], utf16 + 3);
        assert_eq!(illegal["column"], RU[..at].chars().count() + 1);
        assert_eq!(illegal["line"], 1);
    }

    #[test]
    fn an_edit_in_utf16_offsets_is_applied_where_it_is_made() {
        let mut s = session("a.pgn", RU);
        let at = RU[..RU.find("Кf5").unwrap()].encode_utf16().count();
        // Кf5 -> Кg5 and, before it, Сc5 -> Сb4: sent in the order
        // CodeMirror gives them (from the start), both in the old text.
        let bishop = RU[..RU.find("Сc5").unwrap()].encode_utf16().count();
        let changes = format!(
            "[{{\"from\":{},\"to\":{},\"insert\":\"b4\"}},{{\"from\":{},\"to\":{},\"insert\":\"g5\"}}]",
            bishop + 1,
            bishop + 3,
            at + 1,
            at + 3
        );
        assert_eq!(s.change("a.pgn", &changes)["ok"], true);
        let snapshot = s.host.snapshot("a.pgn").unwrap();
        assert_eq!(snapshot.document().text, RU.replace("Сc5", "Сb4").replace("Кf5", "Кg5"));
        assert!(s.diagnostics("a.pgn")["diagnostics"].as_array().unwrap().iter().all(|d| d["code"] != "illegal-move"));
        assert!(s.change("a.pgn", "[{\"from\":9999,\"to\":9999,\"insert\":\"x\"}]")["error"].is_string());
        assert!(s.change("a.pgn", "not json")["error"].is_string());
    }

    #[test]
    fn settings_from_a_chess_ls_toml_apply_inside() {
        let mut s = session("a.pgn", "1. e4 e5 2. Nf3+ Nc6 *\n");
        let codes = |s: &Session| -> Vec<String> {
            s.diagnostics("a.pgn")["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["code"].as_str().unwrap().to_owned())
                .collect()
        };
        assert!(codes(&s).contains(&"check-mark".to_owned()));
        assert_eq!(s.configure("ignore = [\"check-mark\"]\n")["ok"], true);
        assert!(!codes(&s).contains(&"check-mark".to_owned()));
        assert!(s.configure("ignore = [\"no-such-code\"]\n")["error"].as_str().unwrap().contains("no-such-code"));
    }

    /// Edits in UTF-16 offsets applied to a text.
    fn apply(text: &str, edits: &Value) -> String {
        let mut units: Vec<u16> = text.encode_utf16().collect();
        let mut edits = edits.as_array().unwrap().clone();
        edits.sort_by_key(|e| std::cmp::Reverse(e["from"].as_u64().unwrap()));
        for e in edits {
            let (from, to) = (e["from"].as_u64().unwrap() as usize, e["to"].as_u64().unwrap() as usize);
            units.splice(from..to, e["insert"].as_str().unwrap().encode_utf16());
        }
        String::from_utf16(&units).unwrap()
    }

    #[test]
    fn a_hover_a_board_completions_fix_all_and_a_translation() {
        let s = session("a.pgn", RU);
        let wrong = RU[..RU.find("Кf5").unwrap()].encode_utf16().count() + 1;
        let hover = s.hover("a.pgn", wrong);
        assert_eq!(hover["kind"], "wrong", "{hover}");
        assert!(hover["fen"].as_str().unwrap().starts_with("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/"), "{hover}");
        let on_bishop = RU[..RU.find("Сc4").unwrap()].encode_utf16().count() + 1;
        let board = s.board("a.pgn", on_bishop);
        assert_eq!(board["lastMove"]["english"], "Bc4", "{board}");
        assert_eq!(board["language"], "Russian");
        let end = RU.find(" *").unwrap();
        let typed = s.completions("a.pgn", RU[..end].encode_utf16().count());
        assert!(typed.is_null() || typed["items"].is_array());
        let en = s.rewrite("a.pgn", "en", None);
        assert_eq!(apply(RU, &en["edits"]), "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Nf5 *\n", "{en}");
        assert!(s.rewrite("a.pgn", "xx", None)["error"].is_string());
        let fixed = session("b.pgn", "1. e4 e5 2. Nf3+ Nc6 *\n").fix_all("b.pgn");
        assert_eq!(apply("1. e4 e5 2. Nf3+ Nc6 *\n", &fixed["edits"]), "1. e4 e5 2. Nf3 Nc6 *\n", "{fixed}");
    }

    #[test]
    fn a_compressed_file_is_read_and_a_damaged_one_is_an_error() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(RU.as_bytes()).unwrap();
        let bytes = gz.finish().unwrap();
        let opened = read_documents("games.pgn.gz", &bytes).unwrap();
        assert_eq!(opened.len(), 1);
        assert_eq!((opened[0].kind, opened[0].text.as_str()), ("pgn", RU));
        assert_eq!(opened[0].note.as_deref(), Some("gzip"));
        assert!(read_documents("games.pgn.gz", &bytes[..bytes.len() / 2]).unwrap_err().contains("gzip"));
        assert!(read_documents("book.docx", b"not a zip").is_err());
        // More text than the page opens, as it is or expanded: refused,
        // with the command line named.
        let big = vec![b' '; (EXPAND_LIMIT + 1) as usize];
        assert!(read_documents("big.pgn", &big).unwrap_err().contains("chess-ls --check"));
        // 65 gzip members of 1 MiB each, one after another.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&big[..1 << 20]).unwrap();
        let bomb = gz.finish().unwrap().repeat(65);
        assert!(read_documents("big.pgn.gz", &bomb).unwrap_err().contains("chess-ls --check"));
        let notes = read_documents("notes.md", "# Партия\n\n1. e4 e5 *\n".as_bytes()).unwrap();
        assert_eq!(notes[0].kind, "markdown");
    }
}
