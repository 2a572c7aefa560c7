//! Reading a written move in the game's language: its piece letter (a
//! look-alike, a pawn letter, another language's letter), its squares and
//! promotion, into the target the legal moves are matched against, with
//! the notes its letters raise.

use super::*;
use crate::analysis::glossary;

/// A move read in the game's language, with the diagnostics its letters
/// raised (look-alikes, pawn letters).
pub(super) struct Reading {
    /// What the game's language reads, with the note its piece letter
    /// raised (a look-alike or a pawn letter) if the move is played so;
    /// `None` for a letter the game's language does not have.
    pub(super) primary: Option<(Target, Option<Diagnostic>)>,
    /// Set when the piece letter may be another language's: a foreign
    /// letter, or a weak reading (a look-alike, a pawn letter) that may not
    /// fit where another language's would (Latin `K` in a Russian game is
    /// the knight `К` or the English king).
    pub(super) foreign: Option<TargetParts>,
    pub(super) notes: Vec<Diagnostic>,
}

/// A normal move's target without its piece.
#[derive(Clone, Copy, Debug)]
pub(super) struct TargetParts {
    pub(super) from_file: Option<shakmaty::File>,
    pub(super) from_rank: Option<shakmaty::Rank>,
    pub(super) to: Square,
    pub(super) promotion: Option<Role>,
}

impl TargetParts {
    fn with(self, role: Role) -> Target {
        let TargetParts { from_file, from_rank, to, promotion } = self;
        Target::Normal { role, from_file, from_rank, to, promotion }
    }
}

/// Says that a piece letter belongs to another notation than the game's.
pub(super) fn mix_message(text: &str, its: Language, role: Role, game: Language, right: &str) -> String {
    let what = if its == Language::Figurine {
        format!("the figurine of the {}", role_name(role))
    } else {
        format!("the {} letter for the {}", its.name(), role_name(role))
    };
    let game_is =
        if game == Language::Figurine { "written in figurines".to_owned() } else { format!("in {}", game.name()) };
    format!("\"{text}\" is {what}, but this game is {game_is}: write {right}")
}

/// The finding on a piece letter that is a look-alike of `language`'s own
/// (`K` for the Russian `К`; a figurine font's code for its figurine), with
/// its fix.
pub(crate) fn lookalike_letter(letter: &Token<'_>, language: Language, right: &str, role: Role) -> Diagnostic {
    let message = if language == Language::Figurine {
        font_code_message(letter.text, right, role)
    } else {
        format!(
            "\"{}\" ({}) is a look-alike of the {} letter \"{right}\" ({}) for the {}",
            letter.text,
            glossary::code_points(letter.text),
            language.name(),
            glossary::code_numbers(right),
            role_name(role)
        )
    };
    Diagnostic::new(Code::Homoglyph, letter.span.clone(), message)
        .with_fix(Fix::replace(format!("Write {right}"), letter.span.clone(), right).preferred(true))
}

/// What a figurine font's code stands for (`¥`, where the font draws `♗`).
fn font_code_message(text: &str, figurine: &str, role: Role) -> String {
    format!(
        "\"{text}\" ({}) is where a figurine font draws \"{figurine}\" ({}): text copied from a PDF",
        glossary::code_points(text),
        role_name(role)
    )
}

/// The words that start the note on a game whose letters are transliterated
/// (one note a game: the replay keeps the first).
pub(super) const TRANSLITERATED: &str = "the piece letters of this game are";

/// The note on a letter of a transliterated game.
fn transliteration_note(letter: &Token<'_>, language: Language) -> Diagnostic {
    Diagnostic::new(
        Code::LanguageMix,
        letter.span.clone(),
        format!(
            "{TRANSLITERATED} {} written in Latin letters ({}), as machine transliteration leaves them; read so (\"{}\" is the first)",
            language.name(),
            language.transliteration_table(),
            letter.text
        ),
    )
}

pub(in crate::analysis) fn homoglyph(span: Span, ch: char, right: char, place: &str) -> Diagnostic {
    Diagnostic::new(
        Code::Homoglyph,
        span.clone(),
        format!(
            "\"{ch}\" {place} is {}, a look-alike of \"{right}\" ({})",
            glossary::code_point(ch),
            glossary::code_numbers(&right.to_string())
        ),
    )
    .with_fix(Fix::replace(format!("Write {right}"), span, right.to_string()).preferred(true))
}

