//! Diagnostics and fixes in editor-neutral terms: byte ranges and strings.
//!
//! The codes are the stable public interface of notation.md section 5: the
//! CLI's JSON, the language server and the editors rely on them.

use std::fmt;

use crate::syntax::Span;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// The stable diagnostic codes (notation.md section 5), plus `unchecked`, the
/// info that a line was not replayed past a move that could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    Syntax,
    IllegalMove,
    AmbiguousMove,
    MissingPromotion,
    InvalidPosition,
    Result,
    CheckMark,
    CaptureMark,
    EnPassantMark,
    Homoglyph,
    PawnLetter,
    MoveNumber,
    LanguageMix,
    Tag,
    RedundantDisambiguation,
    SpaceInMove,
    Unchecked,
    /// A move written after the game ended by rule (checkmate, stalemate,
    /// a dead position, fivefold repetition, the seventy-five-move rule).
    GameOver,
    /// Where a draw could have been claimed (threefold repetition, fifty
    /// moves): an information for the arbiter.
    DrawClaim,
}

impl Code {
    pub const ALL: [Code; 19] = [
        Code::Syntax,
        Code::IllegalMove,
        Code::AmbiguousMove,
        Code::MissingPromotion,
        Code::InvalidPosition,
        Code::Result,
        Code::CheckMark,
        Code::CaptureMark,
        Code::EnPassantMark,
        Code::Homoglyph,
        Code::PawnLetter,
        Code::MoveNumber,
        Code::LanguageMix,
        Code::Tag,
        Code::RedundantDisambiguation,
        Code::SpaceInMove,
        Code::Unchecked,
        Code::GameOver,
        Code::DrawClaim,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "syntax",
            Code::IllegalMove => "illegal-move",
            Code::AmbiguousMove => "ambiguous-move",
            Code::MissingPromotion => "missing-promotion",
            Code::InvalidPosition => "invalid-position",
            Code::Result => "result",
            Code::CheckMark => "check-mark",
            Code::CaptureMark => "capture-mark",
            Code::EnPassantMark => "en-passant-mark",
            Code::Homoglyph => "homoglyph",
            Code::PawnLetter => "pawn-letter",
            Code::MoveNumber => "move-number",
            Code::LanguageMix => "language-mix",
            Code::Tag => "tag",
            Code::RedundantDisambiguation => "redundant-disambiguation",
            Code::SpaceInMove => "space-in-move",
            Code::Unchecked => "unchecked",
            Code::GameOver => "game-over",
            Code::DrawClaim => "draw-claim",
        }
    }

    /// The severity notation.md gives the code.
    pub fn severity(self) -> Severity {
        match self {
            Code::Syntax
            | Code::IllegalMove
            | Code::AmbiguousMove
            | Code::MissingPromotion
            | Code::InvalidPosition
            | Code::GameOver => Severity::Error,
            Code::Result
            | Code::CheckMark
            | Code::CaptureMark
            | Code::EnPassantMark
            | Code::Homoglyph
            | Code::PawnLetter
            | Code::MoveNumber
            | Code::LanguageMix
            | Code::Tag
            | Code::SpaceInMove => Severity::Warning,
            Code::Unchecked | Code::DrawClaim => Severity::Info,
            Code::RedundantDisambiguation => Severity::Hint,
        }
    }

    /// The code with this name. An `Option` rather than `FromStr`'s
    /// `Result`, because an unknown name needs no error value.
    #[expect(clippy::should_implement_trait, reason = "returns an Option, unlike FromStr")]
    pub fn from_str(s: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Replace the text of `span` by `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub new_text: String,
}

/// The longest word (a run of characters without a blank) a message or a
/// fix title quotes whole; a longer one (a token of a megabyte, a move
/// number of 950 digits) is cut to [`KEPT_OF_A_WORD`] characters and `…`.
pub const MAX_WORD: usize = 48;
pub const KEPT_OF_A_WORD: usize = 40;

/// The first `keep` characters of `word`, and `…` if there were more.
pub fn shorten(word: &str, keep: usize) -> String {
    match word.char_indices().nth(keep) {
        None => word.to_owned(),
        Some((at, _)) => format!("{}…", &word[..at]),
    }
}

/// `text` with every word longer than [`MAX_WORD`] characters cut (keeping
/// a closing quote or bracket), so that a message never repeats a huge
/// token.
pub fn shorten_words(text: String) -> String {
    if !text.split(char::is_whitespace).any(|w| w.len() > MAX_WORD && w.chars().count() > MAX_WORD) {
        return text;
    }
    let mut out = String::with_capacity(text.len().min(1024));
    for piece in text.split_inclusive(char::is_whitespace) {
        let word = piece.trim_end_matches(char::is_whitespace);
        if word.chars().count() > MAX_WORD {
            out.push_str(&shorten(word, KEPT_OF_A_WORD));
            if let Some(last) = word.chars().last().filter(|c| matches!(c, '`' | '"' | '\'' | ')' | ']' | '}')) {
                out.push(last);
            }
            out.push_str(&piece[word.len()..]);
        } else {
            out.push_str(piece);
        }
    }
    out
}

