//! A game from its start: the start given to the replay (a FEN tag added
//! to the lowered game, the language it is read in), the choice among the
//! candidate starts, the record it leaves for the games after it, and the
//! report of a game whose start is unknown; the diagnostics of scanning
//! damage, mapped to the manuscript.

use super::*;
use crate::analysis::analyze_traced;

/// Where a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartKind {
    /// Its own tags or position description.
    Written,
    /// The initial position.
    Initial,
    /// A position set up in the manuscript before it.
    Position,
    /// The end of an earlier game.
    Continues,
    /// A position inside an earlier game.
    Variation,
    /// No known position.
    Unknown,
}

/// A game's start, as the replay is given it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub kind: StartKind,
    /// The FEN the game starts from, when not its own or the initial one.
    pub fen: Option<String>,
    /// Where an invalid FEN is reported (relative to the game's text): the
    /// manuscript's FEN, or the game's start for one made here.
    pub fen_span: Span,
    /// The language it is read in (a continuation's game's), when not the
    /// user's choice or inferred.
    pub language: Option<Language>,
    /// It continues or branches off a variation.
    pub on_variation: bool,
    /// It branches off inside a line of the text before the latest one: a
    /// place the prose may not have meant.
    pub inside_variation: bool,
    /// For an unknown start, why.
    pub note: Option<String>,
    /// The letters of the game it goes on from, up to here.
    pub before: Letters,
    /// It goes on after a move the text left out, at this ply of the game
    /// it goes on from (its FEN is after a guess of that move).
    pub lost: Option<u32>,
    /// The document's language, for a game read without `language` whose
    /// own letters it reads ([`Head::may_read_in`]): where they leave a
    /// choice, the game is read in it (`Options::document_language`).
    pub document_language: Option<Language>,
}

impl Start {
    pub(super) fn plain(kind: StartKind) -> Start {
        Start {
            kind,
            fen: None,
            fen_span: 0..0,
            language: None,
            on_variation: false,
            inside_variation: false,
            note: None,
            before: Letters::default(),
            lost: None,
            document_language: None,
        }
    }
}

/// `5.` after `4. d2-d3`: the note that a move was left out before a game
/// read on after a guess of it.
fn lost_move(start: &Start, first_span: Span) -> Option<Diagnostic> {
    let ply = start.lost?;
    let side = if ply % 2 == 0 { "White's" } else { "Black's" };
    let number = ply / 2 + 1;
    Some(Diagnostic::new(
        Code::MoveNumber,
        first_span,
        format!(
            "{side} move {number} is missing: the moves above stop before it and these go on after it; they are read on after a move there that lets them replay (a guess)"
        ),
    ))
}

/// A FEN from the manuscript, completed for the game after it: a board
/// alone gets the side to move from the game's first number, and a move
/// counter left at 1 gets that number (books copy diagrams from games).
pub(super) fn fen_for(text: &str, first_ply: Option<u32>) -> String {
    let mut fields: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
    let Some(ply) = first_ply else { return fields.join(" ") };
    let side = if ply % 2 == 0 { "w" } else { "b" };
    let number = (ply / 2 + 1).to_string();
    let defaults = [side, "-", "-", "0"];
    while fields.len() < 5 {
        fields.push(defaults[fields.len() - 1].to_owned());
    }
    if fields.len() == 5 {
        fields.push(number);
    } else if fields[5] == "1" {
        fields[5] = number;
    }
    fields.join(" ")
}

/// The game with its start's FEN as a tag.
pub(super) fn with_start<'c>(game: &GameSyntax<'c>, fen: &'c str, span: Span) -> GameSyntax<'c> {
    let mut game = game.clone();
    let token = Token { text: fen, span: span.clone() };
    game.tags.insert(0, Tag { span: span.clone(), name: Token { text: "FEN", span }, value: Some(token) });
    game
}

pub(super) fn options_for<'o>(options: &'o Options, start: &Start) -> Cow<'o, Options> {
    match (start.language, start.document_language) {
        (None, None) => Cow::Borrowed(options),
        _ if options.language.is_some() => Cow::Borrowed(options),
        (Some(language), _) => Cow::Owned(Options { language: Some(language), ..options.clone() }),
        (None, document) => Cow::Owned(Options { document_language: document, ..options.clone() }),
    }
}

