//! `--format sarif`: one SARIF 2.1.0 log for the whole run, for code
//! scanning services and IDE viewers.
//!
//! One run; `tool.driver` names chess-ls with its version, its address and
//! one rule per diagnostic code (notation.md section 5) with the code's
//! default level. Each diagnostic is a result with its rule, level, message,
//! location (1-based lines and columns, columns in Unicode code points as
//! `run.columnKind` says, exclusive ends) and its fixes as replacements.
//! Every file read is an artifact with its encoding; a file that could not
//! be read is a notification of the invocation, which then did not succeed.

use std::io::{self, Write};

use serde_json::{Value, json};

use super::check::Checked;
use chess_ls_engine::analysis::{Code, Severity};
use chess_ls_engine::ide::line_index::{LineIndex, Unit};

/// The log being built; written whole at the end of the run.
#[derive(Default)]
pub struct Log {
    artifacts: Vec<Value>,
    /// Each artifact's index by its URI (a zip of 25,000 members searched
    /// the list for each: quadratic).
    by_uri: std::collections::HashMap<String, usize>,
    results: Vec<Value>,
}

impl Log {
    pub fn add(&mut self, file: &Checked) {
        let name = &file.source.name;
        let uri = match file.source.archive {
            Some(len) if name.is_char_boundary(len) && len < name.len() => member_uri(&name[..len], &name[len + 1..]),
            _ => uri_of(name),
        };
        // A file named twice on the command line is one artifact.
        let artifact = match self.by_uri.get(&uri) {
            Some(&i) => i,
            None => {
                self.artifacts.push(json!({
                    "location": { "uri": uri },
                    "encoding": file.source.encoding.name(),
                }));
                self.by_uri.insert(uri.clone(), self.artifacts.len() - 1);
                self.artifacts.len() - 1
            }
        };
        let text = &file.source.text;
        let index = LineIndex::new(text);
        let region = |span: &std::ops::Range<usize>| {
            let (line, column) = index.position(text, span.start, Unit::Char);
            let (end_line, end_column) = index.position(text, span.end, Unit::Char);
            json!({
                "startLine": file.source.first_line + line + 1,
                "startColumn": column + 1,
                "endLine": file.source.first_line + end_line + 1,
                "endColumn": end_column + 1,
            })
        };
        let location = json!({ "uri": uri, "index": artifact });
        for d in &file.diagnostics {
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": rule_index(d.code),
                "level": level(d.severity),
                "message": { "text": d.message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": location,
                        "region": region(&d.span),
                    }
                }],
            });
            if !d.fixes.is_empty() {
                let fixes: Vec<Value> = d
                    .fixes
                    .iter()
                    .map(|fix| {
                        let replacements: Vec<Value> = fix
                            .edits
                            .iter()
                            .map(|e| {
                                json!({
                                    "deletedRegion": region(&e.span),
                                    "insertedContent": { "text": e.new_text },
                                })
                            })
                            .collect();
                        json!({
                            "description": { "text": fix.title },
                            "artifactChanges": [{
                                "artifactLocation": location,
                                "replacements": replacements,
                            }],
                        })
                    })
                    .collect();
                result["fixes"] = Value::Array(fixes);
            }
            self.results.push(result);
        }
    }

    /// Writes the log; `failures` are the files that could not be read or
    /// written.
    pub fn write(self, out: &mut impl Write, failures: &[String]) -> io::Result<()> {
        let mut failures: Vec<&String> = failures.iter().collect();
        failures.sort();
        failures.dedup();
        let notifications: Vec<Value> =
            failures.iter().map(|f| json!({ "level": "error", "message": { "text": f } })).collect();
        let log = json!({
            "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {
                    "driver": {
                        "name": "chess-ls",
                        "version": env!("CARGO_PKG_VERSION"),
                        "semanticVersion": env!("CARGO_PKG_VERSION"),
                        "informationUri": env!("CARGO_PKG_REPOSITORY"),
                        "rules": rules(),
                    }
                },
                "invocations": [{
                    "executionSuccessful": failures.is_empty(),
                    "toolExecutionNotifications": notifications,
                }],
                "columnKind": "unicodeCodePoints",
                "artifacts": self.artifacts,
                "results": self.results,
            }]
        });
        let text = serde_json::to_string_pretty(&log).map_err(io::Error::other)?;
        out.write_all(super::output::escape_json(&text).as_bytes())?;
        out.write_all(b"\n")
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

