//! What a game's own text says about where it starts: its first move
//! number, its letters (which languages can read it), its tags or
//! position description.

use super::*;

/// What a game's own text says about where it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Head {
    /// The ply of its first move, from the number before it (`3...` is
    /// ply 5); `None` when its first move has no number.
    pub first_ply: Option<u32>,
    /// Tags or a position description give its start.
    pub own_start: bool,
    /// Piece letters in its moves.
    pub letters: u16,
    /// For each language (in the order of `Language::ALL`), how many of
    /// them it reads, look-alikes included...
    pub read_by: [u16; Language::ALL.len()],
    /// ...and how many as they are written.
    pub exact_by: [u16; Language::ALL.len()],
    /// Moves in its main line.
    pub main_moves: u32,
    /// Its first move number (or move), for the `unchecked` info.
    pub first_span: Span,
    /// The manuscript says it is a variation (`\variation{...}`).
    pub variation: bool,
    /// It begins a line of the text (a book's line of moves, not a
    /// sentence's), as set by the reader of the manuscript.
    pub own_line: bool,
    /// It stands in brackets inside a sentence (`... soit la tour f1 (s'ils
    /// décident de jouer 13.g3).`): a remark beside the game, which may
    /// branch off or go on from a line but never moves the main line on.
    pub aside: bool,
    /// It goes on in the sentence of the run before it, outside no bracket
    /// that run was in (`Ruch 4...d7-d6, spełniający pewne postulaty, nie
    /// przeszkadza białym: 5. d2-d4`): prose that gives a variation and
    /// goes on with it, so where that variation ends is tried before the
    /// main line's end.
    pub in_sentence: bool,
}

impl Head {
    pub fn of(game: &GameSyntax<'_>) -> Head {
        let mut head = Head { own_start: !game.tags.is_empty(), first_span: game.span.clone(), ..Head::default() };
        let mut number: Option<&Token<'_>> = None;
        // `9. ...0-0`, `9. … Nf6`: the dots after a number, apart from it,
        // make it Black's move.
        let mut black_dots = false;
        let mut seen_move = false;
        // `.♕h5 ♛f8 16. ♕c5+` (the digits of its first number lost): the
        // first number after the first moves tells where they stand.
        let mut unnumbered = Some(0u32);
        for item in &game.mainline.items {
            match item {
                Item::MoveNumber(t) if seen_move => {
                    if let Some(moves) = unnumbered.take()
                        && head.first_ply.is_none()
                    {
                        head.first_ply = ply_of_number(t.text).and_then(|ply| ply.checked_sub(moves));
                    }
                }
                Item::MoveNumber(t) if !seen_move => {
                    // (`. .` after `12.`: a typeset book's spaced dots.)
                    let dots_only = t.text.chars().all(|c| c == '.' || c == '…' || c == ' ');
                    if dots_only && number.is_some_and(|n| n.text.starts_with(|c: char| c.is_ascii_digit())) {
                        black_dots = true;
                    } else {
                        number = Some(t);
                        black_dots = false;
                    }
                }
                Item::PositionDescription(_) if !seen_move => head.own_start = true,
                Item::Move(m) => {
                    if !seen_move {
                        head.first_ply = number
                            .and_then(|t| ply_of_number(t.text))
                            .map(|ply| if black_dots && ply.is_multiple_of(2) { ply + 1 } else { ply });
                        head.first_span = number.map_or(m.span.clone(), |t| t.span.clone());
                        seen_move = true;
                    }
                    head.main_moves = head.main_moves.saturating_add(1);
                    unnumbered = unnumbered.map(|n| n + 1);
                }
                _ => {}
            }
        }
        head.count_letters(&game.mainline);
        head
    }

    pub(super) fn count_letters(&mut self, line: &Line<'_>) {
        for item in &line.items {
            match item {
                Item::Move(m) => {
                    // Counts saturate: a run of a million moves (hostile,
                    // or a book's endless run) has more letters than a u16.
                    if let Some(letter) = &m.piece {
                        self.letters = self.letters.saturating_add(1);
                        let (read, exact) = languages::letter_readers(letter.text);
                        for l in 0..Language::ALL.len() {
                            if read & 1 << l != 0 {
                                self.read_by[l] = self.read_by[l].saturating_add(1);
                            }
                            if exact & 1 << l != 0 {
                                self.exact_by[l] = self.exact_by[l].saturating_add(1);
                            }
                        }
                    }
                }
                Item::Variation(v) => self.count_letters(v),
                _ => {}
            }
        }
    }

    /// Whether its letters are (mostly) those of a language that reads
    /// `line`'s game best: a game continues only a game of its own
    /// language.
    pub(super) fn fits(&self, line: &Letters) -> bool {
        self.letters == 0 || (0..Language::ALL.len()).any(|l| line.reads_best(l) && self.mostly_read_by(l))
    }

    /// Whether the language of index `l` reads most of its letters.
    pub(super) fn mostly_read_by(&self, l: usize) -> bool {
        u32::from(self.read_by[l]) * 2 > u32::from(self.letters)
    }

    pub(super) fn own_letters(&self) -> Letters {
        Letters { letters: self.letters, read_by: self.read_by, exact_by: self.exact_by }
    }

