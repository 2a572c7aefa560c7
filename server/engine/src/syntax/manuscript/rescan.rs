//! Reading a manuscript again after an edit, only around it:
//! [`Manuscript::rescan`] gives what [`scan`] of the new text gives, reading
//! the markup again from a line where its reading may start again until it
//! reads as before, and the prose between the paragraph breaks around that
//! (breaks that no run and no setup reads across); what was found before
//! and after is kept, moved by the edit's length.

use std::ops::Range;

use super::markup::{Forced, Markup};
use super::{Manuscript, Repair, UnitKind, assemble, read_macro, read_prose, scan};
use crate::syntax::lexicon;

/// An edit of a manuscript's text: `start..old_end` of the old text became
/// `start..new_end` of the new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl Edit {
    pub(super) fn delta(&self) -> isize {
        self.new_end as isize - self.old_end as isize
    }

    /// Where an offset of the old text is in the new one (the edit's start
    /// for an offset inside the replaced text).
    pub(super) fn map(&self, x: usize) -> usize {
        if x < self.start {
            x
        } else if x >= self.old_end {
            (x as isize + self.delta()) as usize
        } else {
            self.start
        }
    }
}

impl Manuscript {
    /// The manuscript after an edit (`text` is the new text), equal to
    /// `scan(text, format)`, and the stretch of the new text that was read
    /// again: what was found before it is as it was, what was found after
    /// it only moved by the edit's length (the setups of units are paired
    /// again everywhere, and the blanked text is made again).
    ///
    /// The markup is read again from a line before the edit until it reads
    /// as before (a fence, a brace or a `%` may change everything after
    /// it); when the forced units away from that are as before, only the prose from the last
    /// paragraph break before the edit to the first after it (and the
    /// forced units the edit touches) is searched for runs again. A
    /// paragraph break ends every run and every setup, except after a `(`,
    /// `:`, `,`, `;` or a pawns label, or before dots, `:`, `,` or `;`
    /// (`runs::Runs::find`, `description_at`); such breaks are passed over.
    /// Otherwise the whole manuscript is read again.
    pub fn rescan(&self, text: &str, edit: Edit) -> (Manuscript, Range<usize>) {
        match self.rescan_around(text, edit) {
            Some(done) => done,
            None => (scan(text, self.format), 0..text.len()),
        }
    }

