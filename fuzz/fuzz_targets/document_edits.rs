//! The incremental path of the language server: a text and a sequence of
//! edits applied to a `Document` one by one (or in one notification) must
//! end with what a fresh open of the final text has: the same text, pieces,
//! outlines and diagnostics. Then formatting: a document the grammar reads
//! without error is formatted, and the layout keeps every non-blank
//! character in order (`format_text` gives up rather than lose one, so a
//! `None` there is a layout bug).
//!
//! Input: a flags byte (bit 0: Markdown, else bit 2: plain text, else bit 3:
//! LaTeX, else PGN; bit 1: all edits in one change notification), the text, then edits, each after a 0xFF byte (never in
//! UTF-8): two bytes of position (a fraction of the text's length), one of
//! length, then the text inserted.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| chess_ls_tests::fuzzing::document_edits(data));
