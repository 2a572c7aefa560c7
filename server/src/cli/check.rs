//! `chess-ls --check`: reads the files, analyses their games on every core
//! (rayon: files, and pieces of big files, in parallel), and prints the
//! findings in file order.
//!
//! [`for_each_game`] is the one place where the command line turns text
//! into games; `--check`, `--fix` and `--translate` all go through it.

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;

use rayon::prelude::*;

use super::Session;
use super::output::{Printer, Summary};
use super::progress::Progress;
use super::sources::Source;
use crate::analysis::{self, Diagnostic, Options, Severity};
use crate::syntax::manuscript::Format as ManuscriptFormat;
use crate::syntax::{self, GameSyntax};

/// Files larger than this are split at game boundaries so that several
/// threads share one big file. Small pieces are also faster on one thread:
/// a piece's tree and lowered games stay in the CPU caches, and tree-sitter
/// balances shorter lists (on 10 MB of games, one core: 256 KB pieces take
/// about 20 % more CPU time than 32 KB ones; `check-stages` measures it).
const SECTION_LEN: usize = 32 * 1024;

/// A piece of bare games longer than this (no tag sections to cut it at)
/// is cut after a result, so that a file on one line or a million bare
/// games is not parsed and lowered at once (see `split::cut_after_results`).
const LONG_SECTION: usize = 64 * 1024;

/// A file's findings.
pub struct Checked {
    pub source: Source,
    pub games: usize,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

/// Runs `--check`; returns the exit status (0 no error, 1 errors, 2 the run
/// failed).
pub fn run(session: &Session) -> i32 {
    let (sources, mut failures) = session.read_all();
    let progress = Progress::new(&sources);
    // A panic while checking one file (a bug) costs that file's findings,
    // not every other file's: it is a failure of that file (exit 2).
    let results: Vec<Result<Checked, String>> = sources
        .into_par_iter()
        .map(|source| {
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                test_panic(&source.name);
                analyse(&source.text, source.manuscript, &session.options, &progress)
            }));
            progress.file_done();
            match found {
                Ok((games, diagnostics)) => Ok(Checked { source, games, diagnostics }),
                Err(_) => Err(format!(
                    "an internal error stopped the check of {}; its findings are missing (please report it)",
                    source.name
                )),
            }
        })
        .collect();
    progress.finish();
    let mut checked = Vec::with_capacity(results.len());
    for result in results {
        match result {
            Ok(file) => checked.push(file),
            Err(failure) => failures.push(failure),
        }
    }

    let mut printer = Printer::new(session.format);
    let mut summary = Summary::default();
    for file in &checked {
        summary.add(file);
        if let Err(e) = printer.file(file) {
            // A full disk, or stdout closed (e.g. piped into `head`).
            return super::output::output_failed(&e);
        }
    }
    failures.sort();
    summary.failures = failures.len();
    summary.elapsed = session.started.elapsed();
    printer.finish(&failures, &summary.line(), summary.exit_status())
}

/// Test hook: `CHESS_LS_TEST_PANIC_ON=NAME` makes the check of a file whose
/// name ends with NAME panic, for the test that one file's failure keeps
/// the others' reports. Only that test sets it.
fn test_panic(name: &str) {
    static ON: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if let Some(suffix) = ON.get_or_init(|| std::env::var("CHESS_LS_TEST_PANIC_ON").ok())
        && name.ends_with(suffix.as_str())
    {
        panic!("CHESS_LS_TEST_PANIC_ON: a test asked for a panic while checking {name}");
    }
}

/// The games and diagnostics of a file's text: notation, or a manuscript
/// (`analysis::manuscript`, one thread per file: its games depend on the
/// ones before them).
pub fn analyse(
    text: &str,
    manuscript: Option<ManuscriptFormat>,
    options: &Options,
    progress: &Progress,
) -> (usize, Vec<Diagnostic>) {
    match manuscript {
        None => analyse_text(text, options, progress),
        Some(format) => {
            let found = analysis::manuscript::check_text(text, format, options);
            progress.advance(text.len());
            found
        }
    }
}