    fn rescan_around(&self, text: &str, e: Edit) -> Option<(Manuscript, Range<usize>)> {
        let delta = e.delta();
        if e.start > e.old_end || e.start > e.new_end || self.blanked.len() as isize + delta != text.len() as isize {
            return None;
        }
        let shift = |x: usize| (x as isize + delta) as usize;
        // The markup is read again around the edit, and the edit widened
        // to that (or, should that fail, read whole and compared).
        let (markup, e) = match self.markup.reread(text, self.format, e) {
            Some(done) => done,
            None => {
                let markup = Markup::read(text, self.format);
                if let (Some(old), Some(new)) = (&self.markup.view, &markup.view)
                    && (old.as_bytes()[..e.start] != new.as_bytes()[..e.start]
                        || old.as_bytes()[e.old_end..] != new.as_bytes()[e.new_end..])
                {
                    return None;
                }
                (markup, e)
            }
        };
        let view = markup.view(text);
        // The forced units away from the edit must be as they were; the
        // ones it touches are read again.
        let (old, new) = (&self.markup.forced, &markup.forced);
        let old_before = old.partition_point(|(r, _)| r.end < e.start);
        let new_before = new.partition_point(|(r, _)| r.end < e.start);
        let old_after = old.partition_point(|(r, _)| r.start <= e.old_end);
        let new_after = new.partition_point(|(r, _)| r.start <= e.new_end);
        let moved = |((o, k), (n, l)): (&Forced, &Forced)| k == l && shift(o.start) == n.start && shift(o.end) == n.end;
        if old[..old_before] != new[..new_before]
            || old.len() - old_after != new.len() - new_after
            || !old[old_after..].iter().zip(&new[new_after..]).all(moved)
        {
            return None;
        }
        let (mut lo, mut hi) = (e.start, e.new_end);
        for (r, _) in &new[new_before..new_after] {
            (lo, hi) = (lo.min(r.start), hi.max(r.end));
        }
        for (r, _) in &old[old_before..old_after] {
            (lo, hi) = (lo.min(e.map(r.start)), hi.max(e.map(r.end)));
        }
        // The prose around, up to breaks that nothing reads across (or the
        // forced units on either side).
        let floor = new_before.checked_sub(1).map_or(0, |k| new[k].0.end);
        let ceil = new.get(new_after).map_or(view.len(), |(r, _)| r.start);
        let a = break_before(view, floor, lo);
        // The pawns label a break looks back at must be outside the edit.
        let b = break_after(view, hi.max(e.new_end + 16), ceil);

        let mut found = Vec::new();
        let mut repairs = Vec::new();
        let mut at = a;
        for (range, kind) in new[new_before..new_after].iter().filter(|(r, _)| a <= r.start && r.start < b) {
            read_prose(view, at..range.start, range.start, &mut found, &mut repairs);
            if matches!(kind, UnitKind::Macro | UnitKind::Variation) {
                read_macro(view, range.clone(), *kind, &mut found, &mut repairs);
            }
            at = range.end;
        }
        read_prose(view, at..b, ceil, &mut found, &mut repairs);
        found.sort_by_key(|(at, _)| *at);
        repairs.sort_by_key(|r| r.span.start);

        let old_b = (b as isize - delta) as usize;
        let (keep, kept_after) =
            (self.found.partition_point(|(at, _)| *at < a), self.found.partition_point(|(at, _)| *at < old_b));
        let mut all = Vec::with_capacity(self.found.len() + found.len());
        all.extend_from_slice(&self.found[..keep]);
        all.append(&mut found);
        all.extend(self.found[kept_after..].iter().map(|(at, event)| (shift(*at), event.shifted(delta))));
        let (keep, kept_after) = (
            self.repairs.partition_point(|r| r.span.start < a),
            self.repairs.partition_point(|r| r.span.start < old_b),
        );
        let mut all_repairs = Vec::with_capacity(self.repairs.len() + repairs.len());
        all_repairs.extend_from_slice(&self.repairs[..keep]);
        all_repairs.append(&mut repairs);
        all_repairs.extend(
            self.repairs[kept_after..]
                .iter()
                .map(|r| Repair { span: shift(r.span.start)..shift(r.span.end), kind: r.kind.clone() }),
        );
        let manuscript = assemble(text, self.format, markup, all, all_repairs, Some((self, e, a..b)));
        Some((manuscript, a..b))
    }
}

/// Where reading may start again at or before `at`: the end of the last
/// break in `floor..at` that ends before `at`, or `floor`.
fn break_before(view: &str, floor: usize, at: usize) -> usize {
    let bytes = view.as_bytes();
    let mut end = at;
    while let Some(nl) = bytes[floor..end].iter().rposition(|&b| b == b'\n').map(|k| floor + k) {
        let blank = blank_around(view, nl, floor, view.len());
        if blank.start == floor {
            return floor;
        }
        if blank.end < at && is_break(view, blank.clone()) {
            return blank.end;
        }
        end = blank.start;
    }
    floor
}

/// Where reading may stop after `from`: the end of the first break that
/// starts at or after `from`, or `ceil` (where the prose ends).
fn break_after(view: &str, from: usize, ceil: usize) -> usize {
    let bytes = view.as_bytes();
    let mut i = from;
    while i < ceil {
        let Some(nl) = bytes[i..ceil].iter().position(|&b| b == b'\n').map(|k| i + k) else { break };
        let blank = blank_around(view, nl, 0, ceil);
        if blank.end == ceil {
            return ceil;
        }
        if blank.start >= from && is_break(view, blank.clone()) {
            return blank.end;
        }
        i = blank.end;
    }
    ceil
}

/// The blank space around the line end at `nl`, within `floor..ceil`.
fn blank_around(view: &str, nl: usize, floor: usize, ceil: usize) -> Range<usize> {
    let mut start = nl;
    while let Some(c) = view[floor..start].chars().next_back().filter(|c| c.is_whitespace()) {
        start -= c.len_utf8();
    }
    let mut end = nl;
    while let Some(c) = view[end..ceil].chars().next().filter(|c| c.is_whitespace()) {
        end += c.len_utf8();
    }
    start..end
}

