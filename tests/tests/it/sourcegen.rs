//! The generated files, made here from their one source and compared with
//! the files on disk (rust-analyzer's sourcegen): the grammar's node kinds
//! and fields for the engine (from `grammar/src/node-types.json`), the
//! highlight class of each kind (from `grammar/queries/highlights.scm`),
//! the editors' language tables (from the engine's `Language::ALL` and
//! lexicon) and the TextMate grammar of VS Code, whose letter classes come
//! from the lexicon.
//!
//! A test whose file is stale writes the new content and fails, so one run
//! of `cargo test -p chess-ls-tests --test it -- sourcegen::` regenerates
//! everything, and a run in CI fails on a file someone forgot to commit.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use chess_ls::analysis::languages::Language;
use chess_ls::ide::highlight::Highlight;
use chess_ls::syntax::lexicon;

/// How to regenerate, for the headers of the generated files.
const REGENERATE: &str = "cargo test -p chess-ls-tests --test it -- sourcegen::";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the tests crate is in the workspace").to_path_buf()
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// Holds the file at `relative` (from the workspace's root) to `contents`:
/// when it differs, the file is written and the test fails, so that the
/// change is seen and committed.
#[track_caller]
fn ensure_file_contents(relative: &str, contents: &str) {
    let path = root().join(relative);
    if std::fs::read_to_string(&path).is_ok_and(|old| old.replace("\r\n", "\n") == contents) {
        return;
    }
    std::fs::write(&path, contents).unwrap_or_else(|e| panic!("{relative}: {e}"));
    panic!("{relative} was stale: regenerated, commit it");
}

// --- Node kinds -------------------------------------------------------------

/// The names of the grammar's anonymous tokens, which are punctuation and
/// have no name of their own in `node-types.json`. A token the grammar
/// gains must be named here (the generator says so).
const TOKEN_NAMES: &[(&str, &str)] = &[
    ("(", "L_PAREN"),
    (")", "R_PAREN"),
    ("[", "L_BRACK"),
    ("]", "R_BRACK"),
    ("{", "L_CURLY"),
    ("}", "R_CURLY"),
    (",", "COMMA"),
    (".", "DOT"),
    (";", "SEMICOLON"),
    ("@", "AT"),
    ("N", "NOVELTY_SIGN"),
];

struct NodeTypes {
    /// Named kinds, sorted.
    named: BTreeSet<String>,
    /// Anonymous tokens, sorted.
    anonymous: BTreeSet<String>,
    /// Field names, sorted.
    fields: BTreeSet<String>,
}

fn node_types() -> NodeTypes {
    let json: serde_json::Value = serde_json::from_str(tree_sitter_chess::NODE_TYPES).expect("node-types.json is JSON");
    let mut types = NodeTypes { named: BTreeSet::new(), anonymous: BTreeSet::new(), fields: BTreeSet::new() };
    for node in json.as_array().expect("node-types.json is a list") {
        let kind = node["type"].as_str().expect("a node type has a type").to_owned();
        if node["named"].as_bool().expect("a node type says whether it is named") {
            types.named.insert(kind);
        } else {
            types.anonymous.insert(kind);
        }
        if let Some(fields) = node["fields"].as_object() {
            types.fields.extend(fields.keys().cloned());
        }
    }
    types
}

fn token_name(token: &str) -> &'static str {
    TOKEN_NAMES.iter().find(|(t, _)| *t == token).map(|(_, name)| *name).unwrap_or_else(|| {
        panic!("the grammar has an anonymous token {token:?}: give it a name in sourcegen's TOKEN_NAMES")
    })
}

/// The constant that names a node kind in the generated `kinds` module.
fn kind_constant(kind: &str, named: bool) -> String {
    if named { kind.to_ascii_uppercase() } else { token_name(kind).to_owned() }
}

