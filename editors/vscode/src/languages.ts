// Generated from the engine's `Language::ALL` and lexicon by the test
// `sourcegen::vscode_languages` (tests/tests/it/sourcegen.rs): do not edit by
// hand, run `cargo test -p chess-ls-tests --test it -- sourcegen::`.
//
// The notation languages of notation.md §3, in the server's order, with the
// names the server uses in its action titles ("Translate the document to
// Russian").

export interface NotationLanguage {
  code: string;
  name: string;
  /** King, queen, rook, bishop, knight. */
  letters: string;
}

export const LANGUAGES: readonly NotationLanguage[] = [
  { code: "en", name: "English", letters: "K Q R B N" },
  { code: "ru", name: "Russian", letters: "Кр Ф Л С К" },
  { code: "uk", name: "Ukrainian", letters: "Кр Ф Т С К" },
  { code: "de", name: "German", letters: "K D T L S" },
  { code: "sv", name: "Swedish", letters: "K D T L S" },
  { code: "da", name: "Danish", letters: "K D T L S" },
  { code: "no", name: "Norwegian", letters: "K D T L S" },
  { code: "nl", name: "Dutch", letters: "K D T L P" },
  { code: "fr", name: "French", letters: "R D T F C" },
  { code: "es", name: "Spanish", letters: "R D T A C" },
  { code: "it", name: "Italian", letters: "R D T A C" },
  { code: "ca", name: "Catalan", letters: "R D T A C" },
  { code: "pt", name: "Portuguese", letters: "R D T B C" },
  { code: "ro", name: "Romanian", letters: "R D T N C" },
  { code: "cs", name: "Czech", letters: "K D V S J" },
  { code: "sk", name: "Slovak", letters: "K D V S J" },
  { code: "pl", name: "Polish", letters: "K H W G S" },
  { code: "hu", name: "Hungarian", letters: "K V B F H" },
  { code: "fi", name: "Finnish", letters: "K D T L R" },
  { code: "is", name: "Icelandic", letters: "K D H B R" },
  { code: "tr", name: "Turkish", letters: "Ş V K F A" },
  { code: "figurine", name: "Figurine", letters: "♔ ♕ ♖ ♗ ♘" },
];
