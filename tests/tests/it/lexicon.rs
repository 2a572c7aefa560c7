//! The reader of runs in prose (`syntax::manuscript`, its `runs` module) and
//! the grammar read moves with the same letters (`syntax::lexicon`, checked
//! against `grammar.json` by its unit test). This checks that they also
//! agree on what a run is: every run the manuscript reader finds parses in
//! the grammar without an ERROR or MISSING node, over generated books in
//! every language and format, and over prose mixed at random with games in
//! every language and style, damage and text typed at random.

use chess_ls::analysis::languages::{Language, MoveStyle, render_move};
use chess_ls::syntax::manuscript::{self, Format, TYPED_SNIPPETS, UnitKind};
use chess_ls::syntax::{self};
use chess_ls_tests::generate::{SplitMix64, random_game};
use chess_ls_tests::manuscript::{Layout, book};
use proptest::prelude::*;
use shakmaty::{Chess, Color, Position};

/// The runs of a manuscript whose text does not parse cleanly, each with the
/// S-expression of its tree.
fn broken_runs(text: &str, format: Format) -> Vec<(String, String)> {
    let m = manuscript::scan(text, format);
    // A word the scanner kept as a damaged move (`7. Fn—d3`) is a syntax
    // error by design: its errors are the only ones a run may have.
    let damaged: Vec<std::ops::Range<usize>> =
        m.repairs.iter().filter(|r| r.kind == manuscript::RepairKind::Damaged).map(|r| r.span.clone()).collect();
    let mut out = Vec::new();
    for unit in m.units.iter().filter(|u| u.kind == UnitKind::Run) {
        let run = &m.blanked[unit.notation.clone()];
        let tree = syntax::parse(run, None);
        if !tree.root_node().has_error() {
            continue;
        }
        // Each error with the move it stands in (the parser may take the
        // damaged word and the move after it for one move).
        let mut errors = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if node.is_error() || node.is_missing() {
                let mut around = node;
                while around.kind() != "move"
                    && let Some(parent) = around.parent().filter(|p| p.kind() != "movetext")
                {
                    around = parent;
                }
                errors.push(unit.notation.start + around.start_byte()..unit.notation.start + around.end_byte());
            } else if node.has_error() {
                let mut cursor = node.walk();
                stack.extend(node.children(&mut cursor));
            }
        }
        let excused = |e: &std::ops::Range<usize>| damaged.iter().any(|d| d.start < e.end && e.start < d.end);
        if !errors.iter().all(excused) {
            out.push((run.to_owned(), tree.root_node().to_sexp()));
        }
    }
    out
}

fn format_of(layout: Layout) -> Format {
    match layout {
        Layout::Text => Format::Text,
        Layout::Markdown => Format::Markdown,
        Layout::Latex => Format::Latex,
    }
}

#[test]
fn runs_of_generated_books_parse_in_every_language_and_format() {
    let mut runs = 0;
    for (k, language) in Language::ALL.into_iter().enumerate() {
        for layout in [Layout::Text, Layout::Markdown, Layout::Latex] {
            let text = book(k as u64 + 700, 6_000, language, layout).text;
            let format = format_of(layout);
            runs += manuscript::scan(&text, format).units.iter().filter(|u| u.kind == UnitKind::Run).count();
            let broken = broken_runs(&text, format);
            assert!(broken.is_empty(), "{language:?} {layout:?}: {broken:#?}");
        }
    }
    assert!(runs > 500, "only {runs} runs read");
}

/// Prose around runs: sentences and the numbers, letters and signs that
/// prose holds (page numbers, dates, a piece named in a sentence, a result,
/// glyphs, brackets), position descriptions, a FEN, and scanning damage.
const PROSE: &[&str] = &[
    "After",
    "the game went on",
    "White is slightly better.",
    "Белые стоят немного лучше.",
    "Weiß steht etwas besser.",
    "Les Noirs doivent défendre.",
    "In 1995.",
    "p. 12",
    "S. 12,",
    "стр. 12.",
    "chapter 2.",
    "3.14",
    "12.03.1995",
    "Ke is no move.",
    "with Кр and К",
    "the N",
    "White: Kg1, Rd1; pawns f2, g2.",
    "Белые: Крс1, Фf2; пп. a3.",
    "Чёрные: Крg8.",
    "FEN 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1.",
    "(see below)",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "!",
    "?!",
    "±",
    "+-",
    "=",
    "∞",
    "1-0",
    "0-1",
    "½-½",
    "1/2-1/2",
    "*",
    "—",
    "–",
    "-",
    "…",
    "...",
    ".",
    ",",
    ";",
    ":",
    "К f3",
    "кf6",
    ".b3",
    "bf4",
    "Кel",
    "е4",
    "Лdl",
    "exd6 e.p.",
    "0-0",
    "О-О",
    "o-o-o",
    "Qd1N",
    "e8=Q",
    "d8Ф",
    "$1",
    "TN",
    "12)",
    "12.",
    "12...",
    "12…",
];

