//! The manuscripts publishers hold in packages: Word (`.docx`, `.docm`,
//! `.dotx`), OpenDocument text (`.odt`) and EPUB (`.epub`), read from their
//! bytes into texts the manuscript reader reads (bytes in, texts out; no
//! IO). Each is a zip archive (read with the `zip` crate) of XML members
//! (read with `quick-xml`, never by hand).
//!
//! - Word and OpenDocument give one text per part (the body; Word's
//!   footnotes and endnotes as parts of their own): a line per paragraph, so
//!   a finding's line is the paragraph's number in its part and its column
//!   the character in that paragraph. See [`docx`] and [`odt`].
//! - EPUB gives each XHTML member of its spine as its own HTML text, named
//!   by its path in the package ([`epub`]).
//!
//! Hostile packages are bounded as the command line bounds zip archives:
//! members whose data overlap are refused (a zip bomb), each member read
//! and the whole package expand up to [`Limits`], a path that leads
//! outside the package is refused, and what cannot be read is a
//! [`ContainerError`] saying why, never a panic.

use std::io::Read;

use super::manuscript::Format;

pub mod docx;
pub mod epub;
pub mod odt;
pub mod tracked;

/// The kinds of package read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Container {
    /// Word: `.docx`, `.docm` (with macros), `.dotx` (a template).
    Docx,
    /// OpenDocument text: `.odt`.
    Odt,
    /// EPUB: `.epub`.
    Epub,
    /// A zip archive of files (games, manuscripts), read member by member
    /// ([`Package::files`]); never said by a name's extension here (the
    /// command line streams `.zip` archives itself).
    Zip,
}

impl Container {
    /// The package a file's name says, by its extension.
    pub fn from_path(path: &str) -> Option<Container> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "docx" | "docm" | "dotx" | "dotm" => Some(Container::Docx),
            "odt" | "ott" => Some(Container::Odt),
            "epub" => Some(Container::Epub),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Container::Docx => "Word document",
            Container::Odt => "OpenDocument text",
            Container::Epub => "EPUB book",
            Container::Zip => "zip archive",
        }
    }
}

/// How much a package may expand: each member and all of them together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub member: u64,
    pub total: u64,
}

impl Default for Limits {
    /// 64 MiB, as the command line's archives (`cli::sources::STREAM_LIMIT`).
    fn default() -> Limits {
        Limits { member: 64 << 20, total: 64 << 20 }
    }
}

/// A text of a package to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// The member it comes from, when the reports name it
    /// (`book.epub:OEBPS/ch1.xhtml`, `book.docx:word/footnotes.xml`);
    /// `None` for the body of a Word or OpenDocument file, reported under
    /// the file's own name.
    pub member: Option<String>,
    pub text: String,
    /// How the text is read: plain text (a line per paragraph) or HTML.
    pub format: Format,
}

/// Why a package could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerError(pub String);

impl std::fmt::Display for ContainerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a package's texts.
pub fn read(container: Container, bytes: &[u8], limits: Limits) -> Result<Vec<Part>, ContainerError> {
    let mut package = Package::open(bytes, limits, container)?;
    match container {
        Container::Docx => docx::read(&mut package),
        Container::Odt => odt::read(&mut package),
        Container::Epub => epub::read(&mut package),
        Container::Zip => Err(ContainerError("a zip archive's members are read one by one".to_owned())),
    }
}

/// A zip package whose members are read within the limits.
pub struct Package<'a> {
    archive: zip::ZipArchive<std::io::Cursor<&'a [u8]>>,
    limits: Limits,
    read: u64,
    kind: Container,
}

impl<'a> Package<'a> {
    /// Opens a package, refusing one whose members' data overlap.
    pub fn open(bytes: &'a [u8], limits: Limits, kind: Container) -> Result<Package<'a>, ContainerError> {
        let broken = |e: &dyn std::fmt::Display| ContainerError(format!("not a valid {} (zip): {e}", kind.name()));
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| broken(&e))?;
        let mut extents = Vec::with_capacity(archive.len());
        for i in 0..archive.len() {
            let member = archive.by_index_raw(i).map_err(|e| broken(&e))?;
            let start = member.header_start();
            let end = member.data_start().unwrap_or(start).saturating_add(member.compressed_size());
            extents.push((start, end));
        }
        extents.sort_unstable();
        if extents.windows(2).any(|w| w[1].0 < w[0].1) {
            return Err(broken(&"members overlap (a zip bomb), so none was read"));
        }
        Ok(Package { archive, limits, read: 0, kind })
    }

    pub fn kind(&self) -> Container {
        self.kind
    }

    /// The names of its files (not its folders), in the order of its
    /// central directory.
    pub fn files(&self) -> Vec<String> {
        self.archive.file_names().flatten().filter(|n| !n.ends_with('/')).map(|n| n.into_owned()).collect()
    }

    /// Whether the package has a member of this name.
    pub fn has(&self, name: &str) -> bool {
        self.archive.index_for_name(name).is_some()
    }

