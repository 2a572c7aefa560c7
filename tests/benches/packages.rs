//! A 300-page Word manuscript: the time `chess-ls --check` takes on a
//! `.docx` built here from a generated book (`chess_ls_tests::manuscript`,
//! Russian prose and games, 2,000 characters a page or more: 2,430 as
//! generated), each paragraph
//! a `w:p` whose text is cut into runs every 23 to 60 bytes (so that moves
//! are split over runs as Word splits them), against the same text as a
//! `.txt` file. The binary is the one this profile builds (release under
//! `cargo bench`), run 5 times each; the median is printed.
//!
//! `cargo bench -p chess-ls-tests --bench packages`

// A benchmark's figures are its output.
#![allow(clippy::print_stdout)]

use std::time::{Duration, Instant};

use chess_ls::analysis::languages::Language;
use chess_ls_tests::manuscript::{Layout, book};
use chess_ls_tests::packages;

/// A page: about 2,000 characters of text.
const PAGE: usize = 2_000;

fn main() {
    let pages = std::env::var("PAGES").ok().and_then(|p| p.parse().ok()).unwrap_or(300usize);
    // Russian text is about 1.8 bytes a character.
    let generated = book(3, pages * PAGE * 18 / 10, Language::Ru, Layout::Text);
    let paragraphs: Vec<String> = generated
        .text
        .split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    let mut body = String::new();
    let mut cut = 0usize;
    for p in &paragraphs {
        body.push_str("<w:p>");
        let mut at = 0;
        while at < p.len() {
            cut = (cut * 31 + 7) % 38;
            let mut end = (at + 23 + cut).min(p.len());
            while !p.is_char_boundary(end) {
                end += 1;
            }
            body.push_str(&format!(
                "<w:r><w:rPr><w:rFonts w:ascii=\"Times New Roman\"/></w:rPr><w:t xml:space=\"preserve\">{}</w:t></w:r>",
                packages::escape(&p[at..end])
            ));
            at = end;
        }
        body.push_str("</w:p>");
    }
    let docx = packages::docx(&body, &[]);
    let dir = std::env::temp_dir().join(format!("chess-ls-bench-packages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let docx_path = dir.join("book.docx");
    let txt_path = dir.join("book.txt");
    std::fs::write(&docx_path, &docx).expect("written");
    std::fs::write(&txt_path, paragraphs.join("\n")).expect("written");
    let chars: usize = paragraphs.iter().map(|p| p.chars().count()).sum();
    println!(
        "book: {pages} pages, {} paragraphs, {chars} characters, {} games; book.docx {} KB ({} KB of XML), book.txt {} KB",
        paragraphs.len(),
        generated.games,
        docx.len() / 1024,
        packages::document_xml(&body).len() / 1024,
        std::fs::metadata(&txt_path).map(|m| m.len() / 1024).unwrap_or(0)
    );
    let binary = chess_ls_tests::binary::chess_ls();
    for path in [&docx_path, &txt_path] {
        let mut times: Vec<Duration> = (0..5)
            .map(|_| {
                let t = Instant::now();
                let out = std::process::Command::new(&binary)
                    .args(["--check", "--format", "json"])
                    .arg(path)
                    .output()
                    .expect("chess-ls runs");
                let elapsed = t.elapsed();
                assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
                elapsed
            })
            .collect();
        times.sort();
        println!(
            "--check {}: median {:.0} ms (min {:.0}, max {:.0}) over 5 runs",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("?"),
            times[2].as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[4].as_secs_f64() * 1e3
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
