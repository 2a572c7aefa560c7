//! Deterministic random legal games written as PGN in any notation style, with the byte range of every move so that tests can inject faults at exact places.
//!
//! ```
//! use chess_ls::analysis::languages::{Language, MoveStyle};
//! use chess_ls_tests::generate::{random_game, render_game, RenderOptions};
//!
//! let moves = random_game(42, 40);
//! let game = render_game(&moves, &MoveStyle::for_language(Language::Ru), &RenderOptions::default());
//! let first = &game.moves[0];
//! assert_eq!(&game.text[first.byte_range.clone()], first.san);
//! ```

use std::ops::Range;

use chess_ls::analysis::languages::{MoveStyle, render_move};
use shakmaty::{Chess, Color, Move, Position};

/// The splitmix64 generator: tiny, fast and good enough to pick moves, and
/// written here so that a seed means the same game on every machine and in
/// every future version (a crate's generator may change its stream).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`. The multiply-shift keeps the bias negligible for
    /// the small `n` used here (a few dozen legal moves).
    ///
    /// # Panics
    ///
    /// Panics if `n` is zero, since no number is below it.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "SplitMix64::below(0)");
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A random legal game from the initial position: each ply picks uniformly
/// among the legal moves, and the game stops at mate, stalemate, a dead
/// position, before the move after which a draw could first be claimed
/// (threefold repetition, fifty moves without a capture or pawn move: a
/// generated game has nothing to report) or after `max_plies`. The same
/// seed always gives the same game.
pub fn random_game(seed: u64, max_plies: usize) -> Vec<Move> {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    let mut repetitions = Repetitions::default();
    repetitions.record(&pos);
    while moves.len() < max_plies && !repetitions.ended(&pos) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.play_unchecked(m);
        repetitions.record(&pos);
        if repetitions.claimable(&pos) {
            break;
        }
        moves.push(m);
    }
    moves
}

/// How often each position of a game has stood since the last capture or
/// pawn move, counted as the Laws count them (9.2.2), to end a generated
/// game where the Laws end it.
#[derive(Debug, Default)]
pub struct Repetitions {
    seen: std::collections::HashMap<u64, usize>,
    most: usize,
}

impl Repetitions {
    pub fn record(&mut self, pos: &Chess) {
        if pos.halfmoves() == 0 {
            self.seen.clear();
        }
        let hash = pos.zobrist_hash::<shakmaty::zobrist::Zobrist64>(shakmaty::EnPassantMode::Legal).0;
        let count = self.seen.entry(hash).or_insert(0);
        *count += 1;
        self.most = *count;
    }

    /// Whether a draw can be claimed at `pos`, the latest position
    /// recorded: threefold repetition (9.2) or fifty moves (9.3).
    pub fn claimable(&self, pos: &Chess) -> bool {
        self.most >= 3 || pos.halfmoves() >= 100
    }

    /// Whether the game is over by rule at `pos`, the latest position
    /// recorded: a dead position, fivefold repetition or 75 moves.
    pub fn ended(&self, pos: &Chess) -> bool {
        self.most >= 5 || pos.halfmoves() >= 150 || chess_ls::analysis::laws::dead(pos).is_some()
    }
}

/// How a game is laid out as text, apart from how each move is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// Write the Seven Tag Roster before the moves; without it the text is
    /// bare movetext, as in books.
    pub headers: bool,
    /// Break lines so that none is longer than this many characters (PGN
    /// export uses 80); `None` keeps all moves on one line.
    pub wrap_column: Option<usize>,
    /// `1. e4` rather than `1.e4`; real files have both.
    pub space_after_move_number: bool,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions { headers: true, wrap_column: Some(80), space_after_move_number: true }
    }
}

/// One move of a rendered game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedMove {
    /// Index in the game's move list: 0 is White's first move.
    pub ply: usize,
    /// Where the move's text is in [`RenderedGame::text`], without the move
    /// number before it.
    pub byte_range: Range<usize>,
    /// The move as written in the style (called SAN because in the default
    /// style it is exactly SAN with its check mark).
    pub san: String,
    /// The move that was played, so that a test can pick, say, a capture.
    pub chess_move: Move,
}

/// A game as text, plus where each move is in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedGame {
    /// Headers (if asked), a blank line, the movetext and the result token,
    /// ending in a newline.
    pub text: String,
    pub moves: Vec<RenderedMove>,
    /// The result token, also written in the `Result` tag.
    pub result: &'static str,
}

/// The result that the final position proves: the mated side loses, a
/// stalemate, a dead position or 75 moves without a capture or pawn move is
/// `1/2-1/2`, and an unfinished game is `*`.
pub fn result_of(pos: &Chess) -> &'static str {
    if pos.is_checkmate() {
        match pos.turn() {
            Color::White => "0-1",
            Color::Black => "1-0",
        }
    } else if pos.is_stalemate() || chess_ls::analysis::laws::dead(pos).is_some() || pos.halfmoves() >= 150 {
        "1/2-1/2"
    } else {
        "*"
    }
}

