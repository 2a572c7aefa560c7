//! Writes deterministic PGN text shaped like real files, so that the benchmark
//! needs no corpus: tag sections, plausible SAN, comments, variations, NAGs.
//!
//! The moves are not legal chess; they only have the mix of shapes that real
//! games have (pawn pushes and captures, piece moves with and without
//! disambiguation, castling once per side, checks, rare promotions), because
//! the parser's cost depends on the tokens, not on the position.

/// The piece letters and conventions of one notation language.
pub struct Letters {
    /// King, queen, rook, bishop, knight.
    pub pieces: [&'static str; 5],
    /// Capture signs to pick from (Russian books write `:` as well as `x`).
    pub captures: &'static [&'static str],
    /// Short and long castling.
    pub castling: [&'static str; 2],
    /// Names for the White and Black tags.
    pub players: &'static [&'static str],
    /// Places for the Event and Site tags.
    pub places: &'static [&'static str],
    /// Words for comments, separated by spaces.
    pub words: &'static str,
}

/// English SAN, as nearly every PGN file writes it.
pub const ENGLISH: Letters = Letters {
    pieces: ["K", "Q", "R", "B", "N"],
    captures: &["x"],
    castling: ["O-O", "O-O-O"],
    players: &[
        "Carlsen, Magnus",
        "Nepomniachtchi, Ian",
        "Caruana, Fabiano",
        "Ding, Liren",
        "Firouzja, Alireza",
        "So, Wesley",
        "Giri, Anish",
        "Aronian, Levon",
    ],
    places: &["Wijk aan Zee NED", "Stavanger NOR", "Saint Louis USA", "Berlin GER"],
    words: "the knight is better than bishop here White keeps pressure on file with an edge \
            Black equalises after exchange novelty",
};

/// Russian book notation: Кр Ф Л С К, zeros in castling, `:` now and then.
pub const RUSSIAN: Letters = Letters {
    pieces: ["Кр", "Ф", "Л", "С", "К"],
    captures: &["x", "x", ":"],
    castling: ["0-0", "0-0-0"],
    players: &[
        "Ботвинник, Михаил",
        "Смыслов, Василий",
        "Таль, Михаил",
        "Петросян, Тигран",
        "Спасский, Борис",
        "Карпов, Анатолий",
        "Каспаров, Гарри",
        "Крамник, Владимир",
    ],
    places: &["Москва", "Ленинград", "Тбилиси", "Киев"],
    words: "белые сохраняют перевес конь сильнее слона черные уравняли после размена ферзей \
            новинка лучше было с идеей атаки на короля ход",
};

/// A small, fast, deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with the given chance in percent.
    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.below(items.len())]
    }
}

const FILES: &[u8] = b"abcdefgh";

/// Writes games until the text is at least `min_bytes` long.
pub fn pgn(letters: &Letters, min_bytes: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut text = String::with_capacity(min_bytes + 4096);
    let mut round = 1;
    while text.len() < min_bytes {
        game(&mut rng, letters, round, &mut text);
        round += 1;
    }
    text
}

fn game(rng: &mut Rng, letters: &Letters, round: usize, out: &mut String) {
    let result = ["1-0", "0-1", "1/2-1/2", "1/2-1/2", "*"][rng.below(5)];
    let white = rng.pick(letters.players);
    let black = rng.pick(letters.players);
    let place = rng.pick(letters.places);
    out.push_str(&format!("[Event \"{place} {}\"]\n", 1990 + rng.below(35)));
    out.push_str(&format!("[Site \"{place}\"]\n"));
    out.push_str(&format!("[Date \"{}.{:02}.{:02}\"]\n", 1990 + rng.below(35), 1 + rng.below(12), 1 + rng.below(28)));
    out.push_str(&format!("[Round \"{}.{}\"]\n", round % 13 + 1, rng.below(8) + 1));
    out.push_str(&format!("[White \"{white}\"]\n[Black \"{black}\"]\n"));
    out.push_str(&format!("[Result \"{result}\"]\n"));
    // Three optional tags, so that a section holds 7 to 10 tags.
    if rng.percent(70) {
        out.push_str(&format!("[WhiteElo \"{}\"]\n", 2500 + rng.below(300)));
        out.push_str(&format!("[BlackElo \"{}\"]\n", 2500 + rng.below(300)));
    }
    if rng.percent(60) {
        out.push_str(&format!("[ECO \"{}{:02}\"]\n", ["A", "B", "C", "D", "E"][rng.below(5)], rng.below(100)));
    }
    out.push('\n');

    let mut line = Line { out, column: 0, needs_black_number: false };
    let plies = 60 + rng.below(41);
    let mut castled = [false, false];
    for ply in 0..plies {
        let number = ply / 2 + 1;
        let white_to_move = ply.is_multiple_of(2);
        if white_to_move {
            line.word(&format!("{number}."));
        } else if line.needs_black_number {
            line.word(&format!("{number}..."));
        }
        line.needs_black_number = false;
        let mv = san(rng, letters, ply, &mut castled[ply % 2]);
        line.word(&mv);
        if rng.percent(3) {
            line.word(&format!("${}", [1, 2, 6, 10, 13, 14, 15, 16, 17, 18][rng.below(10)]));
        }
        if rng.percent(4) {
            line.comment(rng, letters);
            line.needs_black_number = white_to_move;
        }
        if rng.percent(3) {
            variation(rng, letters, &mut line, ply, 0);
            line.needs_black_number = white_to_move;
        }
    }
    line.word(result);
    out.push_str("\n\n");
}

