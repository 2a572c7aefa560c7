//! The server's settings, from `initializationOptions` and
//! `workspace/didChangeConfiguration` (either the object itself or under a
//! `chess-ls` key).

use serde_json::Value;

use chess_ls_engine::analysis::board::Pieces;
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
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            options: Options::default(),
            board_style: BoardStyle::Figurines,
            format_width: chess_ls_engine::ide::format::DEFAULT_WIDTH,
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
    /// current value, so a bad setting never stops the server.
    pub fn update(&mut self, value: &Value) {
        let value = value.get("chess-ls").or_else(|| value.get("chessLs")).unwrap_or(value);
        if let Some(language) = value.get("language").and_then(Value::as_str) {
            self.options.language =
                if language == "auto" { None } else { Language::from_code(language).or(self.options.language) };
        }
        if let Some(b) = value.get("reportMissingCheckMarks").and_then(Value::as_bool) {
            self.options.report_missing_check = b;
        }
        if let Some(b) = value.get("reportMissingCaptureSigns").and_then(Value::as_bool) {
            self.options.report_missing_capture = b;
        }
        if let Some(style) = value.get("boardStyle").and_then(Value::as_str) {
            self.board_style = if style == "letters" { BoardStyle::Letters } else { BoardStyle::Figurines };
        }
        if let Some(width) = value.get("formatWidth").and_then(Value::as_u64) {
            self.format_width = usize::try_from(width).unwrap_or(usize::MAX);
        }
    }
}
