//! Two records of one game side by side: White's and Black's scoresheets,
//! each in its own language and notation, typed or read by OCR, each read
//! with everything the analysis knows (look-alike letters, damaged moves
//! read as what they stand for, manuscripts), then compared ply by ply.
//! This is the arbiter's reconstruction of a game from two sheets (FIDE
//! Laws, Article 8.5): where the records agree, where one of them is
//! damaged but reads as the other, and where they part ways, with which
//! one replays there.
//!
//! ```
//! use chess_ls_engine::analysis::Options;
//! use chess_ls_engine::ide::compare::compare;
//! use chess_ls_engine::ide::document::Kind;
//! let white = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *";
//! let black = "1. e4 e5 2. Кf3 Кc6 3. Сb5 a5 *";
//! let c = compare((white, Kind::Pgn), (black, Kind::Pgn), &Options::default());
//! assert!(!c.agree());
//! assert_eq!(c.steps[0].ply, 6);
//! ```

use shakmaty::{Chess, Move, Position};

use super::document::{Document, Kind};
use super::position::game_at;
use crate::analysis::languages::{MoveStyle, render_move};
use crate::analysis::{Code, Language, Options, Severity};
use crate::syntax::Span;

/// One record's move at a ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move as written (without its number).
    pub written: String,
    /// Where it is written: a byte span of the record's text and its line
    /// (1-based).
    pub span: Span,
    pub line: usize,
    /// What the replay read it as, in English SAN (`Nf3`).
    pub read_as: String,
    /// The reading was a guess: the move as written is illegal or
    /// undecided.
    pub guessed: bool,
    /// What the analysis found on it (errors and warnings): code and message.
    pub findings: Vec<(Code, String)>,
}

impl RecordMove {
    /// Whether the move is written as it was read: no guess, no error or
    /// warning on it.
    pub fn is_clean(&self) -> bool {
        !self.guessed && self.findings.is_empty()
    }
}

/// What one ply of the comparison says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both records name the same move, but one (or both) only once its
    /// damage is read through.
    Mended,
    /// The records name different moves; the first record's is clean, the
    /// second's damaged.
    SecondDamaged,
    /// The records name different moves; the second record's is clean, the
    /// first's damaged.
    FirstDamaged,
    /// Different moves, both damaged.
    BothDamaged,
    /// Different moves, both clean: the records tell two games from here,
    /// and the comparison stops.
    Diverge,
    /// Only the first record goes on.
    OnlyFirst,
    /// Only the second record goes on.
    OnlySecond,
    /// The moves agree, the written results do not (after the last ply).
    Result,
}

impl Verdict {
    /// Whether the records disagree at this ply.
    pub fn differs(self) -> bool {
        self != Verdict::Mended
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Mended => "mended",
            Verdict::SecondDamaged => "second-damaged",
            Verdict::FirstDamaged => "first-damaged",
            Verdict::BothDamaged => "both-damaged",
            Verdict::Diverge => "diverge",
            Verdict::OnlyFirst => "only-first",
            Verdict::OnlySecond => "only-second",
            Verdict::Result => "result",
        }
    }
}

/// One ply where there is something to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The ply, from 1 (White's first move).
    pub ply: usize,
    /// The move number as written before it: `12.` or `12...`.
    pub number: String,
    pub first: Option<RecordMove>,
    pub second: Option<RecordMove>,
    pub verdict: Verdict,
    /// The verdict in words.
    pub message: String,
}

/// One record as read: its language and moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub language: Option<Language>,
    pub plies: usize,
    /// Why the record's main line stops, when it stops at a move it could
    /// not read (the finding there).
    pub stopped: Option<String>,
    /// The result written after its last game's moves (`1-0`, `1/2-1/2`,
    /// `*`), normalised.
    pub result: Option<String>,
}

/// The comparison of two records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub first: Record,
    pub second: Record,
    /// Plies both records name alike from the start, before the first
    /// difference.
    pub agreed: usize,
    pub steps: Vec<Step>,
}

impl Comparison {
    /// Whether the records name the same moves throughout.
    pub fn agree(&self) -> bool {
        !self.steps.iter().any(|s| s.verdict.differs())
    }
}

