//! The checks of the fuzz targets in `fuzz/fuzz_targets/` (cargo-fuzz),
//! kept here so that the replay of their seeds in the normal test suite
//! (`tests/it/fuzz_seeds.rs`) holds the very same properties: an input a
//! fuzzer once broke the code with stays fixed without cargo-fuzz. Each
//! function panics when a property does not hold. See RELIABILITY.md.

use chess_ls::analysis::{self, Language, Options};
use chess_ls::ide::document::{ByteChange, Document, Kind};
use chess_ls::ide::format::format_text;
use chess_ls::syntax;
use chess_ls::syntax::manuscript::Format;

use crate::edits::floor;

/// Grammar and analysis on arbitrary bytes: the text (UTF-8, lossily) is
/// parsed, lowered and replayed, traced as hovers trace it, and read as
/// a manuscript (text, Markdown, LaTeX); whenever the fast path reads it, its games must equal the
/// grammar's. The first byte picks the options (a language or inference,
/// the optional marks), so every language's reading is exercised.
pub fn analysis(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let text = &*text;
    let language = Language::ALL.get(usize::from(choice >> 2)).copied();
    let options = Options {
        language,
        report_missing_check: choice & 1 != 0,
        report_missing_capture: choice & 2 != 0,
        ..Options::default()
    };

    let tree = syntax::parse(text, None);
    let games = syntax::lower(&tree, text);
    for game in &games {
        let report = analysis::analyze_game(game, text, &options);
        for d in &report.diagnostics {
            assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?} is outside the text");
            assert!(text.is_char_boundary(d.span.start) && text.is_char_boundary(d.span.end), "{d:?}");
            for fix in &d.fixes {
                for edit in &fix.edits {
                    assert!(edit.span.end <= text.len() && text.is_char_boundary(edit.span.start), "{fix:?}");
                }
            }
        }
        analysis::trace_game(game, text, &options);
    }
    if let Some(fast) = syntax::fast::lower_fast(text) {
        assert_eq!(fast, games, "the fast path and the grammar read {text:?} differently");
    }

    // Every piece parses on its own, by either path.
    let mut parser = syntax::parser();
    let starts = syntax::split::section_starts(text);
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let piece = &text[start..end];
        syntax::lower_section(&mut parser, piece, |game| {
            analysis::analyze_game(&game, piece, &options);
        });
    }

    // Manuscripts (plain text, Markdown, LaTeX): the blanked text keeps
    // every offset.
    for format in [Format::Text, Format::Markdown, Format::Latex] {
        let manuscript = syntax::manuscript::scan(text, format);
        assert_eq!(manuscript.blanked.len(), text.len(), "{format:?}");
    }
}

