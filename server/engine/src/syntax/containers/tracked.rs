//! Fixes written into a Word document as tracked changes, so that the
//! editor accepts or rejects each in Word: the old text of a run moved
//! into a `w:del` (as `w:delText`), the new text in a `w:ins` right after
//! it, both by the author "chess-ls" at the time given, with `w:id`s above
//! every id the document has. The run is split around the change, each
//! piece keeping the run's properties (`w:rPr`); nothing else of
//! `word/document.xml` changes, and every other member of the package is
//! copied byte for byte (its compressed data as it was).
//!
//! The changes are found from the body's text before and after (a line per
//! paragraph, as [`super::docx`] reads it): a paragraph's changes are the
//! differences of its characters, widened to whole words (a move is
//! replaced whole: `Кh5` deleted, `Кh4` inserted). A change must fall on
//! text that Word stores as it reads (plain text alone in its `w:t`, in a
//! run outside any tracked change): one on a symbol, a figurine font, an
//! escaped character or a tab, or across paragraphs, is refused, and so the
//! whole write (never a document half fixed).

use std::io::{Read, Write};
use std::ops::Range;

use quick_xml::events::Event;

use super::docx::{Paragraph, join, paragraphs};
use super::{Container, ContainerError, Limits, Package, escape_text, xml_reader};

/// The author of the tracked changes.
pub const AUTHOR: &str = "chess-ls";

/// The member a Word document's body is in.
const DOCUMENT: &str = "word/document.xml";

/// A Word document's body as read for fixing: the text the checker reads
/// and what is needed to write changes to it back.
#[derive(Clone, Debug)]
pub struct WordBody {
    pub text: String,
}

/// Reads a Word document's body (its paragraphs, a line each).
pub fn read_body(bytes: &[u8], limits: Limits) -> Result<WordBody, ContainerError> {
    let mut package = Package::open(bytes, limits, Container::Docx)?;
    let xml = package.text(DOCUMENT)?;
    let paragraphs =
        paragraphs(&xml).map_err(|e| ContainerError(format!("not a valid Word document: {DOCUMENT} {e}")))?;
    Ok(WordBody { text: join(&paragraphs) })
}

/// The document `bytes` with its body's text changed from `old` to `new`
/// as tracked changes dated `date` (ISO 8601, `2026-12-07T12:00:00Z`).
pub fn rewrite(bytes: &[u8], old: &str, new: &str, date: &str, limits: Limits) -> Result<Vec<u8>, ContainerError> {
    let mut package = Package::open(bytes, limits, Container::Docx)?;
    let xml = package.text(DOCUMENT)?;
    let paragraphs =
        paragraphs(&xml).map_err(|e| ContainerError(format!("not a valid Word document: {DOCUMENT} {e}")))?;
    if join(&paragraphs) != old {
        return Err(ContainerError("the document changed after it was read".into()));
    }
    let old_lines: Vec<&str> = old.split('\n').collect();
    let new_lines: Vec<&str> = new.split('\n').collect();
    if old_lines.len() != new_lines.len() {
        return Err(ContainerError(
            "a change adds or removes a paragraph, which is not written into a Word document".into(),
        ));
    }
    let mut edits = Vec::new();
    for (p, (o, n)) in old_lines.iter().zip(&new_lines).enumerate() {
        if o != n {
            edits.extend(paragraph_edits(o, n).into_iter().map(|(r, t)| (p, r, t)));
        }
    }
    let changed = track_changes(&xml, &paragraphs, &edits, AUTHOR, date).map_err(ContainerError)?;
    replace_member(bytes, DOCUMENT, changed.as_bytes())
}

