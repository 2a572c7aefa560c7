//! The prose of a LaTeX manuscript: macros, their options, braces, math
//! shifts and comments blanked, so that runs of notation in the text are
//! found as in plain text; the notation macros of xskak and skak
//! (`\mainline{...}`, `\variation{...}`, `\hidemoves{...}`) kept as
//! notation; and the positions games start from (`\newchessgame[setfen=...]`,
//! `\chessboard[setfen=...]`, skak's `\fenboard{...}`, a bare
//! `\newchessgame` or `\newgame` for the initial position).

use std::ops::Range;

use super::{Setup, blank};

/// Macros whose argument is moves.
const NOTATION: [&str; 4] = ["mainline", "variation", "hidemoves", "mainline*"];

/// Macros whose arguments are names, keys or code, never prose: blanked
/// with all their arguments.
const NOT_PROSE: [&str; 37] = [
    "begin",
    "end",
    "label",
    "ref",
    "pageref",
    "eqref",
    "autoref",
    "cref",
    "Cref",
    "cite",
    "citep",
    "citet",
    "nocite",
    "usepackage",
    "RequirePackage",
    "documentclass",
    "includegraphics",
    "input",
    "include",
    "url",
    "newcommand",
    "renewcommand",
    "providecommand",
    "newenvironment",
    "renewenvironment",
    "def",
    "setlength",
    "addtolength",
    "hspace",
    "vspace",
    "xskakset",
    "storechessgame",
    "bibliography",
    "bibliographystyle",
    "pagestyle",
    "thispagestyle",
    "index",
];

/// Environments whose content is code, not prose.
const VERBATIM: [&str; 6] = ["verbatim", "Verbatim", "lstlisting", "minted", "comment", "verbatim*"];

/// What a LaTeX text holds for the manuscript reader.
pub(super) struct LatexView {
    /// The text with the markup blanked (same length, same lines).
    pub view: Vec<u8>,
    /// The arguments of notation macros (markup inside blanked), and
    /// whether the macro is `\variation`.
    pub notation: Vec<(Range<usize>, bool)>,
    /// Start positions, each with the offset of its macro.
    pub setups: Vec<(usize, Setup)>,
    /// The line starts the reader passed between commands (not inside a
    /// command's arguments, a comment or a verbatim environment).
    pub lines: Vec<usize>,
}

pub(super) fn scan(text: &str) -> LatexView {
    let mut out =
        LatexView { view: text.as_bytes().to_vec(), notation: Vec::new(), setups: Vec::new(), lines: Vec::new() };
    let mut reader = Reader { text, out: &mut out };
    reader.top(0, text.len(), |_| false);
    out
}

/// Reads `text` from `from`, a line start where the reader was between
/// commands, up to the first line start at or after `stop_from` that
/// `stop` accepts; returns what was read (the view holds the text outside
/// `from..` the end returned) and that end.
///
/// The reader only reads forward, and past where a command ends it looks
/// at blank space and one line end at most (for an argument on the next
/// line): so when it is between commands at a line start, what follows
/// depends only on the text from there, and what went before only on the
/// text up to the end of the line after it.
pub(super) fn scan_from(text: &str, from: usize, stop_from: usize, stop: impl Fn(usize) -> bool) -> (LatexView, usize) {
    let mut out =
        LatexView { view: text.as_bytes().to_vec(), notation: Vec::new(), setups: Vec::new(), lines: Vec::new() };
    let mut reader = Reader { text, out: &mut out };
    let end = reader.top(from, stop_from, stop);
    (out, end)
}

struct Reader<'t, 'o> {
    text: &'t str,
    out: &'o mut LatexView,
}

