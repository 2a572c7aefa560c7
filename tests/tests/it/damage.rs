//! Damaged games (issue 16): every kind of damage of notation.md section 7
//! ([`chess_ls_tests::damage`]), in every language, in PGN and in
//! manuscripts (plain text and Markdown), injected into random legal games
//! and checked as `--check` checks them (`ide::Batch::check`). A damage
//! passes when
//!
//! - a diagnostic of the kind's family ([`Kind::codes`]) overlaps the
//!   damaged token,
//! - its preferred fix, applied, turns the token back into the intended
//!   text (blanks compared loosely: [`normalized`]),
//! - and nothing else is reported: no error or warning on an undamaged
//!   move, and no `unchecked` note (the game is read on past the damage).
//!
//! The cells (kind x language x PGN/manuscript) the reader does not pass
//! yet are listed in [`known_gap`] with the reason; the test fails on any
//! other cell that fails, and also on a listed gap that now passes (so that
//! the list shrinks as the reader learns). The table of every cell is
//! printed on stderr: `cargo test -p chess-ls-tests --test it -- damage::
//! --nocapture`; with `DAMAGE_SHOW_GAPS=1` also the problems of the known
//! gaps, and with `DAMAGE_DUMP=dir` each failing case's text is written
//! there.

use std::collections::BTreeMap;

use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls::analysis::{Code, Diagnostic, Options, Severity};
use chess_ls::ide::document::Kind as DocumentKind;
use chess_ls_tests::damage::{CleanGame, DamagedGame, Format, Kind, clean_manuscript, clean_pgn, damage, normalized};
use chess_ls_tests::generate::{RenderOptions, SplitMix64, random_game};

/// Cases per cell: each a different game and style.
const CASES: u64 = 4;

/// The findings of `--check` on `text`, without the note that says which
/// of two languages is assumed.
fn check(text: &str, format: Format) -> Vec<Diagnostic> {
    let kind = match format {
        Format::Pgn => DocumentKind::Pgn,
        Format::Text => DocumentKind::Text,
        Format::Markdown => DocumentKind::Markdown,
    };
    chess_ls::ide::Batch::new(&Options::default(), &Default::default())
        .check(text, kind, &())
        .diagnostics
        .into_iter()
        .filter(|d| !(d.code == Code::LanguageMix && d.severity == Severity::Info))
        .filter(|d| d.severity != Severity::Hint)
        .collect()
}

/// A style drawn from `seed`: the capture sign, long or short, castling,
/// promotion and figurine knobs, adapted to what `kinds` need.
fn style(language: Language, kinds: &[Kind], seed: u64) -> MoveStyle {
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let style = MoveStyle {
        language,
        capture_sign: match rng.below(4) {
            0 => None,
            1 => Some(":"),
            2 if language.is_cyrillic() => Some("х"),
            _ => Some("x"),
        },
        check_marks: rng.below(4) != 0,
        long: rng.below(4) == 0,
        castling_zeros: rng.below(2) == 0,
        promotion_equals: rng.below(2) == 0,
        figurine_black: rng.below(2) == 0,
    };
    kinds.iter().fold(style, |style, kind| kind.adapt(style))
}

/// A clean game for case `case` of a cell, damaged by `kinds`: the first
/// of some seeds whose game has a move that every kind fits.
fn damaged_case(language: Language, kinds: &[Kind], format: Format, case: u64) -> Option<(CleanGame, DamagedGame)> {
    (0..60).find_map(|attempt| {
        let seed = case * 1000 + attempt + 1;
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x9e37_79b9));
        let moves = random_game(rng.next_u64(), 30 + rng.below(50));
        let style = style(language, kinds, seed);
        let game = match format {
            Format::Pgn => {
                let opts = RenderOptions {
                    headers: rng.below(2) == 0,
                    wrap_column: if rng.below(2) == 0 { Some(80) } else { None },
                    space_after_move_number: rng.below(3) != 0,
                };
                clean_pgn(&moves, &style, &opts)
            }
            _ => clean_manuscript(&moves, &style, format, rng.next_u64()),
        };
        let damaged = damage(&game, kinds, &mut rng)?;
        Some((game, damaged))
    })
}

