//! Rewrites the moves of a game: into another notation language, or into
//! the canonical SAN of its own language. Only the move tokens change;
//! comments, variations, tags, numbers and layout stay byte for byte.

use shakmaty::Role;

use super::languages::{Language, MoveStyle, render_move};
use super::replay::{Trace, trace_game};
use super::{Options, TextEdit};
use crate::syntax::{GameSyntax, Item, Token};

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

/// How normalisation writes castling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Castling {
    /// The game's own way (`0-0`, the FIDE text, or `O-O`, PGN's): the way
    /// most of its castling moves are written.
    #[default]
    Keep,
    /// `O-O` and `O-O-O`, as PGN writes them.
    Letters,
    /// `0-0` and `0-0-0`, as the FIDE Laws and most books write them.
    Zeros,
}

impl Castling {
    /// A castling style named in settings: `keep`, `O-O` or `0-0`.
    pub fn parse(name: &str) -> Option<Castling> {
        Some(match name.trim() {
            "keep" => Castling::Keep,
            "O-O" | "o-o" | "letters" => Castling::Letters,
            "0-0" | "zeros" => Castling::Zeros,
            _ => return None,
        })
    }
}

/// The edits that rewrite a game: see [`rewrite_traced`].
pub fn rewrite_game(game: &GameSyntax<'_>, source: &str, options: &Options, rewrite: Rewrite) -> Vec<TextEdit> {
    rewrite_traced(game, &trace_game(game, source, options), source, rewrite, Castling::Keep)
}

/// The edits that rewrite a game already replayed with its trace
/// (`analysis::analyze_traced`), spans in `source`.
///
/// A translation changes the piece letters (and the Cyrillic capture sign,
/// which only Cyrillic notation writes) and nothing else: each move keeps
/// its style, its disambiguation as written, its marks and its mistakes. A
/// replayed move's letters name the pieces it moved; one that was not
/// replayed (after a move that could not be read) is translated letter by
/// letter in the game's language, and a letter that language does not have
/// is left as written. Normalisation writes each replayed move in the
/// canonical SAN of the game's language, castling as `castling` says.
pub fn rewrite_traced(
    game: &GameSyntax<'_>,
    trace: &Trace,
    source: &str,
    rewrite: Rewrite,
    castling: Castling,
) -> Vec<TextEdit> {
    match rewrite {
        Rewrite::Translate(language) => translate(game, trace, language),
        Rewrite::Normalize => normalize(trace, source, castling),
    }
}

fn translate(game: &GameSyntax<'_>, trace: &Trace, target: Language) -> Vec<TextEdit> {
    let own = trace.language.unwrap_or(Language::En);
    let mut edits = Vec::new();
    let letter = |token: &Token<'_>, role: Option<Role>, edits: &mut Vec<TextEdit>| {
        let role = role.or_else(|| own.read_letter(token.text).map(|r| r.role));
        if let Some(role) = role.filter(|&r| r != Role::Pawn) {
            let new_text = if token.text.chars().next().is_some_and(|c| ('\u{265A}'..='\u{265F}').contains(&c))
                && target == Language::Figurine
            {
                // A black figurine stays black.
                figurine_black(role).to_owned()
            } else {
                target.letter(role).to_owned()
            };
            if new_text != token.text {
                edits.push(TextEdit { span: token.span.clone(), new_text });
            }
        }
    };
    let mut lines = vec![&game.mainline];
    while let Some(line) = lines.pop() {
        for item in &line.items {
            match item {
                Item::Variation(v) => lines.push(v),
                Item::Move(m) => {
                    // A guessed move is read as written: the guess is no fact.
                    let traced = trace.moves.iter().find(|t| t.span == m.span && !t.guessed);
                    if let Some(piece) = &m.piece {
                        letter(piece, traced.map(|t| t.played.role()), &mut edits);
                    }
                    if let Some(captured) = &m.captured {
                        let taken = traced.and_then(|t| t.played.capture());
                        letter(captured, taken, &mut edits);
                    }
                    if let Some(promotion) = &m.promotion {
                        letter(promotion, traced.and_then(|t| t.played.promotion()), &mut edits);
                    }
                    if let Some(capture) = &m.capture
                        && capture.text == "х"
                        && !target.is_cyrillic()
                    {
                        edits.push(TextEdit { span: capture.span.clone(), new_text: "x".to_owned() });
                    }
                }
                _ => {}
            }
        }
    }
    edits.sort_by_key(|e| e.span.start);
    edits
}

