//! Replays a game move by move: reads each written move in the game's
//! language, finds the legal move it names, checks its marks, and recovers
//! from mistakes where the intended move can be determined.
//!
//! This file holds the replay itself (the language decision, the walk over
//! a line, the trace); `reading.rs` reads a written move, `recovery.rs`
//! decides what to do with one that does not name one legal move, and
//! `marks.rs` checks marks, numbers and the result.

mod beam;
pub(in crate::analysis) mod candidates;
mod ending;
mod marks;
mod reading;
mod recovery;
mod resync;

use marks::{check_result, strip_marks};
use reading::capture_sign;
pub(in crate::analysis) use reading::homoglyph;
pub(crate) use reading::lookalike_letter;
#[cfg(test)]
use recovery::within_one_edit;
use recovery::{join_or, matching};

use shakmaty::{CastlingSide, Chess, Color, FromSetup, Move, Position, Role, Square};

use super::diagnostic::{Code, Diagnostic, Fix, Related, Severity};
use super::explain::{self, Target, role_name};
use super::languages::{self, Language, LookalikeContext, MoveStyle, normalize_lookalike, render_move};
use super::laws::{Ending, MoveAt, Positions, Standing, Step};
use super::setup::{self, Rules};
use super::tags::{self, normalize_result};
use super::{GameReport, LanguageSource, Options, infer};
use crate::syntax::lexicon;
use crate::syntax::manuscript::{Repair, RepairKind};
use crate::syntax::{GameSyntax, Item, Line, Origin, PositionDescription, Span, SyntaxError, Token, WrittenMove};
use ending::step;

/// How many moves ahead a recovery looks to see which reading keeps the
/// game legal. Enough to tell candidates apart, bounded so that a damaged
/// game costs no more than a few replays of itself.
const LOOKAHEAD: usize = 40;

/// How many following moves must replay under a recovered reading before
/// it is taken, when the line has a later mistake of its own: a wrong guess
/// (a king step for a knight move) often survives a move or two.
const EVIDENCE: usize = 6;
/// How many undecided moves of a game are carried forward under each of
/// their readings (each costs a replay of the rest per reading).
const MAX_BEAMS: usize = 8;
/// How many readings of an undecided move are carried forward at most.
const MAX_READINGS: usize = 4;

pub fn analyze_game(game: &GameSyntax<'_>, source: &str, options: &Options) -> GameReport {
    replay_game(game, source, options, false).0
}

/// Analyses a game and records every move with the positions around it, in
/// one replay: what translation, hovers and the manuscript chain need.
pub fn analyze_traced(game: &GameSyntax<'_>, source: &str, options: &Options) -> (GameReport, Trace) {
    let (report, trace) = replay_game(game, source, options, true);
    (report, trace.unwrap_or_default())
}

/// The replay behind [`analyze_game`] and [`analyze_traced`]: with `traced`
/// it also records the trace (and so replays once more when the language
/// decision already replayed the game cleanly without one).
fn replay_game(game: &GameSyntax<'_>, source: &str, options: &Options, traced: bool) -> (GameReport, Option<Trace>) {
    let mut diagnostics: Vec<Diagnostic> = game.errors.iter().map(|e| syntax_error(source, e)).collect();
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
            return (report, None);
        }
    };
    let start = match setup::start_position(game, mode) {
        Ok(pos) => pos,
        Err(d) => {
            diagnostics.push(d);
            // `[FEN ""]`: the standard start, as with no tag.
            if let Some(pos) = setup::empty_fen_start(game) {
                pos
            } else {
                report.diagnostics = sorted(diagnostics);
                return (report, None);
            }
        }
    };

    let decision = decide_language(game, source, options, &start);
    report.language = decision.language;
    report.language_source = decision.source;
    diagnostics.extend(decision.notes);

    let mut trace = None;
    let ending;
    let end = match decision.clean_replay {
        // The replay that decided the language is the answer already.
        Some(replay) if !traced => {
            report.plies = replay.plies;
            diagnostics.extend(replay.diagnostics);
            resync::annotate(&mut diagnostics, replay.annotations);
            ending = replay.ending;
            replay.end
        }
        _ => {
            // The game replayed in a reading of its letters, traced if asked.
            let replay_in = |language: Language, transliterated: bool| {
                let mut r = Replayer::new(source, options, language, &game.errors);
                r.transliterated = transliterated;
                if traced {
                    r.trace = Some(Trace { language: Some(language), ..Trace::default() });
                }
                let end = r.replay_line(&game.mainline, start.clone(), true);
                (r, end)
            };
            let (mut replayer, mut end) = replay_in(decision.language, false);
            let illegal = |r: &Replayer<'_, '_>| r.diagnostics.iter().any(|d| d.code == Code::IllegalMove);
            // Every reading of the letters as written makes a move illegal:
            // a reading that takes some for look-alikes (a Latin `K` for the
            // Russian knight `К`) and replays the game without an error is
            // the one meant; or its letters are another alphabet's in Latin
            // transliteration (`Kf3 Kf6 ... Fe2 ... Sb5 ... Krd8`), read so
            // where the game then replays without an illegal move.
            if decision.source != LanguageSource::Chosen && illegal(&replayer) {
                let reading = lookalike_reading(game, source, options, &start).map(|l| (l, false)).or_else(|| {
                    transliterated_reading(game, source, options, &start, replayer.plies).map(|l| (l, true))
                });
                if let Some((language, transliterated)) = reading {
                    report.language = language;
                    report.language_source = LanguageSource::Replay;
                    (replayer, end) = replay_in(language, transliterated);
                    replayer.one_transliteration_note();
                }
            }
            report.plies = replayer.plies;
            ending = replayer.main_ending;
            diagnostics.append(&mut replayer.diagnostics);
            resync::annotate(&mut diagnostics, std::mem::take(&mut replayer.annotations));
            trace = replayer.trace.take().map(|mut t| {
                // The main line spans the whole game, so that a cursor after
                // its last move (or in an empty game) still finds it.
                if let Some(main) = t.lines.first_mut() {
                    main.span = game.span.clone();
                }
                t
            });
            end
        }
    };

    check_result(game, end.as_ref(), ending, &mut diagnostics);
    report.diagnostics = sorted(diagnostics);
    (report, trace)
}

