//! What a move's marks and numbers say against the position: check and
//! mate signs, capture and en-passant marks, disambiguation, glyphs, move
//! numbers, and the result.

use super::*;

/// Compares the result token and the Result tag with the final position
/// (a mate or a stalemate proves the result) and with each other.
/// `ending` is how the main line ended by a rule other than checkmate and
/// stalemate (a repetition, 75 moves, a dead position), if it did.
pub(super) fn check_result(
    game: &GameSyntax<'_>,
    end: Option<&Chess>,
    ending: Option<Ending>,
    out: &mut Vec<Diagnostic>,
) {
    let proven = end.and_then(|end| {
        if end.is_checkmate() {
            let result = if end.turn() == Color::White { "0-1" } else { "1-0" };
            Some((result, format!("{} is checkmated", explain::color_name(end.turn()))))
        } else if end.is_stalemate() {
            Some(("1/2-1/2", format!("{} is stalemated", explain::color_name(end.turn()))))
        } else {
            ending.map(|e| (e.result(), format!("{} (Article {})", e.describe(), e.article())))
        }
    });
    let written = game.result.as_ref().map(|r| (r, normalize_result(r.text)));
    if let (Some((result, w)), Some((expected, why))) = (&written, &proven)
        && *w != Some(*expected)
    {
        out.push(
            Diagnostic::new(
                Code::Result,
                result.span.clone(),
                format!(
                    "the result {} contradicts the final position: {why}, so the result is {expected}",
                    result.text
                ),
            )
            .with_fix(Fix::replace(format!("Write {expected}"), result.span.clone(), *expected).preferred(true)),
        );
    }
    let Some(tag) = game.tag("Result") else { return };
    let Some(value) = &tag.value else { return };
    let tag_value = tag.unescaped_value();
    let Some(t) = normalize_result(&tag_value) else { return };
    let tag_value = tag_value.trim();
    if let Some((expected, why)) = &proven {
        if t != *expected {
            out.push(
                Diagnostic::new(
                    Code::Result,
                    value.span.clone(),
                    format!("the Result tag says {tag_value}, but the final position proves {expected}: {why}"),
                )
                .with_fix(Fix::replace(format!("Write {expected}"), value.span.clone(), *expected).preferred(true)),
            );
        }
        return;
    }
    if let Some((result, Some(w))) = written
        && w != t
    {
        let mut d = Diagnostic::new(
            Code::Result,
            result.span.clone(),
            format!("the game ends with {} but its Result tag says {tag_value}", result.text),
        )
        .with_fix(Fix::replace(format!("Write {t}"), result.span.clone(), t))
        .with_fix(Fix::replace(format!("Write {w} in the Result tag"), value.span.clone(), w));
        d.related.push(Related { span: tag.span.clone(), message: "the Result tag".to_owned() });
        out.push(d);
    }
}

pub(super) fn strip_marks(text: &str) -> String {
    text.trim_end_matches(['+', '#', '!', '?', '‼', '⁇', '⁉', '⁈', '†', '‡']).to_owned()
}

impl Replayer<'_, '_> {
    /// A piece letter standing alone is Informant's novelty `N` or a move
    /// that lost its square.
    /// Returns whether it was such a letter.
    pub(super) fn check_glyph(&mut self, t: &Token<'_>) -> bool {
        let is_letter = t.text.chars().all(|c| c.is_alphabetic() || lexicon::is_figurine(c));
        if is_letter && t.text != "N" && t.text != "TN" {
            self.diagnostics.push(Diagnostic::new(
                Code::Syntax,
                t.span.clone(),
                format!("\"{}\" is a piece letter without a square", t.text),
            ));
            return true;
        }
        false
    }

    /// `9. 9. h3`: a move number written twice, with nothing between the
    /// two but blanks; the fix keeps one.
    pub(super) fn check_doubled_number(&mut self, t: &Token<'_>, next: &Token<'_>) {
        let between = self.source.get(t.span.end..next.span.start).unwrap_or("x");
        if t.text != next.text || !between.chars().all(char::is_whitespace) {
            return;
        }
        let span = t.span.start..next.span.end;
        self.diagnostics.push(
            Diagnostic::new(Code::MoveNumber, span.clone(), format!("the move number \"{}\" is written twice", t.text))
                .with_fix(Fix::replace(format!("Write {}", t.text), span, t.text).preferred(true)),
        );
    }

