//! The settings file (`chess-ls.toml`) on arbitrary bytes: parsed and
//! applied, or refused with an error of a bounded length.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| chess_ls_tests::fuzzing::settings(data));
