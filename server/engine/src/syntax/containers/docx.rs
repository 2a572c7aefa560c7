//! Word documents (`.docx`, `.docm`, `.dotx`): the paragraphs of
//! `word/document.xml` (the body, its tables' cells, text boxes), then
//! `word/footnotes.xml` and `word/endnotes.xml` as parts of their own.
//!
//! A paragraph is a line of the text: its runs joined (Word splits a move
//! over runs wherever the formatting changes: `Кf` `3+` is one move), a tab
//! a tab, a line break inside it a space, so a finding's line is the
//! paragraph's number (counted from 1 in its part, in the order the
//! paragraphs start: a text box's paragraphs come right after the one that
//! holds it) and its column the character in that paragraph.
//!
//! Tracked changes are read accepted: inserted text (`w:ins`, `w:moveTo`)
//! is read, deleted text (`w:del`, `w:delText`, `w:moveFrom`) is not; nor
//! are field codes (`w:instrText`) or the fallback copy of a drawing
//! (`mc:Fallback`, which repeats a text box).
//!
//! Figurine fonts: a run whose font (`w:rFonts`, set on the run itself) is
//! a chess font draws pieces for letters. Assumed, as ChessBase's figurine
//! fonts (`Figurine...`, `FigurineCB AriesSP`, ...) and the diagram fonts
//! whose names start with `Chess ` (`Chess Merida`, `Chess Alpha`, `Chess
//! Leipzig`, ...) do: the capitals `K Q R B N` draw king, queen, rook,
//! bishop and knight, read as the figurines `♔ ♕ ♖ ♗ ♘`; every other
//! character (the squares, digits, signs) is itself. A symbol (`w:sym`) in
//! such a font is read the same way from its character code (Word writes
//! `F04E` for the `N` of a symbol font). A font named in a style, not on
//! the run, is not looked at.

use std::ops::Range;

use quick_xml::events::Event;

use super::{ContainerError, Package, Part, attribute, local, reference, xml_reader};
use crate::syntax::manuscript::Format;

/// The parts read, in order, with the name each is reported under.
const PARTS: [(&str, Option<&str>); 3] = [
    ("word/document.xml", None),
    ("word/footnotes.xml", Some("word/footnotes.xml")),
    ("word/endnotes.xml", Some("word/endnotes.xml")),
];

pub(super) fn read(package: &mut Package<'_>) -> Result<Vec<Part>, ContainerError> {
    let mut parts = Vec::new();
    for (member, reported) in PARTS {
        let xml = if reported.is_none() {
            package.text(member)?
        } else {
            match package.member(member)? {
                Some(bytes) => super::into_text(bytes, member, package.kind())?,
                None => continue,
            }
        };
        let paragraphs =
            paragraphs(&xml).map_err(|e| ContainerError(format!("not a valid Word document: {member} {e}")))?;
        let text = join(&paragraphs);
        if reported.is_some() && text.trim().is_empty() {
            continue;
        }
        parts.push(Part { member: reported.map(str::to_owned), text, format: Format::Text });
    }
    Ok(parts)
}

/// The text of paragraphs, a line each.
pub fn join(paragraphs: &[Paragraph]) -> String {
    let mut text = String::with_capacity(paragraphs.iter().map(|p| p.text.len() + 1).sum());
    for (i, p) in paragraphs.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&p.text);
    }
    text
}

/// A paragraph: its text, and where each piece of it stands in the XML.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paragraph {
    pub text: String,
    pub pieces: Vec<Piece>,
}

/// A piece of a paragraph's text read from one place of the XML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its bytes in the paragraph's text.
    pub text: Range<usize>,
    /// The bytes of the XML it was read from (the content of a `w:t`, a
    /// reference in it, or a whole element such as `w:tab`).
    pub xml: Range<usize>,
    /// The run (`w:r` element, tags included) it is in, if any.
    pub run: Option<Range<usize>>,
    /// Whether the text is the XML's bytes as they are (plain text in a
    /// `w:t`, in a font that is no chess font).
    pub verbatim: bool,
    /// The `w:t` element it is in (tags included) and that element's
    /// content, when it is in one.
    pub element: Option<(Range<usize>, Range<usize>)>,
    /// The run's properties (`w:rPr`, tags included), if it has any.
    pub properties: Option<Range<usize>>,
    /// Inside a tracked change already (`w:ins`, `w:moveTo`).
    pub tracked: bool,
}

impl Piece {
    /// Whether a tracked change can be written over this piece: plain text
    /// alone in its `w:t`, in a run, outside any tracked change.
    pub fn editable(&self) -> bool {
        self.verbatim
            && !self.tracked
            && self.run.is_some()
            && self.element.as_ref().is_some_and(|(_, content)| *content == self.xml)
    }
}

/// Whether a font draws pieces for letters (see the module's doc).
pub fn is_chess_font(name: &str) -> bool {
    let lower = name.trim().to_ascii_lowercase();
    lower.starts_with("figurine") || lower.contains("figurine") || lower.starts_with("chess ")
}

/// The figurine a chess font draws for a character.
pub fn figurine(c: char) -> Option<char> {
    Some(match c {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        _ => return None,
    })
}