fn overlaps(d: &Diagnostic, span: &std::ops::Range<usize>) -> bool {
    if d.span.is_empty() {
        span.contains(&d.span.start) || span.end == d.span.start
    } else {
        d.span.start < span.end && span.start < d.span.end
    }
}

/// The text around `span`, a few words each side, for a failure message.
fn around(text: &str, span: &std::ops::Range<usize>) -> String {
    let mut start = span.start.saturating_sub(30);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (span.end + 30).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    text[start..end].replace('\n', "⏎")
}

/// What is wrong with the reading of `damaged`: empty when every damage is
/// found with its fix and nothing else is reported.
fn judge(damaged: &DamagedGame, diagnostics: &[Diagnostic]) -> Vec<String> {
    let text = &damaged.text;
    let mut problems = Vec::new();
    for d in &damaged.damages {
        let Some(found) =
            diagnostics.iter().find(|g| d.kind.codes().contains(&g.code.as_str()) && overlaps(g, &d.span))
        else {
            problems.push(format!("{}: `{}` not found in `{}`", d.kind.name(), d.written, around(text, &d.span)));
            continue;
        };
        let Some(fix) = found.fixes.iter().find(|f| f.preferred) else {
            problems.push(format!(
                "{}: `{}` found ({}) with no preferred fix in `{}`",
                d.kind.name(),
                d.written,
                found.code,
                around(text, &d.span)
            ));
            continue;
        };
        // The fix applied; it may also take the blanks around the token.
        let mut edits = fix.edits.clone();
        edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        let mut fixed = text.clone();
        for e in &edits {
            fixed.replace_range(e.span.clone(), &e.new_text);
        }
        let lo = text[..d.span.start].trim_end().len();
        let hi = text.len() - text[d.span.end..].trim_start().len();
        let tail = text.len() - hi;
        let inside = fixed.len() >= lo + tail
            && fixed[..lo] == text[..lo]
            && fixed[fixed.len() - tail..] == text[hi..]
            && fixed.is_char_boundary(lo)
            && fixed.is_char_boundary(fixed.len() - tail);
        if !inside {
            problems.push(format!(
                "{}: `{}`: the fix `{}` edits outside the token",
                d.kind.name(),
                d.written,
                fix.title
            ));
            continue;
        }
        let got = normalized(&fixed[lo..fixed.len() - tail]);
        if got != normalized(&d.intended) && !d.also.iter().any(|a| got == normalized(a)) {
            problems.push(format!("{}: `{}` fixed as `{got}`, not `{}`", d.kind.name(), d.written, d.intended));
        }
    }
    for g in diagnostics {
        if damaged.damages.iter().any(|d| overlaps(g, &d.span)) && g.code != Code::Unchecked {
            continue;
        }
        let token = text.get(g.span.clone()).unwrap_or("?");
        problems.push(format!("also {} at `{token}`: {}", g.code, g.message));
    }
    problems
}

/// The cells the reader does not pass yet, with the reason (`format` is
/// `Pgn` or `Text` for the manuscripts); `None`: the cell must pass. Each
/// entry is a known gap of issue 16, to take off as the reader learns it.
fn known_gap(kind: Kind, format: Format, language: Language) -> Option<&'static str> {
    KNOWN_GAPS.iter().find(|(k, f, l, _)| (*k, *f, *l) == (kind, format, language)).map(|(.., why)| *why)
}

/// The known gaps. The last before Turkish, a run whose letters several
/// languages read (`Sc6 ... Kd2`: German, Polish, Swedish...) read in one of
/// them rather than in the document's, so that a lost letter's fix was that
/// language's (`Tb8`, not Polish `Wb8`), closed when the letters of all the
/// runs came to decide the document's language
/// (`analysis::manuscript::document_language`).
const KNOWN_GAPS: &[(Kind, Format, Language, &str)] = &[
    (Kind::LookAlikeLetter, Format::Pgn, Language::Tr, TURKISH_CYRILLIC),
    (Kind::LookAlikeLetter, Format::Text, Language::Tr, TURKISH_CYRILLIC),
    (Kind::LookAlikeLetter, Format::Markdown, Language::Tr, TURKISH_CYRILLIC),
];