fn node_kinds_rs() -> String {
    let types = node_types();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The node kinds and field names of the grammar `chess`: generated from\n\
         //! `grammar/src/node-types.json` by the test `sourcegen::node_kinds`\n\
         //! (tests/tests/it/sourcegen.rs); do not edit by hand, run `{REGENERATE}`.\n\
         //!\n\
         //! Code that looks at the tree names kinds and fields by these constants,\n\
         //! never by string literals, so that a kind the grammar renames or drops is\n\
         //! a compile error. They are `&str`s: they compare with `Node::kind`, stand\n\
         //! as patterns in a `match`, and give ids through `Language::id_for_node_kind`.\n"
    );
    // Two kinds under one name would not compile; say which.
    let mut names = BTreeSet::new();
    let mut constant = |kind: &str, named: bool| {
        let name = kind_constant(kind, named);
        assert!(names.insert(name.clone()), "two node kinds are named {name}: rename one in TOKEN_NAMES");
        name
    };
    out.push_str("// The named node kinds.\n");
    for kind in &types.named {
        let _ = writeln!(out, "pub const {}: &str = {kind:?};", constant(kind, true));
    }
    out.push_str("\n// The anonymous tokens, under the names sourcegen gives them.\n");
    for token in &types.anonymous {
        let _ = writeln!(out, "pub const {}: &str = {token:?};", constant(token, false));
    }
    out.push_str(
        "\n/// The field names, for `Node::child_by_field_name` and `Language::field_id_for_name`.\npub mod field {\n",
    );
    for field in &types.fields {
        let _ = writeln!(out, "    pub const {}: &str = {field:?};", field.to_ascii_uppercase());
    }
    out.push_str("}\n");
    out
}

#[test]
fn node_kinds() {
    ensure_file_contents("server/engine/src/syntax/kinds.rs", &node_kinds_rs());
}

/// Code that looks at the tree names kinds and fields by the generated
/// constants (a misspelt constant does not compile; a misspelt string
/// literal compares false for ever).
#[test]
fn no_node_kind_literals() {
    let types = node_types();
    let is_kind = |s: &str| types.named.contains(s) || types.anonymous.contains(s) || types.fields.contains(s);
    let mut found = Vec::new();
    let mut stack = vec![root().join("server/engine/src"), root().join("server/src")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).expect("a readable directory").flatten().map(|e| e.path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("syntax/kinds.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        // The indentation of each `match` on a node's kind that the line
        // stands in: an arm's pattern there starts its line.
        let mut kind_matches: Vec<usize> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            // The first string literal on the line, if it is a kind.
            let literal = |after: &str| -> Option<String> {
                let rest = after.trim_start().strip_prefix('"')?;
                let literal = &rest[..rest.find('"')?];
                is_kind(literal).then(|| literal.to_owned())
            };
            let suspicious = ["kind() == ", "kind() != ", "field_name(", "kind(), "]
                .iter()
                .filter_map(|pattern| line.find(pattern).map(|at| &line[at + pattern.len()..]))
                .find_map(literal)
                .or_else(|| if kind_matches.is_empty() { None } else { literal(trimmed) });
            if let Some(kind) = suspicious {
                let shown = path.strip_prefix(root()).unwrap_or(&path);
                found.push(format!("{}:{}: {kind:?}", shown.display(), n + 1));
            }
            if line.contains("match ") && line.contains(".kind()") && line.trim_end().ends_with('{') {
                kind_matches.push(indent);
            } else if trimmed.starts_with('}') && kind_matches.last() == Some(&indent) {
                kind_matches.pop();
            }
        }
    }
    assert!(found.is_empty(), "node kinds as string literals (name them by `syntax::kinds`):\n{}", found.join("\n"));
}

// --- Highlight classes ------------------------------------------------------

/// The class of each capture name of `highlights.scm` (nvim-treesitter's
/// names); `None` for captures the semantic tokens leave to the editor's
/// own colouring (brackets, delimiters). A capture the query gains must be
/// placed here (the generator says so).
const CAPTURE_CLASSES: &[(&str, Option<&str>)] = &[
    ("type", Some("Piece")),
    ("variable", Some("Square")),
    ("variable.member", Some("Square")),
    ("operator", Some("Operator")),
    ("keyword.operator", Some("Operator")),
    ("number", Some("MoveNumber")),
    ("attribute", Some("Glyph")),
    ("comment", Some("Comment")),
    ("property", Some("TagName")),
    ("string", Some("TagValue")),
    ("keyword", Some("Keyword")),
    ("constant.builtin", Some("Keyword")),
    ("label", Some("Label")),
    ("punctuation.bracket", None),
    ("punctuation.delimiter", None),
];