/// The paragraphs of a WordprocessingML part, in the order they start.
pub fn paragraphs(xml: &str) -> Result<Vec<Paragraph>, String> {
    let mut reader = xml_reader(xml);
    let mut out: Vec<Paragraph> = Vec::new();
    // The paragraphs open (a text box's inside its anchor's).
    let mut open: Vec<usize> = Vec::new();
    // Elements whose content is not read (deleted text, field codes, a
    // drawing's fallback), by depth.
    let mut skip = 0usize;
    let mut in_text = false;
    let mut run: Option<(usize, bool)> = None; // start, chess font
    let mut run_pieces: Vec<(usize, usize)> = Vec::new(); // (paragraph, piece) of the open run
    // The open `w:t` (its start and content start) and its pieces.
    let mut element: Option<(usize, usize)> = None;
    let mut element_pieces: Vec<(usize, usize)> = Vec::new();
    let mut properties: Option<Range<usize>> = None;
    let mut properties_start = 0;
    let mut tracked = 0usize;
    loop {
        let start = reader.buffer_position() as usize;
        let event = reader
            .read_event()
            .map_err(|e| format!("is not well-formed XML (at byte {}): {e}", reader.error_position()))?;
        let end = reader.buffer_position() as usize;
        match event {
            Event::Eof => break,
            Event::Start(e) => {
                let name = local(e.name().as_ref()).to_vec();
                if skip > 0 {
                    skip += 1;
                    continue;
                }
                match name.as_slice() {
                    b"del" | b"moveFrom" | b"instrText" | b"delText" | b"Fallback" | b"delInstrText" => skip = 1,
                    b"p" => {
                        open.push(out.len());
                        out.push(Paragraph::default());
                    }
                    b"r" => {
                        run = Some((start, false));
                        run_pieces.clear();
                        properties = None;
                    }
                    b"t" => {
                        in_text = run.is_some() || !open.is_empty();
                        element = Some((start, end));
                        element_pieces.clear();
                    }
                    b"rPr" if run.is_some() => properties_start = start,
                    b"ins" | b"moveTo" => tracked += 1,
                    b"rFonts" => set_font(&mut run, &e),
                    _ => {}
                }
            }
            Event::Empty(e) => {
                if skip > 0 {
                    continue;
                }
                let name = local(e.name().as_ref()).to_vec();
                if name == b"p" {
                    out.push(Paragraph::default());
                    continue;
                }
                let Some(&p) = open.last() else { continue };
                let chess = run.is_some_and(|(_, c)| c);
                let text: Option<String> = match name.as_slice() {
                    b"rPr" if run.is_some() => {
                        properties = Some(start..end);
                        None
                    }
                    b"rFonts" => {
                        set_font(&mut run, &e);
                        None
                    }
                    b"tab" if run.is_some() => Some("\t".into()),
                    b"br" | b"cr" if run.is_some() => Some(" ".into()),
                    b"noBreakHyphen" if run.is_some() => Some("-".into()),
                    b"sym" if run.is_some() => symbol(&e, chess),
                    _ => None,
                };
                if let Some(text) = text {
                    let at = Context { run: run.map(|(s, _)| s), properties: properties.clone(), tracked: tracked > 0 };
                    push(&mut out[p], &text, start..end, at, false, &mut run_pieces, p);
                }
            }
            Event::End(e) => {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                match local(e.name().as_ref()) {
                    b"p" => {
                        open.pop();
                    }
                    b"r" => {
                        if let Some((s, _)) = run.take() {
                            for &(p, k) in &run_pieces {
                                out[p].pieces[k].run = Some(s..end);
                            }
                        }
                        run_pieces.clear();
                    }
                    b"t" => {
                        in_text = false;
                        if let Some((t_start, content_start)) = element.take() {
                            for &(p, k) in &element_pieces {
                                out[p].pieces[k].element = Some((t_start..end, content_start..start));
                            }
                        }
                        element_pieces.clear();
                    }
                    b"rPr" if run.is_some() => properties = Some(properties_start..end),
                    b"ins" | b"moveTo" => tracked = tracked.saturating_sub(1),
                    _ => {}
                }
            }
            Event::Text(t) if in_text && skip == 0 => {
                let Some(&p) = open.last() else { continue };
                let raw = t.decode().map_err(|e| format!("has text that cannot be read: {e}"))?;
                let chess = run.is_some_and(|(_, c)| c);
                let verbatim = !chess && !raw.contains(['\n', '\r']);
                let text: String = raw
                    .chars()
                    .map(|c| match c {
                        '\n' | '\r' => ' ',
                        c if chess => figurine(c).unwrap_or(c),
                        c => c,
                    })
                    .collect();
                element_pieces.push((p, out[p].pieces.len()));
                let at = Context { run: run.map(|(s, _)| s), properties: properties.clone(), tracked: tracked > 0 };
                push(&mut out[p], &text, start..end, at, verbatim, &mut run_pieces, p);
            }
            Event::GeneralRef(r) if in_text && skip == 0 => {
                let Some(&p) = open.last() else { continue };
                let text = reference(&r).unwrap_or_default().replace(['\n', '\r'], " ");
                element_pieces.push((p, out[p].pieces.len()));
                let at = Context { run: run.map(|(s, _)| s), properties: properties.clone(), tracked: tracked > 0 };
                push(&mut out[p], &text, start..end, at, false, &mut run_pieces, p);
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Where a piece is read: its run's start, the run's properties, whether
/// inside a tracked change.
struct Context {
    run: Option<usize>,
    properties: Option<Range<usize>>,
    tracked: bool,
}

fn push(
    paragraph: &mut Paragraph,
    text: &str,
    xml: Range<usize>,
    context: Context,
    verbatim: bool,
    run_pieces: &mut Vec<(usize, usize)>,
    p: usize,
) {
    let at = paragraph.text.len();
    paragraph.text.push_str(text);
    if context.run.is_some() {
        run_pieces.push((p, paragraph.pieces.len()));
    }
    paragraph.pieces.push(Piece {
        text: at..paragraph.text.len(),
        xml,
        run: None,
        verbatim,
        element: None,
        properties: context.properties,
        tracked: context.tracked,
    });
}

fn set_font(run: &mut Option<(usize, bool)>, e: &quick_xml::events::BytesStart<'_>) {
    if let Some((_, chess)) = run {
        let fonts = [b"ascii".as_slice(), b"hAnsi", b"cs"];
        if let Some(font) = fonts.iter().find_map(|k| attribute(e, k)) {
            *chess = is_chess_font(&font);
        }
    }
}

/// The text of a `w:sym`: its character (`w:char`, hexadecimal; in a symbol
/// font `F000` and up stand for `00` and up), a figurine in a chess font.
fn symbol(e: &quick_xml::events::BytesStart<'_>, chess_run: bool) -> Option<String> {
    let code = u32::from_str_radix(attribute(e, b"char")?.trim(), 16).ok()?;
    let chess = chess_run || attribute(e, b"font").is_some_and(|f| is_chess_font(&f));
    let code = if (0xF000..=0xF0FF).contains(&code) { code - 0xF000 } else { code };
    let c = char::from_u32(code)?;
    let c = if chess { figurine(c).unwrap_or(c) } else { c };
    (!c.is_control()).then(|| c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

    fn texts(body: &str) -> Vec<String> {
        let xml = format!("<w:document {W}><w:body>{body}</w:body></w:document>");
        paragraphs(&xml).unwrap().into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn runs_are_joined_and_changes_read_accepted() {
        let body = "<w:p><w:r><w:t>1. e4 e5 2. Кf</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>3+</w:t></w:r>\
                    <w:del w:id=\"1\" w:author=\"x\"><w:r><w:delText>Кc6</w:delText></w:r></w:del>\
                    <w:ins w:id=\"2\" w:author=\"x\"><w:r><w:t xml:space=\"preserve\"> Кc6</w:t></w:r></w:ins>\
                    <w:r><w:tab/><w:t>3. Сb5 &amp; a6</w:t></w:r></w:p><w:p/>";
        assert_eq!(texts(body), ["1. e4 e5 2. Кf3+ Кc6\t3. Сb5 & a6", ""]);
    }

    #[test]
    fn figurine_fonts_draw_pieces() {
        let body = "<w:p><w:r><w:t>1. e4 e5 2. </w:t></w:r><w:r><w:rPr><w:rFonts w:ascii=\"FigurineCB AriesSP\" \
                    w:hAnsi=\"FigurineCB AriesSP\"/></w:rPr><w:t>N</w:t></w:r><w:r><w:t>f3 </w:t></w:r>\
                    <w:r><w:sym w:font=\"Chess Merida\" w:char=\"F04E\"/></w:r><w:r><w:t>c6 Nb</w:t></w:r></w:p>";
        assert_eq!(texts(body), ["1. e4 e5 2. ♘f3 ♘c6 Nb"]);
    }

    #[test]
    fn tables_and_text_boxes_are_paragraphs_in_order() {
        let body = "<w:p><w:r><w:t>Before</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>1. d4</w:t></w:r></w:p></w:tc>\
                    <w:tc><w:p><w:r><w:t>d5</w:t></w:r></w:p></w:tc></w:tr></w:tbl>\
                    <w:p><w:r><w:t>Anchor</w:t></w:r><w:r><mc:AlternateContent xmlns:mc=\"m\"><mc:Choice><w:drawing><w:txbxContent>\
                    <w:p><w:r><w:t>1. c4</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict>\
                    <w:txbxContent><w:p><w:r><w:t>1. c4</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback>\
                    </mc:AlternateContent></w:r><w:r><w:instrText>PAGE 1. e4</w:instrText></w:r></w:p>";
        assert_eq!(texts(body), ["Before", "1. d4", "d5", "Anchor", "1. c4"]);
    }

    #[test]
    fn malformed_xml_is_an_error() {
        assert!(paragraphs("<w:p><w:t>x<!--</w:t></w:p>").is_err());
        assert!(paragraphs("<w:p><w:t>x</w:t></w:p><").is_err());
    }
}
