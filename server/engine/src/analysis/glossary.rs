//! What annotation symbols, NAGs and tags mean, for hovers, and the names
//! of the characters look-alike messages name.

/// The meaning of a NAG (`$1`..`$255`, PGN standard section 10).
pub fn nag(number: u32) -> Option<&'static str> {
    Some(match number {
        0 => "null annotation",
        1 => "good move (!)",
        2 => "poor move, mistake (?)",
        3 => "very good, brilliant move (!!)",
        4 => "very poor move, blunder (??)",
        5 => "speculative, interesting move (!?)",
        6 => "questionable, dubious move (?!)",
        7 => "forced move, all others lose (□)",
        8 => "singular move, no reasonable alternative",
        9 => "worst move",
        10 => "drawish position (=)",
        11 => "equal chances, quiet position (=)",
        12 => "equal chances, active position",
        13 => "unclear position (∞)",
        14 => "White has a slight advantage (⩲)",
        15 => "Black has a slight advantage (⩱)",
        16 => "White has a moderate advantage (±)",
        17 => "Black has a moderate advantage (∓)",
        18 => "White has a decisive advantage (+-)",
        19 => "Black has a decisive advantage (-+)",
        20 => "White has a crushing advantage",
        21 => "Black has a crushing advantage",
        22 => "White is in zugzwang (⨀)",
        23 => "Black is in zugzwang (⨀)",
        32 => "White has a moderate time (development) advantage (⟳)",
        33 => "Black has a moderate time (development) advantage (⟳)",
        36 => "White has the initiative (→)",
        37 => "Black has the initiative (→)",
        40 => "White has the attack (↑)",
        41 => "Black has the attack (↑)",
        44 => "White has sufficient compensation for the material deficit (=/∞)",
        45 => "Black has sufficient compensation for the material deficit (=/∞)",
        132 => "White has moderate counterplay (⇆)",
        133 => "Black has moderate counterplay (⇆)",
        138 => "White has severe time control pressure (⊕)",
        139 => "Black has severe time control pressure (⊕)",
        140 => "with the idea (∆)",
        142 => "better is (⌓)",
        145 => "editorial comment (RR)",
        146 => "novelty (N)",
        _ => return None,
    })
}

/// The meaning of a stand-alone or attached annotation glyph.
pub fn glyph(text: &str) -> Option<&'static str> {
    Some(match text {
        "!" => "good move ($1)",
        "?" => "mistake ($2)",
        "!!" | "‼" => "brilliant move ($3)",
        "??" | "⁇" => "blunder ($4)",
        "!?" | "⁉" => "interesting move ($5)",
        "?!" | "⁈" => "dubious move ($6)",
        "□" => "only move ($7)",
        "=" => "equal position ($10)",
        "∞" => "unclear position ($13)",
        "⩲" | "+=" | "+/=" => "White is slightly better ($14)",
        "⩱" | "=+" | "=/+" => "Black is slightly better ($15)",
        "±" | "+/-" => "White is better ($16)",
        "∓" | "-/+" => "Black is better ($17)",
        "+-" | "+−" => "White is winning ($18)",
        "-+" | "−+" => "Black is winning ($19)",
        "⨀" => "zugzwang ($22)",
        "→" => "initiative ($36)",
        "↑" => "attack ($40)",
        "=/∞" | "∞/=" => "compensation for the material ($44)",
        "⇆" => "counterplay ($132)",
        "⊕" => "time trouble ($138)",
        "∆" | "△" | "Δ" => "with the idea ($140)",
        "⌓" => "better is ($142)",
        "N" => "novelty ($146)",
        "TN" => "theoretical novelty ($146)",
        "(=)" | "(=)." => "draw offer (FIDE Laws 8.1.5 and Appendix C.12)",
        _ => return None,
    })
}