/// Why a Cyrillic letter in a Turkish game is not read as its look-alike.
const TURKISH_CYRILLIC: &str = "Turkish reads no Cyrillic look-alikes (`К` for the rook `K`, `А` for the knight \
     `A`): they come from keyboards that also type Cyrillic, which Turkish writers seldom use, and reading a \
     Russian game's stray Latin `K` as a Turkish rook cost every such game with an error another replay \
     (syntax::lexicon, TR_LOOKALIKES)";

/// Every kind x language x format, `CASES` games each.
#[test]
fn every_damage_is_read_as_the_intended_move() {
    let formats = [Format::Pgn, Format::Text];
    type Table = BTreeMap<(Kind, Format, Language), (usize, Vec<String>)>;
    // One thread a format (the machine's two cores).
    let cells = |format: Format| -> Table {
        let mut table = Table::new();
        for kind in Kind::ALL {
            if format == Format::Pgn && !kind.in_pgn() {
                continue;
            }
            for language in Language::ALL.into_iter().filter(|&l| kind.applies_to(l)) {
                let cell = table.entry((kind, format, language)).or_default();
                for case in 0..CASES {
                    // Manuscripts alternate plain text and Markdown.
                    let format = if format == Format::Text && case % 2 == 1 { Format::Markdown } else { format };
                    let Some((_, damaged)) = damaged_case(language, &[kind], format, case) else { continue };
                    cell.0 += 1;
                    let diagnostics = check(&damaged.text, format);
                    let problems = judge(&damaged, &diagnostics);
                    if !problems.is_empty()
                        && let Some(dir) = std::env::var_os("DAMAGE_DUMP")
                    {
                        let name = format!("{}-{format:?}-{language:?}-{case}.txt", kind.name());
                        let _ = std::fs::write(std::path::Path::new(&dir).join(name), &damaged.text);
                    }
                    for p in problems {
                        cell.1.push(format!("case {case} ({format:?}): {p}"));
                    }
                }
            }
        }
        table
    };
    let table: Table = std::thread::scope(|scope| {
        let threads: Vec<_> = formats.map(|format| scope.spawn(move || cells(format))).into();
        threads.into_iter().flat_map(|t| t.join().expect("a format's cells")).collect()
    });
    // The table.
    let mut out = String::new();
    for &format in &formats {
        let name = if format == Format::Pgn { "PGN" } else { "manuscript" };
        out.push_str(&format!("\n{name:<16}"));
        for language in Language::ALL {
            let code = if language == Language::Figurine { "fig" } else { language.code() };
            out.push_str(&format!("{code:>4}"));
        }
        out.push('\n');
        for kind in Kind::ALL {
            out.push_str(&format!("{:<16}", kind.name()));
            for language in Language::ALL {
                let mark = match table.get(&(kind, format, language)) {
                    None | Some((0, _)) => "-",
                    Some((_, p)) if p.is_empty() => "ok",
                    Some(_) if known_gap(kind, format, language).is_some() => "gap",
                    Some(_) => "FAIL",
                };
                out.push_str(&format!("{mark:>4}"));
            }
            out.push('\n');
        }
    }
    eprintln!("{out}");
    let mut failures = Vec::new();
    let mut closed = Vec::new();
    for ((kind, format, language), (cases, problems)) in &table {
        let gap = known_gap(*kind, *format, *language);
        if gap.is_none() && !problems.is_empty() {
            failures.push(format!("{} {format:?} {language:?}:\n  {}", kind.name(), problems.join("\n  ")));
        }
        if gap.is_some() && problems.is_empty() && *cases > 0 {
            closed.push(format!("{} {format:?} {language:?}", kind.name()));
        }
    }
    if std::env::var_os("DAMAGE_SHOW_GAPS").is_some() {
        for ((kind, format, language), (_, problems)) in &table {
            if known_gap(*kind, *format, *language).is_some() && !problems.is_empty() {
                eprintln!(
                    "gap {} {format:?} {language:?}:\n  {}",
                    kind.name(),
                    problems[..problems.len().min(3)].join("\n  ")
                );
            }
        }
    }
    assert!(failures.is_empty(), "{} cells fail:\n{}", failures.len(), failures.join("\n"));
    assert!(closed.is_empty(), "known gaps that now pass (take them off `known_gap`): {closed:#?}");
}