/// The black figurine of a piece.
fn figurine_black(role: Role) -> &'static str {
    match role {
        Role::King => "♚",
        Role::Queen => "♛",
        Role::Rook => "♜",
        Role::Bishop => "♝",
        Role::Knight => "♞",
        Role::Pawn => "♟",
    }
}

/// Normalisation writes what the replay established and nothing more: a
/// move the check only guessed (an ambiguous `Кd2` read as `Кbd2` because
/// the moves after it bear that out) stays as written, its finding with it;
/// and castling keeps the game's way of writing it (`0-0`, the FIDE text,
/// or `O-O`, PGN's): the way most of its castling moves are written, each
/// as written where there are as many of one as of the other; unless the
/// settings ask for one way (`[normalize] castling = "O-O"` or `"0-0"`).
fn normalize(trace: &Trace, source: &str, castling: Castling) -> Vec<TextEdit> {
    let own = trace.language.unwrap_or(Language::En);
    let castling_written = |written: &str| {
        let w = written.trim_end_matches(|c: char| !matches!(c, '0' | 'O' | 'О' | 'o'));
        if w.starts_with('0') {
            Some(true)
        } else if w.starts_with(['O', 'О', 'o']) {
            Some(false)
        } else {
            None
        }
    };
    let (zeros, letters) = trace
        .moves
        .iter()
        .filter(|t| t.played.is_castle())
        .filter_map(|t| castling_written(&source[t.span.clone()]))
        .fold((0, 0), |(z, l), zero| if zero { (z + 1, l) } else { (z, l + 1) });
    let mut edits = Vec::new();
    for traced in &trace.moves {
        if traced.guessed {
            continue;
        }
        let written = &source[traced.span.clone()];
        let suffix_start = written.find(['+', '#', '!', '?', '‼', '⁇', '⁉', '⁈', '†', '‡']).unwrap_or(written.len());
        let suffix = &written[suffix_start..];
        let mut style = MoveStyle::for_language(own);
        if traced.played.is_castle() {
            style.castling_zeros = match castling {
                Castling::Letters => false,
                Castling::Zeros => true,
                Castling::Keep => match zeros.cmp(&letters) {
                    std::cmp::Ordering::Greater => true,
                    std::cmp::Ordering::Less => false,
                    std::cmp::Ordering::Equal => castling_written(written).unwrap_or(style.castling_zeros),
                },
            };
        }
        let annotation_start = suffix.find(['!', '?', '‼', '⁇', '⁉', '⁈']).unwrap_or(suffix.len());
        let new_text =
            format!("{}{}", render_move(&traced.before, &traced.played, &style), &suffix[annotation_start..]);
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
        rewrite_text_with(text, rewrite, Castling::Keep)
    }

    fn rewrite_text_with(text: &str, rewrite: Rewrite, castling: Castling) -> String {
        let tree = syntax::parse(text, None);
        let games = syntax::lower(&tree, text);
        let edits: Vec<TextEdit> = games
            .iter()
            .flat_map(|g| rewrite_traced(g, &trace_game(g, text, &Options::default()), text, rewrite, castling))
            .collect();
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

    /// Normalize does not choose between readings: the ambiguous `7. Кd2`
    /// (either knight; the check goes on as if `Кbd2`) stays as written;
    /// the Russian `0-0` stays `0-0`; what it may settle it does
    /// (`Кg1f3` is `Кf3`).
    #[test]
    fn normalize_keeps_an_ambiguous_move_and_the_games_castling() {
        let text = "1. e4 e5 2. Кg1f3 Кc6 3. Сc4 Сc5 4. c3 Кf6 5. d4 exd4 6. cxd4 Сb4+ 7. Кd2 Кxe4 8. 0-0 Кxd2 9. Сxd2 Сxd2 10. Фxd2 d5 *";
        let out = rewrite_text(text, Rewrite::Normalize);
        assert_eq!(
            out,
            "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. c3 Кf6 5. d4 exd4 6. cxd4 Сb4+ 7. Кd2 Кxe4 8. 0-0 Кxd2 9. Сxd2 Сxd2 10. Фxd2 d5 *"
        );
        // A game that writes O-O keeps O-O; one that writes both keeps the
        // way most of its castling moves are written.
        let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 0-0 *";
        assert_eq!(rewrite_text(pgn, Rewrite::Normalize), pgn);
        let mixed = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 0-0 6. Nc3 d6 7. Be3 Be6 *";
        assert_eq!(rewrite_text(mixed, Rewrite::Normalize), mixed);
    }

    /// Asked for one way of castling, normalisation writes every castling
    /// move that way (and leaves the rest of the game as it would).
    #[test]
    fn normalize_writes_castling_as_asked() {
        let with = |text: &str, castling: Castling| rewrite_text_with(text, Rewrite::Normalize, castling);
        let ru = "1. e4 e5 2. Кg1f3 Кc6 3. Сc4 Сc5 4. 0-0 Кf6 5. d3 0-0+ *";
        assert_eq!(with(ru, Castling::Letters), "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. O-O Кf6 5. d3 O-O *");
        assert_eq!(with(ru, Castling::Keep), "1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. 0-0 Кf6 5. d3 0-0 *");
        let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O!? *";
        assert_eq!(with(pgn, Castling::Zeros), "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 0-0!? *");
        assert_eq!(with(pgn, Castling::Letters), pgn);
        assert_eq!(Castling::parse("O-O"), Some(Castling::Letters));
        assert_eq!(Castling::parse("0-0"), Some(Castling::Zeros));
        assert_eq!(Castling::parse("keep"), Some(Castling::Keep));
        assert_eq!(Castling::parse("0-0-0"), None);
    }
}

#[cfg(test)]
mod faithful {
    use super::*;
    use crate::syntax;

    fn translate_text(text: &str, to: Language) -> String {
        let tree = syntax::parse(text, None);
        let games = syntax::lower(&tree, text);
        let edits: Vec<TextEdit> =
            games.iter().flat_map(|g| rewrite_game(g, text, &Options::default(), Rewrite::Translate(to))).collect();
        apply_edits(text, &edits)
    }

    #[test]
    fn translation_changes_the_letters_and_nothing_else() {
        // e.p. kept, e4:d5 kept, long captures kept, an ambiguous move kept
        // ambiguous, a false capture sign kept, an illegal move not replaced
        // by a guess.
        let ru = "1. e4 d5 2. e4:d5 Фxd5 3. Кc3 Фa5 4. Сc4 Кf6 5. d4 e5 6. dxe5 Кbd7 7. e6 fxe6 8. Сc4xe6 c6 *";
        assert_eq!(
            translate_text(ru, Language::En),
            "1. e4 d5 2. e4:d5 Qxd5 3. Nc3 Qa5 4. Bc4 Nf6 5. d4 e5 6. dxe5 Nbd7 7. e6 fxe6 8. Bc4xe6 c6 *"
        );
        assert_eq!(
            translate_text("1. e4 f5 2. e5 d5 3. exd6 e.p. *", Language::Ru),
            "1. e4 f5 2. e5 d5 3. exd6 e.p. *"
        );
        // Ambiguous: both knights can go to d2; the move stays as written.
        assert_eq!(translate_text("1. Nf3 Nf6 2. d4 d5 3. Nd2 *", Language::Ru), "1. Кf3 Кf6 2. d4 d5 3. Кd2 *");
        // A capture sign on a move that captures nothing stays.
        assert_eq!(translate_text("1. e4 e5 2. Nxf3 *", Language::Ru), "1. e4 e5 2. Кxf3 *");
        // An illegal move is translated letter by letter, never guessed.
        assert_eq!(translate_text("1. e4 e5 2. Кf3 Кc6 3. Кf5 *", Language::Ru), "1. e4 e5 2. Кf3 Кc6 3. Кf5 *");
        assert_eq!(translate_text("1. e4 e5 2. Кf3 Кc6 3. Кf5 *", Language::En), "1. e4 e5 2. Nf3 Nc6 3. Nf5 *");
        // The Cyrillic capture sign becomes `x` outside Cyrillic notation.
        assert_eq!(translate_text("1. e4 d5 2. eхd5 Фхd5 *", Language::De), "1. e4 d5 2. exd5 Dxd5 *");
    }
}
