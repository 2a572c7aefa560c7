//! Replays a game move by move: reads each written move in the game's
//! language, finds the legal move it names, checks its marks, and recovers
//! from mistakes where the intended move can be determined.

use shakmaty::{CastlingSide, Chess, Color, FromSetup, Move, MoveList, Position, Role, Square};

use super::diagnostic::{Code, Diagnostic, Fix, Related};
use super::explain::{self, Target, role_name};
use super::languages::{self, Language, LookalikeContext, MoveStyle, normalize_lookalike, render_move};
use super::setup::{self, Rules};
use super::tags::{self, normalize_result};
use super::{GameReport, LanguageSource, Options, infer};
use crate::syntax::{GameSyntax, Item, Line, Origin, PositionDescription, Span, SyntaxError, Token, WrittenMove};

/// How many moves ahead a recovery looks to see which reading keeps the
/// game legal. Enough to tell candidates apart, bounded so that a damaged
/// game costs no more than a few replays of itself.
const LOOKAHEAD: usize = 40;

/// How many following moves must replay under a recovered reading before
/// it is taken, when the line has a later mistake of its own: a wrong guess
/// (a king step for a knight move) often survives a move or two.
const EVIDENCE: usize = 6;

pub fn analyze_game(game: &GameSyntax<'_>, source: &str, options: &Options) -> GameReport {
    let mut diagnostics: Vec<Diagnostic> =
        game.errors.iter().map(|e| Diagnostic::new(Code::Syntax, e.span.clone(), e.message.clone())).collect();
    tags::check(game, &mut diagnostics);

    let (rules, variant) = setup::rules(game);
    let mut report = GameReport {
        span: game.span.clone(),
        language: options.language.unwrap_or(Language::En),
        language_source: LanguageSource::Undecided,
        diagnostics: Vec::new(),
        plies: 0,
    };
    let mode = match rules {
        Rules::Standard(mode) => mode,
        Rules::Unsupported => {
            let span = game.tag("Variant").map_or(game.span.clone(), |t| t.span.clone());
            diagnostics.push(Diagnostic::new(
                Code::Unchecked,
                span,
                format!("the moves were not checked: the variant {} is not supported", variant.unwrap_or_default()),
            ));
            report.diagnostics = sorted(diagnostics);
            return report;
        }
    };
    let start = match setup::start_position(game, mode) {
        Ok(pos) => pos,
        Err(d) => {
            diagnostics.push(d);
            report.diagnostics = sorted(diagnostics);
            return report;
        }
    };

    let decision = decide_language(game, source, options, &start);
    report.language = decision.language;
    report.language_source = decision.source;
    diagnostics.extend(decision.notes);

    let end = match decision.clean_replay {
        // The replay that decided the language is the answer already.
        Some(replay) => {
            report.plies = replay.plies;
            diagnostics.extend(replay.diagnostics);
            replay.end
        }
        None => {
            let mut replayer = Replayer::new(source, options, decision.language, &game.errors);
            let end = replayer.replay_line(&game.mainline, start, true);
            report.plies = replayer.plies;
            diagnostics.append(&mut replayer.diagnostics);
            end
        }
    };

    check_result(game, end.as_ref(), &mut diagnostics);
    report.diagnostics = sorted(diagnostics);
    report
}

/// Where every move of a game leads, for hovers and completion.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub language: Option<Language>,
    /// The main line first, then each variation, as they were replayed.
    pub lines: Vec<TracedLine>,
    pub moves: Vec<TracedMove>,
}

/// A line (the main line or a variation) and the position it starts from.
#[derive(Clone, Debug)]
pub struct TracedLine {
    pub span: Span,
    pub start: Chess,
}

/// A move that was replayed.
#[derive(Clone, Debug)]
pub struct TracedMove {
    pub span: Span,
    /// Index into [`Trace::lines`].
    pub line: usize,
    pub before: Chess,
    pub played: Move,
    pub after: Chess,
}

/// Replays a game and records every move with the positions around it.
pub fn trace_game(game: &GameSyntax<'_>, source: &str, options: &Options) -> Trace {
    let (rules, _) = setup::rules(game);
    let Rules::Standard(mode) = rules else { return Trace::default() };
    let Ok(start) = setup::start_position(game, mode) else { return Trace::default() };
    let language = decide_language(game, source, options, &start).language;
    let mut replayer = Replayer::new(source, options, language, &game.errors);
    replayer.trace = Some(Trace { language: Some(language), ..Trace::default() });
    let mut main = game.mainline.clone();
    // The main line spans the whole game, so that a cursor after its last
    // move (or in an empty game) still finds it.
    main.span = game.span.clone();
    replayer.replay_line(&main, start, true);
    replayer.trace.unwrap_or_default()
}

fn sorted(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.span.end.cmp(&b.span.end)));
    diagnostics
}

/// Decides the game's language: the user's choice, the only language that
/// reads its letters, or the reading under which it replays best.
/// The language of a game and how it was decided.
struct LanguageDecision {
    language: Language,
    source: LanguageSource,
    /// A `language-mix` note when the language could not be decided.
    notes: Vec<Diagnostic>,
    /// The replay that decided it, when it found nothing wrong: then it is
    /// the game's replay as it stands, and need not be done again.
    clean_replay: Option<CleanReplay>,
}

/// A replay without errors or warnings.
struct CleanReplay {
    diagnostics: Vec<Diagnostic>,
    plies: usize,
    end: Option<Chess>,
}

