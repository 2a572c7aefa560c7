//! The manuscripts publishers hold, end to end: Word (`.docx`),
//! OpenDocument (`.odt`) and EPUB files built here (`chess_ls_tests::
//! packages`: the XML written by the test, the package by the `zip`
//! crate), HTML pages and Typst chapters, in English, Russian and German,
//! checked by `--check` with each finding where it stands (a Word or
//! OpenDocument finding at its paragraph and the character in it, an EPUB
//! one in its member); hostile packages refused with exit 2 and a reason.

use std::path::{Path, PathBuf};
use std::process::Command;

use chess_ls_tests::packages::{self, paragraph};
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    crate::scratch_dir(&format!("packages/{name}"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: &Path, args: &[&str]) -> Run {
    let output =
        Command::new(chess_ls_tests::binary::chess_ls()).args(args).current_dir(dir).output().expect("chess-ls runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `(file, line, column, code)` of each finding of a JSON run.
fn findings(run: &Run) -> Vec<(String, u64, u64, String)> {
    run.stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["file"].as_str().unwrap().to_owned(),
                v["line"].as_u64().unwrap(),
                v["column"].as_u64().unwrap(),
                v["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The 1-based column (in characters) of `needle` in `line`.
fn column(line: &str, needle: &str) -> u64 {
    line[..line.find(needle).unwrap_or_else(|| panic!("{needle} in {line}"))].chars().count() as u64 + 1
}

/// The Word file of the tests: a Russian game whose move `Кf3` is split
/// over two runs (bold `3`), a German game in a table, an English game with
/// a tracked change (the queen's capture deleted, the knight's inserted),
/// a game with figurine-font runs, a footnote with a game of its own.
/// Returns the file and the paragraphs' texts as the reader reads them.
fn word_file() -> (Vec<u8>, Vec<String>) {
    let russian = ["1. e4 e5 2. Кf", "3 Кc6 3. Сb5 a6 4. Сa4 Кf6 5. Кh5 Фe7"];
    let mut body = String::new();
    body.push_str(&paragraph(&[("Испанская партия", None)]));
    body.push_str(&format!(
        "<w:p><w:r><w:t xml:space=\"preserve\">{}</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>{}</w:t></w:r></w:p>",
        russian[0], russian[1]
    ));
    // A German game in a table: a row of two cells.
    let german = ["1. d4 d5 2. c4 e6", "3. Sc3 Sf6 4. Lg5 Le7 5. Lh7 h6"];
    body.push_str("<w:tbl><w:tr>");
    for cell in german {
        body.push_str(&format!("<w:tc>{}</w:tc>", paragraph(&[(cell, None)])));
    }
    body.push_str("</w:tr></w:tbl>");
    // A tracked change: read accepted, the game is legal.
    body.push_str(
        "<w:p><w:r><w:t xml:space=\"preserve\">1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. </w:t></w:r>\
         <w:del w:id=\"1\" w:author=\"Editor\" w:date=\"2026-01-01T00:00:00Z\"><w:r><w:delText>Qxd4</w:delText></w:r></w:del>\
         <w:ins w:id=\"2\" w:author=\"Editor\" w:date=\"2026-01-01T00:00:00Z\"><w:r><w:t>Nxd4</w:t></w:r></w:ins>\
         <w:r><w:t xml:space=\"preserve\"> Nf6 5. Nc3 a6, the Najdorf.</w:t></w:r></w:p>",
    );
    // Figurines drawn by a ChessBase font: the knight's `N` is ♘.
    body.push_str(&paragraph(&[
        ("1. e4 e5 2. ", None),
        ("N", Some("FigurineCB AriesSP")),
        ("f3 ", None),
        ("N", Some("FigurineCB AriesSP")),
        ("c6 3. ", None),
        ("B", Some("FigurineCB AriesSP")),
        ("h5 a6", None),
    ]));
    let footnote = paragraph(&[("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Qe2 Nf6 5. Qh8 d6", None)]);
    let bytes = packages::docx(&body, &[&footnote]);
    let texts = vec![
        "Испанская партия".to_owned(),
        russian.concat(),
        german[0].to_owned(),
        german[1].to_owned(),
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6, the Najdorf.".to_owned(),
        "1. e4 e5 2. ♘f3 ♘c6 3. ♗h5 a6".to_owned(),
    ];
    (bytes, texts)
}

#[test]
fn a_word_file_is_read_paragraph_by_paragraph_with_runs_joined_and_changes_accepted() {
    let dir = scratch("word");
    let (bytes, texts) = word_file();
    std::fs::write(dir.join("book.docx"), &bytes).unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "book.docx"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let found = findings(&run);
    let at = |file: &str, line: usize, needle: &str, texts: &[String]| {
        (file.to_owned(), line as u64 + 1, column(&texts[line], needle), "illegal-move".to_owned())
    };
    let footnote = vec![String::new(), "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. Qe2 Nf6 5. Qh8 d6".to_owned()];
    let want = vec![
        // The split `Кf` `3` is one move: the first finding is at 5. Кh5.
        at("book.docx", 1, "Кh5", &texts),
        // The table's second cell goes on with the first's game.
        at("book.docx", 3, "Lh7", &texts),
        at("book.docx", 5, "♗h5", &texts),
        // The footnotes: the separator's empty paragraph is the first.
        at("book.docx:word/footnotes.xml", 1, "Qh8", &footnote),
    ];
    let got: Vec<_> = found.iter().filter(|f| f.3 == "illegal-move").cloned().collect();
    assert_eq!(got, want, "{}", run.stdout);
    // The tracked change's paragraph (line 5) has no finding: read accepted.
    assert!(!found.iter().any(|f| f.0 == "book.docx" && f.1 == 5), "{}", run.stdout);
    // The human report shows the paragraph as a line.
    let human = run_in(&dir, &["--check", "book.docx"]);
    assert!(human.stdout.contains("book.docx:2:"), "{}", human.stdout);
    assert!(human.stdout.contains(&texts[1]), "{}", human.stdout);
}

#[test]
fn an_opendocument_file_is_read_as_a_word_file() {
    let dir = scratch("odt");
    let body = "<text:tracked-changes><text:changed-region text:id=\"c1\"><text:deletion>\
                <text:p>Фd4</text:p></text:deletion></text:changed-region></text:tracked-changes>\
                <text:h text:outline-level=\"1\">Сицилианская защита</text:h>\
                <text:p>1. e4 c5 2. К<text:span text:style-name=\"T1\">f3</text:span> d6 3. d4 cxd4 4. \
                <text:change text:change-id=\"c1\"/>Кxd4 Кf6<text:s text:c=\"2\"/>5. Кc3 a6 6. Сh7 e5</text:p>";
    std::fs::write(dir.join("глава.odt"), packages::odt(body)).unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "глава.odt"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let line = "1. e4 c5 2. Кf3 d6 3. d4 cxd4 4. Кxd4 Кf6  5. Кc3 a6 6. Сh7 e5";
    let got: Vec<_> = findings(&run).into_iter().filter(|f| f.3 == "illegal-move").collect();
    assert_eq!(got, [("глава.odt".to_owned(), 2, column(line, "Сh7"), "illegal-move".to_owned())], "{}", run.stdout);
}

#[test]
fn an_epub_reports_each_chapter_as_its_own_file() {
    let dir = scratch("epub");
    let ch1 = packages::xhtml(
        "Глава 1",
        &["После 1. e4 e5 2. &#x2658;f3 &#9816;c6 3. Сb5 a6 4. Сa4 Кf6 5. Кh5 белые&nbsp;ошиблись."],
    );
    let ch2 =
        packages::xhtml("Kapitel 2", &["Nach 1. d4 d5 2. c4 e6 3. Sc3 Sf6 4. Lg5 Le7 5. Lh7 h6 &amp; so weiter."]);
    let book = packages::epub(&[("text/ch1.xhtml", &ch1), ("text/ch2.xhtml", &ch2)], &[]);
    std::fs::write(dir.join("book.epub"), book).unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "book.epub"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let place = |text: &str, needle: &str| {
        let (n, line) = text.lines().enumerate().find(|(_, l)| l.contains(needle)).unwrap();
        (n as u64 + 1, column(line, needle))
    };
    let (l1, c1) = place(&ch1, "Кh5");
    let (l2, c2) = place(&ch2, "Lh7");
    let got: Vec<_> = findings(&run).into_iter().filter(|f| f.3 == "illegal-move").collect();
    assert_eq!(
        got,
        [
            ("book.epub:OEBPS/text/ch1.xhtml".to_owned(), l1, c1, "illegal-move".to_owned()),
            ("book.epub:OEBPS/text/ch2.xhtml".to_owned(), l2, c2, "illegal-move".to_owned()),
        ],
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("checked 2 files"), "{}", run.stderr);
}

#[test]
fn an_html_page_is_read_with_its_entities_at_their_places_in_the_source() {
    let dir = scratch("html");
    let page = "<!DOCTYPE html>\n<html><head><title>1. d4</title><style>p { color: red }</style>\n\
                <script>var x = \"1. e4 e5 2. Ke2\"; if (a < b) {}</script></head>\n<body>\n\
                <p>The <b>Italian</b>: 1.&nbsp;e4 e5 2. &#9816;f3 &#x2658;c6 3. &#x2657;c4 &#9815;c5 4. c3 &#9816;f6\n\
                5. d4 exd4 6. &#9813;h7 d5 &amp; White is lost.</p>\n<!-- 1. e4 e5 2. Ke2 -->\n</body></html>\n";
    std::fs::write(dir.join("column.html"), page).unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "column.html"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let (n, line) = page.lines().enumerate().find(|(_, l)| l.contains("&#9813;h7")).unwrap();
    // The move starts inside its reference (the figurine is written where
    // the reference ends) and ends where it ends in the page.
    let end = column(line, "h7 d5") + 2;
    let got: Vec<_> = findings(&run).into_iter().filter(|f| f.3 == "illegal-move").collect();
    assert_eq!(got.len(), 1, "{}", run.stdout);
    assert_eq!((got[0].0.as_str(), got[0].1), ("column.html", n as u64 + 1), "{}", run.stdout);
    let v: Value = serde_json::from_str(run.stdout.lines().find(|l| l.contains("illegal-move")).unwrap()).unwrap();
    assert_eq!(v["end_column"].as_u64(), Some(end), "{}", run.stdout);
    assert!(v["message"].as_str().unwrap().contains("♕h7"), "{}", run.stdout);
}

#[test]
fn a_typst_chapter_is_read_as_latex_is() {
    let dir = scratch("typst");
    let chapter = "#set page(paper: \"a5\")\n#import \"@preview/staunton:0.1.0\": *\n\n= Das Damengambit\n\n\
                   Nach *1. d4 d5* 2. c4 e6 3. Sc3 Sf6 // 3. Sf3 ist auch gut\n4. Lg5 Le7 _und_ 5. Lh7 h6.\n\n\
                   #figure(caption: [1. e4 e5 2. Ke2])[```\n1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. Lh7\n```]\n";
    std::fs::write(dir.join("kapitel.typ"), chapter).unwrap();
    let run = run_in(&dir, &["--check", "--format", "json", "kapitel.typ"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let place = |needle: &str| {
        let (n, line) = chapter.lines().enumerate().find(|(_, l)| l.contains(needle)).unwrap();
        ("kapitel.typ".to_owned(), n as u64 + 1, column(line, needle), "illegal-move".to_owned())
    };
    let got: Vec<_> = findings(&run).into_iter().filter(|f| f.3 == "illegal-move").collect();
    assert_eq!(got, [place("5. Lh7"), place("4. Lh7")].map(|(f, l, c, k)| (f, l, c + 3, k)), "{}", run.stdout);
}

#[test]
fn a_directory_search_takes_the_packages_with_search_manuscripts() {
    let dir = scratch("search");
    let (bytes, _) = word_file();
    std::fs::create_dir_all(dir.join("book")).unwrap();
    std::fs::write(dir.join("book/a.docx"), &bytes).unwrap();
    std::fs::write(dir.join("book/b.html"), "<p>1. e4 e5 2. Ke2 Ke7</p>").unwrap();
    std::fs::write(dir.join("book/c.typ"), "= Eins\n1. e4 e5 2. Ke2 Ke7\n").unwrap();
    std::fs::write(dir.join("book/d.pgn"), "1. e4 e5 *\n").unwrap();
    let plain = run_in(&dir, &["--check", "--format", "json", "book"]);
    assert_eq!(plain.code, 0, "{}{}", plain.stdout, plain.stderr);
    assert!(plain.stderr.contains("checked 1 file"), "{}", plain.stderr);
    let all = run_in(&dir, &["--check", "--format", "json", "--search-manuscripts", "book"]);
    assert_eq!(all.code, 1, "{}{}", all.stdout, all.stderr);
    assert!(all.stderr.contains("checked 5 files"), "{}", all.stderr);
    let files: std::collections::BTreeSet<String> = findings(&all).into_iter().map(|f| f.0).collect();
    assert!(files.contains("book/a.docx") && files.contains("book/a.docx:word/footnotes.xml"), "{files:?}");
}

#[test]
fn broken_and_hostile_packages_are_refused_with_a_reason() {
    let dir = scratch("hostile");
    let document = packages::document_xml(&paragraph(&[("1. e4 e5", None)]));
    // A zip bomb: a document.xml of 65 MiB of blanks, a few KiB packed.
    let mut bomb = document.clone().into_bytes();
    bomb.resize(65 << 20, b' ');
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("bomb.docx", packages::zip(&[("word/document.xml", &bomb, false)]), "expands past 64 MiB"),
        ("nodocument.docx", packages::zip(&[("word/styles.xml", b"<w:styles/>", false)]), "has no word/document.xml"),
        (
            "malformed.docx",
            packages::zip(&[("word/document.xml", b"<w:document><w:body><w:p><w:t>1. e4<!-- </w:t>", false)]),
            "is not well-formed XML",
        ),
        ("notazip.docx", b"1. e4 e5 2. Ke2".to_vec(), "not a valid Word document"),
        (
            "missing.epub",
            packages::epub(&[("ch1.xhtml", &packages::xhtml("One", &["1. e4 e5"]))], &[("gone", "ch9.xhtml")]),
            "which the package lacks",
        ),
        (
            "outside.epub",
            packages::epub(&[("ch1.xhtml", &packages::xhtml("One", &["1. e4 e5"]))], &[("up", "../../etc/passwd")]),
            "outside the package",
        ),
        ("nocontent.odt", packages::zip(&[("mimetype", b"x", true)]), "has no content.xml"),
    ];
    for (name, bytes, reason) in &cases {
        std::fs::write(dir.join(name), bytes).unwrap();
        let run = run_in(&dir, &["--check", name]);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(&format!("cannot read {name}: ")), "{name}: {}", run.stderr);
        assert!(run.stderr.contains(reason), "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
    }
    // One broken file fails the run, the others are still checked.
    std::fs::write(dir.join("good.html"), "<p>1. e4 e5 2. Ke2 Ke7</p>").unwrap();
    let run = run_in(&dir, &["--check", "good.html", "malformed.docx"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.contains("checked 1 file, 1 game"), "{}", run.stdout);
}

#[test]
fn writing_into_a_package_is_refused_and_the_file_left_as_it_was() {
    let dir = scratch("refused");
    let (bytes, _) = word_file();
    for name in ["book.odt", "book.epub"] {
        std::fs::write(dir.join(name), &bytes).unwrap();
        let run = run_in(&dir, &["--fix", name]);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("cannot rewrite"), "{name}: {}", run.stderr);
        assert_eq!(std::fs::read(dir.join(name)).unwrap(), bytes);
    }
}

/// A Word file whose Russian game has a certain fix (`Nf3`, an English
/// letter, written `Кf3`), the move split over two runs, beside a styles
/// member, a footnote and a bookmark whose `w:id` the changes must pass.
fn fixable_word_file() -> Vec<u8> {
    let body = format!(
        "{}<w:bookmarkStart w:id=\"41\" w:name=\"start\"/><w:p><w:r><w:t xml:space=\"preserve\">1. e4 e5 2. Nf</w:t></w:r>\
         <w:r><w:rPr><w:b/></w:rPr><w:t>3 Кc6 3. Сb5 a6 4. Сa4 Кf6 5. O-O Сe7</w:t></w:r></w:p><w:bookmarkEnd w:id=\"41\"/>{}",
        paragraph(&[("Испанская партия", None)]),
        paragraph(&[("Конец.", None)])
    );
    packages::docx_with(
        &body,
        &[&paragraph(&[("1. d4 d5", None)])],
        &[
            ("word/styles.xml", b"<w:styles xmlns:w=\"x\"><w:style w:styleId=\"a\"/></w:styles>", false),
            ("docProps/thumbnail.png", &[0x89, b'P', b'N', b'G', 0, 1, 2, 3, 255], true),
        ],
    )
}

/// Each member's name, compression and bytes (decompressed), in order.
fn members(bytes: &[u8]) -> Vec<(String, zip::CompressionMethod, Vec<u8>)> {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut m = archive.by_index(i).unwrap();
            let mut out = Vec::new();
            m.read_to_end(&mut out).unwrap();
            (m.name().unwrap().into_owned(), m.compression(), out)
        })
        .collect()
}

/// Whether a text is well-formed XML (end tags matching their starts).
fn well_formed(xml: &str) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let mut depth = 0i64;
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => return if depth == 0 { Ok(()) } else { Err("unclosed".into()) },
            Ok(quick_xml::events::Event::Start(_)) => depth += 1,
            Ok(quick_xml::events::Event::End(_)) => depth -= 1,
            Ok(_) => {}
            Err(e) => return Err(format!("at {}: {e}", reader.error_position())),
        }
    }
}

#[test]
fn fix_writes_a_tracked_change_into_a_word_file_and_leaves_the_rest_as_it_was() {
    let dir = scratch("fix");
    let original = fixable_word_file();
    std::fs::write(dir.join("book.docx"), &original).unwrap();
    // --diff shows the body's text changing, and writes nothing.
    let diff = run_in(&dir, &["--fix", "--diff", "book.docx"]);
    assert!(
        diff.stdout.contains("-1. e4 e5 2. Nf3 Кc6") && diff.stdout.contains("+1. e4 e5 2. Кf3 Кc6"),
        "{}",
        diff.stdout
    );
    assert_eq!(std::fs::read(dir.join("book.docx")).unwrap(), original);
    let run = run_in(&dir, &["--fix", "book.docx"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("book.docx:2:13: fixed [language-mix]"), "{}", run.stdout);
    let fixed = std::fs::read(dir.join("book.docx")).unwrap();
    let (before, after) = (members(&original), members(&fixed));
    assert_eq!(before.len(), after.len());
    for (old, new) in before.iter().zip(&after) {
        assert_eq!(old.0, new.0, "the members keep their order");
        if old.0 != "word/document.xml" {
            assert_eq!(old, new, "{} is as it was", old.0);
        }
    }
    let document = |m: &[(String, zip::CompressionMethod, Vec<u8>)]| {
        String::from_utf8(m.iter().find(|x| x.0 == "word/document.xml").unwrap().2.clone()).unwrap()
    };
    let (old_xml, new_xml) = (document(&before), document(&after));
    well_formed(&new_xml).unwrap();
    // Outside the two runs of the move, document.xml is as it was.
    let first = old_xml.find("<w:r><w:t xml:space=\"preserve\">1. e4").unwrap();
    let last = old_xml.find("Сe7</w:t></w:r>").unwrap() + "Сe7</w:t></w:r>".len();
    assert_eq!(new_xml[..first], old_xml[..first]);
    assert!(new_xml.ends_with(&old_xml[last..]));
    // The change: the old text deleted (from both runs), the new inserted,
    // by chess-ls, with ids past the bookmark's.
    let middle = &new_xml[first..new_xml.len() - (old_xml.len() - last)];
    assert_eq!(middle.matches("<w:del ").count(), 2, "{middle}");
    assert_eq!(middle.matches("<w:ins ").count(), 1, "{middle}");
    assert!(middle.contains("<w:delText xml:space=\"preserve\">Nf</w:delText>"), "{middle}");
    assert!(middle.contains("<w:delText xml:space=\"preserve\">3</w:delText>"), "{middle}");
    assert!(middle.contains("<w:t xml:space=\"preserve\">Кf3</w:t></w:r></w:ins>"), "{middle}");
    assert_eq!(middle.matches("w:author=\"chess-ls\"").count(), 3, "{middle}");
    for id in ["42", "43", "44"] {
        assert_eq!(middle.matches(&format!("w:id=\"{id}\"")).count(), 1, "{middle}");
    }
    // Read again, the changes are accepted: nothing is left to fix.
    let again = run_in(&dir, &["--check", "book.docx"]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    soffice_reads(&dir, "book.docx", "Кf3 Кc6");
}

/// Where LibreOffice is installed (`apt-get install libreoffice-writer-nogui`),
/// it converts the file to PDF; its plain text (where LibreOffice shows the
/// deleted text beside the inserted) holds `expected`; and converted to
/// OpenDocument, the changes are tracked changes of chess-ls's (LibreOffice
/// read them as such). Else a note says the check was skipped.
fn soffice_reads(dir: &Path, name: &str, expected: &str) {
    let Ok(status) = Command::new("soffice").arg("--version").output() else {
        eprintln!("note: soffice is not installed: the LibreOffice conversion of {name} was not tried");
        return;
    };
    assert!(status.status.success());
    let profile = format!("-env:UserInstallation=file://{}/lo-profile", dir.display());
    let pdf = Command::new("soffice")
        .args([profile.as_str(), "--headless", "--convert-to", "pdf", "--outdir", "pdf", name])
        .current_dir(dir)
        .output()
        .unwrap();
    let stem = name.rsplit_once('.').unwrap().0;
    let pdf_file = dir.join("pdf").join(format!("{stem}.pdf"));
    assert!(pdf_file.exists(), "soffice made no PDF: {}", String::from_utf8_lossy(&pdf.stderr));
    assert!(std::fs::read(&pdf_file).unwrap().starts_with(b"%PDF"));
    let txt = Command::new("soffice")
        .args([profile.as_str(), "--headless", "--convert-to", "txt:Text (encoded):UTF8", "--outdir", "txt", name])
        .current_dir(dir)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(dir.join("txt").join(format!("{stem}.txt")))
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&txt.stderr)));
    assert!(text.contains(expected), "{text}");
    let odt = Command::new("soffice")
        .args([profile.as_str(), "--headless", "--convert-to", "odt", "--outdir", "odt", name])
        .current_dir(dir)
        .output()
        .unwrap();
    let bytes = std::fs::read(dir.join("odt").join(format!("{stem}.odt")))
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&odt.stderr)));
    let content = members(&bytes).into_iter().find(|m| m.0 == "content.xml").unwrap().2;
    let content = String::from_utf8(content).unwrap();
    assert!(content.contains("<text:tracked-changes"), "{content}");
    assert!(content.contains("<text:deletion>") && content.contains("<text:insertion>"), "{content}");
    assert!(content.contains("<dc:creator>chess-ls</dc:creator>"), "{content}");
}

