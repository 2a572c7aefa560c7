//! `chess-ls --check`: reads the files, checks them on every core (rayon:
//! files, and sections of big files, in parallel, by `ide::check`), and
//! prints the findings in file order.
//!
//! Memory stays bounded whatever the input: plain files up to
//! [`stream::WHOLE_LIMIT`] are read whole, in groups of at most
//! [`GROUP_BYTES`] checked at once; standard input, FIFOs, larger files,
//! compressed files and the members of zip archives are read as streams of
//! batches of whole games (`super::stream`), each batch checked on every
//! core while the next is read. Manuscripts (`.md`, `.tex`, `.txt`) are
//! read whole in every case: a game's language and numbering there follow
//! the prose before it.

use std::collections::HashSet;
use std::io::Read;
use std::sync::Arc;

use rayon::prelude::*;

use super::compressed::{self, Compression};
use super::output::{Printer, Summary};
use super::progress::Progress;
use super::sources::{self, Found, Source};
use super::stream::{self, Batches};
use super::{Effective, Session};
use chess_ls_engine::analysis::{Diagnostic, Severity};
use chess_ls_engine::ide::document::Kind;
use chess_ls_engine::syntax::containers::{self, Container, Limits};
use chess_ls_engine::syntax::manuscript::Format as ManuscriptFormat;

/// Whole files are read and checked in groups of about this many bytes.
const GROUP_BYTES: u64 = 64 << 20;

/// A file's findings (or a batch's, for a file read as a stream).
pub struct Checked {
    pub source: Source,
    pub games: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// A later batch of a file whose first batch was counted already.
    pub continued: bool,
}

impl Checked {
    /// A file's findings, with its bytes that were not valid in its
    /// encoding reported among them.
    pub fn new(source: Source, games: usize, mut diagnostics: Vec<Diagnostic>, continued: bool) -> Checked {
        let invalid = source.invalid.iter().map(|b| (b.offset, b.byte));
        chess_ls_engine::ide::intake::report_invalid_bytes(invalid, source.encoding.name(), &mut diagnostics);
        Checked { source, games, diagnostics, continued }
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

/// How a file is read.
enum Plan {
    /// Whole, with its length.
    Whole(Found, u64),
    /// As a stream.
    Stream(Found),
}

/// The run: what is printed, counted and failed so far.
struct Run<'a> {
    session: &'a Session,
    printer: Printer,
    summary: Summary,
    failures: Vec<String>,
    seen: HashSet<(u64, u64)>,
    /// Set when the output could not be written: the exit status.
    stopped: Option<i32>,
}

/// Runs `--check`; returns the exit status (0 no error, 1 errors, 2 the run
/// failed).
pub fn run(session: &Session) -> i32 {
    let mut failures = Vec::new();
    let found = session.find(&mut failures);
    let plans: Vec<Plan> = found.into_par_iter().map(plan).collect();
    let mut run = Run {
        session,
        printer: Printer::new(session.format),
        summary: Summary::default(),
        failures,
        seen: HashSet::new(),
        stopped: None,
    };
    let mut group = Vec::new();
    let mut group_bytes = 0;
    for plan in plans {
        match plan {
            Plan::Whole(found, len) => {
                if group_bytes + len > GROUP_BYTES && !group.is_empty() {
                    run.whole(std::mem::take(&mut group));
                    group_bytes = 0;
                }
                group_bytes += len;
                group.push(found);
            }
            Plan::Stream(found) => {
                run.whole(std::mem::take(&mut group));
                group_bytes = 0;
                run.stream(&found);
            }
        }
        if let Some(status) = run.stopped {
            return status;
        }
    }
    run.whole(group);
    if let Some(status) = run.stopped {
        return status;
    }
    let Run { mut printer, mut summary, mut failures, .. } = run;
    failures.sort();
    summary.failures = failures.len();
    summary.elapsed = session.started.elapsed();
    let _ = &mut printer;
    printer.finish(&failures, &summary.line(), summary.exit_status())
}

/// Whether a file is read whole or as a stream: by what it is (a regular
/// file, and how long) and its first bytes.
fn plan(found: Found) -> Plan {
    if found.path.as_os_str() == "-" {
        return Plan::Stream(found);
    }
    let Ok(metadata) = std::fs::metadata(&found.path) else { return Plan::Whole(found, 0) };
    if !metadata.is_file() {
        // A FIFO or a device (or a directory, refused when read).
        return if metadata.is_dir() || found.searched { Plan::Whole(found, 0) } else { Plan::Stream(found) };
    }
    let name = found.path.display().to_string();
    let manuscript = sources::manuscript_format(&name, false).is_some();
    let compressed =
        std::fs::File::open(&found.path).ok().and_then(|f| Compression::detect(&sources::head(&f), &name)).is_some();
    // A Word, OpenDocument or EPUB file is read by `Run::container`.
    let package = Container::from_path(&name).is_some();
    if compressed || package || metadata.len() > stream::WHOLE_LIMIT && !manuscript {
        Plan::Stream(found)
    } else {
        Plan::Whole(found, metadata.len())
    }
}

impl Run<'_> {
    fn print(&mut self, file: &Checked) {
        if self.stopped.is_some() {
            return;
        }
        self.summary.add(file);
        if let Err(e) = self.printer.file(file) {
            // A full disk, or stdout closed (e.g. piped into `head`).
            self.stopped = Some(super::output::output_failed(&e));
        }
    }