    /// Whether `language` reads every piece letter of the game (or it has
    /// none): only then may the document's language be the one the game is
    /// read in (`Options::document_language`), so only then is it given.
    pub fn may_read_in(&self, language: Language) -> bool {
        self.letters == 0 || self.read_by[language_index(language)] == self.letters
    }

    /// The document's language as a game with this head is given it: where
    /// it may be read in it, else none.
    pub(super) fn document_language(&self, document: Option<Language>) -> Option<Language> {
        document.filter(|&d| self.may_read_in(d))
    }
}

/// The piece letters of a game so far (its earlier runs included): how
/// many, and how many of them each language reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Letters {
    letters: u16,
    pub(super) read_by: [u16; Language::ALL.len()],
    pub(super) exact_by: [u16; Language::ALL.len()],
}

impl Letters {
    /// The piece letters of a game, as its [`Head`] counts them.
    pub fn of(game: &GameSyntax<'_>) -> Letters {
        let mut head = Head::default();
        head.count_letters(&game.mainline);
        head.own_letters()
    }

    /// Whether no language reads more of the letters than `language`
    /// (a letter of another language slipped in does not change the
    /// game's language), nor as many with more of them as written (a
    /// Russian `Кf3` is a Latin `K` only as a look-alike).
    pub(super) fn reads_best(&self, language: usize) -> bool {
        let score = |l: usize| (self.read_by[l], self.exact_by[l]);
        (0..Language::ALL.len()).all(|l| score(l) <= score(language))
    }

    /// Whether `language` reads every letter, some of them only as
    /// look-alikes of its own (a Latin `K` for the Russian `К`).
    pub(super) fn only_as_lookalikes(&self, language: Language) -> bool {
        let l = language_index(language);
        self.letters > 0 && self.read_by[l] == self.letters && self.exact_by[l] < self.letters
    }

    pub fn plus(&self, other: &Letters) -> Letters {
        let mut sum = *self;
        sum.letters = sum.letters.saturating_add(other.letters);
        for (a, b) in sum.read_by.iter_mut().zip(other.read_by) {
            *a = a.saturating_add(b);
        }
        for (a, b) in sum.exact_by.iter_mut().zip(other.exact_by) {
            *a = a.saturating_add(b);
        }
        sum
    }
}

pub(super) fn language_index(language: Language) -> usize {
    Language::ALL.iter().position(|&l| l == language).unwrap_or(0)
}

/// `12.` is ply 22, `12...` ply 23.
pub(super) fn ply_of_number(text: &str) -> Option<u32> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let number: u32 = text[..digits].parse().ok().filter(|&n| n > 0)?;
    let rest = &text[digits..];
    let black = rest.starts_with("..") || rest.starts_with('…');
    Some((number - 1) * 2 + u32::from(black))
}

pub(super) fn ply_of(pos: &Chess) -> u32 {
    (pos.fullmoves().get().saturating_sub(1)) * 2 + u32::from(pos.turn() == Color::Black)
}

/// `12.` or `12...` for a ply.
pub(super) fn number_of(ply: u32) -> String {
    if ply.is_multiple_of(2) { format!("{}.", ply / 2 + 1) } else { format!("{}...", ply / 2 + 1) }
}

/// What a piece's unit says about its first game: its setup, and whether
/// it is a variation.
pub fn head_of(game: &GameSyntax<'_>, unit: Option<&Unit>, first: bool) -> Head {
    let mut head = Head::of(game);
    head.variation = first && unit.is_some_and(|u| u.kind == manuscript::UnitKind::Variation);
    head
}

/// The piece letters of a whole manuscript: the sum of its sections'
/// [`Letters`], in counters that do not saturate (a book has more letters
/// than a game's counters hold), from which a section's are taken out
/// again when an edit replaces it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DocumentLetters {
    letters: u64,
    read_by: [u64; Language::ALL.len()],
    exact_by: [u64; Language::ALL.len()],
}

impl DocumentLetters {
    pub fn add(&mut self, letters: &Letters) {
        self.letters += u64::from(letters.letters);
        for (a, b) in self.read_by.iter_mut().zip(letters.read_by) {
            *a += u64::from(b);
        }
        for (a, b) in self.exact_by.iter_mut().zip(letters.exact_by) {
            *a += u64::from(b);
        }
    }

    /// Takes out letters added before (never below none: a document's
    /// language may be wrong after a mistake here, but it does not stop).
    pub fn remove(&mut self, letters: &Letters) {
        self.letters = self.letters.saturating_sub(u64::from(letters.letters));
        for (a, b) in self.read_by.iter_mut().zip(letters.read_by) {
            *a = a.saturating_sub(u64::from(b));
        }
        for (a, b) in self.exact_by.iter_mut().zip(letters.exact_by) {
            *a = a.saturating_sub(u64::from(b));
        }
    }

    /// The language that reads the most of the letters (look-alikes
    /// included), then the most of them as written, the first of
    /// [`Language::ALL`] among equals (German before Swedish, which read
    /// every letter alike); `None` when no language reads any.
    pub fn best_reader(&self) -> Option<Language> {
        let score = |l: usize| (self.read_by[l], self.exact_by[l]);
        // `max_by_key` keeps the last of equals: the index reversed.
        let best = (0..Language::ALL.len()).max_by_key(|&l| (score(l), usize::MAX - l))?;
        (self.read_by[best] > 0).then(|| Language::ALL[best])
    }
}
