//! Project settings: what a `chess-ls.toml` says, parsed and checked, and
//! how it is applied. Both front ends call here (the command line for each
//! file it reads, the language server for each document), so a folder's
//! settings mean the same in CI and in the editor. Finding and reading the
//! file is the front ends' part (`crate::project`); nothing here touches a
//! file.
//!
//! ```toml
//! language = "ru"                # or "auto" (the default)
//! encoding = "windows-1251"      # the command line's --encoding
//! missing-check-marks = true     # --missing-check-marks
//! missing-capture-signs = false  # --missing-capture-signs
//! ignore = ["check-mark"]        # codes never reported
//! select = ["illegal-move", "syntax"]  # only these codes are reported
//!
//! [severity]                     # a code's severity, overridden
//! move-number = "info"
//!
//! [manuscript]
//! search = true                  # directory searches take .md, .tex, .txt
//! all = false                    # every file is a manuscript (--manuscript)
//!
//! [normalize]
//! castling = "O-O"               # or "0-0"; "keep" (the default): the game's own
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use crate::analysis::rewrite::Castling;
use crate::analysis::{Code, Diagnostic, Language, Options, Severity};

/// The name of the project settings file.
pub const FILE_NAME: &str = "chess-ls.toml";

/// A `chess-ls.toml` as written (every key optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProjectFile {
    pub language: Option<String>,
    pub encoding: Option<String>,
    pub missing_check_marks: Option<bool>,
    pub missing_capture_signs: Option<bool>,
    pub ignore: Option<Vec<String>>,
    pub select: Option<Vec<String>>,
    #[serde(default)]
    pub severity: BTreeMap<String, String>,
    #[serde(default)]
    pub manuscript: ManuscriptSettings,
    #[serde(default)]
    pub normalize: NormalizeSettings,
}

/// The `[normalize]` table: how Normalize notation writes what it may
/// write more than one way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct NormalizeSettings {
    /// `keep` (the game's own way), `O-O` or `0-0`.
    pub castling: Option<String>,
}

/// The `[manuscript]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ManuscriptSettings {
    /// Directory searches take `.md`, `.tex` and `.txt` files too.
    pub search: Option<bool>,
    /// Every file is read as a manuscript.
    pub all: Option<bool>,
}

/// Settings checked and ready to apply: a project file's, a front end's,
/// or both merged ([`Settings::overridden_by`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `Some(None)`: `auto` said explicitly; `None`: not said.
    pub language: Option<Option<Language>>,
    pub encoding: Option<String>,
    pub missing_check_marks: Option<bool>,
    pub missing_capture_signs: Option<bool>,
    pub ignore: Vec<Code>,
    pub select: Option<Vec<Code>>,
    pub severity: Vec<(Code, Severity)>,
    pub search_manuscripts: Option<bool>,
    pub all_manuscripts: Option<bool>,
    /// How Normalize notation writes castling.
    pub castling: Option<Castling>,
}

/// The most of a value an error quotes, in characters.
const QUOTED_CHARS: usize = 40;

/// A value of the settings as an error quotes it: in quotes, at most
/// [`QUOTED_CHARS`] characters of it (a 16 MB value was quoted whole), and
/// with controls written as escapes (`\n`, `\u{1b}`), so that it reads as
/// one value on one line.
pub fn quoted(value: &str) -> String {
    let shown: String = value.chars().take(QUOTED_CHARS).collect();
    let more = value.len() - shown.len();
    let mut out = format!("\"{}\"", shown.escape_debug());
    if more > 0 {
        out.push_str(&format!(" (and {more} more bytes)"));
    }
    out
}

/// A code named in settings: its kebab-case name (`illegal-move`).
pub fn parse_code(name: &str) -> Result<Code, String> {
    Code::from_str(name.trim()).ok_or_else(|| {
        let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown code {}; the codes are {}", quoted(name), codes.join(", "))
    })
}

/// A severity named in settings.
pub fn parse_severity(name: &str) -> Result<Severity, String> {
    Ok(match name {
        "error" => Severity::Error,
        "warning" => Severity::Warning,
        "info" | "information" => Severity::Info,
        "hint" => Severity::Hint,
        _ => return Err(format!("unknown severity {}; use error, warning, info or hint", quoted(name))),
    })
}

/// A castling style named in settings: `keep`, `O-O` or `0-0`.
pub fn parse_castling(name: &str) -> Result<Castling, String> {
    Castling::parse(name).ok_or_else(|| format!("unknown castling style {}; use keep, O-O or 0-0", quoted(name)))
}

/// A language named in settings: a code, or `auto` (`Ok(None)`).
pub fn parse_language(code: &str) -> Result<Option<Language>, String> {
    if code == "auto" {
        return Ok(None);
    }
    Language::from_code(code).map(Some).ok_or_else(|| {
        let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
        format!("unknown language {}; use auto or one of {}", quoted(code), codes.join(", "))
    })
}