    /// Reads and checks files whole, in parallel, and prints them in order.
    fn whole(&mut self, group: Vec<Found>) {
        if group.is_empty() {
            return;
        }
        let session = self.session;
        let read: Vec<Result<Source, String>> = group.par_iter().map(|found| session.read(found)).collect();
        let mut sources = Vec::with_capacity(read.len());
        for result in read {
            match result {
                Ok(source) => {
                    if source.identity.is_some_and(|identity| !self.seen.insert(identity)) {
                        continue;
                    }
                    sources.push(source);
                }
                Err(e) => self.failures.push(e),
            }
        }
        let progress = Progress::new(&sources);
        let results: Vec<Result<Checked, String>> =
            sources.into_par_iter().map(|source| check_source(source, false, &progress)).collect();
        progress.finish();
        for result in results {
            match result {
                Ok(file) => self.print(&file),
                Err(failure) => self.failures.push(failure),
            }
        }
    }

    /// Reads a file as a stream (decompressed, or member by member for a
    /// zip archive) and checks it batch by batch.
    fn stream(&mut self, found: &Found) {
        let name = found.path.display().to_string();
        let effective = match self.session.effective(&found.path) {
            Ok(effective) => effective,
            Err(e) => return self.failures.push(e),
        };
        let opened = match sources::open(&found.path, found.searched) {
            Ok(opened) => opened,
            Err(e) => return self.failures.push(e),
        };
        if let Some(identity) = opened.identity()
            && !self.seen.insert(identity)
        {
            return;
        }
        // A regular file's size is known: a line too long to cut (one line
        // of 100 MB of games) is read whole, as a file under the limit is.
        let regular = opened.identity().is_some();
        // A Word, OpenDocument or EPUB file: its texts, read by the engine.
        if let Some(container) = Container::from_path(&name) {
            return self.container(&name, container, opened, &effective);
        }
        // A zip archive that is a file is read by its central directory.
        let archive = regular
            && opened
                .file
                .as_ref()
                .is_some_and(|f| Compression::detect(&sources::head(f), &name) == Some(Compression::Zip));
        if archive && let Some(file) = opened.file {
            return self.zip_archive(&name, file, &effective);
        }
        let mut input = std::io::BufReader::with_capacity(1 << 16, opened.into_reader());
        let head = match std::io::BufRead::fill_buf(&mut input) {
            Ok(head) => head[..head.len().min(8)].to_vec(),
            Err(e) => return self.failures.push(format!("cannot read {name}: {e}")),
        };
        match Compression::detect(&head, &name) {
            Some(Compression::Zip) => self.zip(&name, input, &effective),
            Some(compression) => {
                let inner = compressed::inner_name(&name, compression).to_owned();
                let reader = compression.decoder(input);
                self.text(name, &inner, reader, &effective, Some(compression), false, None);
            }
            None => {
                let inner = name.clone();
                self.text(name, &inner, Box::new(input), &effective, None, regular, None);
            }
        }
    }

