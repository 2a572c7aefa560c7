//! The lexicon against the grammar: the token rules of the generated
//! `grammar/src/grammar.json` accept exactly what the lexicon lists.
//!
//! The rules' patterns are regular expressions of a small kind (classes,
//! alternatives, groups, `?`), so they are expanded here into the finite
//! set of strings they accept and compared with the lexicon's sets. The
//! few repetitions (`[0-9]+` of move numbers, `\s*` of side labels) are
//! expanded as one digit and at most one space.

use std::collections::BTreeSet;

use super::*;

type Set = BTreeSet<String>;

fn grammar() -> serde_json::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../grammar/src/grammar.json");
    let text = std::fs::read_to_string(path).expect("grammar/src/grammar.json is readable");
    serde_json::from_str(&text).expect("grammar.json is JSON")
}

/// A node of a pattern.
#[derive(Debug, Clone)]
enum Node {
    /// One of these characters.
    Class(Vec<char>),
    /// Alternatives, each a sequence.
    Alt(Vec<Vec<(Node, Repeat)>>),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Repeat {
    Once,
    /// `?`, and `*` expanded as at most one.
    Optional,
}

struct PatternParser<'p> {
    chars: std::iter::Peekable<std::str::Chars<'p>>,
}

impl PatternParser<'_> {
    fn escape(&mut self) -> Vec<char> {
        match self.chars.next().expect("an escape is complete") {
            's' => vec![' '],
            't' => vec!['\t'],
            'n' => vec!['\n'],
            'u' => {
                let hex: String = (0..4).map(|_| self.chars.next().expect("\\uXXXX")).collect();
                vec![char::from_u32(u32::from_str_radix(&hex, 16).expect("hex")).expect("a char")]
            }
            c if c.is_ascii_alphanumeric() => panic!("unsupported escape \\{c}"),
            c => vec![c],
        }
    }

    fn class(&mut self) -> Vec<char> {
        assert_ne!(self.chars.peek(), Some(&'^'), "negated classes are not expanded");
        let mut out = Vec::new();
        loop {
            let c = self.chars.next().expect("a class is closed");
            let first = match c {
                ']' => return out,
                '\\' => self.escape(),
                c => vec![c],
            };
            if first.len() == 1 && self.chars.peek() == Some(&'-') {
                let mut ahead = self.chars.clone();
                ahead.next();
                if ahead.peek().is_some_and(|&c| c != ']') {
                    self.chars.next();
                    let last = match self.chars.next().expect("a range ends") {
                        '\\' => self.escape()[0],
                        c => c,
                    };
                    out.extend(first[0]..=last);
                    continue;
                }
            }
            out.extend(first);
        }
    }

    fn alternatives(&mut self) -> Node {
        let mut alts = vec![Vec::new()];
        while let Some(c) = self.chars.next() {
            let node = match c {
                '|' => {
                    alts.push(Vec::new());
                    continue;
                }
                ')' => break,
                '(' => self.alternatives(),
                '[' => Node::Class(self.class()),
                '\\' => Node::Class(self.escape()),
                '.' | '{' | '^' | '$' => panic!("unsupported pattern syntax {c}"),
                c => Node::Class(vec![c]),
            };
            let repeat = match self.chars.peek() {
                Some('?' | '*') => {
                    self.chars.next();
                    Repeat::Optional
                }
                Some('+') => {
                    self.chars.next();
                    Repeat::Once
                }
                _ => Repeat::Once,
            };
            alts.last_mut().expect("one alternative at least").push((node, repeat));
        }
        Node::Alt(alts)
    }
}

fn expand(node: &Node) -> Set {
    match node {
        Node::Class(chars) => chars.iter().map(|c| c.to_string()).collect(),
        Node::Alt(alts) => {
            let mut out = Set::new();
            for seq in alts {
                let mut strings: Set = [String::new()].into();
                for (node, repeat) in seq {
                    let mut parts = expand(node);
                    if *repeat == Repeat::Optional {
                        parts.insert(String::new());
                    }
                    strings = strings.iter().flat_map(|s| parts.iter().map(move |p| format!("{s}{p}"))).collect();
                }
                out.extend(strings);
            }
            out
        }
    }
}

fn expand_pattern(pattern: &str) -> Set {
    expand(&PatternParser { chars: pattern.chars().peekable() }.alternatives())
}