/// The games and diagnostics of a whole text (spans in `text`), its pieces
/// analysed in parallel.
pub fn analyse_text(text: &str, options: &Options, progress: &Progress) -> (usize, Vec<Diagnostic>) {
    let pieces = per_section(text, |parser, piece, base| {
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        // Each game is analysed as soon as it is lowered, then dropped: a
        // lowered game is many times the size of its text.
        let games = for_each_game(parser, piece, |game, source, offset| {
            let mut found = analysis::analyze_game(game, source, options).diagnostics;
            for d in &mut found {
                shift_diagnostic(d, base + offset);
            }
            diagnostics.extend(found);
        });
        progress.advance(piece.len());
        (games, diagnostics)
    });
    let mut games = 0;
    let mut diagnostics = Vec::new();
    for (n, mut found) in pieces {
        games += n;
        diagnostics.append(&mut found);
    }
    // What the parser was not shown (see `parser_view`).
    for (span, message) in hidden(text) {
        let at = diagnostics.partition_point(|d| d.span.start <= span.start);
        diagnostics.insert(at, Diagnostic::new(analysis::Code::Syntax, span, message));
    }
    (games, diagnostics)
}

/// A run of more bytes than this without a blank, outside comments and
/// tag values, is not read: no notation has one, and the grammar reads such
/// junk a character at a time, at some 200 bytes of memory per byte (3.4 GB
/// for one 16 MB token, 800 MB for 4 million `*` in a row).
const MAX_RUN: usize = 64 * 1024;

/// What the parser is not shown, with the syntax error that says so:
///
/// - the runs of more than [`MAX_RUN`] bytes without a blank or a bracket
///   of a variation, outside `{}` comments, `;` comments and the quoted
///   values of tags;
/// - variations nested deeper than [`syntax::MAX_VARIATION_DEPTH`], from
///   the bracket that opens the first level too deep to the one that closes
///   it (the very span and message the lowering gives them; it checks
///   nothing in them either, but the grammar's tree of a million levels
///   takes 66 bytes a byte). Only a region that closes, with no tag section
///   in it, is hidden.
fn hidden(text: &str) -> Vec<(Range<usize>, String)> {
    #[derive(PartialEq)]
    enum State {
        Text,
        Comment,
        LineComment,
        Tag,
        Value,
    }
    let bytes = text.as_bytes();
    let mut runs: Vec<Range<usize>> = Vec::new();
    let mut deep: Vec<(Range<usize>, usize)> = Vec::new();
    let mut state = State::Text;
    let mut run_start: Option<usize> = None;
    let mut end_run = |run_start: &mut Option<usize>, at: usize| {
        if let Some(start) = run_start.take()
            && at - start > MAX_RUN
        {
            runs.push(start..at);
        }
    };
    let mut depth = 0usize;
    // The region too deep: where it starts, its deepest level, and whether
    // a tag section stands in it (then it is left to the grammar).
    let mut region: Option<(usize, usize, bool)> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match state {
            State::Comment => {
                if b == b'}' {
                    state = State::Text;
                }
            }
            State::LineComment => {
                if b == b'\n' {
                    state = State::Text;
                }
            }
            State::Value => {
                if b == b'\\' {
                    i += 1;
                } else if b == b'"' {
                    state = State::Tag;
                }
            }
            State::Text | State::Tag => {
                // Brackets of variations are structure, not a run: a
                // hundred thousand `)` close as many variations.
                if b.is_ascii_whitespace() || b == b'(' || b == b')' {
                    end_run(&mut run_start, i);
                    if state == State::Text && b == b'(' {
                        depth += 1;
                        match &mut region {
                            None if depth == syntax::MAX_VARIATION_DEPTH + 1 => region = Some((i, depth, false)),
                            Some((_, deepest, _)) => *deepest = (*deepest).max(depth),
                            None => {}
                        }
                    } else if state == State::Text && b == b')' && depth > 0 {
                        if depth == syntax::MAX_VARIATION_DEPTH + 1
                            && let Some((start, deepest, tagged)) = region.take()
                            && !tagged
                        {
                            deep.push((start..i + 1, deepest));
                        }
                        depth -= 1;
                    }
                } else {
                    match b {
                        b'{' => state = State::Comment,
                        b';' if state == State::Text => state = State::LineComment,
                        b'[' if state == State::Text => {
                            state = State::Tag;
                            if let Some((_, _, tagged)) = &mut region {
                                *tagged = true;
                            }
                        }
                        b']' if state == State::Tag => state = State::Text,
                        b'"' if state == State::Tag => state = State::Value,
                        _ => {}
                    }
                    if state == State::Text || state == State::Tag {
                        run_start.get_or_insert(i);
                    } else {
                        end_run(&mut run_start, i);
                    }
                }
            }
        }
        i += 1;
    }
    end_run(&mut run_start, bytes.len());
    let mut found: Vec<(Range<usize>, String)> = deep
        .iter()
        .map(|(span, levels)| (span.clone(), format!("variations nested too deep ({levels} levels); not checked")))
        .collect();
    for run in runs {
        if !deep.iter().any(|(d, _)| d.start <= run.start && run.end <= d.end) {
            let message = format!("{} bytes without a blank are not chess notation; not read", run.len());
            found.push((run, message));
        }
    }
    found.sort_by_key(|(span, _)| span.start);
    found
}