    /// Checks each wanted member of a zip archive read as a stream (standard
    /// input, a FIFO), in the order of its local headers: all a stream
    /// allows.
    fn zip(&mut self, name: &str, mut input: impl Read + Send, effective: &Arc<Effective>) {
        let mut checked = 0;
        loop {
            let member = match zip::read::read_zipfile_from_stream(&mut input) {
                Ok(Some(member)) => member,
                Ok(None) => break,
                Err(e) => return self.failures.push(format!("cannot read {name}: not a valid zip archive: {e}")),
            };
            let member_name = member_name(&member);
            if !member.is_file() || !compressed::member_wanted(&member_name, effective.search_manuscripts) {
                // Read past it (the stream reader needs its data consumed).
                let mut sink = std::io::sink();
                let mut member = member;
                if let Err(e) = std::io::copy(&mut member, &mut sink) {
                    return self.failures.push(format!("cannot read {name}:{member_name}: {e}"));
                }
                continue;
            }
            checked += 1;
            self.member(name, member_name, member, effective);
            if self.stopped.is_some() {
                return;
            }
        }
        self.nothing_in(name, checked, effective);
    }

    /// Checks each wanted member of a zip archive that is a file, as every
    /// unzip reads one: by its central directory (the local headers may
    /// hide a member inside another's data, which `unzip` extracts all the
    /// same; and an archive may follow a stub, as a self-extracting one
    /// does). Members whose data overlap are refused (a zip bomb of
    /// overlapping members expands without end).
    fn zip_archive(&mut self, name: &str, file: impl Read + std::io::Seek + Send, effective: &Arc<Effective>) {
        let mut archive = match zip::ZipArchive::new(std::io::BufReader::with_capacity(1 << 16, file)) {
            Ok(archive) => archive,
            Err(e) => return self.failures.push(format!("cannot read {name}: not a valid zip archive: {e}")),
        };
        let mut extents = Vec::with_capacity(archive.len());
        for i in 0..archive.len() {
            match archive.by_index_raw(i) {
                Ok(member) => {
                    let start = member.header_start();
                    let end = member.data_start().unwrap_or(start).saturating_add(member.compressed_size());
                    extents.push((start, end));
                }
                Err(e) => return self.failures.push(format!("cannot read {name}: not a valid zip archive: {e}")),
            }
        }
        extents.sort_unstable();
        if extents.windows(2).any(|w| w[1].0 < w[0].1) {
            return self.failures.push(format!(
                "cannot read {name}: not a valid zip archive: members overlap (a zip bomb), so none was read"
            ));
        }
        let mut checked = 0;
        for i in 0..archive.len() {
            let failed = match archive.by_index(i) {
                Ok(member) => {
                    let member_name = member_name(&member);
                    if member.is_file() && compressed::member_wanted(&member_name, effective.search_manuscripts) {
                        checked += 1;
                        self.member(name, member_name, member, effective);
                    }
                    None
                }
                Err(e) => Some(e.to_string()),
            };
            if let Some(e) = failed {
                let member_name =
                    archive.name_for_index(i).and_then(Result::ok).map_or_else(|| "?".into(), |n| n.into_owned());
                self.failures.push(format!("cannot read {name}:{member_name}: {e}"));
            }
            if self.stopped.is_some() {
                return;
            }
        }
        self.nothing_in(name, checked, effective);
    }

    /// Checks the texts of a Word, OpenDocument or EPUB file: its bytes
    /// (up to [`sources::STREAM_LIMIT`]) read by the engine
    /// (`syntax::containers`, within the archives' limits), each text a
    /// file of the report (a member of the package named `file:member`).
    fn container(&mut self, name: &str, container: Container, opened: sources::Opened, effective: &Arc<Effective>) {
        let mut bytes = Vec::new();
        let limit = sources::STREAM_LIMIT;
        if let Err(e) = opened.into_reader().take(limit + 1).read_to_end(&mut bytes) {
            return self.failures.push(format!("cannot read {name}: {e}"));
        }
        if bytes.len() as u64 > limit {
            return self.failures.push(format!("cannot read {name}: it is longer than {} MiB", limit >> 20));
        }
        self.container_bytes(name, container, &bytes, effective);
    }

    fn container_bytes(&mut self, name: &str, container: Container, bytes: &[u8], effective: &Arc<Effective>) {
        let limits = Limits { member: sources::STREAM_LIMIT, total: sources::STREAM_LIMIT };
        let read = std::panic::catch_unwind(|| containers::read(container, bytes, limits));
        let parts = match read {
            Ok(Ok(parts)) => parts,
            Ok(Err(e)) => return self.failures.push(format!("cannot read {name}: {e}")),
            Err(_) => return self.failures.push(internal_error("check", name)),
        };
        for part in parts {
            let (full, archive) = match &part.member {
                Some(member) => (format!("{name}:{member}"), Some(name.len())),
                None => (name.to_owned(), None),
            };
            let mut source = Source::new(full, part.text, super::encoding::Encoding::Utf8);
            source.archive = archive;
            source.manuscript = Some(part.format);
            source.effective = effective.clone();
            match check_source(source, false, &Progress::none()) {
                Ok(file) => self.print(&file),
                Err(failure) => self.failures.push(failure),
            }
            if self.stopped.is_some() {
                return;
            }
        }
    }

