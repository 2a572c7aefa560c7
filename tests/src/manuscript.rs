//! Generated manuscripts: chapters of prose with random legal games in it,
//! split into runs across sentences and paragraphs, with variations in the
//! prose and diagrams (a FEN and the moves from it), as plain text,
//! Markdown or LaTeX with xskak. The input of the manuscript benchmark
//! (`bench/manuscript.sh`) and of tests that need a big book; every game
//! in it replays cleanly, so `chess-ls --check` finds nothing.

use chess_ls::analysis::languages::{Language, MoveStyle, render_move};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::generate::{SplitMix64, random_game};

/// The format of a generated manuscript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Text,
    Markdown,
    Latex,
}

impl Layout {
    pub fn extension(self) -> &'static str {
        match self {
            Layout::Text => "txt",
            Layout::Markdown => "md",
            Layout::Latex => "tex",
        }
    }
}

/// A generated manuscript and what it holds.
#[derive(Debug, Clone)]
pub struct Book {
    pub text: String,
    /// Games (chapters).
    pub games: usize,
    /// Runs of the games' moves, variations and diagram solutions: every
    /// unit of notation the checker finds.
    pub runs: usize,
}

struct Prose {
    leads: &'static [&'static str],
    sentences: &'static [&'static str],
    variation: &'static [&'static str],
    game: &'static str,
    diagram: &'static str,
}

fn prose(language: Language) -> Prose {
    match language {
        Language::Ru | Language::Uk => Prose {
            leads: &["Партия продолжалась так:", "Далее последовало", "В партии было", "Затем", "Игра пошла по пути"],
            sentences: &[
                "Белые стоят немного лучше.",
                "Эта позиция разбиралась в 1985 г. в журнале «64», стр. 12.",
                "Ходы e4 и d4 захватывают центр, а Кf3 развивает коня.",
                "Чёрные должны защищаться точно.",
                "Рис. 3. Позиция после долгого раздумья.",
                "По мнению комментатора, здесь было 2 или 3 хороших продолжения.",
                "Оба игрока находились в цейтноте.",
                "Глава 4. Миттельшпиль требует терпения.",
            ],
            variation: &["Интересно", "Заслуживало внимания", "Возможно было", "Слабее"],
            game: "Партия",
            diagram: "Позиция:",
        },
        Language::De => Prose {
            leads: &["Die Partie ging weiter mit", "Es folgte", "Weiß spielte", "Danach kam", "Der Verlauf war"],
            sentences: &[
                "Weiß steht etwas besser.",
                "Diese Stellung erschien 1985 in der Schachzeitung, S. 12.",
                "Die Züge e4 und d4 besetzen das Zentrum, Sf3 entwickelt.",
                "Schwarz muss genau verteidigen.",
                "Abb. 3. Die Stellung nach langem Nachdenken.",
                "Es gab hier 2 oder 3 gute Fortsetzungen.",
                "Beide Spieler waren in Zeitnot.",
                "Kapitel 4. Das Mittelspiel verlangt Geduld.",
            ],
            variation: &["Interessant war", "Erwägenswert war", "Möglich war", "Schwächer ist"],
            game: "Partie",
            diagram: "Stellung:",
        },
        Language::Fr => Prose {
            leads: &["La partie continua par", "Il suivit", "Les Blancs jouèrent", "Ensuite vint", "Le cours fut"],
            sentences: &[
                "Les Blancs sont un peu mieux.",
                "Cette position parut en 1985 dans la revue, p. 12.",
                "Les coups e4 et d4 occupent le centre, Cf3 développe.",
                "Les Noirs doivent défendre avec précision.",
                "Fig. 3. La position après une longue réflexion.",
                "Il y avait ici 2 ou 3 bonnes suites.",
                "Les deux joueurs étaient en zeitnot.",
                "Chapitre 4. Le milieu de partie demande de la patience.",
            ],
            variation: &["Intéressant était", "Méritait attention", "Possible était", "Plus faible est"],
            game: "Partie",
            diagram: "Position :",
        },
        _ => Prose {
            leads: &["The game went on", "There followed", "White played", "Then came", "The course of the game was"],
            sentences: &[
                "White is slightly better.",
                "This position appeared in 1985 in a magazine, page 12.",
                "The moves e4 and d4 take the centre, and Nf3 develops.",
                "Black must defend accurately.",
                "Figure 3. The position after a long think.",
                "There were 2 or 3 good continuations here.",
                "Both players were short of time.",
                "Chapter 4. The middlegame asks for patience.",
            ],
            variation: &["Interesting was", "Worth a look was", "Possible was", "Weaker is"],
            game: "Game",
            diagram: "Position:",
        },
    }
}

/// The phrases that lead into a run of moves in `language`'s prose
/// (`The game went on`), and sentences of prose between runs, as the
/// generated books write them (English for the languages without prose of
/// their own).
pub fn prose_words(language: Language) -> (&'static [&'static str], &'static [&'static str]) {
    let words = prose(language);
    (words.leads, words.sentences)
}

/// Moves from `pos` written as a run: `12. Nf3 Nc6 13. d4`, or starting
/// `12...Nc6` with Black.
fn run_text(pos: &Chess, moves: &[Move], style: &MoveStyle) -> String {
    let mut pos = pos.clone();
    let mut out = String::new();
    for (k, m) in moves.iter().enumerate() {
        if pos.turn() == Color::White {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(&format!("{}. ", pos.fullmoves()));
        } else if k == 0 {
            out.push_str(&format!("{}...", pos.fullmoves()));
        } else {
            out.push(' ');
        }
        out.push_str(&render_move(&pos, m, style));
        pos.play_unchecked(*m);
    }
    out
}

