/**
 * @file Multilingual chess algebraic notation: PGN and the book and lesson
 *       habits around it (bare movetext, position descriptions, piece letters
 *       of every language, figurines, long algebraic, look-alike letters).
 * @license MIT
 *
 * Shape and speed. Tree-sitter costs roughly a constant per token, so a move
 * is a handful of tokens at most: the piece letter, the origin, the capture
 * sign, the destination square, and the marks. Every token after the first
 * one of a move is `token.immediate`, so `e4 e5` stays two moves while
 * `e2e4` and `Ng1f3` read as long algebraic.
 *
 * The grammar is deliberately permissive about *letters*: every piece letter
 * of every language, Cyrillic look-alikes in squares (`е5`, `с4`), `l` for
 * `1` and `З` for `3` all lex as parts of moves. Deciding what they mean is
 * the analysis's job (it knows the game's language and position), so that
 * these mistakes become diagnostics with fixes instead of ERROR nodes.
 *
 * Precedence table (higher binds first):
 *   GAME     1  a game swallows following movetext rather than starting a
 *               new game (games are only separated by a result or tags).
 */

const PREC = {
  GAME: 1,
};

// Files a-h plus the Cyrillic look-alikes а, с, е, һ.
const FILE = '[a-hасеһ]';
// Ranks 1-8 plus the look-alikes l (for 1) and Cyrillic З (for 3).
const RANK = '[1-8lЗ]';
const SQUARE = FILE + RANK;
// Every piece letter of every language of notation.md section 3 (Latin,
// Cyrillic, the two-letter Кр and its mixed-keyboard forms), the pawn letters
// (P p п П B) and the figurines of both colours.
const PIECE = '[КK][рp]|[KQRBNPDTLSCFAVJHWGКФЛСТпП]|[♔-♟]|p';
const CAPTURE = '[xхX:×]';
const DASH = '[-–—]';
const CHECK = '\\+\\+|[+#†‡]';
const ANNOTATION = '!!|\\?\\?|!\\?|\\?!|[!?‼⁇⁉⁈]';
const EN_PASSANT = '[eе]\\.?\\s?[pр]\\.?';
// Castling with letter O, digit 0, Cyrillic О (a look-alike) or lower-case o.
const CASTLE_O = '[Oo0О]';
// A promoted piece may be written in lower case by UCI-minded programs.
const PROMOTED = PIECE + '|[qrbnk]';