/// A syntax error of the grammar as a finding; a character stuck to the
/// end of a move (`Lf1—`, `Qe3+3`: a dash, a digit, a dot or a quote
/// before a blank) gets its removal as the fix.
fn syntax_error(source: &str, e: &SyntaxError) -> Diagnostic {
    if let Some(d) = e.repair.as_ref().and_then(|r| super::manuscript::repair_diagnostic(source, source, r)) {
        return d;
    }
    let d = Diagnostic::new(Code::Syntax, e.span.clone(), e.message.clone());
    let text = source.get(e.span.clone()).unwrap_or_default();
    if crate::syntax::slips::stray_at_end(source, &e.span) {
        d.with_fix(Fix::replace(format!("Remove \"{text}\""), e.span.clone(), "").preferred(true))
    } else {
        d
    }
}

/// Where every move of a game leads, for hovers and completion.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub language: Option<Language>,
    /// The main line first, then each variation, as they were replayed.
    pub lines: Vec<TracedLine>,
    pub moves: Vec<TracedMove>,
    /// The main line stopped at its last written move, which reads as each
    /// of these moves with nothing after it to decide (an ambiguous `Nd2`
    /// at the end of a run of a manuscript): the games that go on from it
    /// try each.
    pub open_end: Vec<Move>,
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
    /// The written move is not this one: it was illegal or undecided, and
    /// this is the reading the replay went on with (a front end labels it
    /// a guess).
    pub guessed: bool,
    /// What the Laws of Chess say of the position after it, when there is
    /// something to say (a repetition, a long run without a capture or pawn
    /// move, an end by rule), for the hover.
    pub standing: Option<Box<Standing>>,
}

/// Replays a game and records every move with the positions around it.
pub fn trace_game(game: &GameSyntax<'_>, source: &str, options: &Options) -> Trace {
    analyze_traced(game, source, options).1
}

fn sorted(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.span.end.cmp(&b.span.end)));
    // Recovery marks fixes preferred after they were made: decide which
    // are certain once every fix is in.
    super::diagnostic::settle(&mut diagnostics);
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
    ending: Option<Ending>,
    annotations: Vec<resync::Annotation>,
}