/// A random legal line of `n` plies (shorter when the game ends).
fn random_line(pos: &Chess, n: usize, rng: &mut SplitMix64) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for _ in 0..n {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

/// Lines of at most 80 characters (a run may be broken across lines, as in
/// a typeset book).
fn wrap(paragraph: &str) -> String {
    let mut out = String::with_capacity(paragraph.len() + paragraph.len() / 70);
    let mut column = 0;
    for word in paragraph.split(' ') {
        let len = word.chars().count();
        if column > 0 && column + 1 + len > 80 {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += len;
    }
    out
}

/// A book of at least `size` bytes.
pub fn book(seed: u64, size: usize, language: Language, layout: Layout) -> Book {
    let style = MoveStyle::for_language(language);
    let words = prose(language);
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    let (mut games, mut runs) = (0, 0);
    match layout {
        Layout::Latex => text.push_str("\\documentclass{book}\n\\usepackage{xskak}\n\\begin{document}\n\n"),
        Layout::Markdown => text.push_str("# Games\n\n"),
        Layout::Text => {}
    }
    let pick = |rng: &mut SplitMix64, list: &'static [&'static str]| list[rng.below(list.len())];
    while text.len() < size {
        games += 1;
        let moves = random_game(rng.next_u64(), 30 + rng.below(130));
        match layout {
            Layout::Latex => text.push_str(&format!("\\section{{{} {games}}}\n\\newchessgame\n", words.game)),
            Layout::Markdown => text.push_str(&format!("## {} {games}\n\n", words.game)),
            Layout::Text => text.push_str(&format!("{} {games}\n\n", words.game)),
        }
        let mut paragraph = String::from(pick(&mut rng, words.sentences));
        let mut pos = Chess::default();
        let mut ply = 0;
        while ply < moves.len() {
            let len = (4 + rng.below(13)).min(moves.len() - ply);
            let run = &moves[ply..ply + len];
            let written = run_text(&pos, run, &style);
            runs += 1;
            let fenced = layout == Layout::Markdown && rng.below(8) == 0;
            if fenced {
                text.push_str(&wrap(&paragraph));
                text.push_str(&format!("\n\n```pgn\n{written}\n```\n\n"));
                paragraph = String::from(pick(&mut rng, words.sentences));
            } else {
                let macro_ = layout == Layout::Latex && rng.below(2) == 0;
                let lead = pick(&mut rng, words.leads);
                let end = [",", ".", ";"][rng.below(3)];
                if macro_ {
                    paragraph.push_str(&format!(" {lead} \\mainline{{{written}}}{end}"));
                } else {
                    paragraph.push_str(&format!(" {lead} {written}{end}"));
                }
                paragraph.push(' ');
                paragraph.push_str(pick(&mut rng, words.sentences));
            }
            // A variation branching off inside the run just given.
            let positions: Vec<Chess> = run
                .iter()
                .scan(pos.clone(), |p, m| {
                    let before = p.clone();
                    p.play_unchecked(*m);
                    Some(before)
                })
                .collect();
            if rng.below(3) == 0 {
                let at = rng.below(len);
                let line = random_line(&positions[at], 2 + rng.below(5), &mut rng);
                if !line.is_empty() {
                    runs += 1;
                    let written = run_text(&positions[at], &line, &style);
                    let lead = pick(&mut rng, words.variation);
                    if layout == Layout::Latex && rng.below(2) == 0 {
                        paragraph.push_str(&format!(" {lead} \\variation{{{written}}}."));
                    } else {
                        paragraph.push_str(&format!(" {lead} {written}."));
                    }
                }
            }
            for m in run {
                pos.play_unchecked(*m);
            }
            ply += len;
            if rng.below(3) == 0 || ply == moves.len() {
                text.push_str(&wrap(paragraph.trim()));
                text.push_str("\n\n");
                paragraph = String::from(pick(&mut rng, words.sentences));
            }
        }
        // A diagram from the game, and moves from it.
        if games % 4 == 0 && !moves.is_empty() {
            let at = rng.below(moves.len());
            let mut diagram = Chess::default();
            for m in &moves[..at] {
                diagram.play_unchecked(*m);
            }
            let line = random_line(&diagram, 1 + rng.below(4), &mut rng);
            if !line.is_empty() {
                runs += 1;
                let fen = Fen::from_position(&diagram, EnPassantMode::Legal);
                let written = run_text(&diagram, &line, &style);
                match layout {
                    Layout::Latex => {
                        text.push_str(&format!("\\chessboard[setfen={fen}]\n{} {written}.\n\n", words.diagram))
                    }
                    _ => text.push_str(&format!("{} {fen}\n\n{written}.\n\n", words.diagram)),
                }
            }
        }
    }
    if layout == Layout::Latex {
        text.push_str("\\end{document}\n");
    }
    Book { text, games, runs }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_book() {
        let a = book(1, 20_000, Language::En, Layout::Text);
        let b = book(1, 20_000, Language::En, Layout::Text);
        assert_eq!(a.text, b.text);
        assert!(a.text.len() >= 20_000);
        assert!(a.runs > a.games);
    }
}