impl Settings {
    /// Parses and checks the text of a `chess-ls.toml`; the error says what
    /// is wrong (and where, for a TOML error).
    pub fn parse(text: &str) -> Result<Settings, String> {
        let file: ProjectFile = toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())?;
        Settings::from_file(file)
    }

    pub fn from_file(file: ProjectFile) -> Result<Settings, String> {
        let codes = |names: &[String]| names.iter().map(|n| parse_code(n)).collect::<Result<Vec<_>, _>>();
        Ok(Settings {
            language: file.language.as_deref().map(parse_language).transpose()?,
            encoding: file.encoding,
            missing_check_marks: file.missing_check_marks,
            missing_capture_signs: file.missing_capture_signs,
            ignore: codes(file.ignore.as_deref().unwrap_or_default())?,
            select: file.select.as_deref().map(codes).transpose()?,
            severity: file
                .severity
                .iter()
                .map(|(code, severity)| Ok((parse_code(code)?, parse_severity(severity)?)))
                .collect::<Result<Vec<_>, String>>()?,
            search_manuscripts: file.manuscript.search,
            all_manuscripts: file.manuscript.all,
            castling: file.normalize.castling.as_deref().map(parse_castling).transpose()?,
        })
    }

    /// These settings with what `over` says taking their place (the
    /// command line's flags over a project file). Codes ignored by either
    /// stay ignored; a `select` of `over` replaces this one.
    pub fn overridden_by(&self, over: &Settings) -> Settings {
        let mut ignore = self.ignore.clone();
        ignore.extend(over.ignore.iter().copied().filter(|c| !self.ignore.contains(c)));
        let mut severity = self.severity.clone();
        severity.extend(over.severity.iter().copied());
        Settings {
            language: over.language.or(self.language),
            encoding: over.encoding.clone().or_else(|| self.encoding.clone()),
            missing_check_marks: over.missing_check_marks.or(self.missing_check_marks),
            missing_capture_signs: over.missing_capture_signs.or(self.missing_capture_signs),
            ignore,
            select: over.select.clone().or_else(|| self.select.clone()),
            severity,
            search_manuscripts: over.search_manuscripts.or(self.search_manuscripts),
            all_manuscripts: over.all_manuscripts.or(self.all_manuscripts),
            castling: over.castling.or(self.castling),
        }
    }

    /// The analysis options: `base` with what these settings say.
    pub fn options(&self, base: &Options) -> Options {
        Options {
            language: self.language.unwrap_or(base.language),
            report_missing_check: self.missing_check_marks.unwrap_or(base.report_missing_check),
            report_missing_capture: self.missing_capture_signs.unwrap_or(base.report_missing_capture),
            document_language: base.document_language,
        }
    }

    /// Everything these settings say about a document: its analysis
    /// options (`base` with what they say), the filter of its findings and
    /// how it is normalised.
    pub fn config(&self, base: &Options) -> super::host::Config {
        super::host::Config {
            options: self.options(base),
            filter: self.filter(),
            castling: self.castling.unwrap_or_default(),
        }
    }

    /// What decides which findings are reported, and at what severity.
    pub fn filter(&self) -> Filter {
        Filter {
            ignore: self.ignore.iter().copied().collect(),
            select: self.select.as_ref().map(|s| s.iter().copied().collect()),
            severity: self.severity.iter().copied().collect(),
        }
    }
}

/// `ignore`, `select` and the severity overrides, applied to findings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    ignore: HashSet<Code>,
    select: Option<HashSet<Code>>,
    severity: HashMap<Code, Severity>,
}

impl Filter {
    /// Whether this filter keeps every finding as it is.
    pub fn is_identity(&self) -> bool {
        self.ignore.is_empty() && self.select.is_none() && self.severity.is_empty()
    }

    /// Whether a finding of this code is reported.
    pub fn keeps(&self, code: Code) -> bool {
        !self.ignore.contains(&code) && self.select.as_ref().is_none_or(|s| s.contains(&code))
    }

    /// The severity a finding of `code` is reported at.
    pub fn severity(&self, code: Code, severity: Severity) -> Severity {
        self.severity.get(&code).copied().unwrap_or(severity)
    }

    /// A finding as reported: `None` where it is not, else with its
    /// severity overridden.
    pub fn reported(&self, mut diagnostic: Diagnostic) -> Option<Diagnostic> {
        if !self.keeps(diagnostic.code) {
            return None;
        }
        diagnostic.severity = self.severity(diagnostic.code, diagnostic.severity);
        Some(diagnostic)
    }

    /// Drops the findings not reported and sets the overridden severities.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.is_identity() {
            return;
        }
        diagnostics.retain(|d| self.keeps(d.code));
        for d in diagnostics {
            d.severity = self.severity(d.code, d.severity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_file_parses_and_merges_under_the_command_line() {
        let file = Settings::parse(
            "language = \"ru\"\nignore = [\"check-mark\"]\n[severity]\nmove-number = \"info\"\n[manuscript]\nsearch = true\n",
        )
        .unwrap();
        assert_eq!(file.language, Some(Language::from_code("ru")));
        assert_eq!(file.ignore, [Code::CheckMark]);
        assert_eq!(file.search_manuscripts, Some(true));
        let flags = Settings { language: Some(None), ignore: vec![Code::Tag], ..Settings::default() };
        let merged = file.overridden_by(&flags);
        assert_eq!(merged.language, Some(None));
        assert_eq!(merged.ignore, [Code::CheckMark, Code::Tag]);
        let filter = merged.filter();
        assert!(!filter.keeps(Code::CheckMark) && filter.keeps(Code::IllegalMove));
        assert_eq!(filter.severity(Code::MoveNumber, Severity::Warning), Severity::Info);
    }

    #[test]
    fn mistakes_are_said() {
        assert!(Settings::parse("ignore = [\"no-such-code\"]").unwrap_err().contains("unknown code \"no-such-code\""));
        assert!(Settings::parse("langauge = \"ru\"").unwrap_err().contains("langauge"));
        assert!(Settings::parse("language = \"xx\"").unwrap_err().contains("unknown language"));
        assert!(Settings::parse("[severity]\nsyntax = \"fatal\"").unwrap_err().contains("unknown severity"));
    }
}
