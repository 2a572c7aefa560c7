//! Grammar and analysis on arbitrary bytes: the text (UTF-8, lossily) is
//! parsed, lowered and replayed, traced as hovers trace it, and read as
//! a manuscript (text, Markdown, LaTeX); whenever the fast path reads it, its games must equal the
//! grammar's. The first byte picks the options (a language or inference,
//! the optional marks), so every language's reading is exercised.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| chess_ls_tests::fuzzing::analysis(data));