/// Every `(node kind, named, capture)` of a query: the kinds each capture
/// stands on, in the query's order. Reads the query forms that
/// `highlights.scm` uses: nodes with fields, anonymous tokens, alternations.
fn query_captures(query: &str) -> Vec<(String, bool, String)> {
    type Item = Vec<(String, bool)>;
    // Each open group: whether it is a node (then its kind, once read) and
    // the items read inside it.
    struct Frame {
        node: bool,
        kind: Option<String>,
        items: Vec<Item>,
    }
    let mut stack = vec![Frame { node: false, kind: None, items: Vec::new() }];
    let mut out = Vec::new();
    let mut chars = query.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {}
            '(' | '[' => stack.push(Frame { node: c == '(', kind: None, items: Vec::new() }),
            ')' | ']' => {
                let frame = stack.pop().expect("a group closes that is open");
                assert_eq!(frame.node, c == ')', "brackets match in the query");
                let item = if frame.node {
                    vec![(frame.kind.expect("a node pattern names its kind"), true)]
                } else {
                    frame.items.into_iter().flatten().collect()
                };
                stack.last_mut().expect("a group closes inside the query").items.push(item);
            }
            '"' => {
                let mut token = String::new();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    token.push(c);
                }
                stack.last_mut().expect("a frame").items.push(vec![(token, false)]);
            }
            '@' => {
                let mut capture = String::new();
                while let Some(&c) = chars.peek().filter(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-')) {
                    capture.push(c);
                    chars.next();
                }
                let item = stack.last().expect("a frame").items.last().expect("a capture follows what it captures");
                out.extend(item.iter().map(|(kind, named)| (kind.clone(), *named, capture.clone())));
            }
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = String::from(c);
                while let Some(&c) = chars.peek().filter(|c| c.is_alphanumeric() || matches!(c, '_' | ':')) {
                    word.push(c);
                    chars.next();
                }
                let frame = stack.last_mut().expect("a frame");
                if word.ends_with(':') {
                    // A field: the class goes by the node's kind alone.
                } else if frame.node && frame.kind.is_none() {
                    frame.kind = Some(word);
                } else {
                    panic!("highlights.scm: `{word}` is a query form that sourcegen does not read");
                }
            }
            c => panic!("highlights.scm: `{c}` is a query form that sourcegen does not read"),
        }
    }
    out
}

