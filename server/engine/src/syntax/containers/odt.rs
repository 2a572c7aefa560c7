//! OpenDocument text (`.odt`): the paragraphs and headings of
//! `content.xml` (`text:p`, `text:h`, with their spans, links and notes),
//! a line each, as Word's are read ([`super::docx`]): a finding's line is
//! the paragraph's number (in the order the paragraphs start: a note's
//! paragraphs come right after the one that holds it) and its column the
//! character in that paragraph. `text:s` is its count of spaces
//! (`text:c`), `text:tab` a tab, `text:line-break` a space. Tracked changes
//! are read accepted: the deleted text, which OpenDocument keeps in
//! `text:tracked-changes`, is not read; nor are a note's citation (its
//! number) or annotations (comments).

use quick_xml::events::Event;

use super::{ContainerError, Package, Part, attribute, local, reference, xml_reader};
use crate::syntax::manuscript::Format;

pub(super) fn read(package: &mut Package<'_>) -> Result<Vec<Part>, ContainerError> {
    let xml = package.text("content.xml")?;
    let paragraphs =
        paragraphs(&xml).map_err(|e| ContainerError(format!("not a valid OpenDocument text: content.xml {e}")))?;
    Ok(vec![Part { member: None, text: paragraphs.join("\n"), format: Format::Text }])
}

/// The paragraphs of an OpenDocument `content.xml`, in the order they start.
pub fn paragraphs(xml: &str) -> Result<Vec<String>, String> {
    let mut reader = xml_reader(xml);
    let mut out: Vec<String> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut skip = 0usize;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("is not well-formed XML (at byte {}): {e}", reader.error_position()))?;
        match event {
            Event::Eof => break,
            Event::Start(e) => {
                if skip > 0 {
                    skip += 1;
                    continue;
                }
                match local(e.name().as_ref()) {
                    b"tracked-changes" | b"note-citation" | b"annotation" => skip = 1,
                    b"p" | b"h" => {
                        open.push(out.len());
                        out.push(String::new());
                    }
                    _ => {}
                }
            }
            Event::Empty(e) => {
                if skip > 0 {
                    continue;
                }
                let qname = e.name();
                let name = local(qname.as_ref());
                if matches!(name, b"p" | b"h") {
                    out.push(String::new());
                    continue;
                }
                let Some(&p) = open.last() else { continue };
                match name {
                    b"s" => {
                        let n = attribute(&e, b"c").and_then(|c| c.trim().parse::<usize>().ok()).unwrap_or(1);
                        // A count past a line's length is no real spacing.
                        out[p].extend(std::iter::repeat_n(' ', n.min(1000)));
                    }
                    b"tab" => out[p].push('\t'),
                    b"line-break" => out[p].push(' '),
                    _ => {}
                }
            }
            Event::End(e) => {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                if matches!(local(e.name().as_ref()), b"p" | b"h") {
                    open.pop();
                }
            }
            Event::Text(t) if skip == 0 => {
                let Some(&p) = open.last() else { continue };
                let raw = t.decode().map_err(|e| format!("has text that cannot be read: {e}"))?;
                // Line ends in the XML are white space, as in the editor.
                out[p].extend(raw.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }));
            }
            Event::GeneralRef(r) if skip == 0 => {
                let Some(&p) = open.last() else { continue };
                out[p].push_str(&reference(&r).unwrap_or_default().replace(['\n', '\r'], " "));
            }
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_spans_spaces_and_changes() {
        let xml = "<office:document-content><office:body><office:text>\
                   <text:tracked-changes><text:changed-region text:id=\"c1\"><text:deletion>\
                   <text:p>Sc6</text:p></text:deletion></text:changed-region></text:tracked-changes>\
                   <text:h>Die <text:span>Partie</text:span></text:h>\
                   <text:p>1. e4 e5 2. S<text:span text:style-name=\"b\">f3</text:span><text:change text:change-id=\"c1\"/>\
                   <text:s text:c=\"2\"/>Sc6<text:tab/>3. Lb5<text:note><text:note-citation>1</text:note-citation>\
                   <text:note-body><text:p>Oder 3. Lc4</text:p></text:note-body></text:note> a6&amp;</text:p><text:p/>\
                   </office:text></office:body></office:document-content>";
        assert_eq!(paragraphs(xml).unwrap(), ["Die Partie", "1. e4 e5 2. Sf3  Sc6\t3. Lb5 a6&", "Oder 3. Lc4", ""]);
    }
}