fn decide_language(game: &GameSyntax<'_>, source: &str, options: &Options, start: &Chess) -> LanguageDecision {
    let decided = |language, source| LanguageDecision { language, source, notes: Vec::new(), clean_replay: None };
    if let Some(language) = options.language {
        return decided(language, LanguageSource::Chosen);
    }
    // Where the game's letters leave a choice, the document's language (a
    // manuscript's) is taken when it is one of it.
    let document = options.document_language;
    let letters = infer::letters(game);
    if letters.is_empty() {
        return decided(document.unwrap_or(Language::En), LanguageSource::Undecided);
    }
    if let Some(language) = infer::sole_reading(&letters) {
        let language = document.filter(|&d| infer::reads_alike(&letters, d, language)).unwrap_or(language);
        return decided(language, LanguageSource::Letters);
    }
    let readers = infer::readers(&letters);
    if readers.is_empty() {
        // No language reads every letter: the moves mix two languages. The
        // replay reads the foreign letters move by move and reports each.
        return decided(infer::best_partial(game), LanguageSource::Undecided);
    }
    let mut distinct = infer::distinct_readings(&readers);
    infer::prefer(&mut distinct, &readers, document);
    if distinct.len() == 1 {
        return decided(distinct[0].language, LanguageSource::Letters);
    }
    // Several languages read the letters differently (`R`: rook in English,
    // king in French, knight in Finnish): the one that replays best wins
    // (see `ReadingScore`).
    let mut replays: Vec<(Replayer<'_, '_>, &infer::Reader, Option<Chess>)> = distinct
        .iter()
        .map(|reader| {
            let mut r = Replayer::new(source, options, reader.language, &game.errors);
            r.mixing = false;
            r.deciding = true;
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
    // A stable sort keeps the order of `Language::ALL` among equals, and
    // the document's language goes first among them.
    scores.sort_by_key(|s| s.score);
    if let Some(k) = scores.iter().position(|s| Some(s.language) == document && s.score == scores[0].score) {
        scores[..=k].rotate_right(1);
    }
    let (best_score, best) = (scores[0].score, scores[0].language);
    let tied: Vec<&Replayed> = scores.iter().filter(|s| s.score == best_score).collect();
    if tied.len() == 1 {
        // Without errors and warnings, reading other languages' letters
        // (which the deciding replays leave off) changes nothing.
        let (r, _, end) = &mut replays[scores[0].index];
        // A replay that stopped at a token it could not read is done again:
        // the deciding replays do not go on past one (`resync.rs`).
        let clean_replay = (scores[0].score.anomalies == 0 && r.stopped.is_none()).then(|| CleanReplay {
            diagnostics: std::mem::take(&mut r.diagnostics),
            plies: r.plies,
            end: end.take(),
            ending: r.main_ending,
            annotations: std::mem::take(&mut r.annotations),
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
    let names: Vec<String> = tied.iter().map(|s| s.language.name().to_owned()).collect();
    let letter = letters[0];
    if pgn_english {
        return decided(Language::En, LanguageSource::Undecided);
    }
    if same_findings && !tied[0].findings.is_empty() {
        // The same findings at the same places: the choice changes nothing
        // that is reported.
        return decided(best, LanguageSource::Undecided);
    }
    if same_findings {
        // The moves are right in every reading, but they are not the same
        // moves (`2. Re2`: the French king or the Finnish knight): say which
        // reading is assumed, as a note (nothing is wrong).
        let mut d = Diagnostic::new(
            Code::LanguageMix,
            letter.span.clone(),
            format!(
                "the moves read as legal in {}, with other pieces moving; assuming {} (set the language to be sure)",
                join_or(&names, "and"),
                best.name()
            ),
        );
        d.severity = Severity::Info;
        let mut decision = decided(best, LanguageSource::Undecided);
        decision.notes.push(d);
        return decision;
    }
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

/// The first reading that takes some of the game's letters for look-alikes
/// of its own (and reads the others as written) under which the game
/// replays without an error.
fn lookalike_reading(game: &GameSyntax<'_>, source: &str, options: &Options, start: &Chess) -> Option<Language> {
    let letters = infer::letters(game);
    let exact = infer::readers(&letters);
    let tried = infer::distinct_readings(&exact);
    let all = infer::all_readers(&letters);
    let same = |a: &infer::Reader, b: &infer::Reader| a.readings.iter().zip(&b.readings).all(|(x, y)| x.role == y.role);
    // The letter of a moving piece must be the look-alike: a promotion's
    // (`e8=K`) is no sign of another alphabet.
    let mut pieces: Vec<&str> = Vec::new();
    each_piece(&game.mainline, &mut pieces);
    let on_pieces = |reader: &infer::Reader| {
        letters.iter().zip(&reader.readings).any(|(t, r)| r.lookalike_of.is_some() && pieces.contains(&t.text))
    };
    infer::distinct_readings(&all)
        .into_iter()
        .filter(|reader| reader.lookalikes > 0 && on_pieces(reader) && !tried.iter().any(|t| same(t, reader)))
        .find(|reader| {
            // (An error of the text, such as a capture written with its
            // files only, `dc`, is the same in every reading.)
            let r = Replayer::probe(source, options, reader.language, game, start, false);
            !r.diagnostics.iter().any(|d| d.severity == super::Severity::Error && d.code != Code::Syntax)
        })
        .map(|reader| reader.language)
}

/// The Cyrillic language whose letters, in a Latin transliteration (`F`
/// for `Ф`, `S` for `С`, `Kr` for `Кр`), read every letter of the game
/// (at least one as a transliteration) and under which it replays without
/// an illegal move and at least as far as read as written (`plies`).
fn transliterated_reading(
    game: &GameSyntax<'_>,
    source: &str,
    options: &Options,
    start: &Chess,
    plies: usize,
) -> Option<Language> {
    let letters = infer::letters(game);
    Language::ALL
        .into_iter()
        .filter(|language| language.is_cyrillic())
        .filter(|language| {
            letters.iter().any(|t| language.transliterated_letter(t.text).is_some())
                && letters
                    .iter()
                    .all(|t| language.read_letter(t.text).is_some() || language.transliterated_letter(t.text).is_some())
        })
        .find(|&language| {
            let r = Replayer::probe(source, options, language, game, start, true);
            r.plies >= plies && !r.diagnostics.iter().any(|d| d.code == Code::IllegalMove)
        })
}

/// The letters of the moving pieces of a line and its variations.
fn each_piece<'a>(line: &Line<'a>, out: &mut Vec<&'a str>) {
    for item in &line.items {
        match item {
            Item::Move(m) => out.extend(m.piece.as_ref().map(|t| t.text)),
            Item::Variation(v) => each_piece(v, out),
            _ => {}
        }
    }
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
    /// The starts of [`Replayer::syntax_errors`], sorted, each with whether
    /// the error was left unmended: looked up by a binary search, so that a
    /// game of many errors and many moves is not quadratic (a word of
    /// 60,000 bytes is 15,000 of each).
    error_starts: Vec<(usize, bool)>,
    /// Set when the latest move was illegal and read as a guessed one.
    guessed: bool,
    /// How many moves were guessed so.
    guesses: usize,
    /// Set when the latest move was read as one of several (an ambiguous
    /// move decided by the moves after it, an illegal one recovered): the
    /// trace labels its board a guess.
    read_as_guess: bool,
    /// The readings the latest move may have, when several fit the moves
    /// after it equally well (an ambiguous `Nd2` whose two knights both do,
    /// an illegal move with two likely readings): the replay goes on under
    /// each (see [`Replayer::beam`]).
    undecided: Vec<Move>,
    /// Whether the readings of [`Replayer::undecided`] surely include the
    /// intended move (an ambiguous move's do; an illegal move's may all be
    /// wrong): else what is found after it is no certain finding.
    undecided_firm: bool,
    /// The readings of an ambiguous move with no move after it to decide
    /// between them (the end of a line): kept for the trace's
    /// [`Trace::open_end`].
    end_readings: Vec<Move>,
    /// Whether an undecided move is carried forward under its readings;
    /// off in the replays that do that, so that the work stays linear.
    beam: bool,
    /// Set while deciding the language: the replays of each reading are
    /// compared, not reported, so an undecided move is carried forward only
    /// under readings that tie, and never checked after every legal move.
    deciding: bool,
    /// A fork that only tells whether later findings hold whatever was
    /// meant: an illegal move is reported without looking for what it
    /// stands for, and its line stops there.
    quick: bool,
    /// How many undecided moves were carried forward so: past
    /// [`MAX_BEAMS`], a line stops at one as before.
    beams: usize,
    /// Filled only when a front end asks where each move leads (hover,
    /// completion); the checker leaves it off.
    trace: Option<Trace>,
    /// Whether the game's letters are read as a Latin transliteration of
    /// its language's (`Kf3 ... Fe2 ... Sb5 ... Krd8` for `Кf3 ... Фe2 ...
    /// Сb5 ... Крd8`): every letter that is not the language's own is read
    /// so, with one note for the whole game.
    transliterated: bool,
    /// How deep in variations the replay is (0 on the line it was given).
    depth: usize,
    /// How many unreadable tokens the replay went on past (see
    /// [`Replayer::resync`]): bounded by [`resync::MAX_RESYNCS`].
    resyncs: usize,
    /// Notes on findings the replay does not own (a syntax error at a token
    /// it read past), applied when the game's findings are gathered.
    annotations: Vec<resync::Annotation>,
    /// The readings of the latest resync that tie (see `resync.rs`).
    resync_readings: Vec<Move>,
    /// Where the line the replay was given stopped at a move it could not
    /// play, if it did (a variation's stop is not the line's).
    stopped: Option<usize>,
    /// How the game writes its captures, from those so far: a fix that
    /// adds a capture writes it the game's way.
    capture_written: CaptureWriting,
    /// The positions of the line being replayed since its last capture or
    /// pawn move, as hashes: repetitions are counted in them.
    positions: Positions,
    /// How the line the replay was given ended by rule, if it did (not by
    /// checkmate or stalemate, which its last position shows).
    main_ending: Option<Ending>,
}

/// How a game writes its captures, from those seen so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum CaptureWriting {
    /// No capture seen yet: `x`.
    #[default]
    Unseen,
    /// With this sign (`x`, `:`, `х`); once one is seen it stays.
    Sign(&'static str),
    /// With no sign: long algebraic that keeps its dash (`Ra6-e6+`).
    Dash,
}

impl CaptureWriting {
    /// The sign a fix that adds a capture writes, none for a dash.
    fn sign(self) -> Option<&'static str> {
        match self {
            CaptureWriting::Unseen => Some("x"),
            CaptureWriting::Sign(sign) => Some(sign),
            CaptureWriting::Dash => None,
        }
    }
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
            error_starts: {
                let mut starts: Vec<(usize, bool)> =
                    syntax_errors.iter().map(|e| (e.span.start, e.repair.is_none())).collect();
                starts.sort_unstable();
                starts
            },
            mixing: true,
            diagnostics: Vec::new(),
            plies: 0,
            guessed: false,
            guesses: 0,
            read_as_guess: false,
            undecided: Vec::new(),
            undecided_firm: false,
            end_readings: Vec::new(),
            beam: true,
            deciding: false,
            quick: false,
            beams: 0,
            trace: None,
            transliterated: false,
            depth: 0,
            resyncs: 0,
            annotations: Vec::new(),
            resync_readings: Vec::new(),
            stopped: None,
            capture_written: CaptureWriting::Unseen,
            positions: Positions::default(),
            main_ending: None,
        }
    }

    /// A replay of the game's main line that only compares readings of its
    /// letters (no other language's letters, no beam after every move).
    fn probe(
        source: &'a str,
        options: &'o Options,
        language: Language,
        game: &'a GameSyntax<'_>,
        start: &Chess,
        transliterated: bool,
    ) -> Self {
        let mut r = Replayer::new(source, options, language, &game.errors);
        r.mixing = false;
        r.deciding = true;
        r.transliterated = transliterated;
        r.replay_line(&game.mainline, start.clone(), true);
        r
    }

    /// A transliterated game's letters are noted once, at the first.
    fn one_transliteration_note(&mut self) {
        let mut told = false;
        self.diagnostics.retain(|d| {
            let note = d.code == Code::LanguageMix && d.message.starts_with(reading::TRANSLITERATED);
            let keep = !(note && told);
            told |= note;
            keep
        });
    }

    /// Records that the line the replay was given stops at `m` (not a
    /// variation inside it).
    fn stop_at(&mut self, m: &WrittenMove<'_>) {
        if self.depth == 0 && self.stopped.is_none() {
            self.stopped = Some(m.span.start);
        }
    }

    /// Replays a line from `start`; returns the position at its end, or
    /// `None` when the line stopped at a move that could not be read.
    fn replay_line(&mut self, line: &Line<'_>, start: Chess, is_main: bool) -> Option<Chess> {
        self.replay_line_after(line, start, is_main, None)
    }

    /// As [`replay_line`](Self::replay_line), for a line that goes on from
    /// a move before it: `before_last` is the position before that move,
    /// where a variation right at the start of `line` branches.
    fn replay_line_after(
        &mut self,
        line: &Line<'_>,
        start: Chess,
        is_main: bool,
        before_last: Option<Chess>,
    ) -> Option<Chess> {
        let line_id = match &mut self.trace {
            Some(trace) => {
                trace.lines.push(TracedLine { span: line.span.clone(), start: start.clone() });
                trace.lines.len() - 1
            }
            None => 0,
        };
        self.replay_rest(line, start, is_main, before_last, line_id)
    }

    /// The items of `line` replayed from `start`, their moves traced as
    /// moves of the traced line `line_id`: a line's own, or, for the rest
    /// of a line after an undecided move (`beam`), the line it goes on.
    fn replay_rest(
        &mut self,
        line: &Line<'_>,
        start: Chess,
        is_main: bool,
        before_last: Option<Chess>,
        line_id: usize,
    ) -> Option<Chess> {
        let mut pos = Some(start.clone());
        // The position before the latest move, where a variation starts.
        let mut before_last: Option<Chess> = before_last;
        let mut prev_end: Option<usize> = None;
        // Whether text that could not be read (a syntax error, a letter
        // without a square) stands since the latest move: a move may have
        // been lost there, and a move that does not fit after it is no
        // mistake of its own.
        let mut broken = false;
        let items = &line.items;
        // The end the line came to by rule (not checkmate or stalemate,
        // which are looked for only when a move is written after them).
        let mut ended = self.note_position(&start, None);
        let mut i = 0;
        // The item where the replay last went on past a token it could not
        // read (see `resync.rs`), and whether that item is to be read again
        // (after a move that was lost before it).
        let mut resynced_at: Option<usize> = None;
        let mut again = false;
        // Where the latest written move ends: the text after it up to a
        // move that does not fit may hold a move that could not be read.
        let mut last_move_end: Option<usize> = None;
        while i < items.len() {
            if !self.syntax_errors.is_empty() {
                let from = prev_end.unwrap_or(line.span.start);
                let to = items[i].start();
                // A mended slip (`syntax::slips`) lost nothing.
                broken |= self.errors_starting_in(from, to).iter().any(|&(_, unmended)| unmended);
            }
            match &items[i] {
                Item::MoveNumber(t) => {
                    if let Some(p) = &pos {
                        let next_is_move = matches!(items.get(i + 1), Some(Item::Move(_)));
                        // After text that could not be read, a number that
                        // fits one move further tells that a move was lost
                        // there (`4. c3 Nf 6 5. d4`), which the move after
                        // it says (`resync.rs`).
                        let lost_one = broken && !resync::number_fits(t.text, p) && resync::fits_after_one(t.text, p);
                        if next_is_move && !lost_one {
                            self.check_move_number(t, p, prev_end);
                        } else if let Some(Item::MoveNumber(next)) = items.get(i + 1) {
                            self.check_doubled_number(t, next);
                        }
                    }
                }
                // The positions stay where they are (`pos` and
                // `before_last`), the move played on `pos` in place: a
                // position is 136 bytes, and moving it from one to the
                // other through a copy of its own cost four copies a move.
                Item::Move(m) if pos.is_some() && ended.is_some() => {
                    if let Some(ending) = ended {
                        self.game_over(m, &items[i + 1..], is_main, ending);
                    }
                    self.stop_at(m);
                    break;
                }
                Item::Move(m) => match &pos {
                    None => before_last = None,
                    // `16.b4 N h6`: Informant's novelty sign, or a knight's
                    // letter broken from its move; the position tells.
                    Some(p) if let Some(joined) = self.knight_broken_off(p, &items[..i], m) => {
                        let mv = self.play(p, &joined, &items[i + 1..]);
                        let mut next = p.clone();
                        if let Some(mv) = mv {
                            next.play_unchecked(mv);
                            self.check_after(p, &next, &joined, mv);
                            self.played(&joined, line_id, p, mv, &next, false);
                            ended = self.note_position(&next, Some(step(p, &joined, mv)));
                        }
                        before_last = pos.take();
                        pos = mv.map(|_| next);
                        broken = false;
                    }
                    Some(p) if broken && !self.fits(p, m) => {
                        if self.over_without_moves(p, m, &items[i + 1..], is_main) {
                            break;
                        }
                        // The finding it belongs to is the text that could
                        // not be read before it.
                        let note_span = last_move_end.unwrap_or(line.span.start)..m.span.end;
                        let resumed = (resynced_at != Some(i))
                            .then(|| self.go_on(p, m, &items[i + 1..], (is_main, line_id), (note_span, last_move_end)))
                            .flatten();
                        resynced_at = Some(i);
                        match resumed {
                            Some(resync::Resumed::Beam) => {
                                let rest = Line { span: items[i].end()..line.span.end, items: items[i + 1..].to_vec() };
                                return self.beam(p, m, &rest, is_main, line_id);
                            }
                            Some(resumed) => {
                                again = resume(resumed, &mut pos, &mut before_last, &mut ended);
                                broken = false;
                            }
                            None => {
                                self.lost_before(&items[i..], is_main, m);
                                self.stop_at(m);
                                before_last = pos.take();
                            }
                        }
                    }
                    // A move the grammar could not read whole: its syntax
                    // error says what is wrong; an illegal-move report
                    // about its remains would only confuse.
                    Some(p) if self.damaged(m) && !self.fits(p, m) => {
                        if self.over_without_moves(p, m, &items[i + 1..], is_main) {
                            break;
                        }
                        let resumed = (resynced_at != Some(i))
                            .then(|| {
                                self.go_on(p, m, &items[i + 1..], (is_main, line_id), (m.span.clone(), last_move_end))
                            })
                            .flatten();
                        resynced_at = Some(i);
                        match resumed {
                            Some(resync::Resumed::Beam) => {
                                let rest = Line { span: items[i].end()..line.span.end, items: items[i + 1..].to_vec() };
                                return self.beam(p, m, &rest, is_main, line_id);
                            }
                            Some(resumed) => {
                                again = resume(resumed, &mut pos, &mut before_last, &mut ended);
                                broken = false;
                            }
                            None => {
                                self.unchecked(&items[i + 1..], is_main, m.text(self.source));
                                self.stop_at(m);
                                before_last = pos.take();
                            }
                        }
                    }
                    Some(p) => match self.play(p, m, &items[i + 1..]).or_else(|| self.fork_guess()) {
                        // No legal move where one is written: the game was
                        // over by checkmate or stalemate, whatever the
                        // reading of the move found.
                        None if self.over_without_moves(p, m, &items[i + 1..], is_main) => break,
                        None if self.beam
                            && self.beams < MAX_BEAMS
                            && self.undecided.len() > usize::from(self.deciding) =>
                        {
                            let rest = Line { span: items[i].end()..line.span.end, items: items[i + 1..].to_vec() };
                            return self.beam(p, m, &rest, is_main, line_id);
                        }
                        Some(mv) => {
                            let guessed = std::mem::take(&mut self.read_as_guess);
                            before_last.clone_from(&pos);
                            if let Some(next) = &mut pos {
                                next.play_unchecked(mv);
                            }
                            let (Some(p), Some(next)) = (&before_last, &pos) else {
                                unreachable!("both positions were just set")
                            };
                            // The marks of a move that had to be guessed
                            // belong to the move the writer had in mind;
                            // its fix writes them right.
                            if !std::mem::take(&mut self.guessed) {
                                self.check_after(p, next, m, mv);
                            }
                            self.played(m, line_id, p, mv, next, guessed);
                            ended = self.note_position(next, Some(step(p, m, mv)));
                            broken = false;
                        }
                        None => {
                            // Taken here whatever the line: readings kept
                            // at a variation's end are no main line's.
                            let end_readings = std::mem::take(&mut self.end_readings);
                            if is_main
                                && !items[i + 1..].iter().any(|item| matches!(item, Item::Move(_)))
                                && let Some(trace) = &mut self.trace
                            {
                                trace.open_end = end_readings;
                            }
                            self.undecided.clear();
                            let resumed = (resynced_at != Some(i))
                                .then(|| {
                                    self.go_on(
                                        p,
                                        m,
                                        &items[i + 1..],
                                        (is_main, line_id),
                                        (m.span.clone(), last_move_end),
                                    )
                                })
                                .flatten();
                            resynced_at = Some(i);
                            match resumed {
                                Some(resync::Resumed::Beam) => {
                                    let rest =
                                        Line { span: items[i].end()..line.span.end, items: items[i + 1..].to_vec() };
                                    return self.beam(p, m, &rest, is_main, line_id);
                                }
                                Some(resumed) => {
                                    again = resume(resumed, &mut pos, &mut before_last, &mut ended);
                                    broken = false;
                                }
                                None => {
                                    self.unchecked(&items[i + 1..], is_main, m.text(self.source));
                                    self.stop_at(m);
                                    before_last = pos.take();
                                }
                            }
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
                            if let Some(next) = &pos {
                                ended = self.note_position(next, None);
                            }
                            before_last = Some(p);
                        }
                    }
                }
                Item::Variation(v) => {
                    self.depth += 1;
                    // The variation replaces the latest move: its
                    // repetitions count the positions before that move.
                    let positions = self.positions.clone();
                    if let Some(base) = &before_last {
                        self.positions.pop();
                        self.replay_line(v, base.clone(), false);
                    } else if pos.is_some() && before_last.is_none() {
                        // A variation before any move replaces nothing;
                        // read it from the start of its line.
                        self.replay_line(v, start.clone(), false);
                    }
                    self.positions = positions;
                    self.depth -= 1;
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
                    match setup::start_from_descriptions(
                        &descriptions,
                        self.language,
                        Some(self.source),
                        next_number,
                        &mut self.diagnostics,
                    ) {
                        Ok(p) => {
                            // A new position: nothing before it repeats.
                            self.positions = Positions::default();
                            ended = self.note_position(&p, None);
                            pos = Some(p);
                        }
                        Err(d) => {
                            self.diagnostics.push(d);
                            pos = None;
                        }
                    }
                }
                Item::Glyph(t) => broken |= self.check_glyph(t),
                Item::Nag(t) => self.check_nag(t),
                Item::DrawOffer(_) => {}
            }
            if std::mem::take(&mut again) {
                continue;
            }
            if let Item::Move(m) = &items[i] {
                last_move_end = Some(m.span.end);
            }
            prev_end = Some(items[i].end());
            i += 1;
        }
        if self.depth == 0 {
            self.main_ending = ended;
        }
        pos
    }

    /// `16.b4 N h6`, `N` at the end of a line and `h6` on the next: the
    /// glyph `N` (Informant's novelty sign) before a move without a
    /// letter that does not fit, where a knight's move does: that move,
    /// reported as broken by a blank with its fix.
    fn knight_broken_off<'s>(
        &mut self,
        pos: &Chess,
        before: &[Item<'s>],
        m: &WrittenMove<'s>,
    ) -> Option<WrittenMove<'s>> {
        let Some(Item::Glyph(n)) = before.last() else { return None };
        if n.text != "N" || m.piece.is_some() || m.castling.is_some() || m.destination.is_none() {
            return None;
        }
        let gap = self.source.get(n.span.end..m.span.start)?;
        let one_line = gap.matches('\n').count() <= 1 && gap.chars().all(char::is_whitespace);
        // `N a6-c7` fits as written too (a coordinate move moves what
        // stands on its first square), and is the same knight's move.
        let coordinates = matches!(m.origin, Some(Origin::Square(_)));
        if gap.is_empty() || gap.len() > 6 || !one_line || (!coordinates && self.fits(pos, m)) {
            return None;
        }
        let joined = WrittenMove { span: n.span.start..m.span.end, piece: Some(n.clone()), ..m.clone() };
        if self.language.role_of(n.text) != Some(Role::Knight) || !self.fits(pos, &joined) {
            return None;
        }
        // Reported as the run scanner's join of the same two parts is.
        let joined_text: String = joined.text(self.source).split_whitespace().collect();
        let repair = Repair {
            span: joined.span.clone(),
            kind: RepairKind::SpaceInMove {
                letter_len: n.text.len(),
                joined: joined_text,
                glued: crate::syntax::manuscript::glued_after(self.source, joined.span.end),
            },
        };
        self.diagnostics.extend(super::manuscript::repair_diagnostic(self.source, self.source, &repair));
        Some(joined)
    }

    /// Counts a played move and, when a trace is kept, records it with
    /// the positions around it.
    fn played(&mut self, m: &WrittenMove<'_>, line: usize, before: &Chess, played: Move, after: &Chess, guessed: bool) {
        self.plies += 1;
        if let Some(trace) = &mut self.trace {
            let (before, after) = (before.clone(), after.clone());
            trace.moves.push(TracedMove { span: m.span.clone(), line, before, played, after, guessed, standing: None });
        }
    }

    /// Whether a syntax error stands inside the move (or right at its end,
    /// where a missing part would be).
    fn damaged(&self, m: &WrittenMove<'_>) -> bool {
        // A mended slip counts too: when the move it was read as does not
        // fit either, nothing can be said of it.
        !self.errors_starting_in(m.span.start, m.span.end + 1).is_empty()
    }

    /// The syntax errors that start in `from..to`, as their starts.
    fn errors_starting_in(&self, from: usize, to: usize) -> &[(usize, bool)] {
        let first = self.error_starts.partition_point(|&(start, _)| start < from);
        let end = first + self.error_starts[first..].partition_point(|&(start, _)| start < to);
        &self.error_starts[first..end]
    }

    /// Whether a legal move fits the written one as the game's language
    /// reads it, without reporting anything.
    fn fits(&self, pos: &Chess, m: &WrittenMove<'_>) -> bool {
        let Ok(reading) = self.read_at(pos, m) else { return false };
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

    /// In a fork of the beam (which carries no undecided move forward of
    /// its own), an undecided move is read as its likeliest reading and the
    /// line goes on, so that the forks are compared on the whole rest.
    fn fork_guess(&mut self) -> Option<Move> {
        if self.beam {
            return None;
        }
        let mv = *self.undecided.first()?;
        self.undecided.clear();
        self.guessed = true;
        self.read_as_guess = true;
        self.guesses += 1;
        Some(mv)
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

    /// Finds the legal move a written move names; reports and, where it can
    /// be determined, recovers from an illegal or ambiguous move.
    fn play(&mut self, pos: &Chess, m: &WrittenMove<'_>, rest: &[Item<'_>]) -> Option<Move> {
        let reading = match self.read_at(pos, m) {
            Ok(r) => r,
            Err(d) => {
                self.diagnostics.push(*d);
                return None;
            }
        };
        let mut notes = reading.notes;
        if let Some((target @ Target::Capture { .. }, _)) = &reading.primary {
            self.diagnostics.append(&mut notes);
            return self.incomplete(pos, m, target, rest);
        }
        if let Some((target, note)) = &reading.primary {
            let found = matching(pos, target);
            if !found.is_empty() {
                notes.extend(note.iter().cloned());
                self.diagnostics.append(&mut notes);
                return self.resolve(pos, m, target, &found, rest);
            }
        }
        // Only a move that does not fit pays for other languages' readings.
        let foreign = match (&m.piece, reading.foreign) {
            (Some(letter), Some(parts)) if self.mixing => {
                let exclude = reading.primary.as_ref().and_then(|(t, _)| match t {
                    Target::Normal { role, .. } => Some(*role),
                    Target::Castle(_) | Target::Capture { .. } => None,
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
                return self.resolve(pos, m, target, &found, rest);
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
}

/// Sets the replay's positions after going on past an unreadable token;
/// returns whether the token is to be read again (after a lost move).
fn resume(
    resumed: resync::Resumed,
    pos: &mut Option<Chess>,
    before_last: &mut Option<Chess>,
    ended: &mut Option<Ending>,
) -> bool {
    match resumed {
        resync::Resumed::Played { before, after, ended: e } => {
            *before_last = Some(before);
            *pos = Some(after);
            *ended = e;
            false
        }
        resync::Resumed::Noise | resync::Resumed::Beam => false,
        resync::Resumed::Lost { before, after, ended: e } => {
            *before_last = Some(before);
            *pos = Some(after);
            *ended = e;
            true
        }
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

/// The part of a move without its marks: what an ambiguity or an illegal
/// move is about.
fn core_span(m: &WrittenMove<'_>) -> Span {
    let end = [&m.check, &m.annotation].into_iter().flatten().map(|t| t.span.start).min().unwrap_or(m.span.end);
    m.span.start..end
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
