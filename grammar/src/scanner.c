// The external scanner of the chess grammar (MIT, as the grammar).
//
// One token: `_move_end`, zero-width, where a move could end and a `{`
// comment (or a `;` comment, a `%` escape) comes next, after blanks or not. A comment is an extra, and
// tree-sitter only checks that an immediate token follows no blanks, not
// that it follows no extra: without this token `e4 {c}e5` would read as the
// one move `e4e5` and `Ra7{c}Bc6` as `Ra7xBc6`. Ending the move before the
// comment makes what follows it a new element (see grammar.js, "Comments
// end moves").
//
// The scanner keeps no state. It looks past the blanks to the `{`, and
// tree-sitter records how far it looked, so an edit that types or deletes a
// `{` there lexes the token before it again (see the tests of
// tests/tests/it/incremental.rs).

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  MOVE_END,
  ERROR_RECOVERY,
};

void *tree_sitter_chess_external_scanner_create(void) { return NULL; }

void tree_sitter_chess_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_chess_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_chess_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

// The blanks of the grammar's extras: `\s` (Unicode White_Space), the byte
// order mark and U+2000-U+200F (the zero-width spaces and direction marks).
static bool is_blank(int32_t c) {
  return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200F) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000 || c == 0xFEFF;
}

bool tree_sitter_chess_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  // While recovering from an error tree-sitter marks every token valid:
  // leave the text to the grammar's own tokens then.
  if (valid_symbols[ERROR_RECOVERY] || !valid_symbols[MOVE_END]) {
    return false;
  }
  // The token ends here, before any blank, so the move ends with its last
  // part; the blanks stay the padding of the comment.
  lexer->mark_end(lexer);
  while (is_blank(lexer->lookahead) && !lexer->eof(lexer)) {
    lexer->advance(lexer, false);
  }
  // A `;` comment or a `%` escape ends at a line end, after which nothing
  // immediate can follow anyway; ending the move before them too keeps them
  // out of the move's node (its span is the move as written).
  if (lexer->lookahead != '{' && lexer->lookahead != ';' && lexer->lookahead != '%') {
    return false;
  }
  lexer->result_symbol = MOVE_END;
  return true;
}
