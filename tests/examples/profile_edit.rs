//! Times the phases of one incremental edit on a 10 MB document.
use std::time::Instant;
use chess_ls::analysis::languages::{Language, MoveStyle};
use chess_ls_tests::generate::{RenderOptions, corpus};
use tree_sitter::{InputEdit, Point};

fn main() {
    let style = MoveStyle::for_language(Language::En);
    let mut text = String::new();
    let mut seed = 1;
    while text.len() < 10_000_000 { text.push_str(&corpus(seed, 500, &style, &RenderOptions::default())); seed += 1; }
    let mut parser = chess_ls::syntax::parser();
    let t = Instant::now();
    let mut tree = chess_ls::syntax::parse_with(&mut parser, &text, None);
    println!("full parse {:?}", t.elapsed());
    let t = Instant::now();
    let mut plies = 0;
    { let root = tree.root_node(); let mut c = root.walk();
      for node in root.children(&mut c) { if node.kind() == "game" { let g = chess_ls::syntax::lower_game(node, &text); plies += g.mainline.items.len(); } } }
    println!("lower streaming {:?} ({plies} items)", t.elapsed());
    let t = Instant::now();
    { let root = tree.root_node(); let mut c = root.walk();
      for node in root.children(&mut c) { if node.kind() == "game" { let g = chess_ls::syntax::lower_game(node, &text); plies += chess_ls::analysis::analyze_game(&g, &text, &Default::default()).plies; } } }
    println!("lower+analyze streaming {:?}", t.elapsed());
    let t = Instant::now();
    let games = chess_ls::syntax::lower(&tree, &text);
    println!("lower all {:?} ({} games)", t.elapsed(), games.len());
    let t = Instant::now();
    let mut n = 0;
    for g in &games { n += chess_ls::analysis::analyze_game(g, &text, &Default::default()).plies; }
    println!("analyze all {:?} ({n} plies)", t.elapsed());
    drop(games);
    let at = text.len() / 2;
    let at = (at..).find(|&i| text.as_bytes()[i] == b' ').unwrap() + 1;
    for _ in 0..3 {
        let t = Instant::now();
        let old = text[at..at+1].to_owned();
        text.replace_range(at..at+1, "x");
        let t1 = t.elapsed();
        let row = text[..at].matches('\n').count();
        let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
        let t = Instant::now();
        tree.edit(&InputEdit { start_byte: at, old_end_byte: at + 1, new_end_byte: at + 1,
            start_position: Point { row, column: col }, old_end_position: Point { row, column: col + 1 }, new_end_position: Point { row, column: col + 1 } });
        let t2 = t.elapsed();
        let t = Instant::now();
        let new_tree = chess_ls::syntax::parse_with(&mut parser, &text, Some(&tree));
        let t3 = t.elapsed();
        let t = Instant::now();
        let changed: Vec<_> = tree.changed_ranges(&new_tree).collect();
        let t4 = t.elapsed();
        let t = Instant::now();
        let k = { let root = new_tree.root_node();
        let mut c = root.walk();
        root.children(&mut c).filter(|n| n.kind() == "game").count() };
        let t5 = t.elapsed();
        println!("replace {t1:?} edit {t2:?} reparse {t3:?} changed_ranges {t4:?} ({}) walk games {t5:?} ({k})", changed.len());
        tree = new_tree;
        text.replace_range(at..at+1, &old);
        tree.edit(&InputEdit { start_byte: at, old_end_byte: at + 1, new_end_byte: at + 1,
            start_position: Point { row, column: col }, old_end_position: Point { row, column: col + 1 }, new_end_position: Point { row, column: col + 1 } });
        tree = chess_ls::syntax::parse_with(&mut parser, &text, Some(&tree));
    }
}