    /// An archive with nothing to check fails the run, as a directory
    /// with nothing to check does: a run pointed at the wrong archive must
    /// not pass as clean.
    fn nothing_in(&mut self, name: &str, checked: usize, effective: &Effective) {
        if checked == 0 {
            self.failures.push(format!(
                "no notation file in {name}: nothing was checked (it has no member of the kinds searched{})",
                if effective.search_manuscripts {
                    ""
                } else {
                    "; --search-manuscripts adds .md, .tex, .txt, .html, .typ, .docx, .odt and .epub"
                }
            ));
        }
    }

    /// Checks one member of a zip archive, named `archive:member`.
    fn member<R: Read + Send>(
        &mut self,
        name: &str,
        member_name: String,
        member: zip::read::ZipFile<'_, R>,
        effective: &Arc<Effective>,
    ) {
        let full = format!("{name}:{member_name}");
        match Compression::from_name(&member_name) {
            Some(compression) if compression != Compression::Zip => {
                let inner = compressed::inner_name(&full, compression).to_owned();
                let reader = compression.decoder(member);
                self.text(full, &inner, reader, effective, Some(compression), false, Some(name.len()));
            }
            _ => {
                let inner = full.clone();
                self.text(full, &inner, Box::new(member), effective, None, false, Some(name.len()));
            }
        }
    }

    /// Checks one text read as a stream: notation batch by batch (the next
    /// batch is read while one is checked), a manuscript whole. `archive`:
    /// the length of the archive's name before a member's.
    #[allow(clippy::too_many_arguments, reason = "what a stream is, said once by each caller")]
    fn text(
        &mut self,
        name: String,
        inner: &str,
        reader: Box<dyn Read + Send + '_>,
        effective: &Arc<Effective>,
        compression: Option<Compression>,
        long_lines: bool,
        archive: Option<usize>,
    ) {
        let manuscript = sources::manuscript_format(inner, effective.all_manuscripts);
        // A read that fails is the decompressor's error; a text that cannot
        // be decoded is said as for a plain file.
        let mut batches = Batches::new(reader, name.clone(), effective.encoding);
        if let Some(c) = compression {
            batches.read_errors_mean(format!("not a valid {} file", c.name()));
        }
        if long_lines {
            batches.allow_long_lines();
        }
        if manuscript.is_some() {
            let mut text = String::new();
            let mut bad = Vec::new();
            loop {
                match batches.next() {
                    Ok(Some(batch)) => {
                        let base = text.len();
                        bad.extend(
                            batch
                                .invalid
                                .into_iter()
                                .map(|b| super::encoding::InvalidByte { offset: base + b.offset, ..b }),
                        );
                        text.push_str(&batch.text);
                    }
                    Ok(None) => break,
                    Err(e) => return self.failures.push(e),
                }
            }
            let (encoding, bom) = batches.encoding();
            let mut source = Source::new(name, text, encoding);
            source.archive = archive;
            source.bom = bom;
            source.invalid = bad;
            source.manuscript = manuscript;
            source.effective = effective.clone();
            return match check_source(source, false, &Progress::none()) {
                Ok(file) => self.print(&file),
                Err(failure) => self.failures.push(failure),
            };
        }
        let mut next = batches.next();
        let mut continued = false;
        loop {
            let batch = match next {
                Ok(Some(batch)) => batch,
                Ok(None) if !continued => {
                    // An empty stream is a file of no games.
                    stream::Batch { text: String::new(), first_line: 0, invalid: Vec::new() }
                }
                Ok(None) => return,
                Err(e) => return self.failures.push(e),
            };
            let (encoding, bom) = batches.encoding();
            let mut source = Source::new(name.clone(), batch.text, encoding);
            source.archive = archive;
            source.bom = bom;
            source.first_line = batch.first_line;
            source.invalid = batch.invalid;
            source.effective = effective.clone();
            let (checked, read) = rayon::join(|| check_source(source, continued, &Progress::none()), || batches.next());
            next = read;
            match checked {
                Ok(file) => self.print(&file),
                Err(failure) => return self.failures.push(failure),
            }
            if self.stopped.is_some() {
                return;
            }
            if !continued && matches!(next, Ok(None)) {
                return;
            }
            continued = true;
        }
    }
}

