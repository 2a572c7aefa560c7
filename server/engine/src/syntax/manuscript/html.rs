//! The prose of an HTML (or XHTML) page: tags, comments, declarations and
//! the content of `<script>` and `<style>` blanked, character and entity
//! references decoded where they stand, so that runs of notation in the text
//! are found as in plain text at their very offsets in the page.
//!
//! The page is read with `quick-xml` (never by hand), told to be lenient
//! as HTML needs: end tags need not match (`<p>` left open, `<br>`), a lone
//! `&` is text. A reference is written over its own bytes, right-aligned,
//! with spaces before it: `&#9816;f3` becomes `    ♘f3` (the decoded
//! character is never longer than the reference), so the move reads whole
//! and the view keeps the page's length and lines. What `quick-xml` cannot
//! read (a `<` in the text that starts no tag, say) is left as it is and the
//! reading goes on after it.

use quick_xml::Reader;
use quick_xml::events::Event;

use super::blank;

/// The view of an HTML page: its markup blanked, references decoded in
/// place (same length, same lines).
pub(super) fn view(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut view = bytes.to_vec();
    let mut base = 0;
    'restart: while base < bytes.len() {
        let mut reader = Reader::from_reader(&bytes[base..]);
        let config = reader.config_mut();
        config.check_end_names = false;
        config.allow_unmatched_ends = true;
        config.allow_dangling_amp = true;
        config.check_comments = false;
        loop {
            let start = base + reader.buffer_position() as usize;
            let event = reader.read_event();
            let end = (base + reader.buffer_position() as usize).min(bytes.len());
            match event {
                Ok(Event::Eof) => break 'restart,
                Ok(Event::Text(_) | Event::CData(_)) => {
                    if let Ok(Event::CData(_)) = &event {
                        // `<![CDATA[` and `]]>` are markup.
                        blank(&mut view, start..(start + 9).min(end));
                        blank(&mut view, end.saturating_sub(3).max(start)..end);
                    }
                }
                Ok(Event::GeneralRef(r)) => {
                    let decoded = if r.is_char_ref() {
                        r.resolve_char_ref().ok().flatten().map(|c| c.to_string())
                    } else {
                        let name = String::from_utf8_lossy(r.as_ref()).into_owned();
                        quick_xml::escape::resolve_html5_entity(&name).map(str::to_owned)
                    };
                    write_reference(&mut view, start..end, decoded.as_deref());
                }
                Ok(Event::Start(e)) => {
                    blank(&mut view, start..end);
                    let name = e.local_name();
                    let name = name.as_ref();
                    if name.eq_ignore_ascii_case(b"script") || name.eq_ignore_ascii_case(b"style") {
                        // Their content is code, not markup: skipped to the
                        // end tag (or the end of the page).
                        let close = find_end_tag(bytes, end, name).unwrap_or(bytes.len());
                        blank(&mut view, end..close);
                        base = close;
                        continue 'restart;
                    }
                }
                Ok(_) => blank(&mut view, start..end),
                Err(_) => {
                    if end <= start {
                        break 'restart;
                    }
                    // Left as it is; the reading goes on after it.
                    base = end;
                    continue 'restart;
                }
            }
            if end <= start {
                break 'restart;
            }
        }
    }
    view
}

/// Writes a reference's decoded text over it, right-aligned (spaces before
/// it), or blanks it when it decodes to nothing known or to something
/// longer than itself; a space, a no-break space or a line end is a space.
fn write_reference(view: &mut [u8], span: std::ops::Range<usize>, decoded: Option<&str>) {
    blank(view, span.clone());
    let Some(decoded) = decoded else { return };
    let decoded: String =
        decoded.chars().map(|c| if c.is_whitespace() || c == '\u{a0}' || c.is_control() { ' ' } else { c }).collect();
    if decoded.len() <= span.len() {
        let at = span.end - decoded.len();
        view[at..span.end].copy_from_slice(decoded.as_bytes());
    }
}

/// Where the end tag `</name` after `from` starts (any case).
fn find_end_tag(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    while let Some(k) = memchr::memmem::find(&bytes[at..], b"</") {
        let tag = at + k + 2;
        if bytes.len() >= tag + name.len() && bytes[tag..tag + name.len()].eq_ignore_ascii_case(name) {
            return Some(at + k);
        }
        at = tag;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn v(text: &str) -> String {
        String::from_utf8(view(text)).unwrap()
    }

    #[test]
    fn markup_is_blanked_and_references_decoded_in_place() {
        let page = "<p>After <b>1. e4</b> e5 2. &#9816;f3 &#x2658;c6&nbsp;3. Bb5</p>";
        let out = v(page);
        assert_eq!(out.len(), page.len());
        assert_eq!(words(&out), "After 1. e4 e5 2. ♘f3 ♘c6 3. Bb5");
        // The figurine ends where its reference ends: the move starts
        // inside the reference and ends where it ends in the page.
        let at = page.find("f3").unwrap();
        assert_eq!(&out[at - 3..at + 2], "♘f3");
        assert!(!out.contains('<') && !out.contains('&'));
    }

    #[test]
    fn script_style_comments_and_declarations_are_skipped() {
        let page = "<!DOCTYPE html>\n<html><head><style>p { a < b }</style>\
                    <script>if (a < b && c) { x = '1. e4'; }</script></head>\n\
                    <body><!-- 1. d4 -->1. c4<br>e5 &amp; &unknown; &lt;</body></html>";
        let out = v(page);
        assert_eq!(out.len(), page.len());
        assert_eq!(out.matches('\n').count(), 2);
        assert!(!out.contains("e4") && !out.contains("d4"), "{out:?}");
        assert_eq!(words(&out), "1. c4 e5 & <");
    }

    #[test]
    fn broken_markup_is_no_panic() {
        for page in ["<p", "a < b 1. e4", "<<<>>>", "&#xFFFFFFFF; 1. e4", "<![CDATA[1. e4]]>", "&", "</", "<script>"] {
            let out = v(page);
            assert_eq!(out.len(), page.len(), "{page:?}");
        }
        assert!(v("<![CDATA[1. e4]]>").contains("1. e4"));
    }
}