fn decide_language(game: &GameSyntax<'_>, source: &str, options: &Options, start: &Chess) -> LanguageDecision {
    let decided = |language, source| LanguageDecision { language, source, notes: Vec::new(), clean_replay: None };
    if let Some(language) = options.language {
        return decided(language, LanguageSource::Chosen);
    }
    let letters = infer::letters(game);
    if letters.is_empty() {
        return decided(Language::En, LanguageSource::Undecided);
    }
    let readers = infer::readers(&letters);
    if readers.is_empty() {
        // No language reads every letter: the moves mix two languages. The
        // replay reads the foreign letters move by move and reports each.
        return decided(infer::best_partial(game), LanguageSource::Undecided);
    }
    let distinct = infer::distinct_readings(&readers);
    if distinct.len() == 1 {
        return decided(readers[0].language, LanguageSource::Letters);
    }
    // Several languages read the letters differently (`R`: rook in English,
    // king in French, knight in Finnish): the one that replays best wins
    // (see `ReadingScore`).
    let mut replays: Vec<(Replayer<'_, '_>, &infer::Reader, Option<Chess>)> = distinct
        .iter()
        .map(|reader| {
            let mut r = Replayer::new(source, options, reader.language, &game.errors);
            r.mixing = false;
            let end = r.replay_line(&game.mainline, start.clone(), true);
            (r, *reader, end)
        })
        .collect();
    // Beyond the first place where some reading stopped, that reading says
    // nothing: what the others find there cannot be weighed against it.
    let horizon = replays
        .iter()
        .filter_map(|(r, _, _)| r.diagnostics.iter().find(|d| d.code == Code::Unchecked).map(|d| d.span.start))
        .min()
        .unwrap_or(usize::MAX);
    let mut scores: Vec<Replayed> = replays
        .iter()
        .enumerate()
        .map(|(index, (r, reader, _))| Replayed {
            score: ReadingScore::of(r, reader, horizon),
            language: reader.language,
            findings: r.diagnostics.iter().map(|d| (d.code, d.span.clone())).collect(),
            index,
        })
        .collect();
    // A stable sort keeps the order of `Language::ALL` among equals.
    scores.sort_by_key(|s| s.score);
    let (best_score, best) = (scores[0].score, scores[0].language);
    let tied: Vec<&Replayed> = scores.iter().filter(|s| s.score == best_score).collect();
    if tied.len() == 1 {
        // Without errors and warnings, reading other languages' letters
        // (which the deciding replays leave off) changes nothing.
        let (r, _, end) = &mut replays[scores[0].index];
        let clean_replay = (scores[0].score.anomalies == 0).then(|| CleanReplay {
            diagnostics: std::mem::take(&mut r.diagnostics),
            plies: r.plies,
            end: end.take(),
        });
        return LanguageDecision { language: best, source: LanguageSource::Replay, notes: Vec::new(), clean_replay };
    }
    // The moves read as well in several languages. When the readings find
    // the same things at the same places (nothing at all, in a clean game),
    // the choice changes no finding and the first in the order of
    // `Language::ALL` (English first) is assumed without a warning. A PGN
    // file with tags is English by the PGN standard, so English wins a tie
    // there too.
    let same_findings = tied.iter().all(|s| s.findings == tied[0].findings);
    let pgn_english = !game.tags.is_empty() && tied.iter().any(|s| s.language == Language::En);
    if same_findings || pgn_english {
        let language = if pgn_english { Language::En } else { best };
        return decided(language, LanguageSource::Undecided);
    }
    let names: Vec<String> = tied.iter().map(|s| s.language.name().to_owned()).collect();
    let letter = letters[0];
    let d = Diagnostic::new(
        Code::LanguageMix,
        letter.span.clone(),
        format!(
            "the notation language could not be decided: the moves read equally well in {}; assuming {} (set the language to be sure)",
            join_or(&names, "and"),
            best.name()
        ),
    );
    LanguageDecision { language: best, source: LanguageSource::Undecided, notes: vec![d], clean_replay: None }
}

/// A game replayed in one reading of its letters, to compare with others.
struct Replayed {
    score: ReadingScore,
    language: Language,
    /// What the replay found, where: readings that find the same things at
    /// the same places need no decision between them.
    findings: Vec<(Code, Span)>,
    /// Where the replay is in the list of replays.
    index: usize,
}

/// How well a game replays in one reading of its letters; smaller is
/// better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ReadingScore {
    /// Errors and warnings before the horizon: the first move that some
    /// reading did not reach. Up to there every reading is judged on the
    /// same moves.
    before_horizon: usize,
    /// All errors and warnings: a reading that goes on past the horizon
    /// with mistake after mistake is worse than one that stopped there.
    anomalies: usize,
    /// Letters that this reading takes for a pawn letter: FIDE discourages
    /// them and texts rarely have them, so among equals a reading with a
    /// piece for every letter is likelier (German `Sd4` for a knight rather
    /// than Finnish `S`, a pawn).
    pawn_letters: usize,
    /// Plies replayed as written (not guessed), reversed so that more is
    /// better.
    plies: std::cmp::Reverse<usize>,
    /// Moves no piece can make: an ambiguous move at least names a piece
    /// that can go there, so it counts less against a reading.
    illegal: usize,
}

impl ReadingScore {
    fn of(r: &Replayer<'_, '_>, reader: &infer::Reader, horizon: usize) -> ReadingScore {
        let anomaly = |d: &&Diagnostic| matches!(d.severity, super::Severity::Error | super::Severity::Warning);
        ReadingScore {
            before_horizon: r.diagnostics.iter().filter(anomaly).filter(|d| d.span.start < horizon).count(),
            anomalies: r.diagnostics.iter().filter(anomaly).count(),
            plies: std::cmp::Reverse(r.plies - r.guesses),
            pawn_letters: reader.readings.iter().filter(|reading| reading.role == Role::Pawn).count(),
            illegal: r.diagnostics.iter().filter(|d| d.code == Code::IllegalMove).count(),
        }
    }
}