/// The archive reader on bytes, for its fuzz target: `bytes` read as the
/// file `name` (a zip archive, a compressed file, a Word, OpenDocument or
/// EPUB file by its extension, or text), by its central
/// directory when `seekable` (a file) or as a stream (a pipe), every
/// member checked and the report dropped. Returns what could not be read.
pub fn read_archive_bytes(name: &str, bytes: &[u8], seekable: bool) -> Vec<String> {
    let session = Session {
        flags: crate::ide::settings::Settings::default(),
        projects: None,
        effective: Default::default(),
        format: super::Format::Json,
        paths: Vec::new(),
        writes: false,
        started: std::time::Instant::now(),
        walk: sources::Walk::default(),
    };
    let mut run = Run {
        session: &session,
        printer: Printer::to(super::Format::Json, Box::new(std::io::sink()), false),
        summary: Summary::default(),
        failures: Vec::new(),
        seen: HashSet::new(),
        stopped: None,
    };
    let effective = Arc::new(Effective::default());
    if let Some(container) = Container::from_path(name) {
        run.container_bytes(name, container, bytes, &effective);
        return run.failures;
    }
    match Compression::detect(&bytes[..bytes.len().min(8)], name) {
        Some(Compression::Zip) if seekable => run.zip_archive(name, std::io::Cursor::new(bytes), &effective),
        Some(Compression::Zip) => run.zip(name, bytes, &effective),
        Some(compression) => {
            let inner = compressed::inner_name(name, compression).to_owned();
            run.text(name.to_owned(), &inner, compression.decoder(bytes), &effective, Some(compression), false, None);
        }
        None => run.text(name.to_owned(), name, Box::new(bytes), &effective, None, seekable, None),
    }
    run.failures
}

/// A member's name (its bytes read lossily when they are not UTF-8).
fn member_name<R: Read>(member: &zip::read::ZipFile<'_, R>) -> String {
    match member.name() {
        Ok(n) => n.into_owned(),
        Err(_) => String::from_utf8_lossy(member.name_raw()).into_owned(),
    }
}

/// Checks one text, a panic (a bug) costing its findings only: a failure
/// of that file (exit 2), not of every other.
fn check_source(source: Source, continued: bool, progress: &Progress) -> Result<Checked, String> {
    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        test_panic(&source.name);
        analyse(&source.text, source.manuscript, &source.effective, progress)
    }));
    progress.file_done();
    match found {
        Ok((games, diagnostics)) => Ok(Checked::new(source, games, diagnostics, continued)),
        Err(_) => Err(internal_error("check", &source.name)),
    }
}

/// The failure of a file whose `stage` (check, fix, translation) panicked.
pub(super) fn internal_error(stage: &str, name: &str) -> String {
    match stage {
        "check" => {
            format!("an internal error stopped the check of {name}; its findings are missing (please report it)")
        }
        _ => format!("an internal error stopped the {stage} of {name}; it was left as it was (please report it)"),
    }
}

/// Test hook: `CHESS_LS_TEST_PANIC_ON=NAME` makes the check (the fix, the
/// translation) of a file whose name ends with NAME panic, for the tests
/// that one file's failure keeps the others' reports and leaves the file
/// as it was. Only those tests set it.
pub(super) fn test_panic(name: &str) {
    static ON: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    if let Some(suffix) = ON.get_or_init(|| std::env::var("CHESS_LS_TEST_PANIC_ON").ok())
        && name.ends_with(suffix.as_str())
    {
        panic!("CHESS_LS_TEST_PANIC_ON: a test asked for a panic while checking {name}");
    }
}

/// The games and diagnostics of a file's text (`ide::check`), with the
/// settings' `ignore`, `select` and severities applied.
pub fn analyse(
    text: &str,
    manuscript: Option<ManuscriptFormat>,
    effective: &Effective,
    progress: &Progress,
) -> (usize, Vec<Diagnostic>) {
    let found = effective.batch().check(text, Kind::from_manuscript(manuscript), progress);
    (found.games, found.diagnostics)
}