const SEPARATORS: &[&str] = &[" ", " ", " ", "", "\n", "\n\n", ", ", ". ", "; ", " (", ") ", " - ", " — "];

fn style_of(rng: &mut SplitMix64) -> MoveStyle {
    let signs = [Some("x"), Some("х"), Some(":"), None];
    MoveStyle {
        language: Language::ALL[rng.below(Language::ALL.len())],
        capture_sign: signs[rng.below(signs.len())],
        check_marks: rng.below(4) > 0,
        long: rng.below(4) == 0,
        castling_zeros: rng.below(2) == 0,
        promotion_equals: rng.below(2) == 0,
        figurine_black: rng.below(2) == 0,
    }
}

/// Moves of a random game written as a run from some ply on: `12. Nf3 Nc6`,
/// `12.Nf3`, `12...Nc6`, `12. ... Nc6`.
fn run_text(rng: &mut SplitMix64) -> String {
    let moves = random_game(rng.next_u64(), 10 + rng.below(120));
    let style = style_of(rng);
    let mut pos = Chess::default();
    let skip = rng.below(moves.len().max(1));
    for m in &moves[..skip.min(moves.len())] {
        pos.play_unchecked(*m);
    }
    let len = (1 + rng.below(12)).min(moves.len() - skip.min(moves.len()));
    let glued = rng.below(3) == 0;
    let mut out = String::new();
    for (k, m) in moves[skip..skip + len].iter().enumerate() {
        let number = pos.fullmoves();
        if pos.turn() == Color::White {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(&format!("{number}.{}", if glued { "" } else { " " }));
        } else if k == 0 {
            out.push_str(&[format!("{number}..."), format!("{number}…"), format!("{number}. ... ")][rng.below(3)]);
        } else {
            out.push(' ');
        }
        out.push_str(&render_move(&pos, m, &style));
        pos.play_unchecked(*m);
        if rng.below(8) == 0 {
            out.push_str([" !", " ?", "!?", " ±", " $1", " (", ")"][rng.below(7)]);
        }
    }
    out
}

/// The characters that damage puts into runs: letters and signs of the
/// lexicon, their look-alikes, digits, blanks and brackets.
const DAMAGE: &[char] = &[
    'K', 'Q', 'R', 'B', 'N', 'P', 'p', 'к', 'К', 'р', 'Ф', 'п', 'х', 'x', 'X', ':', '×', '-', '–', '—', '+', '#', '†',
    '!', '?', '‼', '.', '…', '0', 'O', 'o', 'О', '(', ')', '[', '=', '/', 'l', 'З', 'а', 'е', '1', '4', '8', 'a', 'b',
    'e', 'h', ' ', ' ', '\n', '$', '♘', '½', '*', ',', ';',
];

/// A run with a character or two replaced, inserted or deleted.
fn damaged(mut run: String, rng: &mut SplitMix64) -> String {
    for _ in 0..1 + rng.below(2) {
        let boundaries: Vec<usize> = run.char_indices().map(|(i, _)| i).chain([run.len()]).collect();
        let at = boundaries[rng.below(boundaries.len())];
        let c = DAMAGE[rng.below(DAMAGE.len())];
        let next = run[at..].chars().next().map_or(0, char::len_utf8);
        match rng.below(3) {
            0 => run.insert(at, c),
            1 => run.replace_range(at..at + next, &c.to_string()),
            _ => run.replace_range(at..at + next, ""),
        }
    }
    run
}

/// A text of prose, runs, damage and text typed at random.
fn mixed_text(seed: u64, parts: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    for _ in 0..parts {
        match rng.below(5) {
            0 | 1 => text.push_str(&run_text(&mut rng)),
            4 => {
                let run = run_text(&mut rng);
                text.push_str(&damaged(run, &mut rng));
            }
            2 => text.push_str(PROSE[rng.below(PROSE.len())]),
            _ => text.push_str(TYPED_SNIPPETS[rng.below(TYPED_SNIPPETS.len())]),
        }
        text.push_str(SEPARATORS[rng.below(SEPARATORS.len())]);
    }
    text
}

proptest! {
    #![proptest_config(crate::proptest_config(400))]

    #[test]
    fn every_run_found_in_prose_parses_without_errors(seed in any::<u64>(), parts in 1usize..30) {
        let text = mixed_text(seed, parts);
        for format in [Format::Text, Format::Markdown, Format::Latex] {
            let broken = broken_runs(&text, format);
            prop_assert!(broken.is_empty(), "{format:?} in {text:?}: {broken:#?}");
        }
    }
}