/// A game with its start applied, as the replay must see it: the start's
/// FEN as a tag, and the options with the language it is read in. `None`
/// for an unknown start (nothing to replay).
pub fn prepared<'c>(game: GameSyntax<'c>, start: &'c Start, options: &Options) -> Option<(GameSyntax<'c>, Options)> {
    if start.kind == StartKind::Unknown {
        return None;
    }
    let options = options_for(options, start).into_owned();
    let game = match &start.fen {
        Some(fen) => with_start(&game, fen, start.fen_span.clone()),
        None => game,
    };
    Some((game, options))
}

/// Analyses a game from its start.
pub fn analyze(game: &GameSyntax<'_>, source: &str, options: &Options, start: &Start) -> GameReport {
    let options = options_for(options, start);
    let mut report = match (&start.kind, &start.fen) {
        (StartKind::Unknown, _) => unknown(game, &options, start),
        (_, Some(fen)) => {
            crate::analysis::analyze_game(&with_start(game, fen, start.fen_span.clone()), source, &options)
        }
        (_, None) => crate::analysis::analyze_game(game, source, &options),
    };
    add_lost_move(&mut report, game, start);
    report
}

fn add_lost_move(report: &mut GameReport, game: &GameSyntax<'_>, start: &Start) {
    // (The head is walked only for such a start: this runs for every game.)
    if start.lost.is_some()
        && let Some(d) = lost_move(start, Head::of(game).first_span)
    {
        let at = report.diagnostics.partition_point(|o| o.span.start <= d.span.start);
        report.diagnostics.insert(at, d);
    }
}

/// Analyses a game from its start and records every move, in one replay
/// (the report, and the trace the record for the games after it needs).
pub fn replayed(game: &GameSyntax<'_>, source: &str, options: &Options, start: &Start) -> (GameReport, Trace) {
    let options = options_for(options, start);
    let (mut report, trace) = match (&start.kind, &start.fen) {
        (StartKind::Unknown, _) => (unknown(game, &options, start), Trace::default()),
        (_, Some(fen)) => analyze_traced(&with_start(game, fen, start.fen_span.clone()), source, &options),
        (_, None) => analyze_traced(game, source, &options),
    };
    // A run that reads legally in several languages is settled by the
    // chain (its record keeps every reading, the runs after it choose): the
    // note a game on its own gets about the reading assumed is not for it.
    report.diagnostics.retain(|d| !(d.code == Code::LanguageMix && d.severity == Severity::Info));
    add_lost_move(&mut report, game, start);
    (report, trace)
}

/// Replays a game from its start, recording every move (for hovers,
/// completion and the games after it).
pub fn trace(game: &GameSyntax<'_>, source: &str, options: &Options, start: &Start) -> Trace {
    let options = options_for(options, start);
    match (&start.kind, &start.fen) {
        (StartKind::Unknown, _) => Trace::default(),
        (_, Some(fen)) => trace_game(&with_start(game, fen, start.fen_span.clone()), source, &options),
        (_, None) => trace_game(game, source, &options),
    }
}

/// Why a run of prose that branches off inside a variation was not replayed.
const UNPLACED_NOTE: &str = "these moves were not replayed: their first move fits no place in the lines above where \
                             they may branch off (a move before them may be written in words); only their syntax and \
                             numbering were checked";

/// Errors, moves replayed (more is better) and warnings: how a start that
/// has errors is weighed against the others.
type FewestFindings = (usize, std::cmp::Reverse<usize>, usize);