/// A clean game of every language, PGN and manuscript, raises nothing: the
/// ground the damage tests stand on.
#[test]
fn the_clean_games_are_clean() {
    for language in Language::ALL {
        for format in [Format::Pgn, Format::Text, Format::Markdown] {
            for seed in 0..3 {
                let moves = random_game(seed, 80);
                let style = style(language, &[], seed);
                let game = match format {
                    Format::Pgn => clean_pgn(&moves, &style, &RenderOptions::default()),
                    _ => clean_manuscript(&moves, &style, format, seed),
                };
                let diagnostics = check(&game.text, format);
                assert!(
                    diagnostics.is_empty(),
                    "{language:?} {format:?} seed {seed}:\n{}\n{diagnostics:#?}",
                    game.text
                );
            }
        }
    }
}

/// Several damages far apart in one game (the kinds every language passes
/// alone, in PGN and manuscripts): each is found with its fix, and the game
/// is read on between them.
#[test]
fn several_damages_in_one_game_are_each_read() {
    let mut checked = 0;
    for language in Language::ALL {
        for (format, case) in [(Format::Pgn, 7), (Format::Text, 8), (Format::Markdown, 9)] {
            let outer = if format == Format::Pgn { Format::Pgn } else { Format::Text };
            let kinds: Vec<Kind> = Kind::ALL
                .into_iter()
                .filter(|&k| k.applies_to(language) && known_gap(k, outer, language).is_none())
                .filter(|&k| format != Format::Pgn || k.in_pgn())
                .collect();
            // Three kinds of those, taken in turn.
            for start in (0..kinds.len()).step_by(3) {
                let chosen: Vec<Kind> = kinds.iter().cycle().skip(start).take(3.min(kinds.len())).copied().collect();
                let Some((clean, damaged)) = damaged_case(language, &chosen, format, case + start as u64) else {
                    continue;
                };
                // A run readable in another language (`3. h3 g6 4. d4 Sh6` is
                // German with a knight, Czech with a bishop) is read in the
                // document's: the clean game is clean.
                if format != Format::Pgn {
                    let found = check(&clean.text, format);
                    assert!(
                        found.is_empty(),
                        "{language:?} {format:?}: the clean text raises findings:\n{}\n{found:#?}",
                        clean.text
                    );
                }
                checked += 1;
                let problems = judge(&damaged, &check(&damaged.text, format));
                assert!(
                    problems.is_empty(),
                    "{language:?} {format:?} {chosen:?}:\n{}\n{}",
                    problems.join("\n"),
                    damaged.text
                );
            }
        }
    }
    assert!(checked > 20, "only {checked} games had room for their damages");
}

/// Whether `d` says that a game or variation stopped: the rest of it was
/// not checked (not a note that one finding depends on a reading).
fn stops(d: &Diagnostic) -> bool {
    d.code == Code::Unchecked
        && (d.message.starts_with("the rest of this")
            || d.message.starts_with("this move and the rest")
            || d.message.contains("with no position known"))
}

