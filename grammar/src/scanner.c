// The external scanner of the chess grammar (MIT, as the grammar).
//
// Two tokens. `escape`: a `%` in a line's first column and the rest of
// the line (PGN 6); a `%` anywhere else is no escape. And `_move_end`, zero-width, where a move could end and the
// extras after it (blanks, comments) end with a `{...}` comment glued to the
// next token. A comment is an extra, and
// tree-sitter only checks that an immediate token follows no blanks, not
// that it follows no extra: without this token `e4 {c}e5` would read as the
// one move `e4e5` and `Ra7{c}Bc6` as `Ra7xBc6`. Ending the move before the
// comment makes what follows it a new element (see grammar.js, "Comments
// end moves").
//
// The token is put only where it matters (`e4 {c} e5` needs none), so that
// most games hold no external token: tree-sitter walks a reused node down
// to its last external token, which made a keystroke's reparse of a 10 MB
// file some 8 times slower when every comment after a move had one.
//
// The scanner keeps no state. It looks through the extras, and
// tree-sitter records how far it looked, so an edit that types or deletes a
// `{` there lexes the token before it again (see the tests of
// tests/tests/it/incremental.rs).

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  MOVE_END,
  ERROR_RECOVERY,
  ESCAPE,
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

// Whether the extras from here on (blanks, `{...}` comments, `;` comments)
// end with a `{...}` comment glued to the next token, or an escape line
// comes (the move ends before it, and it is read after), which
// tree-sitter would then read as an immediate token of the move. When
// unsure (a brace inside a comment, a line starting with `[` inside one,
// the end of the text inside one) it says yes: ending the move at a
// comment is always the right reading, the token only costs a little.
static bool comment_glued_ahead(TSLexer *lexer) {
  bool after_comment = false;
  // Whether the next character is a line's first (a `%` there escapes the
  // line). The token starts right after a move: never a line's start.
  bool line_start = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) {
      return false;
    }
    if (is_blank(c)) {
      after_comment = false;
      line_start = c == '\n';
      lexer->advance(lexer, false);
    } else if (c == '%' && line_start) {
      // An escape line: the move ends before it, and the escape is read
      // after (the grammar's own tokens would skip the blanks before it
      // and stop at the `%`).
      return true;
    } else if (c == ';') {
      // Up to the line end, a blank.
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
        lexer->advance(lexer, false);
      }
      after_comment = false;
    } else if (c == '{') {
      lexer->advance(lexer, false);
      while (lexer->lookahead != '}') {
        if (lexer->eof(lexer) || lexer->lookahead == '{') {
          return true;
        }
        if (lexer->lookahead == '\n') {
          while (is_blank(lexer->lookahead) && !lexer->eof(lexer)) {
            lexer->advance(lexer, false);
          }
          if (lexer->lookahead == '[') {
            return true;
          }
          continue;
        }
        lexer->advance(lexer, false);
      }
      lexer->advance(lexer, false);
      after_comment = true;
      line_start = false;
    } else {
      // A token: glued to a comment, or after a blank (or right after the
      // move's last part, when there was no extra at all).
      return after_comment && c != '(' && c != ')' && c != '$' && c != '[';
    }
  }
}

// An escape line ahead, after blanks (skipped: they are not part of it):
// a `%` in a line's first column and the rest of the line.
static bool escape_ahead(TSLexer *lexer) {
  while (!lexer->eof(lexer) && is_blank(lexer->lookahead)) {
    lexer->advance(lexer, true);
  }
  if (lexer->lookahead != '%' || lexer->get_column(lexer) != 0) {
    return false;
  }
  while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
    lexer->advance(lexer, false);
  }
  lexer->mark_end(lexer);
  lexer->result_symbol = ESCAPE;
  return true;
}

bool tree_sitter_chess_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid_symbols) {
  (void)payload;
  // While recovering from an error tree-sitter marks every token valid:
  // leave the text to the grammar's own tokens then, but for an escape
  // line (no token of the grammar reads a `%`).
  if (valid_symbols[ERROR_RECOVERY]) {
    return valid_symbols[ESCAPE] && escape_ahead(lexer);
  }
  if (valid_symbols[MOVE_END]) {
    // The token ends here, before any blank or comment, so the move ends
    // with its last part and the extras after it stay outside its node.
    // An escape line ahead ends the move too; the escape is read next.
    lexer->mark_end(lexer);
    if (!comment_glued_ahead(lexer)) {
      return false;
    }
    lexer->result_symbol = MOVE_END;
    return true;
  }
  return valid_symbols[ESCAPE] && escape_ahead(lexer);
}
