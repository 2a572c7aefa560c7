//! EPUB books: each XHTML member of the spine, in the spine's order, as an
//! HTML text of its own, reported under its path in the package
//! (`book.epub:OEBPS/ch1.xhtml`, lines and columns in that member). The
//! package document is found as every reader finds it: `META-INF/
//! container.xml` names it (`rootfile`), its `manifest` gives each item's
//! path (relative to it) and its `spine` their order. A spine that names
//! a member the package lacks, or a path that leads outside the package
//! (`../`), makes the book unreadable: an error, not a partial reading.

use std::collections::HashMap;

use quick_xml::events::Event;

use super::{ContainerError, Package, Part, attribute, local, resolve, xml_reader};
use crate::syntax::manuscript::Format;

pub(super) fn read(package: &mut Package<'_>) -> Result<Vec<Part>, ContainerError> {
    let bad = |what: String| ContainerError(format!("not a valid EPUB book: {what}"));
    let container = package.text("META-INF/container.xml")?;
    let mut opf = None;
    elements(&container, "META-INF/container.xml", |name, e| {
        if name == b"rootfile" && opf.is_none() {
            opf = attribute(e, b"full-path");
        }
    })?;
    let opf = opf.ok_or_else(|| bad("META-INF/container.xml names no package document (rootfile)".into()))?;
    let opf_name =
        resolve("", &opf).ok_or_else(|| bad(format!("its package document {opf} is outside the package")))?;
    let package_doc = package.text(&opf_name)?;
    let mut manifest: HashMap<String, (String, String)> = HashMap::new();
    let mut spine = Vec::new();
    elements(&package_doc, &opf_name, |name, e| match name {
        b"item" => {
            if let (Some(id), Some(href)) = (attribute(e, b"id"), attribute(e, b"href")) {
                manifest.insert(id, (href, attribute(e, b"media-type").unwrap_or_default()));
            }
        }
        b"itemref" => {
            if let Some(idref) = attribute(e, b"idref") {
                spine.push(idref);
            }
        }
        _ => {}
    })?;
    let mut parts = Vec::new();
    for idref in spine {
        let (href, media) =
            manifest.get(&idref).ok_or_else(|| bad(format!("its spine names {idref}, which the manifest lacks")))?;
        let member = resolve(&opf_name, href)
            .ok_or_else(|| bad(format!("its spine names {href}, a path outside the package")))?;
        if !(media.contains("html") || media.is_empty()) {
            continue;
        }
        let bytes = package
            .member(&member)?
            .ok_or_else(|| bad(format!("its spine names {member}, which the package lacks")))?;
        let text = super::into_text(bytes, &member, package.kind())?;
        parts.push(Part { member: Some(member), text, format: Format::Html });
    }
    if parts.is_empty() {
        return Err(bad("its spine names no XHTML document".into()));
    }
    Ok(parts)
}

/// Calls `f` with the local name of each element of an XML member.
fn elements(
    xml: &str,
    member: &str,
    mut f: impl FnMut(&[u8], &quick_xml::events::BytesStart<'_>),
) -> Result<(), ContainerError> {
    let mut reader = xml_reader(xml);
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => return Ok(()),
            Ok(Event::Start(e) | Event::Empty(e)) => f(local(e.name().as_ref()), &e),
            Ok(_) => {}
            Err(e) => {
                return Err(ContainerError(format!(
                    "not a valid EPUB book: {member} is not well-formed XML (at byte {}): {e}",
                    reader.error_position()
                )));
            }
        }
    }
}