/// The changes from one paragraph's text to another's: ranges of the old
/// text and what replaces each, whole words.
pub fn paragraph_edits(old: &str, new: &str) -> Vec<(Range<usize>, String)> {
    let diff = similar::TextDiff::configure().timeout(std::time::Duration::from_millis(200)).diff_chars(old, new);
    let old_starts: Vec<usize> = old.char_indices().map(|(i, _)| i).chain([old.len()]).collect();
    let new_starts: Vec<usize> = new.char_indices().map(|(i, _)| i).chain([new.len()]).collect();
    // Byte ranges (old, new) that differ.
    let mut spans: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    for op in diff.ops() {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let o = old_starts[o.start]..old_starts[o.end];
        let n = new_starts[n.start]..new_starts[n.end];
        spans.push((o, n));
    }
    // Widened to whole words (what stands on either side is the same in
    // both texts, up to the next span), and merged.
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    for (mut o, mut n) in spans {
        let floor = out.last().map_or((0, 0), |(po, pn)| (po.end, pn.end));
        while o.start > floor.0 && n.start > floor.1 {
            let c = old[..o.start].chars().next_back().unwrap_or(' ');
            if c.is_whitespace() || !new[..n.start].ends_with(c) {
                break;
            }
            o.start -= c.len_utf8();
            n.start -= c.len_utf8();
        }
        while o.end < old.len() && n.end < new.len() {
            let c = old[o.end..].chars().next().unwrap_or(' ');
            if c.is_whitespace() || !new[n.end..].starts_with(c) {
                break;
            }
            o.end += c.len_utf8();
            n.end += c.len_utf8();
        }
        match out.last_mut() {
            Some((po, pn)) if po.end >= o.start || pn.end >= n.start => {
                po.end = po.end.max(o.end);
                pn.end = pn.end.max(n.end);
            }
            _ => out.push((o, n)),
        }
    }
    out.into_iter().map(|(o, n)| (o, new[n].to_owned())).collect()
}

/// A cut in one `w:t`: the content's bytes `range` deleted, `new` inserted
/// after them.
struct Cut {
    range: Range<usize>,
    new: String,
}