#[test]
fn translate_write_turns_a_word_file_into_another_language_as_tracked_changes() {
    let dir = scratch("translate");
    let original = fixable_word_file();
    std::fs::write(dir.join("book.docx"), &original).unwrap();
    let run = run_in(&dir, &["--translate", "en", "--write", "book.docx"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let fixed = std::fs::read(dir.join("book.docx")).unwrap();
    let after = members(&fixed);
    let xml = String::from_utf8(after.iter().find(|x| x.0 == "word/document.xml").unwrap().2.clone()).unwrap();
    well_formed(&xml).unwrap();
    let body = chess_ls::syntax::containers::docx::paragraphs(&xml).unwrap();
    assert_eq!(body[1].text, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7");
    assert!(xml.contains("<w:delText xml:space=\"preserve\">Кc6</w:delText>"), "{xml}");
    assert!(xml.contains("<w:t xml:space=\"preserve\">Nc6</w:t></w:r></w:ins>"), "{xml}");
    for (old, new) in members(&original).iter().zip(&after) {
        if old.0 != "word/document.xml" {
            assert_eq!(old, new);
        }
    }
}

#[test]
fn a_fix_on_text_word_stores_otherwise_is_refused_and_the_file_left_as_it_was() {
    let dir = scratch("fix-refused");
    // The move to fix shares its `w:t` with a character reference.
    let body = "<w:p><w:r><w:t xml:space=\"preserve\">1. e4 e5 2. Nf3&#x20;Кc6 3. Сb5 a6</w:t></w:r></w:p>";
    let original = packages::docx(body, &[]);
    std::fs::write(dir.join("book.docx"), &original).unwrap();
    let run = run_in(&dir, &["--fix", "book.docx"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cannot write book.docx") && run.stderr.contains("make it in Word"), "{}", run.stderr);
    assert_eq!(std::fs::read(dir.join("book.docx")).unwrap(), original);
}

#[test]
fn damaged_packages_are_an_error_never_a_panic() {
    // Each package cut short and with bytes changed, read as --check reads
    // it (`cli::read_archive_bytes`, the archive fuzz target's entry).
    let (word, _) = word_file();
    let book = packages::epub(&[("ch1.xhtml", &packages::xhtml("One", &["1. e4 e5 &#9816;f3"]))], &[]);
    let odt = packages::odt("<text:p>1. e4 e5 2. Кf3</text:p>");
    for (name, bytes) in [("book.docx", word), ("book.epub", book), ("book.odt", odt)] {
        assert!(chess_ls::cli::read_archive_bytes(name, &bytes, true).is_empty(), "{name}");
        let mut seed = 0x9e37_79b9_u32;
        for round in 0..200 {
            let mut damaged = bytes.clone();
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            if round % 2 == 0 {
                damaged.truncate(seed as usize % bytes.len());
            } else {
                for k in 0..4 {
                    let at = (seed as usize).wrapping_mul(k + 7) % damaged.len();
                    damaged[at] ^= (seed >> 24) as u8 | 1;
                }
            }
            for failure in chess_ls::cli::read_archive_bytes(name, &damaged, true) {
                assert!(failure.starts_with(&format!("cannot read {name}: ")), "{failure}");
            }
        }
    }
}

#[test]
fn fix_on_html_and_typst_edits_the_notation_never_the_markup() {
    let dir = scratch("fix-html");
    let page = "<p>Партия: 1. e4 e5 2. Nf3 Кc6 3. <b>Сb5</b> a6.</p>\n\
                <p>Другая: 1. e4 e5 2. &#78;f3 Кc6 3. Сb5 a6.</p>\n";
    std::fs::write(dir.join("page.html"), page).unwrap();
    let run = run_in(&dir, &["--fix", "page.html"]);
    assert!(run.code <= 1, "{}{}", run.stdout, run.stderr);
    let fixed = std::fs::read_to_string(dir.join("page.html")).unwrap();
    // The letter written as text is fixed; the one written as a reference
    // is left (a fix there would break the reference), still reported.
    assert_eq!(fixed, page.replacen("2. Nf3", "2. Кf3", 1), "{}", run.stdout);
    assert!(run.stdout.contains("page.html:2:"), "{}", run.stdout);
    let chapter = "= Глава\n\nПартия: *1. e4 e5* 2. Nf3 Кc6 3. Сb5 a6.\n";
    std::fs::write(dir.join("глава.typ"), chapter).unwrap();
    let run = run_in(&dir, &["--fix", "глава.typ"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(std::fs::read_to_string(dir.join("глава.typ")).unwrap(), chapter.replace("Nf3", "Кf3"));
}

/// The web page's reading of a file (`chess_ls_web`, natively): the texts
/// it opens and each one's findings, as `(file, line, column, code)`.
fn page_findings(name: &str, bytes: &[u8]) -> Vec<(String, u64, u64, String)> {
    let mut session = chess_ls_web::Session::default();
    let mut out = Vec::new();
    for doc in chess_ls_web::read_documents(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}")) {
        session.open(&doc.name, doc.kind, doc.text);
        for d in session.diagnostics(&doc.name)["diagnostics"].as_array().unwrap() {
            let number = |key: &str| d[key].as_u64().unwrap();
            out.push((doc.name.clone(), number("line"), number("column"), d["code"].as_str().unwrap().to_owned()));
        }
    }
    out.sort();
    out
}

#[test]
fn the_web_page_reads_every_package_and_archive_as_check_does() {
    let dir = scratch("web");
    let (word, _) = word_file();
    let odt =
        packages::odt("<text:p>1. e4 c5 2. К<text:span text:style-name=\"T1\">f3</text:span> d6 3. Сh7 e5</text:p>");
    let ch1 =
        packages::xhtml("Глава 1", &["После 1. e4 e5 2. &#x2658;f3 &#9816;c6 3. Сb5 a6 4. Кh5 белые&nbsp;ошиблись."]);
    let epub = packages::epub(&[("text/ch1.xhtml", &ch1)], &[]);
    let archive = packages::zip(&[
        ("round1.pgn", "[White \"A\"]\n\n1. e4 e5 2. Nf3+ Nc6 3. Ke3 *\n".as_bytes(), true),
        ("notes/readme.txt", b"not a game", false),
        ("round2.pgn", "1. d4 d5 2. Sf3 Sf6 3. Lh7 *\n".as_bytes(), false),
    ]);
    for (name, bytes) in [("book.docx", word), ("глава.odt", odt), ("book.epub", epub), ("twic.zip", archive)] {
        std::fs::write(dir.join(name), &bytes).unwrap();
        let run = run_in(&dir, &["--check", "--format", "json", name]);
        assert_eq!(run.code, 1, "{name}: {}{}", run.stdout, run.stderr);
        let mut want = findings(&run);
        want.sort();
        assert!(want.iter().any(|f| f.3 == "illegal-move"), "{name}: {}", run.stdout);
        assert_eq!(page_findings(name, &bytes), want, "{name}");
    }
}