fn highlight_classes_rs() -> String {
    let variants: Vec<String> = Highlight::ALL.iter().map(|h| format!("{h:?}")).collect();
    // Each kind's class and the captures it came from, in the query's order.
    let mut classes: Vec<(String, bool, &str, Vec<String>)> = Vec::new();
    for (kind, named, capture) in query_captures(tree_sitter_chess::HIGHLIGHTS_QUERY) {
        let class = CAPTURE_CLASSES.iter().find(|(c, _)| *c == capture).unwrap_or_else(|| {
            panic!("highlights.scm captures @{capture}: give it a class (or none) in sourcegen's CAPTURE_CLASSES")
        });
        let Some(class) = class.1 else { continue };
        assert!(variants.iter().any(|v| v == class), "{class} is not a variant of Highlight");
        match classes.iter_mut().find(|(k, n, _, _)| *k == kind && *n == named) {
            // The highlights walk the tree by node kind, whatever the node
            // stands under: a kind has one class.
            Some((_, _, other, _)) if *other != class => {
                panic!("highlights.scm gives `{kind}` the classes {other} and {class}: the highlights go by kind alone")
            }
            Some((_, _, _, captures)) => {
                if !captures.contains(&capture) {
                    captures.push(capture)
                }
            }
            None => classes.push((kind, named, class, vec![capture])),
        }
    }
    for variant in &variants {
        assert!(classes.iter().any(|(_, _, c, _)| c == variant), "no capture of highlights.scm gives {variant}");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! The highlight class of each node kind: generated from\n\
         //! `grammar/queries/highlights.scm` by the test `sourcegen::highlight_classes`\n\
         //! (tests/tests/it/sourcegen.rs), which maps each capture name to a class;\n\
         //! do not edit by hand, run `{REGENERATE}`.\n\
         \n\
         use super::Highlight;\n\
         use crate::syntax::kinds;\n\
         \n\
         /// The class of a node of this kind, after the capture of `highlights.scm`\n\
         /// above each arm; `None` for the kinds it leaves alone, whose\n\
         /// children may have a class.\n\
         pub(super) fn of(kind: &str) -> Option<Highlight> {{\n    \
             Some(match kind {{"
    );
    for (kind, named, class, captures) in &classes {
        let captures: Vec<String> = captures.iter().map(|c| format!("@{c}")).collect();
        // The capture stands on a line of its own: rustfmt would align
        // comments at the ends of the arms.
        let _ = writeln!(
            out,
            "        // {}\n        kinds::{} => Highlight::{class},",
            captures.join(" "),
            kind_constant(kind, *named)
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n");
    out
}

#[test]
fn highlight_classes() {
    ensure_file_contents("server/engine/src/ide/highlight/classes.rs", &highlight_classes_rs());
}

#[test]
fn query_captures_reads_fields_tokens_and_alternations() {
    let captures = query_captures("; c\n(move piece: (piece) @type)\n[\"(\" \")\"] @p\n(nag) @a");
    let expected = [("piece", true, "type"), ("(", false, "p"), (")", false, "p"), ("nag", true, "a")];
    let expected: Vec<(String, bool, String)> =
        expected.iter().map(|(k, n, c)| (k.to_string(), *n, c.to_string())).collect();
    assert_eq!(captures, expected);
}

// --- The editors' language tables ------------------------------------------

fn languages_ts() -> String {
    let mut out = format!(
        "// Generated from the engine's `Language::ALL` and lexicon by the test\n\
         // `sourcegen::vscode_languages` (tests/tests/it/sourcegen.rs): do not edit by\n\
         // hand, run `{REGENERATE}`.\n\
         //\n\
         // The notation languages of notation.md §3, in the server's order, with the\n\
         // names the server uses in its action titles (\"Translate the document to\n\
         // Russian\").\n\
         \n\
         export interface NotationLanguage {{\n  \
           code: string;\n  \
           name: string;\n  \
           /** King, queen, rook, bishop, knight. */\n  \
           letters: string;\n\
         }}\n\
         \n\
         export const LANGUAGES: readonly NotationLanguage[] = [\n"
    );
    for language in Language::ALL {
        let _ = writeln!(
            out,
            "  {{ code: {:?}, name: {:?}, letters: {:?} }},",
            language.code(),
            language.name(),
            language.letters().join(" ")
        );
    }
    out.push_str("];\n");
    out
}

#[test]
fn vscode_languages() {
    ensure_file_contents("editors/vscode/src/languages.ts", &languages_ts());
}

/// A JSON list on one line, as `package.json` writes its short lists.
fn json_list(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| json_string(&s)).collect();
    format!("[{}]", items.join(", "))
}

/// `package.json` with the values of the setting `chess-ls.language` that
/// list the languages (`enum`, `enumItemLabels`, and the letters of
/// `markdownEnumDescriptions` after `auto`'s description) rewritten; the
/// rest of the file, `auto` included, stays as written.
fn package_json(old: &str) -> String {
    let mut lines: Vec<String> = old.lines().map(String::from).collect();
    let setting =
        lines.iter().position(|l| l.trim() == "\"chess-ls.language\": {").expect("package.json has the setting");
    let find = |lines: &[String], key: &str| {
        setting
            + lines[setting..].iter().position(|l| l.trim_start().starts_with(key)).expect("the setting has the key")
    };
    let indent = |line: &str| line[..line.len() - line.trim_start().len()].to_owned();
    let at = find(&lines, "\"enum\": [");
    let codes = std::iter::once("auto".to_owned()).chain(Language::ALL.iter().map(|l| l.code().to_owned()));
    lines[at] = format!("{}\"enum\": {},", indent(&lines[at]), json_list(codes));
    let at = find(&lines, "\"enumItemLabels\": [");
    let names = std::iter::once("Auto".to_owned()).chain(Language::ALL.iter().map(|l| l.name().to_owned()));
    lines[at] = format!("{}\"enumItemLabels\": {},", indent(&lines[at]), json_list(names));
    let open = find(&lines, "\"markdownEnumDescriptions\": [");
    let close = open + lines[open..].iter().position(|l| l.trim_start().starts_with(']')).expect("the list closes");
    // The line after the opening one is `auto`'s description, written by hand.
    let item_indent = indent(&lines[open + 1]);
    let letters: Vec<String> = Language::ALL.iter().map(|l| json_string(&l.letters().join(" "))).collect();
    lines.splice(open + 2..close, [format!("{item_indent}{}", letters.join(", "))]);
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[test]
fn vscode_package_json() {
    let path = "editors/vscode/package.json";
    ensure_file_contents(path, &package_json(&read(path)));
}

fn nvim_languages_lua() -> String {
    let mut out = format!(
        "-- Generated from the engine's `Language::ALL` by the test\n\
         -- `sourcegen::nvim_languages` (tests/tests/it/sourcegen.rs): do not edit by\n\
         -- hand, run `{REGENERATE}`.\n\
         \n\
         --- The notation languages the server translates to (`:ChessLsTranslate`),\n\
         --- as their codes in the server's order.\n\
         return {{\n"
    );
    let mut line = String::new();
    for language in Language::ALL {
        let item = format!("'{}',", language.code());
        if !line.is_empty() && line.len() + 1 + item.len() > 72 {
            let _ = writeln!(out, "  {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&item);
    }
    let _ = writeln!(out, "  {line}\n}}");
    out
}

#[test]
fn nvim_languages() {
    ensure_file_contents("editors/nvim/lua/chess-ls/languages.lua", &nvim_languages_lua());
}

// --- The TextMate grammar ---------------------------------------------------

/// A JSON value whose objects keep their keys in the order written (the
/// order `JSON.stringify` keeps, which the file was written in before).
enum Json {
    Str(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::Str(s)
    }
}

impl From<Vec<Json>> for Json {
    fn from(items: Vec<Json>) -> Json {
        Json::List(items)
    }
}

macro_rules! object {
    ($($key:expr => $value:expr),* $(,)?) => {
        Json::Object(vec![$(($key.to_string(), Json::from($value))),*])
    };
}

macro_rules! list {
    ($($item:expr),* $(,)?) => {
        vec![$(Json::from($item)),*]
    };
}

/// A string as `JSON.stringify` writes it.
fn json_string(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes a value as `JSON.stringify(value, null, 2)` does.
fn write_json(value: &Json, indent: usize, out: &mut String) {
    let pad = |n: usize| " ".repeat(n);
    match value {
        Json::Str(s) => out.push_str(&json_string(s)),
        Json::List(items) if items.is_empty() => out.push_str("[]"),
        Json::Object(entries) if entries.is_empty() => out.push_str("{}"),
        Json::List(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad(indent + 2));
                write_json(item, indent + 2, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(indent));
            out.push(']');
        }
        Json::Object(entries) => {
            out.push_str("{\n");
            for (i, (key, item)) in entries.iter().enumerate() {
                out.push_str(&pad(indent + 2));
                out.push_str(&json_string(key));
                out.push_str(": ");
                write_json(item, indent + 2, out);
                out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(indent));
            out.push('}');
        }
    }
}

/// A character as it stands in a regular expression's class.
fn class_char(c: char, first: bool) -> String {
    match c {
        '\\' | ']' | '[' | '^' => format!("\\{c}"),
        '-' if !first => "\\-".to_owned(),
        c => c.to_string(),
    }
}

/// The inside of a class of these characters, in code-point order, with
/// runs of five or more as ranges (`a-h`, `♔-♟`); shorter runs stay
/// written out, where a reader sees the letters.
fn class_body(chars: impl IntoIterator<Item = char>) -> String {
    let chars: Vec<char> = chars.into_iter().collect::<BTreeSet<char>>().into_iter().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j + 1 < chars.len() && chars[j + 1] as u32 == chars[j] as u32 + 1 {
            j += 1;
        }
        if j >= i + 4 {
            let _ = write!(out, "{}-{}", class_char(chars[i], i == 0), class_char(chars[j], false));
            i = j + 1;
        } else {
            out.push_str(&class_char(chars[i], i == 0));
            i += 1;
        }
    }
    out
}

fn class(chars: impl IntoIterator<Item = char>) -> String {
    format!("[{}]", class_body(chars))
}

/// A string matched literally in a regular expression.
fn literal(s: &str) -> String {
    s.chars().map(|c| if "\\^$.|?*+()[]{}".contains(c) { format!("\\{c}") } else { c.to_string() }).collect()
}

/// An alternation of these strings, longer first (so that no alternative
/// hides a longer one it starts), the one-character ones as one class.
fn choice<'s>(strings: impl IntoIterator<Item = &'s str>) -> String {
    let mut long: Vec<&str> = Vec::new();
    let mut single = Vec::new();
    for s in strings {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => single.push(c),
            _ => long.push(s),
        }
    }
    long.sort_by_key(|s| std::cmp::Reverse(s.chars().count()));
    let mut parts: Vec<String> = long.into_iter().map(literal).collect();
    match single.len() {
        0 => {}
        1 => parts.push(literal(&single[0].to_string())),
        _ => parts.push(class(single)),
    }
    parts.join("|")
}

/// The letter classes of the TextMate grammar, from the lexicon.
struct Letters {
    /// Every piece and pawn letter of every language as written or as a
    /// look-alike, figurines with an optional text-style selector.
    piece: String,
    /// The letters of the pieces a pawn promotes to, as each language writes
    /// them.
    promoted: String,
    file: String,
    /// Ranks with the look-alikes read in an origin (`l`, `З`), also taken
    /// in squares: the other look-alikes of squares (`S`, `B`) are letters.
    rank: String,
    dash: Vec<char>,
    capture: String,
    check: String,
    castling: String,
    en_passant: String,
    sides: String,
    pawn_labels: String,
    annotations: String,
}

/// The selector that asks for a figurine's text style, which some texts put
/// after it.
const TEXT_STYLE: &str = r"\x{FE0E}?";

fn letters() -> Letters {
    let figurine_row = Language::Figurine.lexicon();
    let figurines: BTreeSet<char> = figurine_row
        .pieces
        .iter()
        .chain(figurine_row.pieces_also.iter().flatten())
        .chain(figurine_row.pawns)
        .flat_map(|l| l.chars())
        .collect();
    // The two-letter pieces in every mix of their characters' forms, grouped
    // by the set of second characters each first one takes.
    let mut seconds: BTreeMap<char, BTreeSet<char>> = BTreeMap::new();
    for &(a, b) in lexicon::double_letters_written() {
        seconds.entry(a).or_default().insert(b);
    }
    let mut doubles: BTreeMap<BTreeSet<char>, Vec<char>> = BTreeMap::new();
    for (a, bs) in seconds {
        doubles.entry(bs).or_default().push(a);
    }
    let group = |chars: &[char]| if chars.len() == 1 { literal(&chars[0].to_string()) } else { class(chars.to_vec()) };
    let mut piece: Vec<String> = doubles
        .iter()
        .map(|(bs, firsts)| format!("{}{}", group(firsts), group(&bs.iter().copied().collect::<Vec<_>>())))
        .collect();
    let singles = lexicon::SINGLE_LETTERS.as_slice().iter().copied().filter(|c| !figurines.contains(c));
    piece.push(class(singles));
    piece.push(format!("{}{TEXT_STYLE}", class(figurines.iter().copied())));

    let mut promoted_letters = BTreeSet::new();
    let mut promoted_figurines = BTreeSet::new();
    for row in lexicon::LANGUAGES {
        // Queen, rook, bishop and knight, in both colours' glyphs.
        for letter in row.pieces[1..].iter().chain(row.pieces_also.iter().flat_map(|also| &also[1..])) {
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else { continue };
            if figurines.contains(&c) {
                promoted_figurines.insert(c)
            } else {
                promoted_letters.insert(c)
            };
        }
    }
    let promoted = format!("(?:{}|{}{TEXT_STYLE})", class(promoted_letters), class(promoted_figurines));

    let [e, p] = lexicon::EN_PASSANT_LETTERS;
    Letters {
        piece: format!("(?:{})", piece.join("|")),
        promoted,
        file: class(lexicon::FILES.chain(lexicon::FILE_LOOKALIKES.map(|(written, _)| written))),
        rank: class(lexicon::RANKS.chain(lexicon::ORIGIN_RANK_LOOKALIKES.map(|(written, _)| written))),
        dash: lexicon::DASHES.to_vec(),
        capture: class(lexicon::CAPTURE_SIGNS),
        check: choice(lexicon::CHECK_MARKS),
        castling: class(lexicon::CASTLING_LETTERS),
        en_passant: format!(r"{}\.{}\.", class(e), class(p)),
        sides: choice(lexicon::SIDE_LABELS.iter().map(|(label, _)| *label)),
        pawn_labels: choice(lexicon::PAWN_LABELS),
        annotations: choice(lexicon::ANNOTATIONS),
    }
}

/// The TextMate grammar that colours a `.pgn` file before the server
/// answers (its semantic tokens refine it), in the letters of the lexicon.
fn text_mate_grammar(letters: &Letters) -> Json {
    // Not inside a word (a move never continues a word).
    let nb = r"(?<![\p{L}\p{N}_])";
    let Letters { piece, promoted, file, rank, capture, check, castling, en_passant, sides, pawn_labels, .. } = letters;
    let dash = class(letters.dash.iter().copied());
    // The dashes inside a class after other members.
    let dash_after: String =
        letters.dash.iter().collect::<BTreeSet<_>>().into_iter().map(|&c| class_char(c, false)).collect();
    let mv = [
        nb.to_owned(),
        format!("({piece})?"),                // 1 piece
        format!("({file}?{rank}?)"),          // 2 origin (disambiguation, or the from-square of long algebraic)
        format!("(?:({dash})|({capture}))?"), // 3 dash, 4 capture sign
        format!("({piece})?"),                // 5 the captured piece, named (Sd7xSe5)
        format!("({file}{rank})"),            // 6 destination
        format!("(?:(=)?({promoted}))?"),     // 7 promotion sign, 8 the new piece
        format!(r"(\s?(?:{en_passant}))?"),   // 9 en passant
        format!("({check})?"),                // 10 check or mate
        r"(?![\p{L}\p{N}])".to_owned(),
    ]
    .concat();
    object! {
        "comment" => format!("Generated from the lexicon (server/engine/src/syntax/lexicon.rs) by the test sourcegen::text_mate_grammar (tests/tests/it/sourcegen.rs): do not edit by hand, run `{REGENERATE}`."),
        "$schema" => "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name" => "PGN (chess notation in every language)",
        "scopeName" => "source.pgn",
        "fileTypes" => list!["pgn"],
        "patterns" => list![object! { "include" => "#tag" }, object! { "include" => "#movetext" }],
        "repository" => object! {
            "tag" => object! {
                "comment" => "[Name \"value\"]",
                "name" => "meta.tag.pgn",
                "match" => r#"(\[)\s*([A-Za-z0-9_]+)\s*(")((?:[^"\\]|\\.)*)(")\s*(\])"#,
                "captures" => object! {
                    "1" => object! { "name" => "punctuation.definition.tag.begin.pgn" },
                    "2" => object! { "name" => "entity.name.tag.pgn" },
                    "3" => object! { "name" => "string.quoted.double.pgn punctuation.definition.string.begin.pgn" },
                    "4" => object! {
                        "name" => "string.quoted.double.pgn",
                        "patterns" => list![object! { "match" => r"\\.", "name" => "constant.character.escape.pgn" }],
                    },
                    "5" => object! { "name" => "string.quoted.double.pgn punctuation.definition.string.end.pgn" },
                    "6" => object! { "name" => "punctuation.definition.tag.end.pgn" },
                },
            },
            "movetext" => object! {
                "patterns" => list![
                    object! { "include" => "#comment" },
                    object! { "include" => "#escape" },
                    object! { "include" => "#draw-offer" },
                    object! { "include" => "#variation" },
                    object! { "include" => "#result" },
                    object! { "include" => "#castling" },
                    object! { "include" => "#null-move" },
                    object! { "include" => "#move-number" },
                    object! { "include" => "#position-description" },
                    object! { "include" => "#move" },
                    object! { "include" => "#nag" },
                    object! { "include" => "#glyph" },
                    object! { "include" => "#evaluation" },
                ],
            },
            "comment" => object! {
                "patterns" => list![
                    object! {
                        "name" => "comment.block.pgn",
                        "begin" => r"\{",
                        "end" => r"\}",
                        "beginCaptures" => object! { "0" => object! { "name" => "punctuation.definition.comment.begin.pgn" } },
                        "endCaptures" => object! { "0" => object! { "name" => "punctuation.definition.comment.end.pgn" } },
                        "patterns" => list![object! { "include" => "#embedded-command" }],
                    },
                    object! { "name" => "comment.line.semicolon.pgn", "match" => ";.*$" },
                ],
            },
            "embedded-command" => object! {
                "comment" => "[%clk 1:02:03], [%eval +0.25], [%csl Ge4] inside comments",
                "name" => "meta.command.pgn",
                "match" => r"(\[)(%[A-Za-z_]+)([^\]]*)(\])",
                "captures" => object! {
                    "1" => object! { "name" => "punctuation.definition.command.begin.pgn" },
                    "2" => object! { "name" => "keyword.other.command.pgn" },
                    "3" => object! { "name" => "string.unquoted.command-argument.pgn" },
                    "4" => object! { "name" => "punctuation.definition.command.end.pgn" },
                },
            },
            "escape" => object! {
                "comment" => "a line starting with % is ignored (PGN 6)",
                "name" => "comment.line.percentage.pgn",
                "match" => "^%.*$",
            },
            "draw-offer" => object! {
                "comment" => "(=), the draw-offer mark (FIDE 8.1.5)",
                "name" => "keyword.control.draw-offer.pgn",
                "match" => r"\(=\)",
            },
            "variation" => object! {
                "name" => "meta.variation.pgn",
                "begin" => r"\(",
                "end" => r"\)",
                "beginCaptures" => object! { "0" => object! { "name" => "punctuation.section.variation.begin.pgn" } },
                "endCaptures" => object! { "0" => object! { "name" => "punctuation.section.variation.end.pgn" } },
                "patterns" => list![object! { "include" => "#movetext" }],
            },
            "result" => object! {
                "name" => "keyword.control.result.pgn",
                "match" => r"(?<![\p{L}\p{N}/.])(?:1[-–]0|0[-–]1|1/2[-–]1/2|½[-–]½|\*)(?![\p{N}])",
            },
            "castling" => object! {
                "comment" => "O-O and 0-0 (FIDE writes zeros), any dash, Cyrillic О",
                "match" => format!(r"(?<![\p{{L}}\p{{N}}])({castling}(?:{dash}{castling}){{1,2}})({check})?(?![\p{{L}}\p{{N}}{dash_after}])"),
                "captures" => object! {
                    "1" => object! { "name" => "keyword.control.castling.pgn" },
                    "2" => object! { "name" => "keyword.operator.check.pgn" },
                },
            },
            "null-move" => object! {
                "name" => "keyword.control.null-move.pgn",
                "match" => r"(?<![\p{L}\p{N}\-])(?:--|Z0)(?![\p{L}\p{N}\-])",
            },
            "move-number" => object! {
                "patterns" => list![
                    object! {
                        "name" => "constant.numeric.move-number.pgn",
                        "match" => r"(?<![\p{L}\p{N}.])\d+\s*(?:\.\s*\.\s*\.|…|\.|\))",
                    },
                    object! {
                        "comment" => "a number without its dot (old texts)",
                        "name" => "constant.numeric.move-number.pgn",
                        "match" => r"(?<![\p{L}\p{N}.])\d+(?=\s)",
                    },
                ],
            },
            "position-description" => object! {
                "comment" => "Белые: Крс1, Фf2, Лe1; пп. a3, b2. (notation.md 1): here `;` is not a line comment",
                "name" => "meta.position-description.pgn",
                "begin" => format!(r"(?<![\p{{L}}])({sides})\s*(:)"),
                "beginCaptures" => object! {
                    "1" => object! { "name" => "entity.name.label.pgn" },
                    "2" => object! { "name" => "punctuation.separator.label.pgn" },
                },
                "end" => r"(?=$|[{(\[])",
                "patterns" => list![
                    object! { "name" => "entity.name.label.pgn", "match" => format!(r"(?<![\p{{L}}])(?:{pawn_labels})(?![\p{{L}}])") },
                    object! { "name" => "punctuation.separator.pawns.pgn", "match" => ";" },
                    object! { "include" => "#move" },
                ],
            },
            "move" => object! {
                "comment" => "piece, origin, capture or dash, destination, promotion, en passant, check, in the letters of every language",
                "name" => "meta.move.pgn",
                "match" => mv,
                "captures" => object! {
                    "1" => object! { "name" => "entity.name.type.piece.pgn" },
                    "2" => object! { "name" => "variable.other.square.origin.pgn" },
                    "3" => object! { "name" => "keyword.operator.dash.pgn" },
                    "4" => object! { "name" => "keyword.operator.capture.pgn" },
                    "5" => object! { "name" => "entity.name.type.piece.captured.pgn" },
                    "6" => object! { "name" => "variable.other.square.pgn" },
                    "7" => object! { "name" => "keyword.operator.promotion.pgn" },
                    "8" => object! { "name" => "entity.name.type.piece.promotion.pgn" },
                    "9" => object! { "name" => "support.constant.annotation.en-passant.pgn" },
                    "10" => object! { "name" => "keyword.operator.check.pgn" },
                },
            },
            "nag" => object! { "name" => "support.constant.annotation.nag.pgn", "match" => r"\$\d+" },
            "glyph" => object! { "name" => "support.constant.annotation.glyph.pgn", "match" => letters.annotations.clone() },
            "evaluation" => object! {
                "comment" => "evaluation symbols written as text (±, +-, ∞, ...)",
                "name" => "support.constant.annotation.evaluation.pgn",
                "match" => r"(?<=^|\s)(?:\+-|-\+|\+/-|-/\+|\+=|=\+|=|±|∓|⩲|⩱|∞|=∞|□|⊕|⇆|↑|→|△)(?=\s|$)",
            },
        },
    }
}

#[test]
fn text_mate_grammar_json() {
    let mut out = String::new();
    write_json(&text_mate_grammar(&letters()), 0, &mut out);
    out.push('\n');
    ensure_file_contents("editors/vscode/syntaxes/pgn.tmLanguage.json", &out);
}

#[test]
fn regular_expression_classes() {
    assert_eq!(class("hgfedcba".chars()), "[a-h]");
    assert_eq!(class(['—', '-', '–']), "[-–—]");
    assert_eq!(class(['x', '-', ']']), r"[-\]x]");
    assert_eq!(class(['a', 'b', 'c', 'd']), "[abcd]");
    assert_eq!(choice(["+", "++", "#"]), r"\+\+|[#+]");
    assert_eq!(choice(["п.", "пп."]), r"пп\.|п\.");
}