/// A fix: one or more edits with a title, e.g. "Write Кbd2".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
    /// The reading the analysis takes (the game replayed on with it): the
    /// editors' preferred quick-fix. It may still be a guess.
    pub preferred: bool,
    /// The fix has one certain outcome, so tools may apply it without
    /// asking (`--fix`, the editors' "fix all"): see [`settle`].
    pub certain: bool,
}

impl Fix {
    pub fn replace(title: impl Into<String>, span: Span, new_text: impl Into<String>) -> Fix {
        Fix {
            title: shorten_words(title.into()),
            edits: vec![TextEdit { span, new_text: new_text.into() }],
            preferred: false,
            certain: false,
        }
    }

    pub fn preferred(mut self, preferred: bool) -> Fix {
        self.preferred = preferred;
        self
    }
}

/// Another place a diagnostic refers to, e.g. a candidate piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub span: Span,
    pub message: String,
}

/// One finding at one place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub fixes: Vec<Fix>,
    pub related: Vec<Related>,
    /// The text is unnecessary (editors fade it), e.g. a redundant
    /// disambiguation.
    pub unnecessary: bool,
}

impl Diagnostic {
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            span,
            code,
            severity: code.severity(),
            message: shorten_words(message.into()),
            fixes: Vec::new(),
            related: Vec::new(),
            unnecessary: false,
        }
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self.settle();
        self
    }

    /// Moves every span of the diagnostic (its own, its related places,
    /// its fixes' edits) by `delta` bytes: from a section's offsets to the
    /// document's, or back.
    pub fn shift(&mut self, delta: isize) {
        if delta == 0 {
            return;
        }
        let by = |r: &mut Span| *r = r.start.saturating_add_signed(delta)..r.end.saturating_add_signed(delta);
        by(&mut self.span);
        for r in &mut self.related {
            by(&mut r.span);
        }
        for f in &mut self.fixes {
            for e in &mut f.edits {
                by(&mut e.span);
            }
        }
    }

    /// The fix that tools may apply without asking, if any (see [`settle`]).
    pub fn certain_fix(&self) -> Option<&Fix> {
        self.fixes.iter().find(|f| f.certain)
    }

    /// Marks which of the fixes is certain, by the one fix policy of
    /// chess-ls (the CLI's `--fix`, the editors' "fix all" and every report
    /// read it from [`Fix::certain`]):
    ///
    /// - only errors and warnings are fixed (hints are style, infos notes);
    /// - never the reading of an illegal move, the piece of a promotion
    ///   that names none, a syntax error or an invalid position: each is a
    ///   guess however likely, and left to a person;
    /// - otherwise the one preferred fix, when there is exactly one with an
    ///   edit (two would be a choice, not a certainty).
    ///
    /// Idempotent: it decides from scratch, so it can run again after
    /// fixes were dropped (a manuscript drops those that edit prose).
    pub fn settle(&mut self) {
        for fix in &mut self.fixes {
            fix.certain = false;
        }
        if self.severity > Severity::Warning
            || matches!(self.code, Code::IllegalMove | Code::MissingPromotion | Code::Syntax | Code::InvalidPosition)
        {
            return;
        }
        let candidate = |f: &Fix| f.preferred && !f.edits.is_empty();
        if self.fixes.iter().filter(|f| candidate(f)).count() == 1
            && let Some(fix) = self.fixes.iter_mut().find(|f| candidate(f))
        {
            fix.certain = true;
        }
    }
}

/// [`Diagnostic::settle`] for each diagnostic.
pub fn settle(diagnostics: &mut [Diagnostic]) {
    for d in diagnostics {
        d.settle();
    }
}
