//! Blanking: the text the parser reads, with every byte that is not
//! notation turned into a space (line ends kept), so that what it reports is
//! a place in the manuscript as it is. The units and the position
//! descriptions before them are kept, and the repairs of scanning damage
//! are applied (a lower-case letter's capital written, a lost move
//! number's dots blanked, a letter moved over the space in `К f3`). After
//! an edit, [`reblank`] makes only the stretch that changed again.

use std::ops::Range;

use super::rescan::Edit;
use super::setups::descriptions_in;
use super::{Manuscript, Repair, RepairKind, Setup, Unit};

/// Turns every byte of `range` except line ends into a space.
pub(crate) fn blank(bytes: &mut [u8], range: Range<usize>) {
    for b in &mut bytes[range] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// The blanked bytes of `stretch` of the text: all blank but the units
/// starting in it and the descriptions before them, repairs applied. (No
/// unit, description or repair crosses its ends.)
pub(super) fn blanked_stretch(
    text: &str,
    view: &str,
    units: &[Unit],
    repairs: &[Repair],
    stretch: Range<usize>,
) -> Vec<u8> {
    let base = stretch.start;
    let mut out = text.as_bytes()[stretch.clone()].to_vec();
    let len = out.len();
    blank(&mut out, 0..len);
    let local = |r: &Range<usize>| r.start - base..r.end - base;
    let keep = |out: &mut Vec<u8>, r: Range<usize>| out[local(&r)].copy_from_slice(&view.as_bytes()[r]);
    let first = units.partition_point(|u| u.notation.start < base);
    // An empty unit at the very end (a block opened on the last line) is
    // the last stretch's.
    let last =
        if stretch.end == text.len() { units.len() } else { units.partition_point(|u| u.notation.start < stretch.end) };
    for unit in &units[first..last.max(first)] {
        keep(&mut out, unit.notation.clone());
        if let Some(Setup::Description(r)) = &unit.setup {
            // Only the descriptions themselves, not the prose between them.
            for d in descriptions_in(view, r.clone()) {
                keep(&mut out, d);
            }
        }
    }
    let first = repairs.partition_point(|r| r.span.start < base);
    for repair in repairs[first..].iter().take_while(|r| r.span.start < stretch.end) {
        let span = local(&repair.span);
        match &repair.kind {
            RepairKind::Sign { meant } | RepairKind::TransliteratedFile { meant } => {
                let mut buf = [0u8; 4];
                let meant = meant.encode_utf8(&mut buf).as_bytes();
                if meant.len() == span.len() {
                    out[span].copy_from_slice(meant);
                } else if meant.len() < span.len() {
                    // `-f` for `+`: the sign, then blanks.
                    let at = span.start;
                    blank(&mut out, span);
                    out[at..at + meant.len()].copy_from_slice(meant);
                }
            }
            RepairKind::LowerCaseLetter { upper } => {
                let mut buf = [0u8; 4];
                let upper = upper.encode_utf8(&mut buf).as_bytes();
                if upper.len() == span.len() {
                    out[span].copy_from_slice(upper);
                }
            }
            RepairKind::LostMoveNumber { .. } | RepairKind::Separator | RepairKind::CaptureAfter => {
                blank(&mut out, span)
            }
            RepairKind::FileDigit { placeholder } => {
                if span.len() == 1 && placeholder.is_ascii() {
                    out[span.start] = *placeholder as u8;
                }
            }
            RepairKind::Unfinished => blank(&mut out, span),
            RepairKind::Glued { .. } | RepairKind::GluedNumber | RepairKind::Damaged | RepairKind::CommentBracket => {}
            RepairKind::Bracket { open } => {
                if span.len() == 1 {
                    out[span.start] = if *open { b'(' } else { b')' };
                }
            }
            RepairKind::LookAlikeNumber { number }
            | RepairKind::NumberSign { number }
            | RepairKind::BlackDots { number } => {
                if number.len() == span.len() {
                    out[span].copy_from_slice(number.as_bytes());
                }
            }
            RepairKind::SpaceInMove { joined, .. }
            | RepairKind::Spaced { joined, .. }
            | RepairKind::DoubledDash { joined, .. }
            | RepairKind::Stray { joined, .. } => {
                // The parts moved right over the gaps: the move ends where
                // it ends in the text.
                let gap = span.len() - joined.len();
                blank(&mut out, span.start..span.start + gap);
                out[span.start + gap..span.end].copy_from_slice(joined.as_bytes());
            }
        }
    }
    // A lone `\r` ends a line for the parser as `\n` does (`ide::intake`
    // does the same for notation): the grammar ends `;` comments at `\n`.
    let bytes = text.as_bytes();
    for (i, b) in out.iter_mut().enumerate() {
        if *b == b'\r' && bytes.get(base + i + 1) != Some(&b'\n') {
            *b = b'\n';
        }
    }
    out
}

/// The blanked text after an edit (`e`, with `read` read again): the old
/// one, made again from the first unit that changed (or whose description
/// did) to the last, and over what was read again; `None` when that does
/// not cut the old one where it can be cut.
pub(super) fn reblank(
    old: &Manuscript,
    text: &str,
    view: &str,
    units: &[Unit],
    repairs: &[Repair],
    e: Edit,
    read: Range<usize>,
) -> Option<String> {
    let delta = e.delta();
    let (mut lo, mut hi) = (read.start.min(e.start), read.end.max(e.new_end));
    // A `\r` just before the stretch is a line end of its own or half of a
    // `\r\n`, as the first byte of the stretch decides.
    if lo > 0 && text.as_bytes().get(lo - 1) == Some(&b'\r') {
        lo -= 1;
    }
    let cover = |u: &Unit| Manuscript::piece_start(u)..u.notation.end;
    let front = old.units.iter().zip(units).take_while(|(o, n)| o == n).count();
    let most = old.units.len().min(units.len()) - front;
    let back = old.units.iter().rev().zip(units.iter().rev()).take(most).take_while(|(o, n)| n.moved(o, delta)).count();
    for u in &units[front..units.len() - back] {
        (lo, hi) = (lo.min(cover(u).start), hi.max(cover(u).end));
    }
    for u in &old.units[front..old.units.len() - back] {
        (lo, hi) = (lo.min(e.map(cover(u).start)), hi.max(e.map(cover(u).end)));
    }
    // Every unit that reaches into the stretch, whole.
    loop {
        let before = (lo, hi);
        let first = units.partition_point(|u| u.notation.end <= lo);
        for u in &units[first..] {
            let c = cover(u);
            if c.start >= hi {
                break;
            }
            (lo, hi) = (lo.min(c.start), hi.max(c.end));
        }
        if (lo, hi) == before {
            break;
        }
    }
    let old_hi = (hi as isize - delta) as usize;
    let middle = blanked_stretch(text, view, units, repairs, lo..hi);
    let mut blanked = String::with_capacity(text.len());
    blanked.push_str(old.blanked.get(..lo)?);
    blanked.push_str(std::str::from_utf8(&middle).ok()?);
    blanked.push_str(old.blanked.get(old_hi..)?);
    Some(blanked)
}