/// What a tag of the PGN standard holds.
pub fn tag(name: &str) -> Option<&'static str> {
    Some(match name {
        "Event" => "the name of the tournament or match",
        "Site" => "where the game was played: city, region, country (IOC code)",
        "Date" => "the date the game started, YYYY.MM.DD (?? for unknown parts)",
        "Round" => "the round of the event",
        "White" => "the player with the white pieces, \"Last, First\"",
        "Black" => "the player with the black pieces, \"Last, First\"",
        "Result" => "the result: 1-0, 0-1, 1/2-1/2, or * (unknown, unfinished)",
        "FEN" => "the position the game starts from (Forsyth-Edwards Notation)",
        "SetUp" => "\"1\" when the FEN tag gives the start position",
        "Variant" => "the rules the game follows (e.g. Chess960)",
        "ECO" => "the opening's code in the Encyclopaedia of Chess Openings",
        "Opening" => "the name of the opening",
        "Variation" => "the name of the opening variation",
        "WhiteElo" => "White's Elo rating",
        "BlackElo" => "Black's Elo rating",
        "PlyCount" => "the number of half-moves of the game",
        "TimeControl" => "the time control, e.g. 40/7200:3600",
        "Termination" => "how the game ended (normal, time forfeit, adjudication, ...)",
        "Annotator" => "who annotated the game",
        "EventDate" => "the date the event started",
        "WhiteTitle" | "BlackTitle" => "the player's FIDE title (GM, IM, WGM, ...)",
        "WhiteFideId" | "BlackFideId" => "the player's FIDE identifier",
        "Mode" => "how the game was played: OTB, ICS, ...",
        _ => return None,
    })
}

/// The names of the Cyrillic letters U+0400..U+042F (capitals); the small
/// letters U+0430..U+044F and U+0450..U+045F carry the same names.
const CYRILLIC: [&str; 48] = [
    "IE WITH GRAVE",
    "IO",
    "DJE",
    "GJE",
    "UKRAINIAN IE",
    "DZE",
    "BYELORUSSIAN-UKRAINIAN I",
    "YI",
    "JE",
    "LJE",
    "NJE",
    "TSHE",
    "KJE",
    "I WITH GRAVE",
    "SHORT U",
    "DZHE",
    "A",
    "BE",
    "VE",
    "GHE",
    "DE",
    "IE",
    "ZHE",
    "ZE",
    "I",
    "SHORT I",
    "KA",
    "EL",
    "EM",
    "EN",
    "O",
    "PE",
    "ER",
    "ES",
    "TE",
    "U",
    "EF",
    "HA",
    "TSE",
    "CHE",
    "SHA",
    "SHCHA",
    "HARD SIGN",
    "YERU",
    "SOFT SIGN",
    "E",
    "YU",
    "YA",
];