module.exports = grammar({
  name: 'chess',

  // Comments may stand anywhere, even between two tags or inside a tag
  // section as ChessBase writes them; as extras they cost nothing in the
  // rules and never make a conflict.
  extras: $ => [/[\s\uFEFF\u00A0\u2000-\u200F\u2028\u2029\u202F\u205F\u3000]/, $.comment, $.line_comment, $.escape],


  conflicts: _ => [],

  inline: $ => [
    $._castling_move,
    $._piece_move,
    $._pawn_move,
    $._promotion,
    $._suffix,
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

    headers: $ => prec.right(seq($.tag, repeat($.tag))),

    tag: $ => seq(
      '[',
      field('name', $.tag_name),
      optional(field('value', $.tag_value)),
      ']',
    ),
    tag_name: _ => /[A-Za-z0-9_]+/,
    // A quoted value with backslash escapes; it may run over line ends.
    tag_value: _ => /"([^"\\]|\\.)*"/,

    movetext: $ => prec.right(seq($._element, repeat($._element))),

    _element: $ => choice(
      prec(-1, $.move_number),
      $.move,
      $.null_move,
      $.nag,
      $.glyph,
      // A piece letter standing alone: Informant's novelty sign `N`, or a
      // move that lost its square (the analysis tells which).
      alias($.piece, $.glyph),
      $.variation,
      $.draw_offer,
      $.position_description,
    ),

    // `12.` `12...` `12…` `12)` and a bare `12` of old texts. `12. ...`
    // (dots after a space) is a number and a separate ellipsis.
    move_number: _ => token(choice(
      /\d+(\.+|…|\))?/,
      /\.\.\.|…/,
    )),

    move: $ => seq(optional(field('number', $.move_number)), choice(
      $._castling_move,
      $._piece_move,
      $._pawn_move,
    )),

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
      optional($._suffix),
    ),

    _pawn_move: $ => seq(
      choice(
        // `e4`
        field('destination', $.square),
        // `e2e4` `e2-e4` `e4xd5` `e4:d5`
        seq(
          field('origin', $.square),
          optional(choice(
            field('capture', alias($._capture_imm, $.capture)),
            field('dash', alias($._dash_imm, $.dash)),
          )),
          field('destination', alias($._square_imm, $.square)),
        ),
        // `exd5` `ed5` `e:d5`
        seq(
          field('origin', $.file),
          optional(field('capture', alias($._capture_imm, $.capture))),
          field('destination', alias($._square_imm, $.square)),
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

    // The first token of a move may follow whitespace; the rest may not.
    piece: _ => token(new RegExp(PIECE)),
    square: _ => token(new RegExp(SQUARE)),
    file: _ => token(new RegExp(FILE)),
    en_passant: _ => token(new RegExp(EN_PASSANT)),

    _piece_imm: _ => token.immediate(new RegExp(PIECE)),
    _promoted_imm: _ => token.immediate(new RegExp(PROMOTED)),
    _drop_imm: _ => token.immediate('@'),
    _square_imm: _ => token.immediate(new RegExp(SQUARE)),
    _file_imm: _ => token.immediate(new RegExp(FILE)),
    _rank_imm: _ => token.immediate(new RegExp(RANK)),
    _capture_imm: _ => token.immediate(new RegExp(CAPTURE)),
    _dash_imm: _ => token.immediate(new RegExp(DASH)),
    _equals_imm: _ => token.immediate(choice('=', '/')),
    _en_passant_imm: _ => token.immediate(new RegExp(EN_PASSANT)),
    _check_imm: _ => token.immediate(new RegExp(CHECK)),
    _annotation_imm: _ => token.immediate(new RegExp(ANNOTATION)),

    null_move: _ => token(choice('--', 'Z0', '@@@@')),

    // PGN comments do not nest, but some programs write `{a {b} c}`: one
    // level of balanced braces is read as one comment, anything else ends
    // at the first `}` as the standard says.
    comment: _ => token(choice(
      /\{[^}]*\}/,
      /\{([^{}]|\{[^{}]*\})*\}/,
    )),
    line_comment: _ => token(seq(';', /[^\n]*/)),
    // `%` escapes the rest of its line (PGN 6). The grammar accepts it
    // wherever a token may start; the analysis does not need the column.
    escape: _ => token(seq('%', /[^\n]*/)),

    nag: _ => token(/\$\d+/),

    // Stand-alone evaluation and annotation symbols of printed books and
    // Informant style (`±`, `+-`, `=`, `∞`, `N`) and spaced `!`/`?`.
    glyph: _ => token(choice(
      /!!|\?\?|!\?|\?!|[!?‼⁇⁉⁈]/,
      /\+\/?[-=−]|[-=−]\/?\+|=\/?∞|∞\/?=|\/=|=\/|==?|-|∞|±|∓|⩲|⩱|□|⊕|⇆|→|↑|⇈|⊥|⌓|△|Δ|∆|○|◯|⨀|[øØ]|TN/,
    )),

    variation: $ => seq('(', optional($.movetext), ')'),

    // FIDE 18.12: the draw offer is written `(=)`; a sentence-final period
    // after it is part of the book habit, not a new token.
    draw_offer: _ => token(/\(=\)\.?/),

    result: _ => token(choice(
      /1\s?[-–—−]\s?0/,
      /0\s?[-–—−]\s?1/,
      /1\s?[\/∕]\s?2\s?[-–—−]\s?1\s?[\/∕]\s?2/,
      /½\s?[-–—−]\s?½/,
      '*',
    )),

    // `Белые: Крс1, Фf2, Лe1; пп. a3, b2.` `White: Kc1, Qf2; pawns a3, b2`
    position_description: $ => prec.right(seq(
      field('side', $.side),
      $.placement,
      repeat(seq(',', $.placement)),
      optional(seq(
        ';',
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