/// The incremental path of the language server: a text and a sequence of
/// edits applied to a `Document` one by one (or in one notification) must
/// end with what a fresh open of the final text has: the same text, pieces,
/// outlines and diagnostics. Then formatting: a document the grammar reads
/// without error is formatted, and the layout keeps every non-blank
/// character in order (`format_text` gives up rather than lose one, so a
/// `None` there is a layout bug).
///
/// Input: a flags byte (bit 0: Markdown, else bit 2: plain text, else bit 3:
/// LaTeX, else PGN; bit 1: all edits in one change notification), the text, then edits, each after a 0xFF byte (never in
/// UTF-8): two bytes of position (a fraction of the text's length), one of
/// length, then the text inserted.
pub fn document_edits(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else { return };
    let kind = match flags & 0b1101 {
        0 => Kind::Pgn,
        f if f & 1 != 0 => Kind::Markdown,
        f if f & 4 != 0 => Kind::Text,
        _ => Kind::Latex,
    };
    let batch = flags & 2 != 0;
    let mut parts = rest.split(|&b| b == 0xFF);
    let text = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
    let options = Options::default();
    let mut doc = Document::open_as(kind, text.clone(), 0, &options);
    let mut expected = text;
    let mut pending = Vec::new();
    for (version, part) in parts.enumerate().take(64) {
        let (head, inserted) = part.split_at(part.len().min(3));
        let mut head = head.to_vec();
        head.resize(3, 0);
        let at = u16::from_le_bytes([head[0], head[1]]) as usize * expected.len() / usize::from(u16::MAX);
        let start = floor(&expected, at);
        let end = floor(&expected, start + usize::from(head[2] % 64)).max(start);
        let inserted = String::from_utf8_lossy(inserted).into_owned();
        expected.replace_range(start..end, &inserted);
        let change = ByteChange { range: Some(start..end), text: inserted };
        if batch {
            pending.push(change);
        } else {
            doc.apply_changes(vec![change], version as i32 + 1, &options);
        }
    }
    if batch {
        doc.apply_changes(pending, 1, &options);
    }
    assert_eq!(doc.text, expected);
    assert_eq!(doc.rope.to_string(), expected);
    let fresh = Document::open_as(kind, expected.clone(), 0, &options);
    let pieces = |d: &Document| d.sections.iter().map(|p| (p.start, p.len)).collect::<Vec<_>>();
    assert_eq!(pieces(&doc), pieces(&fresh));
    let outlines = |d: &Document| d.sections.iter().map(|p| p.outline.clone()).collect::<Vec<_>>();
    assert_eq!(outlines(&doc), outlines(&fresh));
    assert_eq!(doc.diagnostics().collect::<Vec<_>>(), fresh.diagnostics().collect::<Vec<_>>());

    if kind == Kind::Pgn {
        // Readable: the grammar reads it without error, and nothing was
        // hidden from it (too deep, too long: `intake::checked_view`).
        let readable = doc.sections.iter().all(|p| {
            if !p.hidden.is_empty() {
                return false;
            }
            let tree = p.tree(&doc);
            !tree.root_node().has_error() && syntax::variation_depth(tree.root_node()) <= syntax::MAX_VARIATION_DEPTH
        });
        match format_text(&doc) {
            Some(formatted) => {
                let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                assert_eq!(squeeze(&formatted), squeeze(&expected));
            }
            None => assert!(!readable, "formatting gave up on a readable document: {expected:?}"),
        }
    }
}

/// The archive reader on arbitrary bytes: the first byte picks what the
/// rest is named (a zip archive, a gzip, bzip2, xz or zstd file, a Word,
/// OpenDocument or EPUB file, an HTML page, a Typst chapter, or plain
/// notation) and whether it is read from a file (a zip by its central
/// directory) or as a stream (a pipe); every member is checked, the report
/// dropped. Nothing may panic, and what cannot be read is said in a
/// message of a bounded length (a member's name may be long, not the
/// message's other parts).
pub fn archive(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else { return };
    let names = [
        "book.zip",
        "games.pgn.gz",
        "games.pgn.bz2",
        "games.pgn.xz",
        "games.pgn.zst",
        "games.pgn",
        "book.docx",
        "book.odt",
        "book.epub",
        "page.html",
        "chapter.typ",
    ];
    let name = names[usize::from(choice >> 1) % names.len()];
    let failures = chess_ls::cli::read_archive_bytes(name, rest, choice & 1 != 0);
    for failure in &failures {
        assert!(failure.len() < 4 * 1024 + 2 * rest.len(), "a failure longer than its input: {failure:.200}");
    }
}

/// The settings file's reader on arbitrary bytes: parsed (or refused, past
/// the bound on its size), never a panic, and an error of a bounded length
/// whatever the values (one quotes at most 40 characters of a value, and
/// the TOML reader's lines are cut to 160).
pub fn settings(data: &[u8]) {
    match chess_ls::project::parse(data, "chess-ls.toml") {
        Ok(settings) => {
            // What the front ends do with it.
            let _ = settings.options(&Options::default());
            let _ = settings.filter();
            let _ = settings.overridden_by(&chess_ls::ide::settings::Settings::default());
        }
        Err(e) => {
            let longest = e.lines().map(str::len).max().unwrap_or(0);
            assert!(longest < 1024, "an error line of {longest} bytes: {e:.300}");
            assert!(e.len() < 16 * 1024, "an error of {} bytes: {e:.300}", e.len());
        }
    }
}