/// `xml` with each edit (a paragraph, a range of its text, the new text)
/// written as a tracked change.
pub fn track_changes(
    xml: &str,
    paragraphs: &[Paragraph],
    edits: &[(usize, Range<usize>, String)],
    author: &str,
    date: &str,
) -> Result<String, String> {
    // The cuts of each piece, by the piece's run.
    let mut by_piece: Vec<((usize, usize), Vec<Cut>)> = Vec::new();
    for (p, range, new) in edits {
        let paragraph = paragraphs.get(*p).ok_or("a change outside the document")?;
        let refused = || {
            format!(
                "the change at paragraph {}, character {} falls on text that Word does not store as plain \
                 text (a symbol, a figurine font, an escaped character, a tab or a tracked change); \
                 make it in Word",
                p + 1,
                paragraph.text[..range.start.min(paragraph.text.len())].chars().count() + 1
            )
        };
        // The pieces it covers (an insertion: the piece it is in or ends).
        let covered: Vec<usize> = if range.is_empty() {
            let k = paragraph
                .pieces
                .iter()
                .position(|x| x.text.start <= range.start && range.start <= x.text.end && x.editable())
                .ok_or_else(refused)?;
            vec![k]
        } else {
            paragraph
                .pieces
                .iter()
                .enumerate()
                .filter(|(_, x)| x.text.start < range.end && range.start < x.text.end)
                .map(|(k, _)| k)
                .collect()
        };
        let last = *covered.last().ok_or_else(refused)?;
        for &k in &covered {
            let piece = &paragraph.pieces[k];
            if !piece.editable() {
                return Err(refused());
            }
            let a = range.start.max(piece.text.start) - piece.text.start;
            let b = range.end.min(piece.text.end) - piece.text.start;
            let cut = Cut { range: a..b, new: if k == last { new.clone() } else { String::new() } };
            match by_piece.iter_mut().find(|(key, _)| *key == (*p, k)) {
                Some((_, cuts)) => cuts.push(cut),
                None => by_piece.push(((*p, k), vec![cut])),
            }
        }
    }
    // Each run changed once: its replacement, in the order of the XML.
    let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
    let mut id = max_id(xml)? + 1;
    for ((p, k), mut cuts) in by_piece {
        let piece = &paragraphs[p].pieces[k];
        let (Some(run), Some((element, content))) = (&piece.run, &piece.element) else {
            return Err("a change outside a run".into());
        };
        if replacements.iter().any(|(r, _)| r == run) {
            return Err(format!(
                "two changes in one run of paragraph {} are not written into a Word document; make them in Word",
                p + 1
            ));
        }
        cuts.sort_by_key(|c| c.range.start);
        let open = &xml[run.start..run.start + xml[run.start..].find('>').ok_or("a run without its tag")? + 1];
        let properties = piece.properties.as_ref().map_or("", |r| &xml[r.clone()]);
        let text = &xml[content.clone()];
        let t = |s: &str| format!("<w:t xml:space=\"preserve\">{s}</w:t>");
        // The run's text between the cuts, each in a run of its own (an
        // empty one left out unless the run holds more than its text).
        let plain = format!("{open}{properties}");
        let mut out = String::new();
        let mut head = xml[run.start..element.start].to_owned();
        let mut at = 0;
        for cut in &cuts {
            let between = &text[at..cut.range.start.max(at)];
            if !between.is_empty() || head != plain {
                out.push_str(&head);
                out.push_str(&t(between));
                out.push_str("</w:r>");
            }
            if !cut.range.is_empty() {
                out.push_str(&format!(
                    "<w:del w:id=\"{id}\" w:author=\"{author}\" w:date=\"{date}\"><w:r>{properties}\
                     <w:delText xml:space=\"preserve\">{}</w:delText></w:r></w:del>",
                    &text[cut.range.clone()]
                ));
                id += 1;
            }
            if !cut.new.is_empty() {
                out.push_str(&format!(
                    "<w:ins w:id=\"{id}\" w:author=\"{author}\" w:date=\"{date}\"><w:r>{properties}{}</w:r></w:ins>",
                    t(&escape_text(&cut.new))
                ));
                id += 1;
            }
            head.clone_from(&plain);
            at = cut.range.end.max(at);
        }
        let tail = &xml[element.end..run.end];
        if !text[at..].is_empty() || head != plain || tail != "</w:r>" {
            out.push_str(&head);
            out.push_str(&t(&text[at..]));
            out.push_str(tail);
        }
        replacements.push((run.clone(), out));
    }
    replacements.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(xml.len() + replacements.iter().map(|(_, s)| s.len()).sum::<usize>());
    let mut at = 0;
    for (range, text) in replacements {
        out.push_str(&xml[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&xml[at..]);
    Ok(out)
}

/// The largest numeric `w:id` in the document (0 when none).
fn max_id(xml: &str) -> Result<i64, String> {
    let mut reader = xml_reader(xml);
    let mut max = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => return Ok(max),
            Ok(Event::Start(e) | Event::Empty(e)) => {
                if let Some(id) = super::attribute(&e, b"id").and_then(|v| v.trim().parse::<i64>().ok()) {
                    max = max.max(id);
                }
            }
            Ok(_) => {}
            Err(e) => return Err(format!("{DOCUMENT} is not well-formed XML: {e}")),
        }
    }
}

/// The package with one member's content replaced, every other member's
/// data copied as it is (compressed), in the same order.
pub fn replace_member(bytes: &[u8], name: &str, content: &[u8]) -> Result<Vec<u8>, ContainerError> {
    let broken = |e: &dyn std::fmt::Display| ContainerError(format!("cannot write the Word document: {e}"));
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| broken(&e))?;
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::with_capacity(bytes.len() + content.len())));
    for i in 0..archive.len() {
        let member = archive.by_index_raw(i).map_err(|e| broken(&e))?;
        if member.name_raw() == name.as_bytes() {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .last_modified_time(member.last_modified().unwrap_or_default());
            drop(member);
            out.start_file(name, options).map_err(|e| broken(&e))?;
            out.write_all(content).map_err(|e| broken(&e))?;
        } else {
            out.raw_copy_file(member).map_err(|e| broken(&e))?;
        }
    }
    let written = out.finish().map_err(|e| broken(&e))?.into_inner();
    // What was written reads back.
    let mut check = zip::ZipArchive::new(std::io::Cursor::new(&written[..])).map_err(|e| broken(&e))?;
    let mut back = Vec::new();
    check.by_name(name).map_err(|e| broken(&e))?.read_to_end(&mut back).map_err(|e| broken(&e))?;
    if back != content {
        return Err(broken(&"the member written does not read back"));
    }
    Ok(written)
}

