/**
 * @file Multilingual chess algebraic notation: PGN and the book and lesson
 *       habits around it (bare movetext, position descriptions, piece letters
 *       of every language, figurines, long algebraic, look-alike letters).
 * @license MIT
 *
 * Shape and speed. Tree-sitter costs roughly a constant per token and per
 * node, so a move is a handful of tokens at most (the piece letter, the
 * origin, the capture sign, the destination square, the marks) and one node.
 * Every token after the first one of a move is `token.immediate`, so `e4 e5`
 * stays two moves while `e2e4` and `Ng1f3` read as long algebraic. The move
 * number that stands before a move is a child of that move (field `number`):
 * that saves a node per number and ties the number to the ply it numbers.
 * The parts of a move are inlined rules, so a move is one node, not two.
 *
 * Incremental reparsing. A node that begins or ends with a repetition is
 * "fragile" for tree-sitter and is never reused whole after an edit. So
 * `headers` and `movetext` start with their first element, not with a
 * repetition, and a game that ends with its result is reused whole: an edit
 * costs a walk over the games, not over every move of the file.
 *
 * Comments end moves. A comment is an extra, and tree-sitter checks that an
 * immediate token follows no blanks, not that it follows no extra: `e4 {c}e5`
 * and `Ra7{c}Bc6` would read as one move (`e4e5`, `Ra7xBc6`). So where a
 * move could end and the extras after it end with a comment glued to the
 * next token, the external scanner (src/scanner.c) puts a zero-width
 * `_move_end` right after the move, and what follows the comment starts a
 * new element, as the fast path (server/engine/src/syntax/fast.rs) reads it. Only
 * there: a comment followed by a blank ends the move anyway, and a node
 * holding external tokens costs tree-sitter a walk whenever it is reused. A
 * move that cannot end yet (`N{c}f3`) still reads across the comment.
 *
 * The grammar is deliberately permissive about *letters*: every piece letter
 * of every language, Cyrillic look-alikes in squares (`е5`, `с4`), `l` for
 * `1` and `З` for `3` all lex as parts of moves. Deciding what they mean is
 * the analysis's job (it knows the game's language and position), so that
 * these mistakes become diagnostics with fixes instead of ERROR nodes.
 *
 * Precedence table (higher binds first):
 *   GAME           1  a game swallows following movetext rather than
 *                     starting a new game (games are only separated by a
 *                     result or tags).
 *   LONE_NUMBER   -1  a move number before a move is that move's `number`;
 *                     it stands alone only before something that is not a
 *                     move (a variation, a NAG, the result, `...`).
 *
 * Lexical precedence: the `;` between the pieces and the pawns of a
 * position description (1) wins over the `;` line comment (0).
 *
 * Conflicts: none declared. The only ambiguity (a number before a move) is
 * settled by LONE_NUMBER above.
 *
 * Error recovery. A comment or a tag value never runs into the next game's
 * tag section, and a `{` left open reads to the end of its line (then a
 * MISSING `}`), so junk in one game leaves the games after it clean (see
 * test/corpus/errors.txt and tests/recovery.rs).
 */

const PREC = {
  GAME: 1,
  LONE_NUMBER: -1,
};