/// Analyses a game under each candidate start until one replays without an
/// error; returns the start taken (its index), the report and the trace.
pub fn choose(
    game: &GameSyntax<'_>,
    source: &str,
    options: &Options,
    candidates: &[Start],
) -> (usize, GameReport, Trace) {
    // The first start the game replays from without a finding; else the
    // first without an error (a warning such as a missing check mark is
    // the same from every start, one such as a letter of another language
    // is not); else the one with the fewest errors, then the most moves
    // replayed (a start that stops at once says nothing), then the fewest
    // warnings (a continuation read in the language of its own letters
    // rather than one that takes them for pawn letters), the first of
    // equals.
    let mut first: Option<(FewestFindings, usize, GameReport, Trace)> = None;
    let mut no_error: Option<(usize, GameReport, Trace)> = None;
    // A game at move 1 whose first move fails from the initial position
    // starts from a position the text does not give (`Plan::MoveOne`).
    let first_written = game.mainline.items.iter().find_map(|item| match item {
        Item::Move(m) => Some(m),
        _ => None,
    });
    let first_move = first_written.map(|m| m.span.clone());
    // Its destination, when it is long algebraic (`2. Сc1-c4`): a reading
    // of it that goes to that square from another origin places the game
    // (the origin is what is wrong, as in `2. Сc1-c4` for Сf1-c4).
    let long_destination = first_written
        .filter(|m| matches!(m.origin, Some(crate::syntax::Origin::Square(_))) && m.piece.is_some())
        .and_then(|m| m.destination.as_ref())
        .and_then(|d| d.text.parse::<shakmaty::Square>().ok());
    let mut fails_at_once = false;
    // A run of prose that could only branch off inside lines of the text
    // before the latest one, and whose very first move fits none of them,
    // starts from a position the text does not give (`tricks like Sxe4; on
    // 8.Sxe4 comes Lxg5`: the move before it is written in words): it is
    // not replayed rather than reported illegal.
    let mut first_move_fails = true;
    for (k, start) in candidates.iter().enumerate() {
        if start.kind == StartKind::Unknown && k > 0 && candidates[0].kind == StartKind::Initial {
            if fails_at_once {
                let (report, trace) = replayed(game, source, options, start);
                return (k, report, trace);
            }
            continue;
        }
        let (report, trace) = replayed(game, source, options, start);
        let origin_only = long_destination.is_some_and(|to| {
            trace.moves.first().is_some_and(|t| {
                first_move.as_ref().is_some_and(|m| t.span == *m)
                    && t.played.to() == to
                    && t.played.role() != shakmaty::Role::Pawn
            })
        });
        let first_fails = !origin_only
            && first_move.as_ref().is_some_and(|m| {
                report.diagnostics.iter().any(|d| d.severity == Severity::Error && m.contains(&d.span.start))
            });
        first_move_fails &= start.inside_variation && first_fails;
        if start.kind == StartKind::Initial && k == 0 {
            fails_at_once = first_fails;
        }
        // `Severity` orders the worst first.
        let worst = report.diagnostics.iter().map(|d| d.severity).min();
        let clean = !matches!(worst, Some(Severity::Error | Severity::Warning));
        // A move left out is guessed only where no start replays the game
        // without an error and it then replays without one.
        if start.lost.is_some() {
            if no_error.is_none() && worst != Some(Severity::Error) {
                return (k, report, trace);
            }
            continue;
        }
        if clean || (candidates.len() == 1 && !first_move_fails) {
            return (k, report, trace);
        }
        if worst != Some(Severity::Error) {
            no_error.get_or_insert((k, report, trace));
        } else {
            let count = |severity| report.diagnostics.iter().filter(|d| d.severity == severity).count();
            let findings = (count(Severity::Error), std::cmp::Reverse(report.plies), count(Severity::Warning));
            if first.as_ref().is_none_or(|(best, ..)| findings < *best) {
                first = Some((findings, k, report, trace));
            }
        }
    }
    if let Some(found) = no_error {
        return found;
    }
    if first_move_fails && !candidates.is_empty() {
        let start = Start { note: Some(UNPLACED_NOTE.to_owned()), ..Start::plain(StartKind::Unknown) };
        let (report, trace) = replayed(game, source, options, &start);
        return (0, report, trace);
    }
    match first {
        Some((_, k, report, trace)) => (k, report, trace),
        None => {
            let (report, trace) = replayed(game, source, options, &Start::plain(StartKind::Unknown));
            (0, report, trace)
        }
    }
}

