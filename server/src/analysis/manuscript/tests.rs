//! Manuscripts end to end through the analysis: where games start, what is
//! reported, and that prose never is.

use super::*;

/// `(code, the text it points at)` for every diagnostic.
fn check(text: &str, format: Format) -> Vec<(String, String)> {
    let (_, found) = check_text(text, format, &Options::default());
    found.iter().map(|d| (d.code.as_str().to_owned(), text[d.span.clone()].to_owned())).collect()
}

#[test]
fn smoke() {
    let text = "After 1. e4 e5 2. Nf3 Nc6 3. Bb5, the Spanish. Now 3...Nf6 4.O-O is the Berlin; the main game went 3...a6 4. Ba4 Nf6 5. O-O Be7.\n\nLater, 23. Qh5 won.";
    let (_, found) = check_text(text, Format::Text, &Options::default());
    for d in &found {
        eprintln!("{:?} {:?} {}", d.code, &text[d.span.clone()], d.message);
    }
    assert_eq!(check(text, Format::Text), [("unchecked".to_owned(), "23.".to_owned())]);
}