/// The current time as Word writes it in `w:date` (UTC, to the second),
/// from seconds since 1970.
pub fn iso_date(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_word_writes_them() {
        assert_eq!(iso_date(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_date(1_798_632_000), "2026-12-30T12:00:00Z");
        assert_eq!(iso_date(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn edits_are_whole_words() {
        assert_eq!(paragraph_edits("1. e4 e5 2. Кh5 Фe7", "1. e4 e5 2. Кh4 Фe7"), [(12..16, "Кh4".to_owned())]);
        assert_eq!(paragraph_edits("1. e4 e5 2. Nf3", "1. e4 e5 2. Кf3"), [(12..15, "Кf3".to_owned())]);
        assert_eq!(
            paragraph_edits("a 1. e4 b 2. c4 c", "a 1. d4 b 2. d4 c"),
            [(5..7, "d4".to_owned()), (13..15, "d4".to_owned())]
        );
    }

    fn body(paragraphs_xml: &str) -> String {
        format!(
            "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>\
             {paragraphs_xml}</w:body></w:document>"
        )
    }

    #[test]
    fn a_change_is_a_deletion_and_an_insertion_in_split_runs() {
        let xml = body(
            "<w:p><w:r w:rsidR=\"1\"><w:rPr><w:i/></w:rPr><w:t>1. e4 e5 2. Кh5 Фe7</w:t></w:r></w:p>\
             <w:bookmarkStart w:id=\"7\" w:name=\"x\"/>",
        );
        let ps = paragraphs(&xml).unwrap();
        let edits = [(0, 12..16, "Кh4".to_owned())];
        let out = track_changes(&xml, &ps, &edits, AUTHOR, "2026-12-07T12:00:00Z").unwrap();
        assert!(
            out.contains(
                "<w:r w:rsidR=\"1\"><w:rPr><w:i/></w:rPr><w:t xml:space=\"preserve\">1. e4 e5 2. </w:t></w:r>\
             <w:del w:id=\"8\" w:author=\"chess-ls\" w:date=\"2026-12-07T12:00:00Z\"><w:r><w:rPr><w:i/></w:rPr>\
             <w:delText xml:space=\"preserve\">Кh5</w:delText></w:r></w:del>\
             <w:ins w:id=\"9\" w:author=\"chess-ls\" w:date=\"2026-12-07T12:00:00Z\"><w:r><w:rPr><w:i/></w:rPr>\
             <w:t xml:space=\"preserve\">Кh4</w:t></w:r></w:ins>\
             <w:r w:rsidR=\"1\"><w:rPr><w:i/></w:rPr><w:t xml:space=\"preserve\"> Фe7</w:t></w:r>"
            ),
            "{out}"
        );
        // Read again, the change is accepted.
        assert_eq!(paragraphs(&out).unwrap()[0].text, "1. e4 e5 2. Кh4 Фe7");
    }

    #[test]
    fn a_change_over_two_runs_deletes_from_both() {
        let xml =
            body("<w:p><w:r><w:t>1. e4 e5 2. К</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>h5 Фe7</w:t></w:r></w:p>");
        let ps = paragraphs(&xml).unwrap();
        let edits = [(0, 12..16, "Кh4".to_owned())];
        let out = track_changes(&xml, &ps, &edits, AUTHOR, "D").unwrap();
        assert_eq!(out.matches("<w:del ").count(), 2, "{out}");
        assert_eq!(out.matches("<w:ins ").count(), 1, "{out}");
        assert_eq!(paragraphs(&out).unwrap()[0].text, "1. e4 e5 2. Кh4 Фe7");
    }

    #[test]
    fn a_change_on_a_figurine_or_entity_is_refused() {
        let xml = body(
            "<w:p><w:r><w:rPr><w:rFonts w:ascii=\"FigurineCB\"/></w:rPr><w:t>N</w:t></w:r><w:r><w:t>h5 &amp;</w:t></w:r></w:p>",
        );
        let ps = paragraphs(&xml).unwrap();
        assert_eq!(ps[0].text, "♘h5 &");
        assert!(track_changes(&xml, &ps, &[(0, 0..5, "♘h4".to_owned())], AUTHOR, "D").is_err());
    }
}