/// A record's main line, read as the editor reads it: every game of the
/// text in order, each one that goes on from where the one before ended
/// taken as its continuation (a manuscript's runs).
struct Read {
    record: Record,
    moves: Vec<(RecordMove, Chess, Move)>,
}

fn read(text: &str, kind: Kind, options: &Options) -> Read {
    let doc = Document::open_as(kind, text.to_owned(), 0, options);
    let source = doc.source();
    let mut moves: Vec<(RecordMove, Chess, Move)> = Vec::new();
    let mut record = Record::default();
    let mut end: Option<Chess> = None;
    for section in &doc.sections {
        for game in section.games.iter() {
            let Some(at) = game_at(&doc, section.start + game.span.start, options) else { continue };
            let Some(main) = at.trace.lines.first() else { continue };
            if let Some(end) = &end
                && *end != main.start
            {
                continue;
            }
            if record.language.is_none() {
                record.language = Some(at.language());
            }
            let text = at.section.text(&doc);
            let findings_on = |span: &Span| -> Vec<(Code, String)> {
                at.report
                    .iter()
                    .flat_map(|r| &r.diagnostics)
                    .filter(|d| matches!(d.severity, Severity::Error | Severity::Warning))
                    .filter(|d| d.span.start < span.end && span.start < d.span.end)
                    .map(|d| (d.code, d.message.clone()))
                    .collect()
            };
            let mut last_end = None;
            for m in at.trace.moves.iter().filter(|m| m.line == 0) {
                let written = text.get(m.span.clone()).unwrap_or_default();
                let written = written
                    .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '…' || c.is_whitespace())
                    .trim_end()
                    .to_owned();
                let start = at.section.start + m.span.start;
                let line = 1 + source.get(..start).map_or(0, |s| s.matches('\n').count());
                let span = start..at.section.start + m.span.end;
                moves.push((
                    RecordMove {
                        written,
                        span,
                        line,
                        read_as: render_move(&m.before, &m.played, &MoveStyle::default()),
                        guessed: m.guessed,
                        findings: findings_on(&m.span),
                    },
                    m.before.clone(),
                    m.played,
                ));
                last_end = Some(m.span.end);
                end = Some(m.after.clone());
            }
            // Where the main line stopped: the first error after its last
            // move (an unreadable move, a move after the game's end).
            let stop = at
                .report
                .iter()
                .flat_map(|r| &r.diagnostics)
                .filter(|d| d.span.start >= last_end.unwrap_or(0))
                .find(|d| d.severity == Severity::Error || d.code == Code::Unchecked);
            if let Some(d) = stop {
                record.stopped = Some(format!("{}: {}", d.code, d.message));
            }
            if end.is_none() {
                end = Some(main.start.clone());
            }
            // The result written after the game, read from its own text.
            let game_text = text.get(game.span.clone()).unwrap_or_default();
            let tree = crate::syntax::parse(game_text, None);
            if let Some(result) = crate::syntax::lower(&tree, game_text).first().and_then(|g| g.result.as_ref()) {
                record.result = crate::analysis::tags::normalize_result(result.text).map(str::to_owned);
            }
        }
    }
    record.plies = moves.len();
    Read { record, moves }
}

