//! Word, OpenDocument and EPUB files built for the tests and benchmarks:
//! the XML written here, the package with the `zip` crate, so no binary
//! fixture is committed. Each builder takes the XML of the body (or the
//! chapters) and wraps it in the members the format needs.

use std::io::Write;

use zip::write::SimpleFileOptions;

/// WordprocessingML's namespace.
pub const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/// A zip of `(name, bytes)` members, in order; `stored` ones uncompressed
/// (EPUB's `mimetype`).
pub fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes, stored) in members {
        let method = if *stored { zip::CompressionMethod::Stored } else { zip::CompressionMethod::Deflated };
        out.start_file(*name, SimpleFileOptions::default().compression_method(method)).unwrap();
        out.write_all(bytes).unwrap();
    }
    out.finish().unwrap().into_inner()
}

/// A paragraph of runs, each `(text, font)`: a run in a font when one is
/// named (`w:rFonts`). The text is escaped.
pub fn paragraph(runs: &[(&str, Option<&str>)]) -> String {
    let mut p = String::from("<w:p>");
    for (text, font) in runs {
        p.push_str("<w:r>");
        if let Some(font) = font {
            p.push_str(&format!("<w:rPr><w:rFonts w:ascii=\"{font}\" w:hAnsi=\"{font}\"/></w:rPr>"));
        }
        p.push_str(&format!("<w:t xml:space=\"preserve\">{}</w:t></w:r>", escape(text)));
    }
    p.push_str("</w:p>");
    p
}

/// Escapes text for XML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The members of a Word document beside `word/document.xml`.
const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>"#;

const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

const DOCUMENT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>"#;

/// `word/document.xml` of a body (paragraphs, tables).
pub fn document_xml(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:document xmlns:w=\"{W}\" \
         xmlns:mc=\"http://schemas.openxmlformats.org/markup-compatibility/2006\"><w:body>{body}\
         <w:sectPr/></w:body></w:document>"
    )
}

/// A Word document of a body and, when given, footnotes (the paragraphs
/// of each `w:footnote`, numbered from 1).
pub fn docx(body: &str, footnotes: &[&str]) -> Vec<u8> {
    docx_with(body, footnotes, &[])
}

/// A Word document as [`docx`] makes it, with more members after its own.
pub fn docx_with(body: &str, footnotes: &[&str], more: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let document = document_xml(body);
    let mut notes = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:footnotes xmlns:w=\"{W}\">\
         <w:footnote w:type=\"separator\" w:id=\"-1\"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>"
    );
    for (i, note) in footnotes.iter().enumerate() {
        notes.push_str(&format!("<w:footnote w:id=\"{}\">{note}</w:footnote>", i + 1));
    }
    notes.push_str("</w:footnotes>");
    let mut members: Vec<(&str, &[u8], bool)> = vec![
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes(), false),
        ("_rels/.rels", RELS.as_bytes(), false),
        ("word/document.xml", document.as_bytes(), false),
    ];
    if !footnotes.is_empty() {
        members.push(("word/_rels/document.xml.rels", DOCUMENT_RELS.as_bytes(), false));
        members.push(("word/footnotes.xml", notes.as_bytes(), false));
    }
    members.extend_from_slice(more);
    zip(&members)
}

/// An OpenDocument text of a body (`text:p`, `text:h`, ... inside
/// `office:text`).
pub fn odt(body: &str) -> Vec<u8> {
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<office:document-content \
         xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.3\">\
         <office:body><office:text>{body}</office:text></office:body></office:document-content>"
    );
    let manifest = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<manifest:manifest \
                    xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.3\">\
                    <manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>\
                    <manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>\
                    </manifest:manifest>";
    zip(&[
        ("mimetype", b"application/vnd.oasis.opendocument.text", true),
        ("META-INF/manifest.xml", manifest.as_bytes(), false),
        ("content.xml", content.as_bytes(), false),
    ])
}

/// An XHTML chapter of a title and paragraphs (HTML inside each, as is).
pub fn xhtml(title: &str, paragraphs: &[&str]) -> String {
    let mut body = String::new();
    for p in paragraphs {
        body.push_str(&format!("<p>{p}</p>\n"));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">\n\
         <head><title>{title}</title></head>\n<body>\n<h1>{title}</h1>\n{body}</body>\n</html>\n"
    )
}

/// An EPUB of chapters `(path under OEBPS/, XHTML)`, in the spine's order;
/// `spine_extra` adds `(id, href)` items to the manifest and the spine
/// (a missing member, a path outside the package).
pub fn epub(chapters: &[(&str, &str)], spine_extra: &[(&str, &str)]) -> Vec<u8> {
    let container = "<?xml version=\"1.0\"?>\n<container version=\"1.0\" \
                     xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\"><rootfiles>\
                     <rootfile full-path=\"OEBPS/content.opf\" media-type=\"application/oebps-package+xml\"/>\
                     </rootfiles></container>";
    let mut manifest = String::new();
    let mut spine = String::new();
    let items = chapters.iter().map(|(p, _)| *p).enumerate().map(|(i, p)| (format!("c{i}"), p.to_owned()));
    let extra = spine_extra.iter().map(|(id, href)| ((*id).to_owned(), (*href).to_owned()));
    for (id, href) in items.chain(extra) {
        manifest.push_str(&format!("<item id=\"{id}\" href=\"{href}\" media-type=\"application/xhtml+xml\"/>"));
        spine.push_str(&format!("<itemref idref=\"{id}\"/>"));
    }
    let opf = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" \
         unique-identifier=\"id\"><metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:identifier id=\"id\">x</dc:identifier>\
         <dc:title>Games</dc:title><dc:language>en</dc:language></metadata><manifest>{manifest}</manifest>\
         <spine>{spine}</spine></package>"
    );
    let names: Vec<String> = chapters.iter().map(|(p, _)| format!("OEBPS/{p}")).collect();
    let mut members: Vec<(&str, &[u8], bool)> = vec![
        ("mimetype", b"application/epub+zip", true),
        ("META-INF/container.xml", container.as_bytes(), false),
        ("OEBPS/content.opf", opf.as_bytes(), false),
    ];
    for ((_, text), name) in chapters.iter().zip(&names) {
        members.push((name, text.as_bytes(), false));
    }
    zip(&members)
}