pub(super) fn capture_sign(text: &str) -> &'static str {
    match text {
        "х" => "х",
        ":" => ":",
        _ => "x",
    }
}

impl Replayer<'_, '_> {
    /// What a piece letter means in other languages than the game's, each
    /// with the `language-mix` note to give if the move is read so; `exclude`
    /// is the piece the game's language already tried.
    pub(super) fn foreign_targets(
        &self,
        letter: &Token<'_>,
        parts: TargetParts,
        exclude: Option<Role>,
    ) -> Vec<(Target, Diagnostic)> {
        let mut out: Vec<(Target, Diagnostic)> = Vec::new();
        for (language, reading) in languages::languages_for_letter(letter.text) {
            let role = reading.role;
            let seen = out.iter().any(|(t, _)| matches!(t, Target::Normal { role: r, .. } if *r == role));
            let font_code = language == Language::Figurine && reading.lookalike_of.is_some();
            if (reading.lookalike_of.is_some() && !font_code) || role == Role::Pawn || Some(role) == exclude || seen {
                continue;
            }
            let right = self.language.letter(role);
            let d = if font_code {
                Diagnostic::new(
                    Code::Homoglyph,
                    letter.span.clone(),
                    format!(
                        "{}; this game is in {}: write {right}",
                        font_code_message(letter.text, reading.lookalike_of.unwrap_or_default(), role),
                        self.language.name()
                    ),
                )
            } else {
                Diagnostic::new(
                    Code::LanguageMix,
                    letter.span.clone(),
                    mix_message(letter.text, language, role, self.language, right),
                )
            }
            .with_fix(Fix::replace(format!("Write {right}"), letter.span.clone(), right).preferred(true));
            out.push((parts.with(role), d));
        }
        out
    }