// The letters and signs below are the data of server/engine/src/syntax/lexicon.rs,
// which every reader of the notation shares; its test `agrees_with_the_grammar`
// reads src/grammar.json and checks that these token rules accept exactly them.
//
// Files a-h plus the Cyrillic look-alikes а, с, е, һ and the French
// keyboard's ç for c.
const FILE = '[a-hасеһç]';
// Ranks 1-8 plus the look-alikes l, I, | (for 1), Z (for 2), Cyrillic З
// (for 3), S (for 5) and B (for 8) in a square. A rank alone (the origin of
// `R1a3`) takes only l and З: a `B` or `S` after a piece letter is the
// captured piece of long algebraic (`Sd7xSe5`), or damage.
const RANK = '[1-8lI|ZЗSB]';
const ORIGIN_RANK = '[1-8lЗ]';
const SQUARE = FILE + RANK;
// Every piece letter of every language of notation.md section 3 and
// Turkish's Ş (şah, the king; its other letters are Latin ones) (Latin,
// Cyrillic, the two-letter Кр, its mixed-keyboard forms and the Kr of a Latin
// transliteration), the Cyrillic look-alikes typed for Latin letters
// (К Т С В Н Р А), the pawn letters (P p п П B), the figurines of both
// colours and the code points a figurine font puts for them in a PDF copy
// (¢ £ ¦ ¥ ¤ § for ♔ ♕ ♖ ♗ ♘ ♙).
const PIECE = '[КK][рpr]|[KQRBNPDTLSCFAVJHWGŞКФЛСТпПВНРА]|[♔-♟]|[¢£¤¥¦§]|p';
const CAPTURE = '[xхX:×]';
const DASH = '[-–—]';
const CHECK = '\\+\\+|[+#†‡]';
const ANNOTATION = '!!|\\?\\?|!\\?|\\?!|[!?‼⁇⁉⁈]';
const EN_PASSANT = '[eе]\\.?\\s?[pр]\\.?';
// Castling with letter O, digit 0, Cyrillic О (a look-alike) or lower-case o.
const CASTLE_O = '[Oo0О]';
// A promoted piece may be written in lower case by UCI-minded programs.
const PROMOTED = PIECE + '|[qrbnk]';
// The full stop of a move number and its look-alikes from other scripts
// (Lisu U+A4F8, Syriac U+0702, one-dot leader, fullwidth full stop).
const DOT = '[.ꓸ܂․．]';
// One optional space inside a result (`1 - 0`, `1/2 - 1/2`), Unicode spaces
// included: results copied from web pages carry no-break and em spaces.
const SP = '[ \\t\\u00A0\\u2000-\\u200B\\u202F\\u205F\\u3000]?';
// Inside a comment, a line break followed by more blank space. A comment may
// not run into a line that starts a tag (`[` and a letter): a `{` left open
// must not reach the `}` of a comment in some later game and swallow the
// games in between. `{\n[%clk 0:10] }` of some exporters is still a comment.
const COMMENT_BREAK = '\\n[ \\t\\r\\n]*';
// The text of a comment that ends at the first `}`, and of one that may hold
// `{...}` pairs (one level) on one line.
const FLAT_BODY = `[^}\\n]|${COMMENT_BREAK}([^\\[}\\s]|\\[[^A-Za-z}])`;
const INNER = '\\{[^{}\\n]*\\}';
const NESTED_BODY =
  `[^{}\\n]|${INNER}|${COMMENT_BREAK}([^\\[{}\\s]|\\[[^A-Za-z{}]|${INNER})`;