    pub(super) fn check_move_number(&mut self, t: &Token<'_>, pos: &Chess, prev_end: Option<usize>) {
        // A slice, not a new string: this runs before every White move.
        let digits = &t.text[..t.text.bytes().take_while(u8::is_ascii_digit).count()];
        if digits.is_empty() {
            return;
        }
        let rest = &t.text[digits.len()..];
        let black_marker = rest.starts_with("..") || rest.starts_with('…');
        let expected = pos.fullmoves().get();
        let number: Option<u32> = digits.parse().ok();
        let turn_mismatch = black_marker && pos.turn() == Color::White;
        if number == Some(expected) && !turn_mismatch {
            return;
        }
        let side = explain::color_name(pos.turn());
        let glued = prev_end == Some(t.span.start) && rest.is_empty();
        // A number no game reaches (or too long to read): said as such, and
        // its fix is only a suggestion, since nothing tells what was meant.
        let absurd = digits.parse::<u64>().is_ok_and(|n| n > setup::MAX_MOVE_NUMBER) || number.is_none();
        let mut d = Diagnostic::new(
            Code::MoveNumber,
            t.span.clone(),
            if turn_mismatch && number == Some(expected) {
                format!("\"{}\" marks a move of Black, but it is White's move {expected}", t.text)
            } else if absurd {
                format!(
                    "the move number {} ({} digits) is larger than any game reaches; this is {side}'s move {expected}",
                    crate::analysis::diagnostic::shorten(digits, 12),
                    digits.len()
                )
            } else {
                format!("the move number {digits} does not fit: this is {side}'s move {expected}")
            },
        );
        if glued {
            d = d.with_fix(Fix::replace(format!("Remove the stray {digits}"), t.span.clone(), "").preferred(!absurd));
        } else {
            let dots = if pos.turn() == Color::White {
                if rest.is_empty() { "" } else { "." }
            } else if rest.is_empty() {
                ""
            } else {
                "..."
            };
            let dots = if rest == ")" { ")" } else { dots };
            let new = format!("{expected}{dots}");
            d = d.with_fix(Fix::replace(format!("Write {new}"), t.span.clone(), new).preferred(!absurd));
        }
        self.diagnostics.push(d);
    }

    /// Checks a legal, unambiguous move: is its disambiguation more than
    /// needed?
    pub(super) fn check_disambiguation(&mut self, pos: &Chess, m: &WrittenMove<'_>, target: &Target, mv: Move) {
        let Target::Normal { role, to, .. } = *target else { return };
        if role == Role::Pawn || m.dash.is_some() {
            return;
        }
        let origin = match &m.origin {
            Some(Origin::File(t)) | Some(Origin::Rank(t)) => t,
            // `Ng1f3` is long algebraic: the origin is part of the style.
            _ => return,
        };
        let mut candidates = super::recovery::Matches::new();
        super::candidates::san_candidates(pos, role, to, &mut candidates);
        let others = candidates.iter().filter(|c| c.from() != mv.from()).count();
        if others == 0 {
            let mut d = Diagnostic::new(
                Code::RedundantDisambiguation,
                origin.span.clone(),
                format!("\"{}\" is not needed: no other {} can go to {to}", origin.text, role_name(role)),
            )
            .with_fix(Fix::replace(format!("Remove \"{}\"", origin.text), origin.span.clone(), "").preferred(true));
            d.unnecessary = true;
            self.diagnostics.push(d);
        }
    }