/// The game as PGN text in `style`, from the initial position.
///
/// # Panics
///
/// Panics if a move is not legal where it is played, because a test that
/// builds an illegal game by mistake should fail loudly, not write garbage.
pub fn render_game(moves: &[Move], style: &MoveStyle, opts: &RenderOptions) -> RenderedGame {
    render_game_in_round(moves, style, opts, None)
}

fn render_game_in_round(moves: &[Move], style: &MoveStyle, opts: &RenderOptions, round: Option<usize>) -> RenderedGame {
    let mut pos = Chess::default();
    let mut movetext = Movetext::new(opts.wrap_column);
    let mut rendered = Vec::with_capacity(moves.len());
    let mut repetitions = Repetitions::default();
    repetitions.record(&pos);
    for (ply, &m) in moves.iter().enumerate() {
        assert!(pos.is_legal(m), "ply {ply}: {m:?} is not legal");
        let san = render_move(&pos, &m, style);
        let number = if pos.turn() == Color::White {
            let space = if opts.space_after_move_number { " " } else { "" };
            format!("{}.{space}", pos.fullmoves())
        } else {
            String::new()
        };
        let byte_range = movetext.push(&number, &san);
        rendered.push(RenderedMove { ply, byte_range, san, chess_move: m });
        pos.play_unchecked(m);
        repetitions.record(&pos);
    }
    let result = if repetitions.ended(&pos) && !pos.is_checkmate() { "1/2-1/2" } else { result_of(&pos) };
    movetext.push("", result);

    let mut text = String::with_capacity(movetext.text.len() + 200);
    if opts.headers {
        let round = round.map_or_else(|| "?".to_owned(), |round| round.to_string());
        // A real date rather than `????.??.??`, so that a generated file
        // raises no `tag` warning whatever the checker thinks of unknown dates.
        for (name, value) in [
            ("Event", "chess-ls random game"),
            ("Site", "?"),
            ("Date", "2000.01.01"),
            ("Round", &round),
            ("White", "?"),
            ("Black", "?"),
            ("Result", result),
        ] {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        text.push('\n');
    }
    let offset = text.len();
    text.push_str(&movetext.text);
    text.push('\n');
    for m in &mut rendered {
        m.byte_range = m.byte_range.start + offset..m.byte_range.end + offset;
    }
    RenderedGame { text, moves: rendered, result }
}

/// Movetext being laid out in lines, counting characters (not bytes, since
/// Cyrillic letters and figurines take several bytes each).
struct Movetext {
    text: String,
    line_chars: usize,
    wrap_column: Option<usize>,
}

impl Movetext {
    fn new(wrap_column: Option<usize>) -> Movetext {
        Movetext { text: String::new(), line_chars: 0, wrap_column }
    }

    /// Appends a move with its move number (kept on the same line, so that
    /// no line starts with a bare move that looks like Black's) and returns
    /// the byte range of the move alone.
    fn push(&mut self, number: &str, token: &str) -> Range<usize> {
        let chars = number.chars().count() + token.chars().count();
        if self.line_chars > 0 {
            let fits = self.wrap_column.is_none_or(|column| self.line_chars + 1 + chars <= column);
            if fits {
                self.text.push(' ');
                self.line_chars += 1;
            } else {
                self.text.push('\n');
                self.line_chars = 0;
            }
        }
        self.text.push_str(number);
        let start = self.text.len();
        self.text.push_str(token);
        self.line_chars += chars;
        start..self.text.len()
    }
}

/// Many random games concatenated, separated by a blank line, each with its
/// own round number: the input of benchmarks (about 1 KB a game, so some
/// 10,000 games make 10 MB). Game lengths vary from 10 to 299 plies so that
/// short and long games both occur.
pub fn corpus(seed: u64, games: usize, style: &MoveStyle, opts: &RenderOptions) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::new();
    for round in 1..=games {
        let game_seed = rng.next_u64();
        let max_plies = 10 + rng.below(290);
        let moves = random_game(game_seed, max_plies);
        if round > 1 {
            out.push('\n');
        }
        out.push_str(&render_game_in_round(&moves, style, opts, Some(round)).text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess_ls::analysis::languages::Language;
    use shakmaty::san::SanPlus;

    #[test]
    fn same_seed_same_game() {
        assert_eq!(random_game(1, 200), random_game(1, 200));
        assert_ne!(random_game(1, 200), random_game(2, 200));
        assert_eq!(random_game(3, 17).len(), 17);
        assert!(random_game(3, 0).is_empty());
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(0);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[rng.below(7)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn games_are_legal_and_end_where_the_game_ends() {
        for seed in 0..30 {
            let moves = random_game(seed, 400);
            let mut pos = Chess::default();
            for &m in &moves {
                assert!(pos.is_legal(m));
                pos.play_unchecked(m);
            }
            if moves.len() < 400 {
                // Over by the Laws, or one move short of a draw claim.
                let claim_next = pos.legal_moves().iter().any(|&m| {
                    let mut repetitions = Repetitions::default();
                    let mut replay = Chess::default();
                    repetitions.record(&replay);
                    for &played in moves.iter().chain([&m]) {
                        replay.play_unchecked(played);
                        repetitions.record(&replay);
                    }
                    repetitions.claimable(&replay)
                });
                let over = pos.is_game_over() || chess_ls::analysis::laws::dead(&pos).is_some();
                assert!(over || claim_next, "seed {seed} stopped early");
            }
        }
    }

    #[test]
    fn byte_ranges_point_at_the_moves() {
        for language in [Language::En, Language::Ru, Language::Figurine] {
            let style = MoveStyle { figurine_black: true, ..MoveStyle::for_language(language) };
            let moves = random_game(5, 120);
            let game = render_game(&moves, &style, &RenderOptions::default());
            assert_eq!(game.moves.len(), moves.len());
            for (ply, m) in game.moves.iter().enumerate() {
                assert_eq!(m.ply, ply);
                assert_eq!(&game.text[m.byte_range.clone()], m.san);
                assert_eq!(m.chess_move, moves[ply]);
            }
        }
    }

    #[test]
    fn english_text_replays_with_shakmaty() {
        let moves = random_game(9, 150);
        let opts = RenderOptions { headers: false, ..RenderOptions::default() };
        let game = render_game(&moves, &MoveStyle::default(), &opts);
        let mut pos = Chess::default();
        let mut replayed = Vec::new();
        for token in game.text.split_whitespace() {
            if token.ends_with('.') || token == game.result {
                continue;
            }
            let m = token.parse::<SanPlus>().expect("SAN").san.to_move(&pos).expect("legal");
            pos.play_unchecked(m);
            replayed.push(m);
        }
        assert_eq!(replayed, moves);
        assert!(game.text.starts_with("1. "));
    }

    #[test]
    fn lines_are_wrapped() {
        let moves = random_game(11, 300);
        let style = MoveStyle::for_language(Language::Ru);
        let game = render_game(&moves, &style, &RenderOptions::default());
        assert!(game.text.lines().count() > 5);
        assert!(game.text.lines().all(|line| line.chars().count() <= 80));
        let one_line = RenderOptions { headers: false, wrap_column: None, ..RenderOptions::default() };
        assert_eq!(render_game(&moves, &style, &one_line).text.lines().count(), 1);
        let tight = RenderOptions { space_after_move_number: false, ..one_line };
        assert!(render_game(&moves, &style, &tight).text.starts_with("1."));
    }

    #[test]
    fn headers_carry_the_result() {
        let moves = random_game(13, 60);
        let game = render_game(&moves, &MoveStyle::default(), &RenderOptions::default());
        assert!(game.text.starts_with("[Event \"chess-ls random game\"]\n"));
        assert!(game.text.contains(&format!("[Result \"{}\"]\n\n1. ", game.result)));
        assert!(game.text.trim_end().ends_with(game.result));
    }

    #[test]
    fn results_from_final_positions() {
        // Fool's mate: 1. f3 e5 2. g4 Qh4#.
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for san in ["f3", "e5", "g4", "Qh4#"] {
            let m = san.parse::<SanPlus>().unwrap().san.to_move(&pos).unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let game = render_game(&moves, &MoveStyle::default(), &RenderOptions::default());
        assert_eq!(game.result, "0-1");
        assert!(game.text.ends_with("1. f3 e5 2. g4 Qh4# 0-1\n"));
        assert_eq!(render_game(&[], &MoveStyle::default(), &RenderOptions::default()).result, "*");
        // Over many seeds every kind of ending turns up and matches the board.
        let mut endings = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let moves = random_game(seed, 1000);
            let mut pos = Chess::default();
            for &m in &moves {
                pos.play_unchecked(m);
            }
            let game = render_game(&moves, &MoveStyle::default(), &RenderOptions::default());
            assert_eq!(game.result, result_of(&pos));
            endings.insert(game.result);
        }
        assert!(endings.contains("1/2-1/2"));
        assert!(endings.contains("1-0") || endings.contains("0-1"));
    }

    #[test]
    fn corpus_is_deterministic_and_separated() {
        let style = MoveStyle::default();
        let opts = RenderOptions::default();
        let text = corpus(21, 5, &style, &opts);
        assert_eq!(text, corpus(21, 5, &style, &opts));
        assert_eq!(text.matches("[Event ").count(), 5);
        assert_eq!(text.matches("\n\n[Event ").count(), 4);
        assert!(text.contains("[Round \"5\"]"));
    }
}