module.exports = grammar({
  name: 'chess',

  // Comments may stand anywhere, even between two tags or inside a tag
  // section as ChessBase writes them; as extras they cost nothing in the
  // rules and never make a conflict.
  //
  // The first three separators only repeat what the fourth already says;
  // they are there for speed. As separate separators, `\n`, `\r` and space
  // become one-character lexer transitions, which tree-sitter sorts first:
  // each lexer start state then opens with tests for the blanks and a chain
  // of single-character tests (which the C compiler turns into a jump
  // table), instead of a linear scan over a table of ~40 character pairs
  // and two binary searches in character sets for every blank of the file.
  // Measured on 1 MB of generated PGN: 9% fewer instructions in the parse.
  extras: $ => [
    /\r\n/,
    /\n+/,
    / +/,
    /[\s\uFEFF\u00A0\u2000-\u200F\u2028\u2029\u202F\u205F\u3000]/,
    $.comment,
    $.line_comment,
    $.escape,
  ],

  conflicts: _ => [],

  // Written by src/scanner.c. `_move_end` is a zero-width token that ends a
  // move before a comment glued to what follows it (see "Comments end moves" above);
  // `_error_recovery` is never valid in the grammar, so the scanner knows
  // when tree-sitter asks for every token at once while recovering.
  externals: $ => [$._move_end, $._error_recovery, $.escape],

  // The parts of a move are spelled out as rules for reading, but a hidden
  // rule is still a node at run time; inlining them makes a move one node.
  inline: $ => [
    $._castling_move,
    $._piece_move,
    $._pawn_move,
    $._promotion,
    $._suffix,
    $._piece_suffix,
  ],

  rules: {
    source_file: $ => repeat($.game),

    // A game is a tag section, movetext, a result, or any run of them in
    // that order. Two bare games without a result between them read as one:
    // nothing in the text separates them.
    game: $ => prec.right(PREC.GAME, choice(
      seq($.headers, optional($.movetext), optional(field('result', $.result))),
      seq($.movetext, optional(field('result', $.result))),
      field('result', $.result),
    )),

    // The first tag outside the repetition keeps `headers` reusable after
    // an edit (see "Incremental reparsing" above).
    headers: $ => prec.right(seq($.tag, repeat($.tag))),

    tag: $ => seq(
      '[',
      field('name', $.tag_name),
      optional(field('value', $.tag_value)),
      ']',
    ),
    tag_name: _ => /[A-Za-z0-9_]+/,
    // A quoted value on one line, with `\"` and `\\` escapes (PGN 7). Real
    // files also carry quotes that nobody escaped (`[Event "SK"Vladimir
    // Gortan"-2007"]`): a quote stays inside the value unless `]` (after
    // optional blanks) follows it. A backslash just before the closing quote
    // may be a literal one (`[Event "Masters\"]`). A value never runs over a
    // line end, so an unclosed quote stays an error of its own tag instead
    // of swallowing the tags after it.
    tag_value: _ => /"([^"\\\n]|\\[^\n]|"[ \t]*[^\]\s"])*\\?"/,

    movetext: $ => prec.right(seq($._element, repeat($._element))),

    _element: $ => choice(
      prec(PREC.LONE_NUMBER, $.move_number),
      // Where a move could end and a comment comes next, the scanner's
      // `_move_end` ends it there (it is in the move's lookahead here), so
      // that no immediate token is read past the comment.
      seq($.move, optional($._move_end)),
      $.null_move,
      $.nag,
      $.glyph,
      // A piece letter standing alone: Informant's novelty sign `N`, or a
      // move that lost its square (the analysis tells which).
      alias($.piece, $.glyph),
      $.variation,
      $.draw_offer,
      $.position_description,
      // Never valid text: the `}` is always MISSING (see _open_comment).
      seq(alias($._open_comment, $.comment), '}'),
    ),

    // `12.` `12...` `12…` `12)` and a bare `12` of old texts. `12. ...`
    // (dots after a space) is a number and a separate ellipsis, and so are
    // the spaced dots of typeset books and old print, `12. . . Nf6` (the
    // number's dot the first of three) and `12. . . . Nf6`. A bidi mark
    // between the digits and the dot is tolerated (right-to-left editors).
    move_number: _ => token(choice(
      new RegExp(`[0-9]+[\\u200E\\u200F]*(${DOT}+|…|\\))?`),
      /\.\.\.|…|\.( \.)+/,
    )),

    move: $ => seq(
      optional(field('number', $.move_number)),
      choice(
        $._castling_move,
        $._piece_move,
        $._pawn_move,
      ),
    ),

    _castling_move: $ => seq(
      field('castling', $.castling),
      optional($._suffix),
    ),
    castling: _ => token(new RegExp(`${CASTLE_O}${DASH}${CASTLE_O}(${DASH}${CASTLE_O})?`)),

    _piece_move: $ => seq(
      field('piece', $.piece),
      optional(field('origin', choice(
        alias($._file_imm, $.file),
        alias($._rank_imm, $.rank),
        alias($._square_imm, $.square),
      ))),
      optional(choice(
        field('capture', alias($._capture_imm, $.capture)),
        field('dash', alias($._dash_imm, $.dash)),
        // A crazyhouse drop: `N@f3`.
        field('drop', alias($._drop_imm, $.drop)),
      )),
      // Long algebraic may name the captured piece: `Sd7xSe5`.
      optional(field('captured', alias($._piece_imm, $.piece))),
      field('destination', alias($._square_imm, $.square)),
      optional($._piece_suffix),
    ),

    _pawn_move: $ => seq(
      choice(
        // `e4`
        field('destination', $.square),
        // `e2e4` `e2-e4` `e4xd5` `e4:d5`, and naming the piece taken:
        // `d4xSe5` (German long algebraic)
        seq(
          field('origin', $.square),
          optional(choice(
            seq(
              field('capture', alias($._capture_imm, $.capture)),
              optional(field('captured', alias($._piece_imm, $.piece))),
            ),
            field('dash', alias($._dash_imm, $.dash)),
          )),
          field('destination', alias($._square_imm, $.square)),
        ),
        // `exd5` `ed5` `e:d5` `exPd5`
        seq(
          field('origin', $.file),
          optional(seq(
            field('capture', alias($._capture_imm, $.capture)),
            optional(field('captured', alias($._piece_imm, $.piece))),
          )),
          field('destination', alias($._square_imm, $.square)),
        ),
        // A crazyhouse pawn drop written without its letter: `@d5`.
        seq(
          field('drop', $.drop),
          field('destination', alias($._square_imm, $.square)),
        ),
        // Damage and old habits the analysis reads with the position: a
        // capture whose piece letter was lost (`xg7`), and a pawn capture
        // written with its two files only (`ed`, `e:d`, the Soviet short
        // form).
        seq(
          field('capture', $.capture),
          field('destination', alias($._square_imm, $.square)),
        ),
        seq(
          field('origin', $.file),
          optional(field('capture', alias($._capture_imm, $.capture))),
          field('destination', alias($._file_imm, $.file)),
        ),
      ),
      optional($._promotion),
      optional(field('en_passant', choice(
        $.en_passant,
        alias($._en_passant_imm, $.en_passant),
      ))),
      optional($._suffix),
    ),

    _promotion: $ => seq(
      optional(field('promotion_sign', alias($._equals_imm, $.promotion_sign))),
      field('promotion', alias($._promoted_imm, $.piece)),
    ),

    _suffix: $ => choice(
      seq(
        field('check', alias($._check_imm, $.check)),
        optional(field('annotation', alias($._annotation_imm, $.annotation))),
      ),
      field('annotation', alias($._annotation_imm, $.annotation)),
    ),

    // After a piece move a glued `N` is Informant's novelty sign (`Qd1N`);
    // after a pawn move it would be a promotion, so only pieces take it.
    _piece_suffix: $ => choice(
      $._suffix,
      seq(
        optional(field('check', alias($._check_imm, $.check))),
        field('annotation', alias($._novelty_imm, $.annotation)),
      ),
    ),

    // The first token of a move may follow whitespace; the rest may not.
    piece: _ => token(new RegExp(PIECE)),
    square: _ => token(new RegExp(SQUARE)),
    file: _ => token(new RegExp(FILE)),
    en_passant: _ => token(new RegExp(EN_PASSANT)),
    drop: _ => token('@'),
    capture: _ => token(new RegExp(CAPTURE)),

    _piece_imm: _ => token.immediate(new RegExp(PIECE)),
    _promoted_imm: _ => token.immediate(new RegExp(PROMOTED)),
    _drop_imm: _ => token.immediate('@'),
    _square_imm: _ => token.immediate(new RegExp(SQUARE)),
    _file_imm: _ => token.immediate(new RegExp(FILE)),
    _rank_imm: _ => token.immediate(new RegExp(ORIGIN_RANK)),
    _capture_imm: _ => token.immediate(new RegExp(CAPTURE)),
    _dash_imm: _ => token.immediate(new RegExp(DASH)),
    _equals_imm: _ => token.immediate(choice('=', '/')),
    _en_passant_imm: _ => token.immediate(new RegExp(EN_PASSANT)),
    _check_imm: _ => token.immediate(new RegExp(CHECK)),
    _annotation_imm: _ => token.immediate(new RegExp(ANNOTATION)),
    _novelty_imm: _ => token.immediate('N'),

    null_move: _ => token(choice('--', 'Z0', '@@@@')),

    // PGN comments do not nest, but some programs write `{a {b} c}`: one
    // level of balanced braces is read as one comment, anything else ends
    // at the first `}` as the standard says. Neither form runs into a line
    // that starts a tag (see COMMENT_BREAK).
    comment: _ => token(choice(
      new RegExp(`\\{(${FLAT_BODY})*(${COMMENT_BREAK}\\[?)?\\}`),
      new RegExp(`\\{(${NESTED_BODY})*(${COMMENT_BREAK}\\[?)?\\}`),
    )),
    // A `{` left open: its text up to the end of its line. A closed comment
    // is always longer, so this token only wins when the `}` is missing. In
    // movetext it makes a `comment` followed by a MISSING `}`, and the
    // moves on the next lines still read as moves (so an open variation
    // around it can still get its MISSING `)` at the result); elsewhere the
    // lexer's error mode finds it and the ERROR ends at the line end.
    // Either way the games after it parse cleanly.
    // Only up to the first `}`: a closed comment that ends there (`{a { b}`,
    // the standard's reading) must win over a longer open one that skips
    // a `{ b}` inside it and swallows the moves after it.
    _open_comment: _ => token(/\{[^}\n]*/),
    line_comment: _ => token(seq(';', /[^\n]*/)),
    // `%` escapes the rest of its line (PGN 6) when it is the line's first
    // character: the external scanner reads it (src/scanner.c), since a
    // token of the grammar cannot see the column. A `%` elsewhere is no
    // escape (`N%6` is a damaged move, not the end of the line's notation).

    nag: _ => token(/\$[0-9]+/),

    // Stand-alone evaluation and annotation symbols of printed books and
    // Informant style (`±`, `+-`, `=`, `∞` or `inf`, `N`, `RR` the editorial
    // comment, `☒`) and spaced `!`/`?`.
    glyph: _ => token(choice(
      /!!|\?\?|!\?|\?!|[!?‼⁇⁉⁈]/,
      /\+\/?[-=−]|[-=−]\/?\+|=\/?∞|∞\/?=|\/=|=\/|==?|-|∞|±|∓|⩲|⩱|□|☒|⊕|⇆|→|↑|⇈|⊥|⌓|△|Δ|∆|○|◯|⨀|[øØ]|TN|RR|inf/,
    )),

    variation: $ => seq('(', optional($.movetext), ')'),

    // FIDE 18.12: the draw offer is written `(=)`; a sentence-final period
    // after it is part of the book habit, not a new token.
    draw_offer: _ => token(/\(=\)\.?/),

    result: _ => token(choice(
      new RegExp(`1${SP}[-–—−]${SP}0`),
      new RegExp(`0${SP}[-–—−]${SP}1`),
      new RegExp(`1${SP}[\\/∕]${SP}2${SP}[-–—−]${SP}1${SP}[\\/∕]${SP}2`),
      new RegExp(`½${SP}[-–—−]${SP}½`),
      '*',
    )),

    // `Белые: Крс1, Фf2, Лe1; пп. a3, b2.` `White: Kc1, Qf2; pawns a3, b2`
    position_description: $ => prec.right(seq(
      field('side', $.side),
      $.placement,
      repeat(seq(',', $.placement)),
      optional(seq(
        // Higher lexical precedence than the `;` line comment, which would
        // otherwise swallow the pawn list as the longer token.
        alias(token(prec(1, ';')), ';'),
        optional(field('pawns', $.pawns_label)),
        optional(seq($.placement, repeat(seq(',', $.placement)))),
      )),
      optional('.'),
    )),
    side: _ => token(/(Белые|Чёрные|Черные|Білі|Чорні|White|Black|Weiß|Weiss|Schwarz|Blancs|Noirs|Blancas|Negras)\s*:/),
    pawns_label: _ => token(/пп\.|п\.|пішаки|пешки|[Pp]awns|Bauern|pions|peones/),
    placement: $ => seq(
      optional(field('piece', $.piece)),
      field('square', choice(
        $.square,
        alias($._square_imm, $.square),
      )),
    ),
  },
});