/// The Unicode name of a character that look-alike messages name: Latin
/// letters, digits, Cyrillic letters, the chess figurines and the signs a
/// figurine font or a scanner leaves. `None` for any other character.
pub fn char_name(c: char) -> Option<String> {
    let cp = u32::from(c);
    Some(match c {
        'A'..='Z' => format!("LATIN CAPITAL LETTER {c}"),
        'a'..='z' => format!("LATIN SMALL LETTER {}", c.to_ascii_uppercase()),
        '0'..='9' => {
            const DIGITS: [&str; 10] = ["ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"];
            format!("DIGIT {}", DIGITS[(cp - u32::from('0')) as usize])
        }
        '\u{0400}'..='\u{042F}' => format!("CYRILLIC CAPITAL LETTER {}", CYRILLIC[(cp - 0x400) as usize]),
        '\u{0430}'..='\u{044F}' => format!("CYRILLIC SMALL LETTER {}", CYRILLIC[(cp - 0x420) as usize]),
        '\u{0450}'..='\u{045F}' => format!("CYRILLIC SMALL LETTER {}", CYRILLIC[(cp - 0x450) as usize]),
        'Ґ' => "CYRILLIC CAPITAL LETTER GHE WITH UPTURN".to_owned(),
        'ґ' => "CYRILLIC SMALL LETTER GHE WITH UPTURN".to_owned(),
        'Һ' => "CYRILLIC CAPITAL LETTER SHHA".to_owned(),
        'һ' => "CYRILLIC SMALL LETTER SHHA".to_owned(),
        '\u{2654}'..='\u{265F}' => {
            const PIECES: [&str; 6] = ["KING", "QUEEN", "ROOK", "BISHOP", "KNIGHT", "PAWN"];
            let i = (cp - 0x2654) as usize;
            format!("{} CHESS {}", if i < 6 { "WHITE" } else { "BLACK" }, PIECES[i % 6])
        }
        'ç' => "LATIN SMALL LETTER C WITH CEDILLA".to_owned(),
        '¢' => "CENT SIGN".to_owned(),
        '£' => "POUND SIGN".to_owned(),
        '¤' => "CURRENCY SIGN".to_owned(),
        '¥' => "YEN SIGN".to_owned(),
        '¦' => "BROKEN BAR".to_owned(),
        '§' => "SECTION SIGN".to_owned(),
        '×' => "MULTIPLICATION SIGN".to_owned(),
        '†' => "DAGGER".to_owned(),
        _ => return None,
    })
}

/// A character as look-alike messages name it: its code point and, where
/// [`char_name`] knows it, its name (`U+0435 CYRILLIC SMALL LETTER IE`).
pub fn code_point(c: char) -> String {
    match char_name(c) {
        Some(name) => format!("U+{:04X} {name}", u32::from(c)),
        None => format!("U+{:04X}", u32::from(c)),
    }
}

/// Every character of `text` as [`code_point`] names it, joined by commas
/// (a look-alike piece letter may be two characters, `Kp` for `Кр`).
pub fn code_points(text: &str) -> String {
    text.chars().map(code_point).collect::<Vec<_>>().join(", ")
}

/// The code points of `text` without their names (`U+041A, U+0440`), for
/// the character a look-alike stands for, which the message names already.
pub fn code_numbers(text: &str) -> String {
    text.chars().map(|c| format!("U+{:04X}", u32::from(c))).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_names_are_unicode_names() {
        // Checked against Python's unicodedata.name when the table was made.
        for (c, name) in [
            ('е', "CYRILLIC SMALL LETTER IE"),
            ('К', "CYRILLIC CAPITAL LETTER KA"),
            ('р', "CYRILLIC SMALL LETTER ER"),
            ('З', "CYRILLIC CAPITAL LETTER ZE"),
            ('х', "CYRILLIC SMALL LETTER HA"),
            ('і', "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"),
            ('Ё', "CYRILLIC CAPITAL LETTER IO"),
            ('я', "CYRILLIC SMALL LETTER YA"),
            ('һ', "CYRILLIC SMALL LETTER SHHA"),
            ('e', "LATIN SMALL LETTER E"),
            ('K', "LATIN CAPITAL LETTER K"),
            ('l', "LATIN SMALL LETTER L"),
            ('0', "DIGIT ZERO"),
            ('ç', "LATIN SMALL LETTER C WITH CEDILLA"),
            ('♘', "WHITE CHESS KNIGHT"),
            ('♟', "BLACK CHESS PAWN"),
            ('¤', "CURRENCY SIGN"),
        ] {
            assert_eq!(char_name(c).as_deref(), Some(name), "{c}");
        }
        assert_eq!(code_point('е'), "U+0435 CYRILLIC SMALL LETTER IE");
        assert_eq!(code_point('€'), "U+20AC");
        assert_eq!(code_numbers("Кр"), "U+041A, U+0440");
        assert_eq!(code_points("Kp"), "U+004B LATIN CAPITAL LETTER K, U+0070 LATIN SMALL LETTER P");
    }
}