/// Writes a variation that replaces the ply just written, sometimes with a
/// variation of its own.
fn variation(rng: &mut Rng, letters: &Letters, line: &mut Line, ply: usize, depth: usize) {
    line.word("(");
    let length = 2 + rng.below(7);
    let mut castled = true;
    for offset in 0..length {
        let ply = ply + offset;
        let number = ply / 2 + 1;
        if ply.is_multiple_of(2) {
            line.word(&format!("{number}."));
        } else if offset == 0 {
            line.word(&format!("{number}..."));
        }
        let mut mv = san(rng, letters, ply, &mut castled);
        if rng.percent(8) {
            mv.push_str(["!", "?", "!?", "?!"][rng.below(4)]);
        }
        line.word(&mv);
        if depth < 3 && offset > 0 && rng.percent(8) {
            variation(rng, letters, line, ply, depth + 1);
        }
    }
    if rng.percent(25) {
        line.comment(rng, letters);
    }
    line.word(")");
}

/// One plausible SAN move. Shapes are weighted roughly like master games.
fn san(rng: &mut Rng, letters: &Letters, ply: usize, castled: &mut bool) -> String {
    let mut mv = String::with_capacity(8);
    let square = |rng: &mut Rng, mv: &mut String| {
        mv.push(FILES[rng.below(8)] as char);
        mv.push((b'1' + rng.below(8) as u8) as char);
    };
    let roll = rng.below(100);
    if !*castled && ply > 6 && rng.percent(20) {
        *castled = true;
        mv.push_str(letters.castling[usize::from(rng.percent(25))]);
    } else if roll < 22 {
        // A pawn push, rarely a promotion.
        if ply > 60 && rng.percent(10) {
            mv.push(FILES[rng.below(8)] as char);
            mv.push(if ply.is_multiple_of(2) { '8' } else { '1' });
            mv.push('=');
            mv.push_str(letters.pieces[1]);
        } else {
            square(rng, &mut mv);
        }
    } else if roll < 30 {
        // A pawn capture.
        mv.push(FILES[rng.below(8)] as char);
        mv.push_str(rng.pick(letters.captures));
        square(rng, &mut mv);
    } else {
        // A piece move: knights, bishops, rooks, queen and king.
        let piece = [4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 0][rng.below(12)];
        mv.push_str(letters.pieces[piece]);
        if piece != 0 && rng.percent(6) {
            if rng.percent(80) {
                mv.push(FILES[rng.below(8)] as char);
            } else {
                mv.push((b'1' + rng.below(8) as u8) as char);
            }
        }
        if rng.percent(22) {
            mv.push_str(rng.pick(letters.captures));
        }
        square(rng, &mut mv);
    }
    if rng.percent(7) {
        mv.push('+');
    }
    mv
}

/// Fills lines up to 79 columns, as PGN exporters do.
struct Line<'o> {
    out: &'o mut String,
    column: usize,
    needs_black_number: bool,
}

impl Line<'_> {
    fn word(&mut self, word: &str) {
        let width = word.chars().count();
        if self.column > 0 && self.column + 1 + width > 79 {
            self.out.push('\n');
            self.column = 0;
        } else if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(word);
        self.column += width;
    }

    fn comment(&mut self, rng: &mut Rng, letters: &Letters) {
        let words: Vec<&str> = letters.words.split_whitespace().collect();
        let mut text = String::from("{");
        for i in 0..3 + rng.below(10) {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(rng.pick(&words));
        }
        text.push('}');
        // Comments are written word by word, so long ones wrap too.
        for word in text.split(' ') {
            self.word(word);
        }
    }
}