fn rule_index(code: Code) -> usize {
    Code::ALL.iter().position(|&c| c == code).expect("every code is in Code::ALL")
}

/// One rule per code, in the order of `Code::ALL`, with notation.md's
/// description and default severity.
fn rules() -> Vec<Value> {
    Code::ALL
        .iter()
        .map(|&code| {
            json!({
                "id": code.as_str(),
                "name": rule_name(code),
                "shortDescription": { "text": description(code) },
                "defaultConfiguration": { "level": level(code.severity()) },
                "properties": { "tags": ["chess-notation"] },
            })
        })
        .collect()
}

/// `illegal-move` -> `IllegalMove`, SARIF's habit for rule names.
fn rule_name(code: Code) -> String {
    code.as_str()
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |c| c.to_ascii_uppercase().to_string() + chars.as_str())
        })
        .collect()
}

fn description(code: Code) -> &'static str {
    match code {
        Code::Syntax => "Text that is not notation, unbalanced brackets or a broken tag pair.",
        Code::IllegalMove => "No legal move matches the written move.",
        Code::AmbiguousMove => "Several legal moves match the written move; it needs a disambiguation.",
        Code::MissingPromotion => "A pawn reaches the last rank and no piece is named.",
        Code::InvalidPosition => "A FEN tag or a position description that is not a legal position.",
        Code::Result => "The result disagrees with the final position or with the Result tag.",
        Code::CheckMark => "A check or mate mark that the position contradicts.",
        Code::CaptureMark => "A capture sign on a move that captures nothing.",
        Code::EnPassantMark => "An en-passant mark on a move that is not an en-passant capture.",
        Code::Homoglyph => "A look-alike letter from another script, or a digit/letter swap.",
        Code::PawnLetter => "A pawn move written with a pawn letter.",
        Code::MoveNumber => "A move number that does not match the ply it stands before.",
        Code::LanguageMix => "Piece letters of two languages in one game, or an undecided language.",
        Code::Tag => "A malformed tag value.",
        Code::RedundantDisambiguation => "More disambiguation than the position needs.",
        Code::SpaceInMove => "A move broken by a space, as scanned text has it (`К f3`).",
        Code::Unchecked => "The rest of a line was not replayed after a move that could not be read.",
        Code::GameOver => {
            "A move written after the game ended by rule: checkmate, stalemate, a dead position, fivefold repetition or 75 moves."
        }
        Code::DrawClaim => "Where a draw could have been claimed: threefold repetition or fifty moves.",
    }
}

/// A path as a URI reference: relative paths stay relative (with `/`),
/// absolute ones become `file://` URIs; anything outside the unreserved
/// characters is percent-encoded (UTF-8).
pub fn uri_of(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::new();
    let absolute = path.starts_with('/');
    if absolute {
        out.push_str("file://");
    }
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The URI of a zip archive's member: the archive's, then `:` and the
/// member's name as one segment (its `/` encoded too), so that a name with
/// `..` segments or a leading `/` cannot resolve to a file outside the
/// archive (`book.zip:../../etc/x.pgn` resolved to `etc/x.pgn`).
pub fn member_uri(archive: &str, member: &str) -> String {
    let mut out = uri_of(archive);
    out.push_str("%3A");
    for byte in member.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(uri_of("games/ru.pgn"), "games/ru.pgn");
        assert_eq!(uri_of("/tmp/Партия 1.pgn"), "file:///tmp/%D0%9F%D0%B0%D1%80%D1%82%D0%B8%D1%8F%201.pgn");
        assert_eq!(uri_of("a\\b,c.pgn"), "a/b%2Cc.pgn");
    }

    #[test]
    fn rule_names() {
        assert_eq!(rule_name(Code::IllegalMove), "IllegalMove");
        assert_eq!(rule_name(Code::Tag), "Tag");
        assert_eq!(rules().len(), Code::ALL.len());
    }
}
