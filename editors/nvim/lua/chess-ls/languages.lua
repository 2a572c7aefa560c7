-- Generated from the engine's `Language::ALL` by the test
-- `sourcegen::nvim_languages` (tests/tests/it/sourcegen.rs): do not edit by
-- hand, run `cargo test -p chess-ls-tests --test it -- sourcegen::`.

--- The notation languages the server translates to (`:ChessLsTranslate`),
--- as their codes in the server's order.
return {
  'en', 'ru', 'uk', 'de', 'sv', 'da', 'no', 'nl', 'fr', 'es', 'it', 'ca',
  'pt', 'ro', 'cs', 'sk', 'pl', 'hu', 'fi', 'is', 'tr', 'figurine',
}