/// Whether a blank stretch is a paragraph break that no run and no setup
/// reads across: a blank line, not after `(` (a variation may open before
/// it), `:`, `,`, `;` or a pawns label (a position description goes on),
/// nor before dots (`2.` then `... Nf6`), `:`, `,` or `;`.
fn is_break(view: &str, blank: Range<usize>) -> bool {
    if view.as_bytes()[blank.clone()].iter().filter(|&&b| b == b'\n').count() < 2 {
        return false;
    }
    let before = view[..blank.start].chars().next_back();
    let after = view[blank.end..].chars().next();
    !matches!(before, Some('(' | ':' | ',' | ';'))
        && !matches!(after, Some('.' | '…' | ':' | ',' | ';'))
        && !lexicon::PAWN_LABELS.iter().any(|label| view[..blank.start].ends_with(label))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::manuscript::{Format, TYPED_SNIPPETS, scan};

    const BASE: &str = "Intro 1. e4 e5 2. Nf3 Nc6.\n\nThen 2...Nf6 3. Nxe5 and 3. Bc4 Nf6 4. d3.\n\n\\newchessgame\n\\mainline{1. d4 d5 2. c4}\nWhite: Kg1, Rd1; pawns f2. Black: Kg8. 1. Rd8#\n\nКf3 кf6 .b3 1. К f3 кf6 .b3 d5\n\n```pgn\n1. e4 e5 *\n```\n\nA 1. e4 (\n\n1. d4 d5) 2.\n\n... Nf6 3. Bb5\n\n<!-- 1. c4 -->\n\nFEN 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1. 1. Rd8#\n\n% 1. f4\n\\variation{2. f4 exf4}\nWhite:\n\nKg1\n\n; pawns\n\nh2. 1. Kf2\n";

    fn random_edits(format: Format, seed: u64, rounds: usize, edits: usize) {
        let mut state = seed;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..rounds {
            let mut text = BASE.repeat(1 + next(3));
            let mut ms = scan(&text, format);
            for _ in 0..edits {
                let mut start = next(text.len() + 1);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + next(12)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let snippet = TYPED_SNIPPETS[next(TYPED_SNIPPETS.len())];
                text.replace_range(start..end, snippet);
                let edit = Edit { start, old_end: end, new_end: start + snippet.len() };
                let (again, _) = ms.rescan(&text, edit);
                let fresh = scan(&text, format);
                assert!(again == fresh, "{format:?} after {edit:?} ({snippet:?}): {text:?}");
                ms = again;
            }
        }
    }

    #[test]
    fn rescans_equal_fresh_scans_in_plain_text() {
        random_edits(Format::Text, 0x2545_f491_4f6c_dd1d, 60, 30);
    }

    #[test]
    fn rescans_equal_fresh_scans_in_markdown() {
        random_edits(Format::Markdown, 0x9e37_79b9_7f4a_7c15, 60, 30);
    }

    #[test]
    fn rescans_equal_fresh_scans_in_latex() {
        random_edits(Format::Latex, 0xd1b5_4a32_d192_ed03, 60, 30);
    }

    #[test]
    fn latex_arguments_on_the_next_line_are_read_again() {
        // A macro at a line's end takes a group that starts the next line:
        // an edit there changes what the line before means.
        for (text, at) in [
            ("Text 1. e4 e5.\n\\mainline\nx{2. Nf3 Nc6}\n\nMore 1. d4.\n", "x{"),
            ("A\n\\newchessgame\nx[setfen=8/8/8/8/8/8/8/K1k5 w - - 0 1]\n\\mainline{1. Kb2}\n", "x["),
            ("A\n\\label\n x{1. e4 e5}\n\n1. d4 d5\n", "x{"),
        ] {
            let ms = scan(text, Format::Latex);
            let k = text.find(at).unwrap();
            let mut edited = text.to_owned();
            edited.replace_range(k..k + 1, "");
            let (again, _) = ms.rescan(&edited, Edit { start: k, old_end: k + 1, new_end: k });
            assert_eq!(again, scan(&edited, Format::Latex), "{edited:?}");
            let (back, _) = again.rescan(text, Edit { start: k, old_end: k, new_end: k + 1 });
            assert_eq!(back, ms, "{text:?}");
        }
    }

    #[test]
    fn a_keystroke_in_prose_reads_its_paragraph_only() {
        let paragraph = "After 1. e4 e5 2. Nf3 Nc6 White pins.\n\n";
        let mut text = paragraph.repeat(50);
        let ms = scan(&text, Format::Text);
        let at = paragraph.len() * 20 + 3;
        text.insert(at, 'x');
        let (again, read) = ms.rescan(&text, Edit { start: at, old_end: at, new_end: at + 1 });
        assert_eq!(again, scan(&text, Format::Text));
        assert_eq!(read, paragraph.len() * 20..paragraph.len() * 21 + 1);
    }
}