/// Reads both records and compares them ply by ply.
pub fn compare(first: (&str, Kind), second: (&str, Kind), options: &Options) -> Comparison {
    let a = read(first.0, first.1, options);
    let b = read(second.0, second.1, options);
    let mut steps = Vec::new();
    let mut agreed = 0;
    let mut parted = false;
    let plies = a.moves.len().max(b.moves.len());
    for ply in 0..plies {
        let x = a.moves.get(ply);
        let y = b.moves.get(ply);
        let before = x.or(y).map(|(_, pos, _)| pos);
        let number = before.map_or_else(String::new, |pos| {
            let dots = if pos.turn().is_white() { "." } else { "..." };
            format!("{}{dots}", pos.fullmoves())
        });
        let step = |verdict: Verdict, message: String| Step {
            ply: ply + 1,
            number: number.clone(),
            first: x.map(|(m, _, _)| m.clone()),
            second: y.map(|(m, _, _)| m.clone()),
            verdict,
            message,
        };
        match (x, y) {
            (Some((m, pos_a, mv_a)), Some((n, pos_b, mv_b))) => {
                if mv_a == mv_b && pos_a == pos_b {
                    if !parted {
                        agreed += 1;
                    }
                    if !(m.is_clean() && n.is_clean()) {
                        let damaged = |r: &RecordMove, which: &str| {
                            (!r.is_clean()).then(|| format!("the {which} writes {}{}", r.written, reason(r)))
                        };
                        let which: Vec<String> =
                            [damaged(m, "first"), damaged(n, "second")].into_iter().flatten().collect();
                        steps.push(step(
                            Verdict::Mended,
                            format!("both name {}, read through the damage: {}", m.read_as, which.join("; ")),
                        ));
                    }
                    continue;
                }
                parted = true;
                let verdict = match (m.is_clean(), n.is_clean()) {
                    (true, false) => Verdict::SecondDamaged,
                    (false, true) => Verdict::FirstDamaged,
                    (false, false) => Verdict::BothDamaged,
                    (true, true) => Verdict::Diverge,
                };
                let message = match verdict {
                    Verdict::SecondDamaged => format!(
                        "the records part ways: the first has {}, which replays; the second's {} is damaged{}",
                        m.read_as,
                        n.written,
                        reason(n)
                    ),
                    Verdict::FirstDamaged => format!(
                        "the records part ways: the second has {}, which replays; the first's {} is damaged{}",
                        n.read_as,
                        m.written,
                        reason(m)
                    ),
                    Verdict::BothDamaged => format!(
                        "the records part ways and both are damaged: the first's {} (read as {}){}, the second's {} (read as {}){}",
                        m.written,
                        m.read_as,
                        reason(m),
                        n.written,
                        n.read_as,
                        reason(n)
                    ),
                    _ => format!(
                        "the records part ways: the first has {}, the second {}; both replay, so they tell two games from here",
                        m.read_as, n.read_as
                    ),
                };
                steps.push(step(verdict, message));
                // Once the positions differ, later plies compare nothing.
                if verdict == Verdict::Diverge || pos_after(pos_a, *mv_a) != pos_after(pos_b, *mv_b) {
                    break;
                }
            }
            (Some((m, _, _)), None) => {
                let why = b.record.stopped.as_deref().map_or_else(String::new, |s| format!(" (it stops: {s})"));
                let rest = a.moves.len() - ply;
                steps.push(step(
                    Verdict::OnlyFirst,
                    format!(
                        "the second record ends here{why}; the first goes on with {} and {rest} plies in all",
                        m.read_as
                    ),
                ));
                break;
            }
            (None, Some((n, _, _))) => {
                let why = a.record.stopped.as_deref().map_or_else(String::new, |s| format!(" (it stops: {s})"));
                let rest = b.moves.len() - ply;
                steps.push(step(
                    Verdict::OnlySecond,
                    format!(
                        "the first record ends here{why}; the second goes on with {} and {rest} plies in all",
                        n.read_as
                    ),
                ));
                break;
            }
            (None, None) => break,
        }
    }
    // Two records that name the same moves may still disagree on how the
    // game ended.
    let same_moves = steps.iter().all(|s| s.verdict == Verdict::Mended);
    if same_moves
        && let (Some(x), Some(y)) = (&a.record.result, &b.record.result)
        && x != y
    {
        steps.push(Step {
            ply: plies,
            number: String::new(),
            first: None,
            second: None,
            verdict: Verdict::Result,
            message: format!("the moves agree, but the first record gives the result {x} and the second {y}"),
        });
    }
    Comparison { first: a.record, second: b.record, agreed, steps }
}

fn pos_after(pos: &Chess, mv: Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(mv);
    next
}

/// Why a move is damaged: its first finding, or that it had to be guessed.
fn reason(m: &RecordMove) -> String {
    match m.findings.first() {
        Some((code, message)) => format!(" ({code}: {message})"),
        None if m.guessed => " (read as a guess)".to_owned(),
        None => String::new(),
    }
}