/// The strings a token rule of the grammar accepts (a pattern, a string or
/// a choice of them, inside `token` or `token.immediate`).
fn accepted(grammar: &serde_json::Value, rule: &str) -> Set {
    fn walk(node: &serde_json::Value) -> Set {
        match node["type"].as_str().expect("a rule has a type") {
            "TOKEN" | "IMMEDIATE_TOKEN" | "PREC" => walk(&node["content"]),
            "PATTERN" => expand_pattern(node["value"].as_str().expect("a pattern")),
            "STRING" => [node["value"].as_str().expect("a string").to_owned()].into(),
            "CHOICE" => node["members"].as_array().expect("members").iter().flat_map(walk).collect(),
            other => panic!("a token rule holds {other}"),
        }
    }
    walk(&grammar["rules"][rule])
}

fn strings(chars: impl IntoIterator<Item = char>) -> Set {
    chars.into_iter().map(String::from).collect()
}

/// Every piece or pawn letter of the lexicon as it may be written: each
/// letter of each language, each of its characters also as one of that
/// language's look-alikes (`Kp` for `Кр`). Computed here at run time, apart
/// from the compile-time sets, to check those too.
fn written_letters() -> Set {
    let mut out = Set::new();
    for row in LANGUAGES {
        let letters = row.pieces.iter().chain(row.pieces_also.iter().flatten()).chain(row.pawns);
        for letter in letters {
            let mut forms: Set = [String::new()].into();
            for c in letter.chars() {
                let written: Vec<char> = std::iter::once(c)
                    .chain(
                        row.lookalikes
                            .iter()
                            .chain(row.transliterations)
                            .filter(|(_, meant)| *meant == c)
                            .map(|(w, _)| *w),
                    )
                    .collect();
                forms = forms.iter().flat_map(|f| written.iter().map(move |w| format!("{f}{w}"))).collect();
            }
            out.extend(forms);
        }
    }
    out
}

#[track_caller]
fn same(grammar: &serde_json::Value, rule: &str, lexicon: &Set) {
    let grammar_set = accepted(grammar, rule);
    let only_grammar: Vec<_> = grammar_set.difference(lexicon).collect();
    let only_lexicon: Vec<_> = lexicon.difference(&grammar_set).collect();
    assert!(
        only_grammar.is_empty() && only_lexicon.is_empty(),
        "rule `{rule}`: the grammar alone accepts {only_grammar:?}, the lexicon alone lists {only_lexicon:?}"
    );
}

#[test]
fn agrees_with_the_grammar() {
    let g = grammar();
    let letters = written_letters();
    same(&g, "piece", &letters);
    same(&g, "_piece_imm", &letters);
    let mut promoted = letters.clone();
    promoted.extend(strings(UCI_PROMOTION_LETTERS));
    same(&g, "_promoted_imm", &promoted);

    let files = strings(FILES.chain(FILE_LOOKALIKES.map(|(w, _)| w)));
    let ranks = strings(RANKS.chain(RANK_LOOKALIKES.map(|(w, _)| w)));
    same(&g, "file", &files);
    same(&g, "_file_imm", &files);
    same(&g, "_rank_imm", &strings(RANKS.chain(ORIGIN_RANK_LOOKALIKES.map(|(w, _)| w))));
    let squares: Set = files.iter().flat_map(|f| ranks.iter().map(move |r| format!("{f}{r}"))).collect();
    same(&g, "square", &squares);
    same(&g, "_square_imm", &squares);

    same(&g, "_capture_imm", &strings(CAPTURE_SIGNS));
    same(&g, "_dash_imm", &strings(DASHES));
    same(&g, "_check_imm", &CHECK_MARKS.map(String::from).into());
    same(&g, "_annotation_imm", &ANNOTATIONS.map(String::from).into());
    same(&g, "_novelty_imm", &[NOVELTY.to_owned()].into());
    same(&g, "_equals_imm", &strings(PROMOTION_SIGNS));

    let mut castling = Set::new();
    for a in CASTLING_LETTERS {
        for d in DASHES {
            for b in CASTLING_LETTERS {
                castling.insert(format!("{a}{d}{b}"));
                for e in DASHES {
                    for c in CASTLING_LETTERS {
                        castling.insert(format!("{a}{d}{b}{e}{c}"));
                    }
                }
            }
        }
    }
    same(&g, "castling", &castling);

    let mut en_passant = Set::new();
    let optional = |c: char| [String::new(), c.to_string()];
    for e in EN_PASSANT_LETTERS[0] {
        for p in EN_PASSANT_LETTERS[1] {
            for dot1 in optional('.') {
                for space in optional(' ') {
                    for dot2 in optional('.') {
                        en_passant.insert(format!("{e}{dot1}{space}{p}{dot2}"));
                    }
                }
            }
        }
    }
    same(&g, "en_passant", &en_passant);
    same(&g, "_en_passant_imm", &en_passant);

    let sides: Set = SIDE_LABELS.iter().flat_map(|(l, _)| [format!("{l}:"), format!("{l} :")]).collect();
    same(&g, "side", &sides);
    same(&g, "pawns_label", &PAWN_LABELS.map(String::from).into());

    let mut numbers: Set = ["...".to_owned(), ELLIPSIS.to_string(), SPACED_DOTS.to_owned()].into();
    let ends = std::iter::once(String::new())
        .chain(MOVE_NUMBER_DOTS.map(String::from))
        .chain([ELLIPSIS.to_string(), MOVE_NUMBER_BRACKET.to_string()]);
    let ends: Vec<String> = ends.collect();
    for digit in '0'..='9' {
        for bidi in std::iter::once(String::new()).chain(BIDI_MARKS.map(String::from)) {
            for end in &ends {
                numbers.insert(format!("{digit}{bidi}{end}"));
            }
        }
    }
    same(&g, "move_number", &numbers);
}

