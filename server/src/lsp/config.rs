//! The server's settings, from `initializationOptions` and
//! `workspace/didChangeConfiguration` (either the object itself or under a
//! `chess-ls` key).

use serde_json::Value;

use chess_ls_engine::analysis::board::Pieces;
use chess_ls_engine::analysis::rewrite::Castling;
use chess_ls_engine::analysis::{Language, Options};

/// How boards are drawn in hovers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    Figurines,
    Letters,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub options: Options,
    pub board_style: BoardStyle,
    /// The columns Format Document wraps lines at (`formatWidth`); `0`
    /// never wraps.
    pub format_width: usize,
    /// How Normalize notation writes castling (`normalizeCastling`: `keep`,
    /// `O-O`, `0-0`); a project's `[normalize] castling` goes first.
    pub castling: Castling,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            options: Options::default(),
            board_style: BoardStyle::Figurines,
            format_width: chess_ls_engine::ide::format::DEFAULT_WIDTH,
            castling: Castling::Keep,
        }
    }
}

impl Settings {
    /// How boards draw their pieces.
    pub fn pieces(&self) -> Pieces {
        match self.board_style {
            BoardStyle::Figurines => Pieces::Figurines,
            BoardStyle::Letters => Pieces::Letters,
        }
    }

    /// Reads what the client sent; unknown or malformed entries keep their
    /// current value, so a bad setting never stops the server. Returns the
    /// names of the entries that were there but not understood.
    pub fn update(&mut self, value: &Value) -> Vec<&'static str> {
        let value = value.get("chess-ls").or_else(|| value.get("chessLs")).unwrap_or(value);
        let mut rejected = Vec::new();
        let mut reject = |name: &'static str, understood: bool| {
            if !understood && value.get(name).is_some() {
                rejected.push(name);
            }
        };
        let language = value.get("language").and_then(Value::as_str);
        match language {
            Some("auto") => self.options.language = None,
            Some(code) if Language::from_code(code).is_some() => self.options.language = Language::from_code(code),
            _ => reject("language", false),
        }
        let check = value.get("reportMissingCheckMarks").and_then(Value::as_bool);
        if let Some(b) = check {
            self.options.report_missing_check = b;
        }
        reject("reportMissingCheckMarks", check.is_some());
        let capture = value.get("reportMissingCaptureSigns").and_then(Value::as_bool);
        if let Some(b) = capture {
            self.options.report_missing_capture = b;
        }
        reject("reportMissingCaptureSigns", capture.is_some());
        let style = value.get("boardStyle").and_then(Value::as_str);
        match style {
            Some("letters") => self.board_style = BoardStyle::Letters,
            Some("figurines") => self.board_style = BoardStyle::Figurines,
            _ => reject("boardStyle", false),
        }
        let width = value.get("formatWidth").and_then(Value::as_u64);
        if let Some(width) = width {
            self.format_width = usize::try_from(width).unwrap_or(usize::MAX);
        }
        reject("formatWidth", width.is_some());
        let castling = value.get("normalizeCastling").and_then(Value::as_str).and_then(Castling::parse);
        if let Some(castling) = castling {
            self.castling = castling;
        }
        reject("normalizeCastling", castling.is_some());
        rejected
    }
}