    /// Reads a written move in the game's language at `pos`: as [`read`],
    /// and a coordinate move without a piece letter (`g1f3`, `e1g1`,
    /// `e7e8q`: what engines and many databases write) moves whatever
    /// stands on its first square.
    ///
    /// [`read`]: Self::read
    pub(super) fn read_at(&self, pos: &Chess, m: &WrittenMove<'_>) -> Result<Reading, Box<Diagnostic>> {
        let mut reading = self.read(m)?;
        if m.piece.is_none()
            && matches!(m.origin, Some(Origin::Square(_)))
            && let Some((target, _)) = &mut reading.primary
            && let Target::Normal { role, from_file: Some(file), from_rank: Some(rank), to, promotion: None } = *target
            && role == Role::Pawn
        {
            let from = Square::from_coords(file, rank);
            if let Some(piece) = pos.board().piece_at(from).filter(|p| p.color == pos.turn() && p.role != Role::Pawn) {
                let back = pos.turn().backrank();
                let castles = piece.role == Role::King
                    && from == Square::from_coords(shakmaty::File::E, back)
                    && to.rank() == back
                    && matches!(to.file(), shakmaty::File::G | shakmaty::File::C);
                *target = if castles {
                    let side =
                        if to.file() == shakmaty::File::G { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                    Target::Castle(side)
                } else {
                    Target::Normal {
                        role: piece.role,
                        from_file: Some(file),
                        from_rank: Some(rank),
                        to,
                        promotion: None,
                    }
                };
            }
        }
        Ok(reading)
    }

    /// Reads the letters of a written move in the game's language.
    pub(super) fn read(&self, m: &WrittenMove<'_>) -> Result<Reading, Box<Diagnostic>> {
        if let Some(reading) = self.read_plain(m) {
            return Ok(reading);
        }
        let mut notes: Vec<Diagnostic> = Vec::new();
        if let Some(castling) = &m.castling {
            for (offset, ch) in castling.text.char_indices() {
                if let Some(right) = normalize_lookalike(ch, LookalikeContext::Castling) {
                    let span = castling.span.start + offset..castling.span.start + offset + ch.len_utf8();
                    notes.push(homoglyph(span, ch, right, "in castling"));
                }
            }
            // Its letters, a look-alike read as what it stands for.
            let letters: Vec<char> = castling
                .text
                .chars()
                .map(|c| normalize_lookalike(c, LookalikeContext::Castling).unwrap_or(c))
                .filter(|&c| lexicon::is_castling_letter(c))
                .collect();
            // The token written again in one way, where it is written in
            // two: `0-O`, `O-0` (the letter and the digit mixed: a
            // keyboard's or a scanner's swap), written as its first one;
            // `o-o` (the small letter, a typist's), written `O-O`.
            let zero = letters.contains(&'0');
            let rewritten = if zero && letters.iter().any(|&c| c != '0') {
                let like = if letters[0] == '0' { '0' } else { 'O' };
                let right = letters.iter().map(|_| like.to_string()).collect::<Vec<_>>().join("-");
                Some((format!("\"{}\" mixes the digit 0 and the letter O: write {right}", castling.text), right))
            } else if castling.text.contains('o') {
                let right = castling.text.replace('o', "O");
                let zeros = right.replace('O', "0");
                Some((
                    format!(
                        "\"{}\" is written with the small letter o: castling is {right} (or {zeros})",
                        castling.text
                    ),
                    right,
                ))
            } else {
                None
            };
            if let Some((message, right)) = rewritten
                && notes.is_empty()
            {
                notes
                    .push(Diagnostic::new(Code::Homoglyph, castling.span.clone(), message).with_fix(
                        Fix::replace(format!("Write {right}"), castling.span.clone(), right).preferred(true),
                    ));
            }
            let count = letters.len();
            let side = if count >= 3 { CastlingSide::QueenSide } else { CastlingSide::KingSide };
            return Ok(Reading { primary: Some((Target::Castle(side), None)), foreign: None, notes });
        }
        // `ed`, `e:d`: a pawn capture written with its two files only.
        if let Some(to_file) = &m.to_file {
            let from = match &m.origin {
                Some(Origin::File(t)) => self.read_file_char(t, 0, &mut notes)?,
                _ => {
                    return Err(Box::new(Diagnostic::new(
                        Code::Syntax,
                        m.span.clone(),
                        "a move without a destination square",
                    )));
                }
            };
            let to = self.read_file_char(to_file, 0, &mut notes)?;
            if (from as i8 - to as i8).abs() != 1 {
                return Err(Box::new(Diagnostic::new(
                    Code::Syntax,
                    m.span.clone(),
                    format!("\"{}\" is not chess notation", m.text(self.source)),
                )));
            }
            let target = Target::Capture { from_file: Some(from), to_file: to, to_rank: None };
            return Ok(Reading { primary: Some((target, None)), foreign: None, notes });
        }
        let Some(dest) = &m.destination else {
            return Err(Box::new(Diagnostic::new(Code::Syntax, m.span.clone(), "a move without a destination square")));
        };
        if let Some(drop) = &m.drop {
            return Err(Box::new(Diagnostic::new(
                Code::IllegalMove,
                drop.span.clone(),
                "piece drops (\"@\") exist only in crazyhouse; set the Variant tag for such games",
            )));
        }
        let to = self.read_square_token(dest, &mut notes)?;
        let (mut from_file, mut from_rank) = (None, None);
        match &m.origin {
            Some(Origin::File(t)) => from_file = Some(self.read_file_char(t, 0, &mut notes)?),
            Some(Origin::Rank(t)) => from_rank = Some(self.read_rank_char(t, 0, &mut notes)?),
            Some(Origin::Square(t)) => {
                let sq = self.read_square_token(t, &mut notes)?;
                from_file = Some(sq.file());
                from_rank = Some(sq.rank());
            }
            None => {}
        }
        if let Some(capture) = &m.capture
            && let Some(written) = capture.text.chars().next()
            && let Some(right) = normalize_lookalike(written, LookalikeContext::CaptureSign)
            && !(written == 'х' && self.language.is_cyrillic())
        {
            notes.push(homoglyph(capture.span.clone(), written, right, "as the capture sign"));
        }
        let promotion = match &m.promotion {
            None => None,
            Some(t) => Some(self.read_promotion(t, &mut notes)?),
        };
        // `xg7`: a capture whose piece letter was lost.
        if m.piece.is_none() && m.origin.is_none() && m.capture.is_some() && promotion.is_none() {
            let target = Target::Capture { from_file: None, to_file: to.file(), to_rank: Some(to.rank()) };
            return Ok(Reading { primary: Some((target, None)), foreign: None, notes });
        }
        let parts = TargetParts { from_file, from_rank, to, promotion };
        let Some(letter) = &m.piece else {
            return Ok(Reading { primary: Some((parts.with(Role::Pawn), None)), foreign: None, notes });
        };
        if self.transliterated
            && let Some(right) =
                self.language.lookalike_letter(letter.text).or_else(|| self.language.transliterated_letter(letter.text))
            && let Some(role) = self.language.role_of(right)
        {
            let note = transliteration_note(letter, self.language);
            return Ok(Reading { primary: Some((parts.with(role), Some(note))), foreign: None, notes });
        }
        let Some(reading) = self.language.read_letter(letter.text) else {
            // A letter of another language: try what it means there.
            // A figurine font's code (`¥g4` in a game of letters: a PDF
            // copy that kept a few figurines) is read as its figurine.
            if languages::languages_for_letter(letter.text)
                .all(|(l, r)| r.lookalike_of.is_some() && l != Language::Figurine)
            {
                return Err(Box::new(Diagnostic::new(
                    Code::IllegalMove,
                    letter.span.clone(),
                    format!("\"{}\" is not a piece letter in any language", letter.text),
                )));
            }
            return Ok(Reading { primary: None, foreign: Some(parts), notes });
        };
        let note = if let Some(right) = reading.lookalike_of {
            Some(lookalike_letter(letter, self.language, right, reading.role))
        } else if reading.role == Role::Pawn {
            Some(
                Diagnostic::new(
                    Code::PawnLetter,
                    letter.span.clone(),
                    format!("a pawn move is written without a letter: \"{}\" is not needed", letter.text),
                )
                .with_fix(Fix::replace(format!("Remove \"{}\"", letter.text), letter.span.clone(), "").preferred(true)),
            )
        } else {
            None
        };
        // A look-alike or a pawn letter is a weak reading: if it does not
        // fit, another language's reading of the letter is tried.
        let foreign = note.is_some().then_some(parts);
        Ok(Reading { primary: Some((parts.with(reading.role), note)), foreign, notes })
    }

    /// A move of plain ASCII SAN or long algebraic in the game's own
    /// letters (`Nf3`, `exd5`, `Rad1`, `e2-e4`, no promotion), read as
    /// [`read`](Self::read) reads it, without looking its characters up
    /// among look-alikes and other languages' letters (none of them is
    /// one, so it raises no note); `None` for any other move, which `read`
    /// reads in full.
    fn read_plain(&self, m: &WrittenMove<'_>) -> Option<Reading> {
        if m.castling.is_some() || m.to_file.is_some() || m.drop.is_some() || m.promotion.is_some() {
            return None;
        }
        if self.transliterated {
            return None;
        }
        let file = |b: u8| matches!(b, b'a'..=b'h').then(|| shakmaty::File::from_char(b as char)).flatten();
        let rank = |b: u8| matches!(b, b'1'..=b'8').then(|| shakmaty::Rank::from_char(b as char)).flatten();
        let square = |t: &Token<'_>| match *t.text.as_bytes() {
            [f, r] => Some(Square::from_coords(file(f)?, rank(r)?)),
            _ => None,
        };
        let to = square(m.destination.as_ref()?)?;
        let (from_file, from_rank) = match &m.origin {
            None => (None, None),
            Some(Origin::File(t)) => match *t.text.as_bytes() {
                [f] => (Some(file(f)?), None),
                _ => return None,
            },
            Some(Origin::Rank(t)) => match *t.text.as_bytes() {
                [r] => (None, Some(rank(r)?)),
                _ => return None,
            },
            Some(Origin::Square(t)) => {
                let sq = square(t)?;
                (Some(sq.file()), Some(sq.rank()))
            }
        };
        if m.capture.as_ref().is_some_and(|c| c.text != "x") {
            return None;
        }
        let role = match &m.piece {
            // `xg7`, a capture whose piece letter was lost, is read in full.
            None if m.origin.is_none() && m.capture.is_some() => return None,
            None => Role::Pawn,
            Some(letter) => self.language.role_of(letter.text)?,
        };
        let parts = TargetParts { from_file, from_rank, to, promotion: None };
        Some(Reading { primary: Some((parts.with(role), None)), foreign: None, notes: Vec::new() })
    }

