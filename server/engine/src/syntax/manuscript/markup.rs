//! What the markup of a manuscript says: Markdown's fenced blocks and HTML
//! comments, LaTeX's commands and notation macros. [`Markup::read`] reads it
//! over the whole text into the *view* (the text with the markup blanked, in
//! which runs are looked for), the units the markup makes (fenced chess
//! blocks, the arguments of notation macros) and LaTeX's setups;
//! [`Markup::reread`] reads it again after an edit, only from a line where
//! the reading may start again until it reads as before.

use std::ops::Range;

use super::rescan::Edit;
use super::{Format, Setup, UnitKind, blank, html, latex, typst};
use crate::syntax::markdown;

fn macro_kind(variation: bool) -> UnitKind {
    if variation { UnitKind::Variation } else { UnitKind::Macro }
}

/// A unit the markup makes (a fenced chess block, a macro's argument).
pub(super) type Forced = (Range<usize>, UnitKind);

/// What the markup of a manuscript says, read over the whole text (a pass
/// over its lines or bytes, cheap next to looking for runs): the text the
/// runs are looked for in, and the units and setups the markup makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Markup {
    /// The text with the markup blanked; `None` for plain text, which is
    /// its own view.
    pub(super) view: Option<String>,
    /// Fenced chess blocks and the arguments of notation macros, in order.
    pub(super) forced: Vec<Forced>,
    /// LaTeX's setups, each at its macro.
    pub(super) setups: Vec<(usize, Setup)>,
    /// The line starts where reading may start again: for LaTeX where the
    /// reader was between commands (`latex::scan_from`), for Markdown
    /// outside every block and comment (`markdown::read_from`).
    pub(super) lines: Vec<usize>,
}

impl Markup {
    pub(super) fn read(text: &str, format: Format) -> Markup {
        let (view, forced, setups, lines) = match format {
            Format::Text => return Markup { view: None, forced: Vec::new(), setups: Vec::new(), lines: Vec::new() },
            Format::Markdown => {
                let reading = markdown::read_from(text, 0, usize::MAX, |_| false);
                let (view, forced) = markdown_view(text, &reading, 0);
                (view, forced, Vec::new(), reading.lines)
            }
            Format::Latex => {
                let l = latex::scan(text);
                (l.view, l.notation.into_iter().map(|(r, v)| (r, macro_kind(v))).collect(), l.setups, l.lines)
            }
            // Read again whole after an edit (no `lines`): a pass over the
            // text, cheap next to looking for runs.
            Format::Html => (html::view(text), Vec::new(), Vec::new(), Vec::new()),
            Format::Typst => (typst::view(text), Vec::new(), Vec::new(), Vec::new()),
        };
        // Blanking replaced whole characters by spaces: still UTF-8.
        let view = String::from_utf8(view).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        Markup { view: Some(view), forced, setups, lines }
    }

    /// The markup after an edit, read again only from a line before the
    /// edit where reading may start again (`lines`) up to the first line
    /// after it where the reading is again where it was before; and the
    /// edit widened to what was read again, outside which the markup is the
    /// old one (moved). `None` for plain text.
    pub(super) fn reread(&self, text: &str, format: Format, e: Edit) -> Option<(Markup, Edit)> {
        let old_view = self.view.as_deref().filter(|_| !self.lines.is_empty())?;
        let delta = e.delta();
        let shift = |x: usize| (x as isize + delta) as usize;
        let mut k = self.lines.partition_point(|&s| s <= e.start);
        let from = loop {
            let Some(before) = k.checked_sub(1) else { break 0 };
            let s = self.lines[before];
            // What LaTeX's reader read before a line start ends with the
            // line after it: that line must end before the edit. Markdown
            // reads line by line.
            if format == Format::Markdown || text.as_bytes()[s..e.start].contains(&b'\n') {
                break s;
            }
            k = before;
        };
        let old_lines = &self.lines;
        let at_old_line = |i: usize| old_lines.binary_search(&((i as isize - delta) as usize)).is_ok();
        let (middle, new_forced, new_setups, new_lines, to) = match format {
            Format::Latex => {
                let (l, to) = latex::scan_from(text, from, e.new_end, at_old_line);
                let forced: Vec<Forced> = l.notation.into_iter().map(|(r, v)| (r, macro_kind(v))).collect();
                (l.view[from..to].to_vec(), forced, l.setups, l.lines, to)
            }
            Format::Markdown => {
                let reading = markdown::read_from(text, from, e.new_end, at_old_line);
                let (view, forced) = markdown_view(text, &reading, from);
                (view, forced, Vec::new(), reading.lines, reading.end)
            }
            Format::Text | Format::Html | Format::Typst => return None,
        };
        let old_to = (to as isize - delta) as usize;
        let mut view = String::with_capacity(text.len());
        view.push_str(&old_view[..from]);
        view.push_str(std::str::from_utf8(&middle).ok()?);
        view.push_str(&old_view[old_to..]);
        let mut forced: Vec<Forced> = self.forced.iter().take_while(|(r, _)| r.start < from).cloned().collect();
        forced.extend(new_forced);
        // (A macro left open at the end has an empty argument there: when
        // reading went on to the end, nothing old is left after it.)
        let old_after = if to < text.len() { &self.forced[..] } else { &[] };
        forced.extend(
            old_after.iter().filter(|(r, _)| r.start >= old_to).map(|(r, k)| (shift(r.start)..shift(r.end), *k)),
        );
        let mut setups: Vec<(usize, Setup)> = self.setups.iter().take_while(|(at, _)| *at < from).cloned().collect();
        setups.extend(new_setups);
        setups.extend(self.setups.iter().filter(|(at, _)| *at >= old_to).map(|(at, s)| (shift(*at), s.shifted(delta))));
        let mut lines: Vec<usize> = self.lines.iter().copied().take_while(|&s| s < from).collect();
        lines.extend(new_lines);
        if to < text.len() {
            lines.extend(self.lines[self.lines.partition_point(|&s| s < old_to)..].iter().map(|&s| shift(s)));
        }
        let markup = Markup { view: Some(view), forced, setups, lines };
        Some((markup, Edit { start: from, old_end: old_to, new_end: to }))
    }

    pub(super) fn view<'a>(&'a self, text: &'a str) -> &'a str {
        self.view.as_deref().unwrap_or(text)
    }
}

/// The Markdown view of `text[from..reading.end]` (what `reading` read
/// from `from`): fenced blocks blanked (chess blocks kept, as forced units),
/// HTML comments blanked.
fn markdown_view(text: &str, reading: &markdown::Reading, from: usize) -> (Vec<u8>, Vec<Forced>) {
    let mut view = text.as_bytes()[from..reading.end].to_vec();
    let local = |r: &Range<usize>| r.start - from..r.end - from;
    let mut forced = Vec::new();
    for fence in &reading.fences {
        blank(&mut view, local(&fence.lines));
        if fence.chess {
            view[local(&fence.content)].copy_from_slice(&text.as_bytes()[fence.content.clone()]);
            forced.push((fence.content.clone(), UnitKind::Block));
        }
    }
    for comment in &reading.comments {
        if !forced.iter().any(|(r, _)| r.contains(&comment.start)) {
            blank(&mut view, local(comment));
        }
    }
    (view, forced)
}