/// Cuts `text` into pieces of whole games and runs `f` on each in
/// parallel, with a parser of the thread, the piece's text and its offset
/// in `text`; the results come back in text order.
pub fn per_section<T: Send>(
    text: &str,
    f: impl Fn(&mut tree_sitter::Parser, &str, usize) -> T + Sync + Send,
) -> Vec<T> {
    thread_local! {
        // One parser per thread for the whole run (rayon's `map_init` would
        // make one per split of the work, thousands on many files).
        static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(syntax::parser());
    }
    let text = parser_view(text);
    let text = &*text;
    // Bare games without tag sections (a whole file on one line) are cut
    // after their results too, so that they still spread over the threads.
    let units: Vec<Range<usize>> = syntax::split::split_at_games(text, SECTION_LEN)
        .into_iter()
        .flat_map(|range| syntax::split::cut_after_results(text, range, SECTION_LEN))
        .collect();
    units
        .into_par_iter()
        .map(|range: Range<usize>| PARSER.with_borrow_mut(|parser| f(parser, &text[range.clone()], range.start)))
        .collect()
}

/// Turns a piece of text into games and hands each to `each`, with the text
/// its spans are relative to and that text's offset in `text`; returns the
/// number of games. Every command-line mode parses through here.
pub fn for_each_game<'a>(
    parser: &mut tree_sitter::Parser,
    text: &'a str,
    mut each: impl FnMut(&GameSyntax<'a>, &'a str, usize),
) -> usize {
    // Each game on its own (as the language server parses it), by the fast
    // path where it can.
    let mut games = 0;
    let pieces = syntax::split::split_at_games(text, 0).into_iter();
    for piece in pieces.flat_map(|piece| syntax::split::cut_after_results(text, piece, LONG_SECTION)) {
        let base = piece.start;
        let piece_text = &text[piece];
        syntax::lower_section(parser, piece_text, |game| {
            games += 1;
            each(&game, piece_text, base);
        });
    }
    games
}

/// The text the parser reads: the file's text, except that a lone `\r`
/// (old Mac line endings) becomes `\n`, since the grammar ends `;` comments
/// at `\n` only. Both are one byte, so every offset stays the same and edits
/// still apply to the file's own text.
///
/// And what [`hidden`] finds (a run of more than [`MAX_RUN`] bytes without a
/// blank, variations nested too deep) is shown as blanks, the same length:
/// it is one syntax error ([`analyse_text`] reports it), not text to parse.
fn parser_view(text: &str) -> Cow<'_, str> {
    let hidden = hidden(text);
    if !hidden.is_empty() {
        let mut out = lone_returns_as_line_ends(text).into_owned().into_bytes();
        for (span, _) in hidden {
            out[span].fill(b' ');
        }
        // Every byte of whole characters became a space.
        return Cow::Owned(String::from_utf8(out).expect("blanking whole characters keeps UTF-8 valid"));
    }
    lone_returns_as_line_ends(text)
}

fn lone_returns_as_line_ends(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    // `contains` on bytes is a fast memchr; most files have no `\r` at all.
    if !bytes.contains(&b'\r') || !(0..bytes.len()).any(lone_cr) {
        return Cow::Borrowed(text);
    }
    let mut out = text.as_bytes().to_vec();
    for (i, b) in out.iter_mut().enumerate() {
        if lone_cr(i) {
            *b = b'\n';
        }
    }
    Cow::Owned(String::from_utf8(out).expect("replacing an ASCII byte keeps UTF-8 valid"))
}

pub fn shift_diagnostic(d: &mut Diagnostic, by: usize) {
    if by == 0 {
        return;
    }
    d.span = d.span.start + by..d.span.end + by;
    for r in &mut d.related {
        r.span = r.span.start + by..r.span.end + by;
    }
    for f in &mut d.fixes {
        for e in &mut f.edits {
            e.span = e.span.start + by..e.span.end + by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_carriage_returns_end_comments() {
        let text = "1. e4 e5 ; a comment\r2. Nf3 Nc6 3. Ke2 Ke7 4. Kf3 *\r";
        let (games, diagnostics) = analyse_text(text, &Options::default(), &Progress::none());
        assert_eq!(games, 1);
        let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, ["illegal-move"]);
        assert_eq!(&text[diagnostics[0].span.clone()], "Kf3");
        assert!(matches!(parser_view("a\r\nb"), Cow::Borrowed(_)));
    }
}