    pub(super) fn read_square_token(
        &self,
        t: &Token<'_>,
        notes: &mut Vec<Diagnostic>,
    ) -> Result<Square, Box<Diagnostic>> {
        if t.text.chars().count() != 2 {
            return Err(Box::new(Diagnostic::new(
                Code::Syntax,
                t.span.clone(),
                format!("\"{}\" is not a square", t.text),
            )));
        }
        let file = self.read_file_char(t, 0, notes)?;
        let first_len = t.text.chars().next().map_or(1, char::len_utf8);
        let rank = self.read_rank_char(t, first_len, notes)?;
        Ok(Square::from_coords(file, rank))
    }

    pub(super) fn read_file_char(
        &self,
        t: &Token<'_>,
        offset: usize,
        notes: &mut Vec<Diagnostic>,
    ) -> Result<shakmaty::File, Box<Diagnostic>> {
        let ch = t.text[offset..].chars().next().unwrap_or(' ');
        let span = t.span.start + offset..t.span.start + offset + ch.len_utf8();
        let right = match normalize_lookalike(ch, LookalikeContext::File) {
            Some(right) => {
                notes.push(homoglyph(span.clone(), ch, right, "in a square"));
                right
            }
            None => ch,
        };
        shakmaty::File::from_char(right)
            .ok_or_else(|| Box::new(Diagnostic::new(Code::Syntax, span, format!("\"{ch}\" is not a file"))))
    }