/// Compares the result token and the Result tag with the final position
/// (a mate or a stalemate proves the result) and with each other.
fn check_result(game: &GameSyntax<'_>, end: Option<&Chess>, out: &mut Vec<Diagnostic>) {
    let proven = end.and_then(|end| {
        if end.is_checkmate() {
            let result = if end.turn() == Color::White { "0-1" } else { "1-0" };
            Some((result, format!("{} is checkmated", explain::color_name(end.turn()))))
        } else if end.is_stalemate() {
            Some(("1/2-1/2", format!("{} is stalemated", explain::color_name(end.turn()))))
        } else {
            None
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

/// A move read in the game's language, with the diagnostics its letters
/// raised (look-alikes, pawn letters).
struct Reading {
    /// What the game's language reads, with the note its piece letter
    /// raised (a look-alike or a pawn letter) if the move is played so;
    /// `None` for a letter the game's language does not have.
    primary: Option<(Target, Option<Diagnostic>)>,
    /// Set when the piece letter may be another language's: a foreign
    /// letter, or a weak reading (a look-alike, a pawn letter) that may not
    /// fit where another language's would (Latin `K` in a Russian game is
    /// the knight `К` or the English king).
    foreign: Option<TargetParts>,
    notes: Vec<Diagnostic>,
}

/// A normal move's target without its piece.
#[derive(Clone, Copy, Debug)]
struct TargetParts {
    from_file: Option<shakmaty::File>,
    from_rank: Option<shakmaty::Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl TargetParts {
    fn with(self, role: Role) -> Target {
        let TargetParts { from_file, from_rank, to, promotion } = self;
        Target::Normal { role, from_file, from_rank, to, promotion }
    }
}

struct Replayer<'a, 'o> {
    source: &'a str,
    options: &'o Options,
    language: Language,
    style: MoveStyle,
    diagnostics: Vec<Diagnostic>,
    plies: usize,
    /// Whether a letter that does not fit may be read as another
    /// language's. Off while deciding the language, so that each reading
    /// is tested pure: a reading that needs other languages to go on is no
    /// good reading.
    mixing: bool,
    /// Where the grammar could not read the game: a move may be lost there.
    syntax_errors: &'a [SyntaxError],
    /// Set when the latest move was illegal and read as a guessed one.
    guessed: bool,
    /// How many moves were guessed so.
    guesses: usize,
    /// Filled only when a front end asks where each move leads (hover,
    /// completion); the checker leaves it off.
    trace: Option<Trace>,
}

impl<'a, 'o> Replayer<'a, 'o> {
    fn new(source: &'a str, options: &'o Options, language: Language, syntax_errors: &'a [SyntaxError]) -> Self {
        let mut style = MoveStyle::for_language(language);
        // Fixes keep to the document's conventions where they can; the
        // capture sign of a Russian game is often the Cyrillic one, but `x`
        // is always understood.
        style.check_marks = false;
        Replayer {
            source,
            options,
            language,
            style,
            syntax_errors,
            mixing: true,
            diagnostics: Vec::new(),
            plies: 0,
            guessed: false,
            guesses: 0,
            trace: None,
        }
    }

    /// Replays a line from `start`; returns the position at its end, or
    /// `None` when the line stopped at a move that could not be read.
    fn replay_line(&mut self, line: &Line<'_>, start: Chess, is_main: bool) -> Option<Chess> {
        let line_id = match &mut self.trace {
            Some(trace) => {
                trace.lines.push(TracedLine { span: line.span.clone(), start: start.clone() });
                trace.lines.len() - 1
            }
            None => 0,
        };
        let mut pos = Some(start.clone());
        // The position before the latest move, where a variation starts.
        let mut before_last: Option<Chess> = None;
        let mut prev_end: Option<usize> = None;
        // Whether text that could not be read (a syntax error, a letter
        // without a square) stands since the latest move: a move may have
        // been lost there, and a move that does not fit after it is no
        // mistake of its own.
        let mut broken = false;
        let items = &line.items;
        let mut i = 0;
        while i < items.len() {
            if !self.syntax_errors.is_empty() {
                let from = prev_end.unwrap_or(line.span.start);
                let to = item_start(&items[i]);
                broken |= self.syntax_errors.iter().any(|e| from <= e.span.start && e.span.start < to);
            }
            match &items[i] {
                Item::MoveNumber(t) => {
                    if let Some(p) = &pos {
                        let next_is_move = matches!(items.get(i + 1), Some(Item::Move(_)));
                        if next_is_move {
                            self.check_move_number(t, p, prev_end);
                        }
                    }
                }
                Item::Move(m) => match pos.take() {
                    None => before_last = None,
                    Some(p) if broken && !self.fits(&p, m) => {
                        self.lost_before(&items[i..], is_main, m);
                        before_last = Some(p);
                    }
                    // A move the grammar could not read whole: its syntax
                    // error says what is wrong; an illegal-move report
                    // about its remains would only confuse.
                    Some(p) if self.damaged(m) && !self.fits(&p, m) => {
                        self.unchecked(&items[i + 1..], is_main, m.text(self.source));
                        before_last = Some(p);
                    }
                    Some(p) => match self.play(&p, m, &items[i + 1..]) {
                        Some(mv) => {
                            let mut next = p.clone();
                            next.play_unchecked(mv);
                            // The marks of a move that had to be guessed
                            // belong to the move the writer had in mind;
                            // its fix writes them right.
                            if !std::mem::take(&mut self.guessed) {
                                self.check_after(&p, &next, m, mv);
                            }
                            self.plies += 1;
                            if let Some(trace) = &mut self.trace {
                                trace.moves.push(TracedMove {
                                    span: m.span.clone(),
                                    line: line_id,
                                    before: p.clone(),
                                    played: mv,
                                    after: next.clone(),
                                });
                            }
                            before_last = Some(p);
                            pos = Some(next);
                            broken = false;
                        }
                        None => {
                            self.unchecked(&items[i + 1..], is_main, m.text(self.source));
                            before_last = Some(p);
                        }
                    },
                },
                Item::NullMove(t) => {
                    if let Some(p) = pos.take() {
                        if p.is_check() {
                            self.diagnostics.push(Diagnostic::new(
                                Code::IllegalMove,
                                t.span.clone(),
                                "a null move is not possible while the king is in check",
                            ));
                            self.unchecked(&items[i + 1..], is_main, t.text);
                        } else {
                            pos = null_move(&p);
                            before_last = Some(p);
                        }
                    }
                }
                Item::Variation(v) => {
                    if let Some(base) = &before_last {
                        self.replay_line(v, base.clone(), false);
                    } else if pos.is_some() && before_last.is_none() {
                        // A variation before any move replaces nothing;
                        // read it from the start of its line.
                        self.replay_line(v, start.clone(), false);
                    }
                }
                Item::PositionDescription(_) => {
                    let mut descriptions: Vec<&PositionDescription<'_>> = Vec::new();
                    while let Some(Item::PositionDescription(d)) = items.get(i) {
                        descriptions.push(d);
                        i += 1;
                    }
                    let next_number = match items.get(i) {
                        Some(Item::MoveNumber(t)) => Some(t),
                        _ => None,
                    };
                    i -= 1;
                    before_last = None;
                    match setup::start_from_descriptions(&descriptions, self.language, Some(self.source), next_number) {
                        Ok(p) => pos = Some(p),
                        Err(d) => {
                            self.diagnostics.push(d);
                            pos = None;
                        }
                    }
                }
                Item::Glyph(t) => broken |= self.check_glyph(t),
                Item::Nag(_) | Item::DrawOffer(_) => {}
            }
            prev_end = Some(item_end(&items[i]));
            i += 1;
        }
        pos
    }

    /// A piece letter standing alone is Informant's novelty `N` or a move
    /// that lost its square.
    /// Returns whether it was such a letter.
    fn check_glyph(&mut self, t: &Token<'_>) -> bool {
        let is_letter = t.text.chars().all(|c| c.is_alphabetic() || ('♔'..='♟').contains(&c));
        if is_letter && t.text != "N" && t.text != "TN" {
            self.diagnostics.push(Diagnostic::new(
                Code::Syntax,
                t.span.clone(),
                format!("`{}` is a piece letter without a square", t.text),
            ));
            return true;
        }
        false
    }

    /// Whether a syntax error stands inside the move (or right at its end,
    /// where a missing part would be).
    fn damaged(&self, m: &WrittenMove<'_>) -> bool {
        self.syntax_errors.iter().any(|e| m.span.start <= e.span.start && e.span.start <= m.span.end)
    }

    /// Whether a legal move fits the written one as the game's language
    /// reads it, without reporting anything.
    fn fits(&self, pos: &Chess, m: &WrittenMove<'_>) -> bool {
        let Ok(reading) = self.read(m) else { return false };
        if let Some((target, _)) = &reading.primary
            && !matching(pos, target).is_empty()
        {
            return true;
        }
        match (&m.piece, reading.foreign) {
            (Some(letter), Some(parts)) => {
                self.foreign_targets(letter, parts, None).iter().any(|(target, _)| !matching(pos, target).is_empty())
            }
            _ => false,
        }
    }

    /// Reports that a line stopped at `rest[0]`, a move that does not fit
    /// after text that could not be read: a move was probably lost there,
    /// so this move is not reported as illegal.
    fn lost_before(&mut self, rest: &[Item<'_>], is_main: bool, at: &WrittenMove<'_>) {
        let count = rest.iter().filter(|i| matches!(i, Item::Move(_))).count();
        let what = if is_main { "game" } else { "variation" };
        let plural = if count == 1 { "" } else { "s" };
        self.diagnostics.push(Diagnostic::new(
            Code::Unchecked,
            at.span.clone(),
            format!(
                "this move and the rest of the {what} ({count} move{plural}) were not checked: {} does not fit here, probably because a move was lost in the text before it that could not be read",
                at.text(self.source)
            ),
        ));
    }

    /// Reports that a line stopped, once, at the first move after the stop.
    fn unchecked(&mut self, rest: &[Item<'_>], is_main: bool, at: &str) {
        let mut moves = rest.iter().filter_map(|i| if let Item::Move(m) = i { Some(m) } else { None });
        let Some(first) = moves.next() else { return };
        let count = 1 + moves.count();
        let what = if is_main { "game" } else { "variation" };
        let plural = if count == 1 { "" } else { "s" };
        self.diagnostics.push(Diagnostic::new(
            Code::Unchecked,
            first.span.clone(),
            format!(
                "the rest of this {what} ({count} move{plural}) was not checked: the move {at} before it could not be read"
            ),
        ));
    }

    fn check_move_number(&mut self, t: &Token<'_>, pos: &Chess, prev_end: Option<usize>) {
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
                format!("`{}` marks a move of Black, but it is White's move {expected}", t.text)
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

    /// Finds the legal move a written move names; reports and, where it can
    /// be determined, recovers from an illegal or ambiguous move.
    fn play(&mut self, pos: &Chess, m: &WrittenMove<'_>, rest: &[Item<'_>]) -> Option<Move> {
        let reading = match self.read(m) {
            Ok(r) => r,
            Err(d) => {
                self.diagnostics.push(*d);
                return None;
            }
        };
        let mut notes = reading.notes;
        if let Some((target, note)) = &reading.primary {
            let found = matching(pos, target);
            if !found.is_empty() {
                notes.extend(note.iter().cloned());
                self.diagnostics.append(&mut notes);
                return self.resolve(pos, m, target, found, rest);
            }
        }
        // Only a move that does not fit pays for other languages' readings.
        let foreign = match (&m.piece, reading.foreign) {
            (Some(letter), Some(parts)) if self.mixing => {
                let exclude = reading.primary.as_ref().and_then(|(t, _)| match t {
                    Target::Normal { role, .. } => Some(*role),
                    Target::Castle(_) => None,
                });
                self.foreign_targets(letter, parts, exclude)
            }
            _ => Vec::new(),
        };
        for (target, note) in &foreign {
            let found = matching(pos, target);
            if !found.is_empty() {
                notes.push(note.clone());
                self.diagnostics.append(&mut notes);
                return self.resolve(pos, m, target, found, rest);
            }
        }
        let (target, note) = match reading.primary {
            Some(primary) => primary,
            None => match foreign.into_iter().next() {
                Some((target, note)) => (target, Some(note)),
                None => return None,
            },
        };
        notes.extend(note);
        self.diagnostics.append(&mut notes);
        self.illegal(pos, m, &target, rest)
    }

    /// What a piece letter means in other languages than the game's, each
    /// with the `language-mix` note to give if the move is read so; `exclude`
    /// is the piece the game's language already tried.
    fn foreign_targets(
        &self,
        letter: &Token<'_>,
        parts: TargetParts,
        exclude: Option<Role>,
    ) -> Vec<(Target, Diagnostic)> {
        let mut out: Vec<(Target, Diagnostic)> = Vec::new();
        for (language, reading) in languages::languages_for_letter(letter.text) {
            let role = reading.role;
            let seen = out.iter().any(|(t, _)| matches!(t, Target::Normal { role: r, .. } if *r == role));
            if reading.lookalike_of.is_some() || role == Role::Pawn || Some(role) == exclude || seen {
                continue;
            }
            let right = self.language.letter(role);
            let d = Diagnostic::new(
                Code::LanguageMix,
                letter.span.clone(),
                mix_message(letter.text, language, role, self.language, right),
            )
            .with_fix(Fix::replace(format!("Write {right}"), letter.span.clone(), right).preferred(true));
            out.push((parts.with(role), d));
        }
        out
    }

    /// One or more legal moves match: exactly one is the move; a pawn
    /// reaching the last rank without a piece is a missing promotion;
    /// several pieces are an ambiguity.
    fn resolve(
        &mut self,
        pos: &Chess,
        m: &WrittenMove<'_>,
        target: &Target,
        found: MoveList,
        rest: &[Item<'_>],
    ) -> Option<Move> {
        if found.len() == 1 {
            self.check_disambiguation(pos, m, target, found[0]);
            return Some(found[0]);
        }
        if single(&found).is_some() {
            return Some(self.missing_promotion(pos, m, &found));
        }
        self.ambiguous(pos, m, &found, rest)
    }

    fn missing_promotion(&mut self, pos: &Chess, m: &WrittenMove<'_>, found: &[Move]) -> Move {
        let queen = found.iter().copied().find(|mv| mv.promotion() == Some(Role::Queen)).unwrap_or(found[0]);
        let at = m.destination.as_ref().map_or(m.span.clone(), |d| d.span.clone());
        let mut d = Diagnostic::new(
            Code::MissingPromotion,
            at.clone(),
            format!(
                "the pawn reaches the last rank but no piece is named; read as a promotion to a queen ({})",
                self.render(pos, &queen)
            ),
        );
        for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            let letter = self.language.letter(role);
            d = d.with_fix(
                Fix::replace(format!("Promote to a {} ({letter})", role_name(role)), at.end..at.end, letter)
                    .preferred(role == Role::Queen),
            );
        }
        self.diagnostics.push(d);
        queen
    }

    fn ambiguous(&mut self, pos: &Chess, m: &WrittenMove<'_>, found: &[Move], rest: &[Item<'_>]) -> Option<Move> {
        let written = m.text(self.source);
        // One candidate per piece: a pawn that may promote to any piece
        // counts once, as the promotion to a queen.
        let mut pieces: Vec<Move> = Vec::new();
        for mv in found {
            match pieces.iter_mut().find(|p| p.from() == mv.from()) {
                Some(p) if mv.promotion() == Some(Role::Queen) => *p = *mv,
                Some(_) => {}
                None => pieces.push(*mv),
            }
        }
        let found = &pieces[..];
        let names: Vec<String> = found
            .iter()
            .filter_map(|mv| mv.from().map(|from| format!("the {} on {from}", role_name(mv.role()))))
            .collect();
        let tiered: Vec<(Move, u8)> = found.iter().map(|&mv| (mv, 0)).collect();
        let chosen = self.choose(pos, &tiered, rest);
        let to = found[0].to();
        let mut message = format!("{written} is ambiguous: {} can go to {to}", join_or(&names, "and"));
        if let Some(mv) = chosen {
            message.push_str(&format!(
                "; read as {}, the only one that the moves after it bear out",
                self.render(pos, &mv)
            ));
        }
        let span = core_span(m);
        let mut d = Diagnostic::new(Code::AmbiguousMove, span, message);
        for mv in found {
            let new_text = self.rewrite_with_origin(pos, m, mv);
            d = d.with_fix(
                Fix::replace(format!("Write {new_text}"), m.span.clone(), new_text.clone())
                    .preferred(Some(*mv) == chosen),
            );
            if let Some(from) = mv.from() {
                d.related.push(Related {
                    span: m.span.clone(),
                    message: format!("candidate: the {} on {from}", role_name(mv.role())),
                });
            }
        }
        self.diagnostics.push(d);
        chosen
    }

    fn illegal(&mut self, pos: &Chess, m: &WrittenMove<'_>, target: &Target, rest: &[Item<'_>]) -> Option<Move> {
        let written = m.text(self.source);
        let why = explain::illegal(pos, target, self.language);
        let mut candidates = self.recovery_candidates(pos, m, target);
        let chosen = self.choose(pos, &candidates, rest);
        // The fix the replay goes on with comes first, so that it is among
        // the few offered.
        if let Some(i) = candidates.iter().position(|&(mv, _)| Some(mv) == chosen) {
            candidates[..=i].rotate_right(1);
        }
        self.guessed = chosen.is_some();
        self.guesses += usize::from(chosen.is_some());
        let mut message = format!("{written} is illegal: {why}");
        if let Some(mv) = chosen {
            let why = if rest.iter().any(|i| matches!(i, Item::Move(_))) {
                "which the moves after it bear out"
            } else {
                "the only move close to what is written"
            };
            message.push_str(&format!("; read as {}, {why}", self.render(pos, &mv)));
        }
        let mut d = Diagnostic::new(Code::IllegalMove, core_span(m), message);
        for (mv, _) in candidates.iter().take(4) {
            let text = self.render_like(pos, m, mv);
            d = d.with_fix(
                Fix::replace(format!("Write {text}"), m.span.clone(), text.clone()).preferred(Some(*mv) == chosen),
            );
        }
        self.diagnostics.push(d);
        chosen
    }

    /// Legal moves the writer may have meant, each with how likely it is
    /// (lower is likelier): 0 for the same piece to the same square from
    /// elsewhere (a wrong disambiguation), 1 for the same piece one
    /// character away (`Nf4` for `Nf3`), 2 for any move one character away
    /// (a wrong or missing letter).
    fn recovery_candidates(&self, pos: &Chess, m: &WrittenMove<'_>, target: &Target) -> Vec<(Move, u8)> {
        let mut out: Vec<(Move, u8)> = Vec::new();
        let written_role = match *target {
            Target::Normal { role, to, promotion, .. } => {
                for mv in pos.san_candidates(role, to) {
                    if promotion.is_none_or(|p| mv.promotion() == Some(p)) {
                        out.push((mv, 0));
                    }
                }
                if !out.is_empty() {
                    return out;
                }
                Some(role)
            }
            Target::Castle(_) => None,
        };
        let written = strip_marks(m.text(self.source));
        let mut style = self.style;
        for mv in &pos.legal_moves() {
            for sign in [Some("x"), None] {
                style.capture_sign = sign;
                let text = render_move(pos, mv, &style);
                if within_one_edit(&written, &text) && !out.iter().any(|(o, _)| o == mv) {
                    let tier = if Some(mv.role()) == written_role && !mv.is_castle() { 1 } else { 2 };
                    out.push((*mv, tier));
                }
            }
        }
        out.sort_by_key(|&(_, tier)| tier);
        out
    }

    /// The candidate that the rest of the line confirms: the one under
    /// which the following moves replay furthest, the likeliest (lowest
    /// tier) among those, if exactly one. With no move after it, only a
    /// sole candidate is taken.
    fn choose(&self, pos: &Chess, candidates: &[(Move, u8)], rest: &[Item<'_>]) -> Option<Move> {
        let upcoming: Vec<&WrittenMove<'_>> =
            rest.iter().filter_map(|i| if let Item::Move(m) = i { Some(m) } else { None }).take(LOOKAHEAD).collect();
        if upcoming.is_empty() {
            return match candidates {
                [(only, _)] => Some(*only),
                _ => None,
            };
        }
        // How far each reading gets before a move no longer fits. The one
        // that gets strictly furthest is the intended move: the rest of the
        // game may have a mistake of its own further on, which must not
        // hide this one's answer.
        let reach = |mv: &Move| {
            let mut p = pos.clone();
            p.play_unchecked(*mv);
            upcoming
                .iter()
                .take_while(|w| {
                    let Ok(reading) = self.read(w) else { return false };
                    let target = match (reading.primary, reading.foreign, &w.piece) {
                        (Some((target, _)), _, _) => target,
                        (None, Some(parts), Some(letter)) => {
                            match self.foreign_targets(letter, parts, None).into_iter().next() {
                                Some((target, _)) => target,
                                None => return false,
                            }
                        }
                        _ => return false,
                    };
                    let Some(mv) = single(&matching(&p, &target)) else { return false };
                    p.play_unchecked(mv);
                    true
                })
                .count()
        };
        let scored: Vec<(usize, u8, Move)> = candidates.iter().map(|&(mv, tier)| (reach(&mv), tier, mv)).collect();
        let best = scored.iter().map(|&(reach, tier, _)| (reach, std::cmp::Reverse(tier))).max()?;
        // A guess must be borne out: by every move after it, or by enough
        // of them when a later mistake of its own stops the line.
        if best.0 < upcoming.len().min(EVIDENCE) {
            return None;
        }
        let mut at_best = scored.iter().filter(|&&(reach, tier, _)| (reach, std::cmp::Reverse(tier)) == best);
        let first = at_best.next().map(|s| s.2);
        if at_best.next().is_some() { None } else { first }
    }

    /// Checks a legal, unambiguous move: is its disambiguation more than
    /// needed?
    fn check_disambiguation(&mut self, pos: &Chess, m: &WrittenMove<'_>, target: &Target, mv: Move) {
        let Target::Normal { role, to, .. } = *target else { return };
        if role == Role::Pawn || m.dash.is_some() {
            return;
        }
        let origin = match &m.origin {
            Some(Origin::File(t)) | Some(Origin::Rank(t)) => t,
            // `Ng1f3` is long algebraic: the origin is part of the style.
            _ => return,
        };
        let others = pos.san_candidates(role, to).into_iter().filter(|c| c.from() != mv.from()).count();
        if others == 0 {
            let mut d = Diagnostic::new(
                Code::RedundantDisambiguation,
                origin.span.clone(),
                format!("`{}` is not needed: no other {} can go to {to}", origin.text, role_name(role)),
            )
            .with_fix(Fix::replace(format!("Remove `{}`", origin.text), origin.span.clone(), "").preferred(true));
            d.unnecessary = true;
            self.diagnostics.push(d);
        }
    }

    /// Checks the marks of a played move against the position after it.
    fn check_after(&mut self, before: &Chess, after: &Chess, m: &WrittenMove<'_>, mv: Move) {
        if let Some(capture) = &m.capture {
            if !mv.is_capture() {
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
        } else if mv.is_capture() && self.options.report_missing_capture && m.castling.is_none() {
            let at = m.destination.as_ref().map_or(m.span.start, |d| d.span.start);
            let sign =
                if self.language.is_cyrillic() && self.source[m.span.clone()].contains('х') { "х" } else { "x" };
            self.diagnostics.push(
                Diagnostic::new(Code::CaptureMark, m.span.clone(), "the move captures but has no capture sign")
                    .with_fix(Fix::replace("Add the capture sign", at..at, sign).preferred(true)),
            );
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
                    .with_fix(Fix::replace(format!("Remove `{}`", ep.text), span, "").preferred(true)),
            );
        }
        let check = after.is_check();
        match &m.check {
            Some(mark) => {
                let text = mark.text;
                let mate_mark = matches!(text, "#" | "‡");
                let (wrong, right): (Option<String>, &str) = if !check {
                    (Some(format!("`{text}` is wrong: the move gives no check")), "")
                } else if mate_mark && !after.is_checkmate() {
                    (Some(format!("`{text}` is wrong: the move gives check, not mate")), "+")
                } else if text == "++" && after.checkers().count() < 2 && !after.is_checkmate() {
                    (
                        Some(
                            "`++` means mate (or, in some Russian texts, double check), but this is a single check"
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
                            if mate { "the move mates but has no `#`" } else { "the move gives check but has no `+`" },
                        )
                        .with_fix(Fix::replace(format!("Add {mark}"), at..at, mark).preferred(true)),
                    );
                }
            }
        }
        let _ = before;
    }

    /// Reads the letters of a written move in the game's language.
    fn read(&self, m: &WrittenMove<'_>) -> Result<Reading, Box<Diagnostic>> {
        let mut notes: Vec<Diagnostic> = Vec::new();
        if let Some(castling) = &m.castling {
            for (offset, ch) in castling.text.char_indices() {
                if let Some(right) = normalize_lookalike(ch, LookalikeContext::Castling) {
                    let span = castling.span.start + offset..castling.span.start + offset + ch.len_utf8();
                    notes.push(homoglyph(span, ch, right, "in castling"));
                }
            }
            let count = castling.text.chars().filter(|c| matches!(c, 'O' | 'o' | '0' | 'О')).count();
            let side = if count >= 3 { CastlingSide::QueenSide } else { CastlingSide::KingSide };
            return Ok(Reading { primary: Some((Target::Castle(side), None)), foreign: None, notes });
        }
        let Some(dest) = &m.destination else {
            return Err(Box::new(Diagnostic::new(Code::Syntax, m.span.clone(), "a move without a destination square")));
        };
        if let Some(drop) = &m.drop {
            return Err(Box::new(Diagnostic::new(
                Code::IllegalMove,
                drop.span.clone(),
                "piece drops (`@`) exist only in crazyhouse; set the Variant tag for such games",
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
            && capture.text == "х"
            && !self.language.is_cyrillic()
        {
            notes.push(homoglyph(capture.span.clone(), 'х', 'x', "as the capture sign"));
        }
        let promotion = match &m.promotion {
            None => None,
            Some(t) => Some(self.read_promotion(t, &mut notes)?),
        };
        let parts = TargetParts { from_file, from_rank, to, promotion };
        let Some(letter) = &m.piece else {
            return Ok(Reading { primary: Some((parts.with(Role::Pawn), None)), foreign: None, notes });
        };
        let Some(reading) = self.language.read_letter(letter.text) else {
            // A letter of another language: try what it means there.
            if languages::languages_for_letter(letter.text).all(|(_, r)| r.lookalike_of.is_some()) {
                return Err(Box::new(Diagnostic::new(
                    Code::IllegalMove,
                    letter.span.clone(),
                    format!("`{}` is not a piece letter in any language", letter.text),
                )));
            }
            return Ok(Reading { primary: None, foreign: Some(parts), notes });
        };
        let note = if let Some(right) = reading.lookalike_of {
            Some(
                Diagnostic::new(
                    Code::Homoglyph,
                    letter.span.clone(),
                    format!(
                        "`{}` is a look-alike of the {} letter `{right}` ({})",
                        letter.text,
                        self.language.name(),
                        role_name(reading.role)
                    ),
                )
                .with_fix(Fix::replace(format!("Write {right}"), letter.span.clone(), right).preferred(true)),
            )
        } else if reading.role == Role::Pawn {
            Some(
                Diagnostic::new(
                    Code::PawnLetter,
                    letter.span.clone(),
                    format!("a pawn move is written without a letter: `{}` is not needed", letter.text),
                )
                .with_fix(Fix::replace(format!("Remove `{}`", letter.text), letter.span.clone(), "").preferred(true)),
            )
        } else {
            None
        };
        // A look-alike or a pawn letter is a weak reading: if it does not
        // fit, another language's reading of the letter is tried.
        let foreign = note.is_some().then_some(parts);
        Ok(Reading { primary: Some((parts.with(reading.role), note)), foreign, notes })
    }

    fn read_square_token(&self, t: &Token<'_>, notes: &mut Vec<Diagnostic>) -> Result<Square, Box<Diagnostic>> {
        if t.text.chars().count() != 2 {
            return Err(Box::new(Diagnostic::new(
                Code::Syntax,
                t.span.clone(),
                format!("`{}` is not a square", t.text),
            )));
        }
        let file = self.read_file_char(t, 0, notes)?;
        let first_len = t.text.chars().next().map_or(1, char::len_utf8);
        let rank = self.read_rank_char(t, first_len, notes)?;
        Ok(Square::from_coords(file, rank))
    }

    fn read_file_char(
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
            .ok_or_else(|| Box::new(Diagnostic::new(Code::Syntax, span, format!("`{ch}` is not a file"))))
    }

    fn read_rank_char(
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
            .ok_or_else(|| Box::new(Diagnostic::new(Code::Syntax, span, format!("`{ch}` is not a rank"))))
    }

    fn read_promotion(&self, t: &Token<'_>, notes: &mut Vec<Diagnostic>) -> Result<Role, Box<Diagnostic>> {
        if let Some(reading) = self.language.read_letter(t.text) {
            if let Some(right) = reading.lookalike_of {
                notes.push(
                    Diagnostic::new(
                        Code::Homoglyph,
                        t.span.clone(),
                        format!("`{}` is a look-alike of `{right}`", t.text),
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
            format!("a pawn cannot promote to `{}`", t.text),
        )))
    }

    fn render(&self, pos: &Chess, mv: &Move) -> String {
        render_move(pos, mv, &self.style)
    }

    /// The move written the way the original was (capture sign or not,
    /// long or short), for a fix that replaces it.
    fn render_like(&self, pos: &Chess, m: &WrittenMove<'_>, mv: &Move) -> String {
        let mut style = self.style;
        style.capture_sign = m.capture.as_ref().map(|c| capture_sign(c.text));
        if m.capture.is_none() && mv.is_capture() {
            style.capture_sign = Some("x");
        }
        style.long = matches!(m.origin, Some(Origin::Square(_))) && m.piece.is_some() || m.dash.is_some();
        style.castling_zeros = m.castling.as_ref().is_some_and(|c| c.text.contains('0'));
        style.promotion_equals = m.promotion_sign.is_some();
        let mut text = render_move(pos, mv, &style);
        // A written check mark becomes the one this move deserves.
        if m.check.is_some() {
            let mut after = pos.clone();
            after.play_unchecked(*mv);
            if after.is_checkmate() {
                text.push('#');
            } else if after.is_check() {
                text.push('+');
            }
        }
        if let Some(t) = &m.annotation {
            text.push_str(t.text);
        }
        text
    }

    /// The written move with the disambiguation FIDE 18.9 asks for among
    /// the candidates, everything else kept as written.
    fn rewrite_with_origin(&self, pos: &Chess, m: &WrittenMove<'_>, mv: &Move) -> String {
        let need = languages::disambiguation(pos, mv);
        let Some(from) = mv.from() else { return m.text(self.source).to_owned() };
        let mut origin = String::new();
        // The file when it decides or when nothing is needed at all (the
        // move is ambiguous only as written), the rank when it must.
        if need.file || !need.rank {
            origin.push(from.file().char());
        }
        if need.rank {
            origin.push(from.rank().char());
        }
        let (cut_start, cut_end) = match (&m.origin, &m.piece) {
            (Some(o), _) => (o.token().span.start, o.token().span.end),
            (None, Some(p)) => (p.span.end, p.span.end),
            (None, None) => (m.span.start, m.span.start),
        };
        let src = self.source;
        format!("{}{}{}", &src[m.span.start..cut_start], origin, &src[cut_end..m.span.end])
    }
}

/// The position after a null move (`--`, `Z0`): the other side to move,
/// no en-passant square, and the move number counted on as after a move.
fn null_move(pos: &Chess) -> Option<Chess> {
    let mode = pos.castles().mode();
    let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    if setup.turn == Color::Black {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    setup.swap_turn();
    Chess::from_setup(setup, mode).ok()
}

/// Legal moves that fit a target.
///
/// The list lives on the stack: this runs for every move of every game.
fn matching(pos: &Chess, target: &Target) -> MoveList {
    match *target {
        Target::Castle(side) => pos.castling_moves(side),
        Target::Normal { role, from_file, from_rank, to, promotion } => {
            let mut moves = pos.san_candidates(role, to);
            moves.retain(|mv| {
                let from = mv.from();
                from_file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
                    && from_rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
                    && promotion.is_none_or(|p| mv.promotion() == Some(p))
            });
            moves
        }
    }
}

/// The one move that matching moves stand for: the only one, or, when a
/// single pawn may promote to several pieces (the piece was not named), the
/// promotion to a queen. `None` when none or several pieces match.
fn single(found: &[Move]) -> Option<Move> {
    match found {
        [] => None,
        [only] => Some(*only),
        [first, ..] => {
            let one_pawn = found.iter().all(|mv| mv.from() == first.from() && mv.promotion().is_some());
            if one_pawn { found.iter().copied().find(|mv| mv.promotion() == Some(Role::Queen)) } else { None }
        }
    }
}

/// Says that a piece letter belongs to another notation than the game's.
fn mix_message(text: &str, its: Language, role: Role, game: Language, right: &str) -> String {
    let what = if its == Language::Figurine {
        format!("the figurine of the {}", role_name(role))
    } else {
        format!("the {} letter for the {}", its.name(), role_name(role))
    };
    let game_is =
        if game == Language::Figurine { "written in figurines".to_owned() } else { format!("in {}", game.name()) };
    format!("`{text}` is {what}, but this game is {game_is}: write {right}")
}

fn homoglyph(span: Span, ch: char, right: char, place: &str) -> Diagnostic {
    let script = if ('\u{0400}'..='\u{04FF}').contains(&ch) { "the Cyrillic letter" } else { "the letter" };
    Diagnostic::new(
        Code::Homoglyph,
        span.clone(),
        format!("`{ch}` {place} is {script} `{ch}`, a look-alike of `{right}`"),
    )
    .with_fix(Fix::replace(format!("Write {right}"), span, right.to_string()).preferred(true))
}

fn capture_sign(text: &str) -> &'static str {
    match text {
        "х" => "х",
        ":" => ":",
        _ => "x",
    }
}

/// The part of a move without its marks: what an ambiguity or an illegal
/// move is about.
fn core_span(m: &WrittenMove<'_>) -> Span {
    let end = [&m.check, &m.annotation].into_iter().flatten().map(|t| t.span.start).min().unwrap_or(m.span.end);
    m.span.start..end
}

fn item_start(item: &Item<'_>) -> usize {
    match item {
        Item::MoveNumber(t) | Item::NullMove(t) | Item::Nag(t) | Item::Glyph(t) | Item::DrawOffer(t) => t.span.start,
        Item::Move(m) => m.span.start,
        Item::Variation(l) => l.span.start,
        Item::PositionDescription(d) => d.span.start,
    }
}

fn item_end(item: &Item<'_>) -> usize {
    match item {
        Item::MoveNumber(t) | Item::NullMove(t) | Item::Nag(t) | Item::Glyph(t) | Item::DrawOffer(t) => t.span.end,
        Item::Move(m) => m.span.end,
        Item::Variation(l) => l.span.end,
        Item::PositionDescription(d) => d.span.end,
    }
}

fn strip_marks(text: &str) -> String {
    text.trim_end_matches(['+', '#', '!', '?', '‼', '⁇', '⁉', '⁈', '†', '‡']).to_owned()
}

/// Whether two texts differ by at most one inserted, deleted or replaced
/// character (a slip of the pen or of OCR).
fn within_one_edit(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let prefix = short.iter().zip(long.iter()).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        short[prefix + 1..] == long[prefix + 1..]
    } else {
        short[prefix..] == long[prefix + 1..]
    }
}

fn join_or(names: &[String], word: &str) -> String {
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} {word} {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit() {
        assert!(within_one_edit("Nf3", "Nf3"));
        assert!(within_one_edit("Nf4", "Nf3"));
        assert!(within_one_edit("Nxf3", "Nf3"));
        assert!(within_one_edit("f3", "Nf3"));
        assert!(!within_one_edit("Bc4", "Nf3"));
    }
}