/// The cells of [`no_game_stops_at_damage`] (kind x PGN/manuscript) that
/// do not hold yet, with the reason: `stop` the game may still stop there,
/// `find` the damage may go unreported at its token.
const RESYNC_GAPS: &[(Kind, Format, &str, &str)] = &[
    (
        Kind::Junk,
        Format::Text,
        "stop",
        "in a manuscript, junk between moves ends the run (the run scanner takes it for prose) and the next run starts with no position known: the chain does not yet go on where the next run's moves replay from the previous run's end (issue 29's step 2)",
    ),
    (
        Kind::Junk,
        Format::Text,
        "find",
        "in a manuscript, junk between moves is prose to the run scanner: nothing is reported at it",
    ),
    (
        Kind::Prose,
        Format::Text,
        "stop",
        "a sentence between two moves of a run: the moves after it start a run with no position known (issue 29's step 2)",
    ),
    (
        Kind::SpaceInSquare,
        Format::Text,
        "stop",
        "in a manuscript `Db 3` ends the run at `Db` and the next run starts with no position known (issue 29's step 2)",
    ),
    (
        Kind::SpaceInSquare,
        Format::Text,
        "find",
        "in a manuscript `Db 3` ends the run at `Db`: nothing is reported at the token",
    ),
    (
        Kind::SpaceInSquare,
        Format::Pgn,
        "fix",
        "after a number glued to the move (`16.b 4`), the number's certain fix takes the file letter and leaves the blank",
    ),
    (
        Kind::TwoInOne,
        Format::Pgn,
        "fix",
        "a stray dash after a look-alike (`Rel—`) is not reported: the look-alike's certain fix leaves the dash",
    ),
    (
        Kind::TwoInOne,
        Format::Text,
        "fix",
        "a stray dash after a look-alike (`KgB—`) is not reported: the look-alike's certain fix leaves the dash",
    ),
    (
        Kind::BlackWithWhiteNumber,
        Format::Text,
        "find",
        "Black's first move of a run written with White's number (`23. dc4` for `23...dc4`) is read without a move-number warning",
    ),
    (
        Kind::GluedNumber,
        Format::Pgn,
        "find",
        "a move glued to the next number (`f65.`) is read right by the grammar, silently: no finding says the blank is missing",
    ),
    (
        Kind::LostLetterLong,
        Format::Pgn,
        "find",
        "a coordinate move without its piece letter (`g1-f3`) is read as moving what stands on its first square (engine notation), with no finding even where the game writes piece letters",
    ),
    (
        Kind::LostLetterLong,
        Format::Text,
        "find",
        "a coordinate move without its piece letter (`g1-f3`) is read as moving what stands on its first square (engine notation), with no finding even where the game writes piece letters",
    ),
];

/// Whether a property of a cell is a known gap.
fn resync_gap(kind: Kind, format: Format, what: &str) -> bool {
    let outer = if format == Format::Pgn { Format::Pgn } else { Format::Text };
    RESYNC_GAPS.iter().any(|(k, f, w, _)| (*k, *f, *w) == (kind, outer, what))
}