    pub(super) fn read_rank_char(
        &self,
        t: &Token<'_>,
        offset: usize,
        notes: &mut Vec<Diagnostic>,
    ) -> Result<shakmaty::Rank, Box<Diagnostic>> {
        let ch = t.text[offset..].chars().next().unwrap_or(' ');
        let span = t.span.start + offset..t.span.start + offset + ch.len_utf8();
        let right = match normalize_lookalike(ch, LookalikeContext::Rank) {
            Some(right) => {
                notes.push(homoglyph(span.clone(), ch, right, "in a square"));
                right
            }
            None => ch,
        };
        shakmaty::Rank::from_char(right)
            .ok_or_else(|| Box::new(Diagnostic::new(Code::Syntax, span, format!("\"{ch}\" is not a rank"))))
    }

    pub(super) fn read_promotion(&self, t: &Token<'_>, notes: &mut Vec<Diagnostic>) -> Result<Role, Box<Diagnostic>> {
        if let Some(reading) = self.language.read_letter(t.text) {
            if let Some(right) = reading.lookalike_of {
                notes.push(
                    Diagnostic::new(
                        Code::Homoglyph,
                        t.span.clone(),
                        format!(
                            "\"{}\" ({}) is a look-alike of \"{right}\" ({})",
                            t.text,
                            glossary::code_points(t.text),
                            glossary::code_numbers(right)
                        ),
                    )
                    .with_fix(Fix::replace(format!("Write {right}"), t.span.clone(), right).preferred(true)),
                );
            }
            if reading.role != Role::Pawn {
                return Ok(reading.role);
            }
        }
        // UCI-minded programs write `d8q`.
        let upper = t.text.to_uppercase();
        if let Some(role) = Language::En.role_of(&upper)
            && t.text.chars().all(|c| c.is_ascii_lowercase())
        {
            return Ok(role);
        }
        for (language, reading) in languages::languages_for_letter(t.text) {
            if reading.lookalike_of.is_none() && reading.role != Role::Pawn && reading.role != Role::King {
                let right = self.language.letter(reading.role);
                notes.push(
                    Diagnostic::new(
                        Code::LanguageMix,
                        t.span.clone(),
                        mix_message(t.text, language, reading.role, self.language, right),
                    )
                    .with_fix(Fix::replace(format!("Write {right}"), t.span.clone(), right).preferred(true)),
                );
                return Ok(reading.role);
            }
        }
        Err(Box::new(Diagnostic::new(
            Code::IllegalMove,
            t.span.clone(),
            format!("a pawn cannot promote to \"{}\"", t.text),
        )))
    }
}