/// The record a replayed game leaves for the games after it.
pub fn record(
    game: &GameSyntax<'_>,
    source: &str,
    options: &Options,
    start: &Start,
    report: &GameReport,
    trace: &Trace,
    head: &Head,
) -> Option<Arc<LineRecord>> {
    if start.kind == StartKind::Unknown {
        return None;
    }
    let main: Vec<_> = trace.moves.iter().filter(|m| m.line == 0).collect();
    let first = main.first()?;
    let mut positions = Vec::with_capacity(main.len() + 1);
    positions.push(first.before.clone());
    positions.extend(main.iter().map(|m| m.after.clone()));
    let first_ply = ply_of(&first.before);
    let undecided =
        report.language_source == LanguageSource::Undecided && options.language.is_none() && start.language.is_none();
    let record = |language, positions: Vec<Chess>, main_len: usize, alternatives: Vec<Arc<LineRecord>>| LineRecord {
        language,
        letters: start.before.plus(&head.own_letters()),
        first_ply,
        complete: main_len as u32 == head.main_moves,
        written_end: head.first_ply.unwrap_or(first_ply) + head.main_moves,
        positions,
        variation: start.on_variation,
        fresh: matches!(start.kind, StartKind::Written | StartKind::Initial | StartKind::Position),
        // The record with alternatives, or one of them (no alternatives, a
        // language, undecided by the game itself).
        one_of_readings: !alternatives.is_empty() || language.is_some() && undecided,
        alternatives,
    };
    let alternatives = if undecided && report.diagnostics.iter().all(|d| d.severity != Severity::Error) {
        other_readings(game, source, options, start, report.language, &positions)
            .into_iter()
            .map(|(language, positions, len)| Arc::new(record(Some(language), positions, len, Vec::new())))
            .collect()
    } else if !trace.open_end.is_empty() && main.len() as u32 + 1 == head.main_moves {
        // Its last move reads several ways with nothing after it to decide
        // (`3. Nd2` with both knights able to go there, then prose): the
        // games that go on from it try each reading, the one they replay
        // after decides (and the ambiguity stays reported).
        let end = positions.last().cloned().unwrap_or_default();
        trace
            .open_end
            .iter()
            .map(|&mv| {
                let mut after = end.clone();
                after.play_unchecked(mv);
                let mut line = positions.clone();
                line.push(after);
                Arc::new(LineRecord {
                    one_of_readings: true,
                    ..record(Some(report.language), line, main.len() + 1, Vec::new())
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    // Undecided, the record has no language, unless it is one reading of
    // several: then it is the one it was replayed in.
    let language = if !undecided || !alternatives.is_empty() { Some(report.language) } else { None };
    let main_len = main.len();
    Some(Arc::new(record(language, positions, main_len, alternatives)))
}

/// The readings of a game's letters in other languages than `chosen` that
/// replay its main line as far without an error and end elsewhere: each
/// language with the positions of its main line and its length.
pub(super) fn other_readings(
    game: &GameSyntax<'_>,
    source: &str,
    options: &Options,
    start: &Start,
    chosen: Language,
    positions: &[Chess],
) -> Vec<(Language, Vec<Chess>, usize)> {
    let letters = crate::analysis::infer::letters(game);
    if letters.is_empty() {
        return Vec::new();
    }
    let readers = crate::analysis::infer::readers(&letters);
    let mut distinct = crate::analysis::infer::distinct_readings(&readers);
    // The reading chosen stands for the readers that read the letters as it
    // does (the document's language may have been taken among them).
    crate::analysis::infer::prefer(&mut distinct, &readers, Some(chosen));
    let mut out: Vec<(Language, Vec<Chess>, usize)> = Vec::new();
    for reader in distinct {
        if reader.language == chosen {
            continue;
        }
        let options = Options { language: Some(reader.language), ..*options };
        let report = analyze(game, source, &options, start);
        if report.diagnostics.iter().any(|d| d.severity == Severity::Error) {
            continue;
        }
        let trace = trace(game, source, &options, start);
        let main: Vec<_> = trace.moves.iter().filter(|m| m.line == 0).collect();
        let Some(first) = main.first() else { continue };
        let mut alt = Vec::with_capacity(main.len() + 1);
        alt.push(first.before.clone());
        alt.extend(main.iter().map(|m| m.after.clone()));
        let elsewhere = alt.len() != positions.len() || alt.last() != positions.last();
        let known = out.iter().any(|(_, p, _)| p.last() == alt.last());
        if elsewhere && !known {
            out.push((reader.language, alt, main.len()));
        }
    }
    out
}

/// The report of a game with no known start: syntax errors, move numbers
/// that do not follow each other, look-alike letters in squares and, in a
/// text of a language with letters of its own, piece letters that are
/// look-alikes of that language's (`Kg8-f6` in a Russian book: the Latin
/// `K` for `К`), and one `unchecked` info.
pub(super) fn unknown(game: &GameSyntax<'_>, options: &Options, start: &Start) -> GameReport {
    let language = options.language.or(options.document_language).filter(|l| l.is_cyrillic());
    let mut diagnostics: Vec<Diagnostic> =
        game.errors.iter().map(|e| Diagnostic::new(Code::Syntax, e.span.clone(), e.message.clone())).collect();
    let head = Head::of(game);
    let mut expected: Option<u32> = None;
    let items = &game.mainline.items;
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::MoveNumber(t) if matches!(items.get(i + 1), Some(Item::Move(_))) => {
                let Some(ply) = ply_of_number(t.text) else { continue };
                if let Some(e) = expected
                    && e != ply
                {
                    let right = number_of(e);
                    let side = if e % 2 == 0 { "White" } else { "Black" };
                    diagnostics.push(
                        Diagnostic::new(
                            Code::MoveNumber,
                            t.span.clone(),
                            format!(
                                "the move number {} does not follow the moves before it: this is {side}'s move {}",
                                t.text,
                                e / 2 + 1
                            ),
                        )
                        .with_fix(Fix::replace(format!("Write {right}"), t.span.clone(), right).preferred(true)),
                    );
                }
                expected = Some(expected.unwrap_or(ply));
            }
            Item::Move(m) => {
                expected = expected.map(|e| e + 1);
                if let Some(language) = language
                    && let Some(letter) = &m.piece
                    && let Some(reading) = language.read_letter(letter.text)
                    && let Some(right) = reading.lookalike_of
                {
                    diagnostics.push(crate::analysis::replay::lookalike_letter(letter, language, right, reading.role));
                }
                let squares = [m.origin.as_ref().map(|o| o.token()), m.destination.as_ref()];
                for token in squares.into_iter().flatten() {
                    for (k, c) in token.text.char_indices() {
                        let context = if k == 0 { LookalikeContext::File } else { LookalikeContext::Rank };
                        if let Some(right) = normalize_lookalike(c, context) {
                            let span = token.span.start + k..token.span.start + k + c.len_utf8();
                            diagnostics.push(
                                Diagnostic::new(
                                    Code::Homoglyph,
                                    span.clone(),
                                    format!(
                                        "\"{c}\" in a square is {}, a look-alike of \"{right}\" ({})",
                                        crate::analysis::glossary::code_point(c),
                                        crate::analysis::glossary::code_numbers(&right.to_string())
                                    ),
                                )
                                .with_fix(
                                    Fix::replace(format!("Write {right}"), span, right.to_string()).preferred(true),
                                ),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let note = start
        .note
        .clone()
        .unwrap_or_else(|| "these moves were not replayed: no position is known before them".to_owned());
    diagnostics.push(Diagnostic::new(Code::Unchecked, head.first_span.clone(), note));
    diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.span.end.cmp(&b.span.end)));
    crate::analysis::diagnostic::settle(&mut diagnostics);
    GameReport {
        span: game.span.clone(),
        language: options.language.unwrap_or(Language::En),
        language_source: if options.language.is_some() { LanguageSource::Chosen } else { LanguageSource::Undecided },
        diagnostics,
        plies: 0,
    }
}

/// The diagnostic of a repaired piece of scanning damage (spans in the
/// manuscript), none for a separator (a convention, not damage): `text` is
/// the manuscript, `blanked` its notation (the move a message names is read
/// there, so that it ends where the notation does whatever follows in the
/// text).
pub fn repair_diagnostic(text: &str, blanked: &str, repair: &Repair) -> Option<Diagnostic> {
    let span = repair.span.clone();
    let written = text.get(span.clone())?;
    Some(match &repair.kind {
        RepairKind::Separator
        | RepairKind::Spaced { .. }
        | RepairKind::Bracket { .. }
        | RepairKind::DoubledDash { .. }
        | RepairKind::BlackDots { .. }
        | RepairKind::Damaged
        | RepairKind::CaptureAfter => return None,
        // A reading the position allows, not a look-alike: a guess, as the
        // reading of an illegal move is (never applied unasked).
        RepairKind::FileDigit { placeholder } => Diagnostic::new(
            Code::Syntax,
            span.clone(),
            format!("\"{written}\" is no file letter (OCR damage in a square): read as the file {placeholder}, where the move can go: write {placeholder}"),
        )
        .with_fix(Fix::replace(format!("Write {placeholder}"), span, placeholder.to_string()).preferred(true)),
        RepairKind::SpaceInMove { joined, glued, .. } => {
            // `К f3К b4`: the next move glued to this one gets its space.
            let (new_text, tail) =
                if *glued { (format!("{joined} "), ", and the next move is glued to it") } else { (joined.clone(), "") };
            Diagnostic::new(
                Code::SpaceInMove,
                span.clone(),
                format!(
                    "\"{written}\" is one move broken by a space (as scanned text often has it){tail}: write {joined}"
                ),
            )
            .with_fix(Fix::replace(format!("Write {joined}"), span, new_text).preferred(true))
        }
        RepairKind::CommentBracket => {
            let bracket = span.end - 1..span.end;
            Diagnostic::new(
                Code::Syntax,
                span.clone(),
                "this comment is closed with \")\" instead of \"}\": the moves after it were taken into it, up to the \
                 next \"}\" (they are read as moves here): write }"
                    .to_owned(),
            )
            .with_fix(Fix::replace("Write }", bracket, "}").preferred(true))
        }
        RepairKind::LostMoveNumber { number } => {
            let move_start = span.end;
            let next = blanked.get(move_start..).unwrap_or_default();
            let mv = next.split(|c: char| c.is_whitespace()).next().unwrap_or("");
            Diagnostic::new(
                Code::MoveNumber,
                span.clone(),
                format!("the move number before {mv} was lost (only \"{written}\" is left): write {number}"),
            )
            .with_fix(Fix::replace(format!("Write {number}"), span, number.clone()).preferred(true))
        }
        RepairKind::Stray { joined, .. } => Diagnostic::new(
            Code::Syntax,
            span.clone(),
            format!("\"{written}\" has a stray character inside the move: write {joined}"),
        )
        .with_fix(Fix::replace(format!("Write {joined}"), span, joined.clone()).preferred(true)),
        RepairKind::Glued { first_len } => {
            let (first, second) = written.split_at_checked(*first_len)?;
            let parted = format!("{first} {second}");
            Diagnostic::new(
                Code::Syntax,
                span.clone(),
                format!("\"{written}\" is two moves written together (the blank between them was lost): write {parted}"),
            )
            .with_fix(Fix::replace(format!("Write {parted}"), span, parted).preferred(true))
        }
        RepairKind::LookAlikeNumber { number } => Diagnostic::new(
            Code::MoveNumber,
            span.clone(),
            format!("\"{written}\" is the move number {number} with letters for its digits (as scanned text often has it): write {number}"),
        )
        .with_fix(Fix::replace(format!("Write {number}"), span, number.clone()).preferred(true)),
        RepairKind::NumberSign { number } => Diagnostic::new(
            Code::MoveNumber,
            span.clone(),
            format!("\"{written}\" is the move number {number} with another sign for its dot: write {number}"),
        )
        .with_fix(Fix::replace(format!("Write {number}"), span, number.clone()).preferred(true)),
        RepairKind::GluedNumber => Diagnostic::new(
            Code::Syntax,
            span.clone(),
            format!("the move number {written} is glued to the move before it (the blank between them was lost): write a blank before it"),
        )
        .with_fix(Fix::replace(format!("Put a blank before {written}"), span, format!(" {written}")).preferred(true)),
        RepairKind::Unfinished => {
            Diagnostic::new(Code::Syntax, span, format!("\"{written}\" is an unfinished move: the text ends inside it"))
        }
        RepairKind::Sign { meant } => {
            let what = if *meant == 'x' { "the capture sign" } else { "the check sign (\"†\" read by OCR)" };
            Diagnostic::new(Code::Homoglyph, span.clone(), format!("\"{written}\" stands for {what}: write {meant}"))
                .with_fix(Fix::replace(format!("Write {meant}"), span, meant.to_string()).preferred(true))
        }
        RepairKind::TransliteratedFile { meant } => Diagnostic::new(
            Code::Homoglyph,
            span.clone(),
            format!(
                "\"{written}\" in a square is the Latin transliteration of the Cyrillic file letter \"с\" (as machine transliteration leaves it): write {meant}"
            ),
        )
        .with_fix(Fix::replace(format!("Write {meant}"), span, meant.to_string()).preferred(true)),
        RepairKind::LowerCaseLetter { upper } => Diagnostic::new(
            Code::Homoglyph,
            span.clone(),
            format!("\"{written}\" is a lower-case look-alike of the piece letter \"{upper}\""),
        )
        .with_fix(Fix::replace(format!("Write {upper}"), span, upper.to_string()).preferred(true)),
    })
}

/// OCR's `^` read as the capture sign (`Lc3^d4`) in a move that captures
/// nothing stood for the dash of long algebraic: the `capture-mark` finding
/// at the sign (among `others`) and the sign's note `d` become one note,
/// with the dash as its fix, instead of two fixes that contradict.
pub fn sign_read_as_dash(repair: &Repair, d: &mut Diagnostic, others: &mut Vec<Diagnostic>) {
    if !matches!(repair.kind, RepairKind::Sign { meant: 'x' }) {
        return;
    }
    let before = others.len();
    others.retain(|o| !(o.code == Code::CaptureMark && o.span == d.span));
    if others.len() == before {
        return;
    }
    let span = d.span.clone();
    *d = Diagnostic::new(
        Code::Homoglyph,
        span.clone(),
        "\"^\" is OCR's reading of a sign, and the move captures nothing: it stands for the dash of long algebraic: write -",
    )
    .with_fix(Fix::replace("Write -", span, "-").preferred(true));
}

/// A digit for a destination's file (`Sg8-06`) was given to the parser as
/// the origin's file: where that move is illegal (a knight's, a capture),
/// the replay read the move the position allows, and its `illegal-move`
/// finding (among `others`), which names the stand-in, and the digit's
/// note `d` become one note with the replay's reading and fixes.
/// Whether it did.
pub fn file_digit_read(section: &str, repair: &Repair, d: &mut Diagnostic, others: &mut Vec<Diagnostic>) -> bool {
    if !matches!(repair.kind, RepairKind::FileDigit { .. }) {
        return false;
    }
    let Some(k) = others
        .iter()
        .position(|o| o.code == Code::IllegalMove && o.span.start <= d.span.start && d.span.end <= o.span.end)
    else {
        return false;
    };
    let mut illegal = others.remove(k);
    let digit = section.get(d.span.clone()).unwrap_or_default();
    // The origin is as written: readings from another square go (kept
    // when none is from there).
    let origin = section
        .get(illegal.span.start..d.span.start)
        .unwrap_or_default()
        .trim_end_matches(|c| crate::syntax::lexicon::is_dash(c) || crate::syntax::lexicon::is_capture_sign(c));
    let from_origin = |f: &Fix| f.title.strip_prefix("Write ").is_some_and(|t| t.starts_with(origin));
    if !origin.is_empty() && illegal.fixes.iter().any(from_origin) {
        illegal.fixes.retain(from_origin);
    }
    let readings: Vec<&str> = illegal.fixes.iter().filter_map(|f| f.title.strip_prefix("Write ")).collect();
    let said = match readings.as_slice() {
        [] => None,
        [one] => Some(format!("the only move from there to that rank is {one}")),
        [first @ .., last] => Some(format!(
            "the moves from there to that rank are {} and {last}; {}",
            first.join(", "),
            illegal.message.split_once("; ").map_or("", |(_, r)| r)
        )),
    };
    *d = match said {
        Some(said) => {
            let mut read = Diagnostic::new(
                Code::Syntax,
                illegal.span.clone(),
                format!("\"{digit}\" is no file letter (OCR damage in a square): {said}"),
            );
            read.fixes = illegal.fixes;
            read
        }
        _ => Diagnostic::new(
            Code::IllegalMove,
            illegal.span.clone(),
            format!("\"{digit}\" is no file letter (OCR damage in a square), and no move to that square's rank fits"),
        ),
    };
    true
}

/// The note of a digit for a file (`Sg8-06`) in a move that was not
/// replayed (its game has no known start, or stopped before it): which
/// file it stands for is not known.
pub fn file_digit_unread(section: &str, d: &mut Diagnostic) {
    let digit = section.get(d.span.clone()).unwrap_or_default();
    *d = Diagnostic::new(
        Code::Syntax,
        d.span.clone(),
        format!(
            "\"{digit}\" is no file letter (OCR damage in a square); the move was not replayed, so which file it stands for is not known"
        ),
    );
}

/// Moves a diagnostic's spans by `by` and maps them from the blanked text
/// to the manuscript; fixes that would edit anything but notation are
/// dropped.
pub fn to_manuscript(ms: &Manuscript, d: &mut Diagnostic, by: usize) {
    let map = |r: &Range<usize>| ms.span_to_original(&(r.start + by..r.end + by));
    d.span = map(&d.span);
    for r in &mut d.related {
        r.span = map(&r.span);
    }
    for f in &mut d.fixes {
        for e in &mut f.edits {
            e.span = map(&e.span);
        }
    }
    d.fixes.retain(|f| f.edits.iter().all(|e| ms.in_notation_span(&e.span)));
    d.settle();
}