/// Issue 29: the damage a reader reads past by the position
/// ([`Kind::RESYNC`]: junk for a move, two damages in one move, a Black
/// move with White's number, prose between two moves, a blank inside a
/// square, a move glued to the next number, `f` for the check sign, a
/// piece letter lost in long algebraic), in every language, in PGN and
/// manuscripts. The property: no game stops at the damage (no note that
/// the rest was not checked), every damage is found at its token, and
/// the fixes the reader is certain of (`certain`: what `--fix` applies)
/// give back the intended text. The table of every cell is printed; the
/// cells that do not hold yet are listed with the reason in
/// [`RESYNC_GAPS`], and a listed gap that now holds fails the test too.
#[test]
fn no_game_stops_at_damage() {
    // (kind, format) -> (games, stopped, not found, certain fixes right, wrong)
    let mut table: BTreeMap<(Kind, Format), [usize; 5]> = BTreeMap::new();
    let mut failures = Vec::new();
    for kind in Kind::RESYNC {
        for language in Language::ALL {
            for (format, case) in [(Format::Pgn, 0), (Format::Text, 1), (Format::Markdown, 2), (Format::Pgn, 3)] {
                if format == Format::Pgn && !kind.in_pgn() {
                    continue;
                }
                let Some((_, damaged)) = damaged_case(language, &[kind], format, case) else { continue };
                let outer = if format == Format::Pgn { Format::Pgn } else { Format::Text };
                let cell = table.entry((kind, outer)).or_default();
                cell[0] += 1;
                let diagnostics = check(&damaged.text, format);
                let name = format!("{} {language:?} {format:?} case {case}", kind.name());
                if let Some(dir) = std::env::var_os("DAMAGE_DUMP") {
                    let ext = match format {
                        Format::Pgn => "pgn",
                        Format::Text => "txt",
                        Format::Markdown => "md",
                    };
                    let file = format!("{}-{language:?}-{case}.{ext}", kind.name());
                    let _ = std::fs::write(std::path::Path::new(&dir).join(file), &damaged.text);
                }
                if let Some(d) = diagnostics.iter().find(|d| stops(d)) {
                    cell[1] += 1;
                    if !resync_gap(kind, format, "stop") {
                        failures.push(format!("{name}: stops: {}\n{}", d.message, damaged.text));
                    }
                }
                if !kind.is_finding() {
                    continue;
                }
                for dmg in &damaged.damages {
                    let at: Vec<&Diagnostic> = diagnostics.iter().filter(|g| overlaps(g, &dmg.span)).collect();
                    if !at.iter().any(|g| dmg.kind.codes().contains(&g.code.as_str())) {
                        cell[2] += 1;
                        if !resync_gap(kind, format, "find") {
                            failures.push(format!(
                                "{name}: `{}` not found in `{}`",
                                dmg.written,
                                around(&damaged.text, &dmg.span)
                            ));
                        }
                        continue;
                    }
                    // Every certain fix at the token, applied (a token with
                    // two damages has a fix for each).
                    let mut edits: Vec<_> = at
                        .iter()
                        .flat_map(|g| g.fixes.iter().filter(|f| f.certain))
                        .flat_map(|f| f.edits.clone())
                        .collect();
                    if edits.is_empty() {
                        continue;
                    }
                    edits.sort_by_key(|e| (std::cmp::Reverse(e.span.start), e.span.end));
                    // From the end back, each edit that overlaps none applied.
                    let mut fixed = damaged.text.clone();
                    let mut applied_from = usize::MAX;
                    for e in &edits {
                        if e.span.end > applied_from
                            || !fixed.is_char_boundary(e.span.start)
                            || !fixed.is_char_boundary(e.span.end)
                        {
                            continue;
                        }
                        fixed.replace_range(e.span.clone(), &e.new_text);
                        applied_from = e.span.start;
                    }
                    if normalized(&fixed) == normalized(&damaged.clean) {
                        cell[3] += 1;
                    } else {
                        cell[4] += 1;
                        if resync_gap(kind, format, "fix") {
                            continue;
                        }
                        failures.push(format!(
                            "{name}: `{}`: the certain fixes do not give `{}` in `{}`: {:?}",
                            dmg.written,
                            dmg.intended,
                            around(&damaged.text, &dmg.span),
                            at.iter()
                                .flat_map(|g| g.fixes.iter().filter(|f| f.certain))
                                .map(|f| &f.title)
                                .collect::<Vec<_>>()
                        ));
                    }
                }
            }
        }
    }
    let mut out = String::from("\nkind               format   games stopped missed fixed wrong\n");
    for ((kind, format), c) in &table {
        out.push_str(&format!(
            "{:<18} {:<8} {:>5} {:>7} {:>6} {:>5} {:>5}\n",
            kind.name(),
            format!("{format:?}"),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        ));
    }
    eprintln!("{out}");
    let games: usize = table.values().map(|c| c[0]).sum();
    assert!(games > 200, "only {games} games had room for their damage");
    let closed: Vec<String> = RESYNC_GAPS
        .iter()
        .filter(|(k, f, w, _)| {
            let column = match *w {
                "stop" => 1,
                "find" => 2,
                _ => 4,
            };
            table.get(&(*k, *f)).is_some_and(|c| c[0] > 0 && c[column] == 0)
        })
        .map(|(k, f, w, _)| format!("{} {f:?} {w}", k.name()))
        .collect();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(closed.is_empty(), "known gaps that now hold (take them off `RESYNC_GAPS`): {closed:#?}");
}