    /// A member's bytes, within the limits; `None` when there is no such
    /// member.
    pub fn member(&mut self, name: &str) -> Result<Option<Vec<u8>>, ContainerError> {
        let Some(index) = self.archive.index_for_name(name) else { return Ok(None) };
        let kind = self.kind;
        let member = self
            .archive
            .by_index(index)
            .map_err(|e| ContainerError(format!("not a valid {}: cannot read {name}: {e}", kind.name())))?;
        let allowed = self.limits.member.min(self.limits.total.saturating_sub(self.read));
        let mut out = Vec::new();
        member
            .take(allowed.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| ContainerError(format!("not a valid {}: cannot read {name}: {e}", kind.name())))?;
        if out.len() as u64 > allowed {
            return Err(ContainerError(format!(
                "{name} in it expands past {} MiB (a zip bomb?), so it was not read",
                self.limits.member.min(self.limits.total) >> 20
            )));
        }
        self.read += out.len() as u64;
        Ok(Some(out))
    }

    /// A member that must be there, as UTF-8 text.
    pub fn text(&mut self, name: &str) -> Result<String, ContainerError> {
        let kind = self.kind;
        let bytes = self
            .member(name)?
            .ok_or_else(|| ContainerError(format!("not a valid {}: it has no {name}", kind.name())))?;
        into_text(bytes, name, kind)
    }
}

fn into_text(bytes: Vec<u8>, name: &str, kind: Container) -> Result<String, ContainerError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").map(<[u8]>::to_vec).unwrap_or(bytes);
    String::from_utf8(bytes)
        .map_err(|e| ContainerError(format!("not a valid {}: {name} is not UTF-8 text: {e}", kind.name())))
}

/// Text escaped for XML content.
pub(crate) fn escape_text(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

/// The local part of an XML name (`w:p` is `p`).
pub(crate) fn local(name: &[u8]) -> &[u8] {
    name.iter().rposition(|&b| b == b':').map_or(name, |k| &name[k + 1..])
}

/// An attribute's value by its local name (unescaped; lossy for bad UTF-8).
pub(crate) fn attribute(e: &quick_xml::events::BytesStart<'_>, name: &[u8]) -> Option<String> {
    e.attributes().flatten().find(|a| local(a.key.as_ref()) == name).map(|a| {
        a.unescape_value().map(|v| v.into_owned()).unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned())
    })
}

/// The text an entity or character reference in XML stands for.
pub(crate) fn reference(r: &quick_xml::events::BytesRef<'_>) -> Option<String> {
    if r.is_char_ref() {
        return r.resolve_char_ref().ok().flatten().map(String::from);
    }
    let name = std::str::from_utf8(r.as_ref()).ok()?;
    quick_xml::escape::resolve_xml_entity(name).map(str::to_owned)
}

/// A reader of an XML member (strict as XML is, but end names unchecked:
/// a broken file is said as such by the first error).
pub(crate) fn xml_reader(text: &str) -> quick_xml::Reader<&[u8]> {
    let mut reader = quick_xml::Reader::from_str(text);
    reader.config_mut().check_end_names = false;
    reader
}

/// Resolves `href` (a path relative to the member `base`) to a member
/// name; `None` when it leads outside the package (`../`, an absolute path,
/// a URL).
pub fn resolve(base: &str, href: &str) -> Option<String> {
    let href = href.split(['#', '?']).next().unwrap_or(href);
    if href.starts_with('/') || href.contains("://") || href.contains('\\') || href.contains(':') {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').collect();
    parts.pop();
    for segment in href.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    // Percent-escapes are how a name with spaces is written in a link.
    Some(percent_decode(&joined))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension() {
        assert_eq!(Container::from_path("book/Ch1.DOCX"), Some(Container::Docx));
        assert_eq!(Container::from_path("a.docm"), Some(Container::Docx));
        assert_eq!(Container::from_path("a.dotx"), Some(Container::Docx));
        assert_eq!(Container::from_path("a.odt"), Some(Container::Odt));
        assert_eq!(Container::from_path("a.epub"), Some(Container::Epub));
        assert_eq!(Container::from_path("a.zip"), None);
    }

    #[test]
    fn paths_stay_inside_the_package() {
        assert_eq!(resolve("OEBPS/content.opf", "text/ch1.xhtml").as_deref(), Some("OEBPS/text/ch1.xhtml"));
        assert_eq!(resolve("OEBPS/content.opf", "./ch%201.xhtml#x").as_deref(), Some("OEBPS/ch 1.xhtml"));
        assert_eq!(resolve("OEBPS/content.opf", "../ch1.xhtml").as_deref(), Some("ch1.xhtml"));
        assert_eq!(resolve("OEBPS/content.opf", "../../etc/passwd"), None);
        assert_eq!(resolve("content.opf", "/etc/passwd"), None);
        assert_eq!(resolve("content.opf", "http://x/y"), None);
    }

    #[test]
    fn what_is_not_a_package_is_an_error() {
        for kind in [Container::Docx, Container::Odt, Container::Epub] {
            assert!(read(kind, b"", Limits::default()).is_err());
            assert!(read(kind, b"PK\x03\x04garbage", Limits::default()).is_err());
        }
    }
}
