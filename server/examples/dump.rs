fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let report = chess_ls::analysis::analyze_text(&text, &Default::default());
    for g in &report.games {
        eprintln!("game {:?} lang {:?} {:?} plies {}", g.span, g.language, g.language_source, g.plies);
        for d in &g.diagnostics {
            eprintln!("  {} {:?} `{}` {}", d.code, d.span, &text[d.span.clone()], d.message);
            for f in &d.fixes { eprintln!("     fix{} {} {:?}", if f.preferred {"*"} else {""}, f.title, f.edits); }
        }
    }
}