impl Reader<'_, '_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The text between commands from `from` (a line start) on, recording
    /// its line starts, up to the first line start at or after `stop_from`
    /// that `stop` accepts; returns where it stopped.
    fn top(&mut self, from: usize, stop_from: usize, stop: impl Fn(usize) -> bool) -> usize {
        let to = self.text.len();
        let mut i = from;
        while i < to {
            if i == 0 || self.bytes()[i - 1] == b'\n' {
                if i >= stop_from && stop(i) {
                    return i;
                }
                self.out.lines.push(i);
            }
            i = self.step(i, to, false);
        }
        to
    }

    /// Blanks the markup of `from..to`. Inside a notation argument every
    /// macro is blanked with its arguments (`\xskakcomment{...}`).
    fn region(&mut self, from: usize, to: usize, in_notation: bool) {
        let mut i = from;
        while i < to {
            i = self.step(i, to, in_notation);
        }
    }

    /// Reads what starts at `i`; returns where reading goes on.
    fn step(&mut self, i: usize, to: usize, in_notation: bool) -> usize {
        match self.bytes()[i] {
            b'%' => {
                let end = self.text[i..to].find('\n').map_or(to, |k| i + k);
                blank(&mut self.out.view, i..end);
                end
            }
            b'\\' => self.command(i, to, in_notation),
            b'{' | b'}' | b'$' | b'&' | b'~' | b'^' | b'_' => {
                blank(&mut self.out.view, i..i + 1);
                i + 1
            }
            _ => i + 1,
        }
    }

    /// A command at `i` (its backslash): blanks it and what belongs to it;
    /// returns where reading goes on.
    fn command(&mut self, i: usize, to: usize, in_notation: bool) -> usize {
        let bytes = self.bytes();
        let mut end = i + 1;
        while end < to && (bytes[end].is_ascii_alphabetic() || bytes[end] == b'@') {
            end += 1;
        }
        if end == i + 1 {
            // A one-character command: `\\`, `\,`, `\%`, `\{`, `\#`.
            let len = self.text[end..to].chars().next().map_or(0, char::len_utf8);
            blank(&mut self.out.view, i..end + len);
            return end + len;
        }
        if end < to && bytes[end] == b'*' {
            end += 1;
        }
        let name = &self.text[i + 1..end];
        blank(&mut self.out.view, i..end);
        if in_notation {
            return self.skip_arguments(end, to, usize::MAX);
        }
        if NOTATION.contains(&name) {
            let after_options = self.skip_arguments_of(end, to, b'[', usize::MAX);
            let Some(open) = self.next_group(after_options, to, b'{') else { return after_options };
            let close = self.closing(open, to);
            blank(&mut self.out.view, open..open + 1);
            if close < to {
                blank(&mut self.out.view, close..close + 1);
            }
            self.out.notation.push((open + 1..close, name == "variation"));
            self.region(open + 1, close, true);
            return (close + 1).min(to);
        }
        match name {
            "newchessgame" | "resumechessgame" | "chessboard" | "setchessboard" | "newgame" | "fenboard" => {
                let mut fen = None;
                let mut at = end;
                while let Some(open) = self.next_group(at, to, b'[').or_else(|| self.next_group(at, to, b'{')) {
                    let kind = self.bytes()[open];
                    let close = self.closing(open, to);
                    let inner = open + 1..close;
                    if kind == b'{' && name == "fenboard" {
                        fen = Some(trim(self.text, inner.clone()));
                    } else if kind == b'[' {
                        fen = fen.or_else(|| setfen(self.text, inner.clone()));
                    } else if name != "setchessboard" {
                        // A brace group after the options belongs to the
                        // text, not to this command.
                        break;
                    } else {
                        fen = fen.or_else(|| setfen(self.text, inner.clone()));
                    }
                    blank(&mut self.out.view, open..(close + 1).min(to));
                    at = (close + 1).min(to);
                }
                match fen {
                    Some(span) if !span.is_empty() => self.out.setups.push((i, Setup::Fen(span))),
                    _ if matches!(name, "newchessgame" | "newgame") => self.out.setups.push((i, Setup::NewGame)),
                    _ => {}
                }
                at
            }
            "begin" => {
                let Some(open) = self.next_group(end, to, b'{') else { return end };
                let close = self.closing(open, to);
                let env = &self.text[open + 1..close.min(to)];
                blank(&mut self.out.view, open..(close + 1).min(to));
                if VERBATIM.contains(&env) {
                    let marker = format!("\\end{{{env}}}");
                    let stop = self.text[close..to].find(&marker).map_or(to, |k| close + k + marker.len());
                    blank(&mut self.out.view, close..stop);
                    return stop;
                }
                self.skip_arguments(close + 1, to, usize::MAX)
            }
            _ if NOT_PROSE.contains(&name) => self.skip_arguments(end, to, usize::MAX),
            // Any other command: its options are not prose; its braced
            // arguments (`\textbf{...}`) usually are.
            _ => self.skip_arguments_of(end, to, b'[', usize::MAX),
        }
    }

    /// Blanks the bracket and brace groups right after `at` (spaces and
    /// one line end allowed before each); returns the end of the last.
    fn skip_arguments(&mut self, at: usize, to: usize, most: usize) -> usize {
        let mut at = at;
        let mut n = 0;
        while n < most {
            let Some(open) = self.next_group(at, to, b'[').or_else(|| self.next_group(at, to, b'{')) else { break };
            let close = self.closing(open, to);
            blank(&mut self.out.view, open..(close + 1).min(to));
            at = (close + 1).min(to);
            n += 1;
        }
        at
    }

    fn skip_arguments_of(&mut self, at: usize, to: usize, kind: u8, most: usize) -> usize {
        let mut at = at;
        let mut n = 0;
        while n < most {
            let Some(open) = self.next_group(at, to, kind) else { break };
            let close = self.closing(open, to);
            blank(&mut self.out.view, open..(close + 1).min(to));
            at = (close + 1).min(to);
            n += 1;
        }
        at
    }

    /// The opening `kind` bracket after `at`, past spaces and at most one
    /// line end.
    fn next_group(&self, at: usize, to: usize, kind: u8) -> Option<usize> {
        let mut newlines = 0;
        let mut i = at;
        while i < to {
            match self.bytes()[i] {
                b' ' | b'\t' | b'\r' => i += 1,
                b'\n' if newlines == 0 => {
                    newlines += 1;
                    i += 1;
                }
                b if b == kind => return Some(i),
                _ => return None,
            }
        }
        None
    }

    /// The bracket that closes the one at `open` (braces and brackets
    /// nest; escaped ones do not count), or `to`.
    fn closing(&self, open: usize, to: usize) -> usize {
        let bytes = self.bytes();
        let (opening, closing) = if bytes[open] == b'[' { (b'[', b']') } else { (b'{', b'}') };
        let mut depth = 0usize;
        let mut i = open;
        while i < to {
            match bytes[i] {
                b'\\' => i += 1,
                b if b == opening => depth += 1,
                b if b == closing => {
                    depth -= 1;
                    if depth == 0 {
                        return i;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        to
    }
}

fn trim(text: &str, range: Range<usize>) -> Range<usize> {
    let s = &text[range.clone()];
    let start = range.start + (s.len() - s.trim_start().len());
    let end = range.start + s.trim_end().len();
    start..end.max(start)
}

/// The value of `setfen=` in an option list, without braces around it.
fn setfen(text: &str, options: Range<usize>) -> Option<Range<usize>> {
    let s = &text[options.clone()];
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (k, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(start..k);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(start..s.len());
    for part in parts {
        let Some(eq) = s[part.clone()].find('=') else { continue };
        if s[part.start..part.start + eq].trim() != "setfen" {
            continue;
        }
        let mut value = trim(text, options.start + part.start + eq + 1..options.start + part.end);
        if text[value.clone()].starts_with('{') && text[value.clone()].ends_with('}') {
            value = trim(text, value.start + 1..value.end - 1);
        }
        return Some(value);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_macros_setups_and_prose() {
        let text = "\\section{Die Partie}\n% 1. e4 in a comment\n\\newchessgame[id=A, setfen=8/8/8/8/8/8/8/K1k5 w - - 0 1]\nText \\textbf{3...Nf6} und \\mainline{1. e4 e5 \\xskakcomment{gut} 2. Sf3}.\n\\variation{2. f4}\n\\newchessgame\n\\chessboard[setfen={rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1}, showmover]\n\\begin{verbatim}\n1. e4 e5\n\\end{verbatim}\n";
        let scanned = scan(text);
        let view = String::from_utf8(scanned.view).unwrap();
        assert_eq!(view.len(), text.len());
        let notation: Vec<&str> = scanned.notation.iter().map(|(r, _)| view[r.clone()].trim()).collect();
        assert_eq!(scanned.notation.iter().map(|(_, v)| *v).collect::<Vec<_>>(), [false, true]);
        assert_eq!(notation.len(), 2);
        assert!(notation[0].starts_with("1. e4 e5") && notation[0].ends_with("2. Sf3"), "{notation:?}");
        assert!(!notation[0].contains("gut"));
        assert_eq!(notation[1], "2. f4");
        let setups: Vec<String> = scanned
            .setups
            .iter()
            .map(|(_, s)| match s {
                Setup::Fen(r) => text[r.clone()].to_owned(),
                Setup::NewGame => "new".to_owned(),
                Setup::Description(_) => "description".to_owned(),
            })
            .collect();
        assert_eq!(setups, ["8/8/8/8/8/8/8/K1k5 w - - 0 1", "new", "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1"]);
        assert!(view.contains("3...Nf6 ") && !view.contains("textbf"), "{view}");
        assert!(!view.contains("section") && view.contains("Die Partie") && !view.contains("comment"));
        assert!(!view.contains("1. e4 e5\n"), "verbatim is blank");
    }
}