    /// Checks the marks of a played move against the position after it.
    pub(super) fn check_after(&mut self, before: &Chess, after: &Chess, m: &WrittenMove<'_>, mv: Move) {
        if let Some(capture) = &m.capture {
            if mv.is_capture() {
                self.capture_written = CaptureWriting::Sign(capture_sign(capture.text));
            } else {
                let to = mv.to();
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::CaptureMark,
                        capture.span.clone(),
                        format!("the capture sign is wrong: {to} is empty, the move captures nothing"),
                    )
                    .with_fix(Fix::replace("Remove the capture sign", capture.span.clone(), "").preferred(true)),
                );
            }
        } else if mv.is_capture() && m.dash.is_some() && self.capture_written == CaptureWriting::Unseen {
            // `Ra6-e6+` taking on e6: long algebraic that keeps its dash
            // for captures.
            self.capture_written = CaptureWriting::Dash;
        }
        if m.capture.is_none() && mv.is_capture() && self.options.report_missing_capture && m.castling.is_none() {
            let at = m.destination.as_ref().map_or(m.span.start, |d| d.span.start);
            let sign = if self.language.is_cyrillic() && self.source[m.span.clone()].contains('х') {
                "х"
            } else {
                self.capture_written.sign().unwrap_or("x")
            };
            self.diagnostics.push(
                Diagnostic::new(Code::CaptureMark, m.span.clone(), "the move captures but has no capture sign")
                    .with_fix(Fix::replace("Add the capture sign", at..at, sign).preferred(true)),
            );
        }
        if let (Some(letter), Some(taken)) = (&m.captured, mv.capture()) {
            self.check_captured(letter, taken, mv);
        }
        if let Some(ep) = &m.en_passant
            && !mv.is_en_passant()
        {
            let mut span = ep.span.clone();
            // Remove the space before a spaced mark too.
            while span.start > 0 && self.source.as_bytes()[span.start - 1] == b' ' {
                span.start -= 1;
            }
            self.diagnostics.push(
                Diagnostic::new(Code::EnPassantMark, ep.span.clone(), "this move is not an en-passant capture")
                    .with_fix(Fix::replace(format!("Remove \"{}\"", ep.text), span, "").preferred(true)),
            );
        }
        let check = after.is_check();
        match &m.check {
            Some(mark) => {
                let text = mark.text;
                let mate_mark = lexicon::MATE_MARKS.contains(&text);
                let (wrong, right): (Option<String>, &str) = if !check {
                    (Some(format!("\"{text}\" is wrong: the move gives no check")), "")
                } else if mate_mark && !after.is_checkmate() {
                    (Some(format!("\"{text}\" is wrong: the move gives check, not mate")), "+")
                } else if text == "++" && after.checkers().count() < 2 && !after.is_checkmate() {
                    (
                        Some(
                            "\"++\" means mate (or, in some Russian texts, double check), but this is a single check"
                                .to_owned(),
                        ),
                        "+",
                    )
                } else {
                    (None, "")
                };
                if let Some(message) = wrong {
                    let title = if right.is_empty() { "Remove the mark".to_owned() } else { format!("Write {right}") };
                    self.diagnostics.push(
                        Diagnostic::new(Code::CheckMark, mark.span.clone(), message)
                            .with_fix(Fix::replace(title, mark.span.clone(), right).preferred(true)),
                    );
                }
            }
            None => {
                if check && self.options.report_missing_check {
                    let mate = after.is_checkmate();
                    let mark = if mate { "#" } else { "+" };
                    let at = m
                        .promotion
                        .as_ref()
                        .or(m.destination.as_ref())
                        .or(m.castling.as_ref())
                        .map_or(m.span.end, |t| t.span.end);
                    let at = m.en_passant.as_ref().map_or(at, |e| e.span.end.max(at));
                    self.diagnostics.push(
                        Diagnostic::new(
                            Code::CheckMark,
                            m.span.clone(),
                            if mate {
                                "the move mates but has no \"#\""
                            } else {
                                "the move gives check but has no \"+\""
                            },
                        )
                        .with_fix(Fix::replace(format!("Add {mark}"), at..at, mark).preferred(true)),
                    );
                }
            }
        }
        let _ = before;
    }

    /// The piece a long-algebraic capture names (`Sd7xLe5`) against the one
    /// it takes: a wrong name is reported with the right one (or, for a
    /// pawn, which long algebraic does not name, without it).
    fn check_captured(&mut self, letter: &Token<'_>, taken: Role, mv: Move) {
        let named = self
            .language
            .read_letter(letter.text)
            .map(|r| r.role)
            .or_else(|| languages::languages_for_letter(letter.text).next().map(|(_, r)| r.role));
        if named == Some(taken) {
            return;
        }
        let to = mv.to();
        let what = match named {
            Some(role) => format!("\"{}\" names a {}", letter.text, role_name(role)),
            None => format!("\"{}\" names no piece", letter.text),
        };
        let (title, right) = if taken == Role::Pawn {
            ("Remove the letter".to_owned(), "")
        } else {
            let right = self.language.letter(taken);
            (format!("Write {right}"), right)
        };
        self.diagnostics.push(
            Diagnostic::new(
                Code::CaptureMark,
                letter.span.clone(),
                format!("{what}, but the piece taken on {to} is a {}", role_name(taken)),
            )
            .with_fix(Fix::replace(title, letter.span.clone(), right).preferred(true)),
        );
    }

    /// A NAG past `$255`: PGN numbers its annotations from 0 to 255.
    pub(super) fn check_nag(&mut self, t: &Token<'_>) {
        let digits = t.text.trim_start_matches('$').trim_start_matches('0');
        if digits.len() > 3 || digits.parse::<u32>().is_ok_and(|n| n > 255) {
            let shown: String = t.text.chars().take(12).collect();
            self.diagnostics.push(Diagnostic::new(
                Code::Syntax,
                t.span.clone(),
                format!("\"{shown}\" is no NAG: PGN numbers them from $0 to $255"),
            ));
        }
    }
}