#[test]
fn the_pattern_expansion_reads_classes_groups_and_options() {
    let set = |items: &[&str]| -> Set { items.iter().map(|s| s.to_string()).collect() };
    assert_eq!(expand_pattern("[a-c]x?"), set(&["a", "b", "c", "ax", "bx", "cx"]));
    assert_eq!(expand_pattern("ab|(c|d)\\.?"), set(&["ab", "c", "d", "c.", "d."]));
    assert_eq!(expand_pattern("[-–]|\\+\\+"), set(&["-", "–", "++"]));
    assert_eq!(expand_pattern("[\\u200E]"), set(&["\u{200E}"]));
}

#[test]
fn compile_time_sets_are_the_tables() {
    for letter in written_letters() {
        assert_eq!(piece_len(&letter), Some(letter.len()), "{letter}");
    }
    assert_eq!(piece_len("Кf3"), Some("К".len()));
    assert_eq!(piece_len("Kpg1"), Some(2));
    assert_eq!(piece_len("pe4"), Some(1));
    for c in ['a', 'x', 'E', 'k', 'q', 'ж', '1', ' '] {
        assert!(!is_single_letter(c), "{c}");
    }
    // `Кр`, `Kp`, `Кp`, `Kр` and the transliterated `Kr`, `Кr`.
    assert_eq!(double_letters_written().len(), 6);
    assert_eq!(SIDE_LABELS.len(), 14);
    assert_eq!(PAWN_LABELS.len(), 9);
    assert_eq!(side_of("Белые:"), Some(Side::White));
    assert_eq!(side_of("Черные :"), Some(Side::Black));
    assert_eq!(side_of("Weiss:"), Some(Side::White));
    assert_eq!(side_of("Negras:"), Some(Side::Black));
    assert_eq!(pawn_label_at("пп. a3"), Some("пп."));
    for c in ['Б', 'Ч', 'W', 'B', 'S', 'N'] {
        assert!(SIDE_INITIALS.contains(c), "{c}");
    }
    assert!(is_lower_case_pawn_letter('p') && is_lower_case_pawn_letter('п'));
    assert!(!is_lower_case_pawn_letter('b') && !is_lower_case_pawn_letter('P'));
    // No label is the start of another, so the order they are tried in
    // does not matter.
    let labels: Vec<&str> = SIDE_LABELS.iter().map(|(l, _)| *l).chain(PAWN_LABELS).collect();
    for a in &labels {
        for b in &labels {
            assert!(a == b || !b.starts_with(a), "{a} starts {b}");
        }
    }
    // No pawn letter may shadow a piece letter of the same language.
    for row in LANGUAGES {
        for pawn in row.pawns {
            assert!(!row.pieces.contains(pawn), "{} {pawn}", row.code);
        }
    }
}
