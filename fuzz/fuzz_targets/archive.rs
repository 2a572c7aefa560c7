//! The archive reader on arbitrary bytes: zip archives (by their central
//! directory, or as a stream), gzip, bzip2, xz and zstd files, Word,
//! OpenDocument and EPUB files, HTML and Typst pages, and plain text, as
//! `--check` reads them; the first byte picks the name and the
//! way of reading. No panic, and bounded messages.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| chess_ls_tests::fuzzing::archive(data));
