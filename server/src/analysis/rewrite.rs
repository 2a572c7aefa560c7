//! Rewrites the moves of a game: into another notation language, or into
//! the canonical SAN of its own language. Only the move tokens change;
//! comments, variations, tags, numbers and layout stay byte for byte.

use super::languages::{Language, MoveStyle, render_move};
use super::replay::{Trace, trace_game};
use super::{Options, TextEdit};
use crate::syntax::GameSyntax;

/// What a rewrite produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rewrite {
    /// Write every move in `language`, keeping the written check marks,
    /// glyphs and the capture-sign habit of each move.
    Translate(Language),
    /// Canonical SAN in the game's own language: the disambiguation FIDE
    /// asks for, `x` on captures, `+`/`#` where the position says so.
    Normalize,
}

/// The edits that rewrite the game's replayed moves; moves after one that
/// could not be read are left as written.
pub fn rewrite_game(game: &GameSyntax<'_>, source: &str, options: &Options, rewrite: Rewrite) -> Vec<TextEdit> {
    rewrite_traced(&trace_game(game, source, options), source, rewrite)
}

/// The edits that rewrite the moves of a game already replayed with its
/// trace (`analysis::analyze_traced`), spans in `source`.
pub fn rewrite_traced(trace: &Trace, source: &str, rewrite: Rewrite) -> Vec<TextEdit> {
    let own = trace.language.unwrap_or(Language::En);
    let mut edits = Vec::new();
    for traced in &trace.moves {
        let written = &source[traced.span.clone()];
        let suffix_start = written.find(['+', '#', '!', '?', '‼', '⁇', '⁉', '⁈', '†', '‡']).unwrap_or(written.len());
        let suffix = &written[suffix_start..];
        let new_text = match rewrite {
            Rewrite::Translate(language) => {
                let mut style = MoveStyle::for_language(language);
                style.check_marks = false;
                style.capture_sign = if written.contains('x') {
                    Some("x")
                } else if written.contains('х') {
                    Some(if language.is_cyrillic() { "х" } else { "x" })
                } else if written.contains(':') {
                    Some(":")
                } else {
                    None
                };
                style.long = written.contains(['-', '–', '—']) && !written.starts_with(['O', '0', 'o', 'О']);
                style.castling_zeros = written.starts_with('0');
                style.promotion_equals = written.contains('=');
                format!("{}{suffix}", render_move(&traced.before, &traced.played, &style))
            }
            Rewrite::Normalize => {
                let style = MoveStyle::for_language(own);
                let annotation_start = suffix.find(['!', '?', '‼', '⁇', '⁉', '⁈']).unwrap_or(suffix.len());
                format!("{}{}", render_move(&traced.before, &traced.played, &style), &suffix[annotation_start..])
            }
        };
        if new_text != written {
            edits.push(TextEdit { span: traced.span.clone(), new_text });
        }
    }
    edits
}

/// Applies non-overlapping edits to a text.
pub fn apply_edits(source: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.span.start);
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for e in sorted {
        if e.span.start < at {
            continue;
        }
        out.push_str(&source[at..e.span.start]);
        out.push_str(&e.new_text);
        at = e.span.end;
    }
    out.push_str(&source[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    fn rewrite_text(text: &str, rewrite: Rewrite) -> String {
        let tree = syntax::parse(text, None);
        let games = syntax::lower(&tree, text);
        let edits: Vec<TextEdit> =
            games.iter().flat_map(|g| rewrite_game(g, text, &Options::default(), rewrite)).collect();
        apply_edits(text, &edits)
    }

    #[test]
    fn translates_and_back() {
        let en = "1. e4 e5 2. Nf3 {best} Nc6 3. Bb5 a6 (3... Nf6 4. O-O) 4. Bxc6 dxc6 5. O-O Qd6!? *";
        let ru = rewrite_text(en, Rewrite::Translate(Language::Ru));
        assert_eq!(ru, "1. e4 e5 2. Кf3 {best} Кc6 3. Сb5 a6 (3... Кf6 4. O-O) 4. Сxc6 dxc6 5. O-O Фd6!? *");
        assert_eq!(rewrite_text(&ru, Rewrite::Translate(Language::En)), en);
    }

    #[test]
    fn normalizes() {
        let text =
            "1. e4 e5 2. Ng1f3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 Kxf7 7. Qf3 Ke6 8. Nc3 Nb4 9. Qe4 *";
        let out = rewrite_text(text, Rewrite::Normalize);
        assert_eq!(
            out,
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7 Kxf7 7. Qf3+ Ke6 8. Nc3 Nb4 9. Qe4 *"
        );
    }
}
