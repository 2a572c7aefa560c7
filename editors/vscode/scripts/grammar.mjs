// Writes syntaxes/pgn.tmLanguage.json, the TextMate grammar that colours a
// .pgn file before the server answers (its semantic tokens refine it). The
// letters are those of notation.md §3 and §4; keep them in step with
// grammar/grammar.js. `--check` fails when the JSON is not what this writes.
//
//   node scripts/grammar.mjs          write the grammar
//   node scripts/grammar.mjs --check  exit 1 when it is stale
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const r = String.raw;
/** Not inside a word (a move never continues a word). */
const NB = r`(?<![\p{L}\p{N}_])`;
/** King, queen, rook, bishop, knight and pawn letters of every language, Cyrillic Кр (and its Latin look-alikes), figurines. */
const PIECE = r`(?:[KК][рp]|[KQRBNDTLSPFCAVJHWGКФЛСТп]|[♔-♟]\x{FE0E}?)`;
const PROMO = r`(?:[QRBNDTLSFCAVJHWGФЛСКТ]|[♕♖♗♘♛♜♝♞]\x{FE0E}?)`;
/** Files and ranks, with the look-alikes of §4: Cyrillic а с е, `l` for 1, `З` for 3. */
const FILE = r`[a-hаес]`;
const RANK = r`[1-8lЗ]`;
const SIDES = "Белые|Чёрные|Черные|Білі|Чорні|White|Black|Weiß|Weiss|Schwarz|Blancs|Noirs|Blancas|Negras";
const PAWNS = r`пп\.|п\.|пішаки|пешки|[Pp]awns|Bauern|pions|peones`;

const move =
  NB +
  `(${PIECE})?` + // 1 piece
  `(${FILE}?${RANK}?)` + // 2 origin (disambiguation, or the from-square of long algebraic)
  r`(?:([-–—])|([xXхХ:×]))?` + // 3 dash, 4 capture sign (Latin x, Cyrillic х, colon)
  `(${PIECE})?` + // 5 the captured piece, named (Sd7xSe5)
  `(${FILE}${RANK})` + // 6 destination
  `(?:(=)?(${PROMO}))?` + // 7 promotion sign, 8 the new piece
  r`(\s?(?:e\.p\.|е\.р\.))?` + // 9 en passant
  r`(\+\+|[+#‡†])?` + // 10 check or mate
  r`(?![\p{L}\p{N}])`;

const grammar = {
  $schema: "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
  name: "PGN (chess notation in every language)",
  scopeName: "source.pgn",
  fileTypes: ["pgn"],
  patterns: [{ include: "#tag" }, { include: "#movetext" }],
  repository: {
    tag: {
      comment: '[Name "value"]',
      name: "meta.tag.pgn",
      match: r`(\[)\s*([A-Za-z0-9_]+)\s*(")((?:[^"\\]|\\.)*)(")\s*(\])`,
      captures: {
        1: { name: "punctuation.definition.tag.begin.pgn" },
        2: { name: "entity.name.tag.pgn" },
        3: { name: "string.quoted.double.pgn punctuation.definition.string.begin.pgn" },
        4: { name: "string.quoted.double.pgn", patterns: [{ match: r`\\.`, name: "constant.character.escape.pgn" }] },
        5: { name: "string.quoted.double.pgn punctuation.definition.string.end.pgn" },
        6: { name: "punctuation.definition.tag.end.pgn" },
      },
    },
    movetext: {
      patterns: [
        { include: "#comment" },
        { include: "#escape" },
        { include: "#draw-offer" },
        { include: "#variation" },
        { include: "#result" },
        { include: "#castling" },
        { include: "#null-move" },
        { include: "#move-number" },
        { include: "#position-description" },
        { include: "#move" },
        { include: "#nag" },
        { include: "#glyph" },
        { include: "#evaluation" },
      ],
    },
    comment: {
      patterns: [
        {
          name: "comment.block.pgn",
          begin: r`\{`,
          end: r`\}`,
          beginCaptures: { 0: { name: "punctuation.definition.comment.begin.pgn" } },
          endCaptures: { 0: { name: "punctuation.definition.comment.end.pgn" } },
          patterns: [{ include: "#embedded-command" }],
        },
        { name: "comment.line.semicolon.pgn", match: ";.*$" },
      ],
    },
    "embedded-command": {
      comment: "[%clk 1:02:03], [%eval +0.25], [%csl Ge4] inside comments",
      name: "meta.command.pgn",
      match: r`(\[)(%[A-Za-z_]+)([^\]]*)(\])`,
      captures: {
        1: { name: "punctuation.definition.command.begin.pgn" },
        2: { name: "keyword.other.command.pgn" },
        3: { name: "string.unquoted.command-argument.pgn" },
        4: { name: "punctuation.definition.command.end.pgn" },
      },
    },
    escape: { comment: "a line starting with % is ignored (PGN 6)", name: "comment.line.percentage.pgn", match: "^%.*$" },
    "draw-offer": { comment: "(=), the draw-offer mark (FIDE 8.1.5)", name: "keyword.control.draw-offer.pgn", match: r`\(=\)` },
    variation: {
      name: "meta.variation.pgn",
      begin: r`\(`,
      end: r`\)`,
      beginCaptures: { 0: { name: "punctuation.section.variation.begin.pgn" } },
      endCaptures: { 0: { name: "punctuation.section.variation.end.pgn" } },
      patterns: [{ include: "#movetext" }],
    },
    result: {
      name: "keyword.control.result.pgn",
      match: r`(?<![\p{L}\p{N}/.])(?:1[-–]0|0[-–]1|1/2[-–]1/2|½[-–]½|\*)(?![\p{N}])`,
    },
    castling: {
      comment: "O-O and 0-0 (FIDE writes zeros), any dash, Cyrillic О",
      match: r`(?<![\p{L}\p{N}])([0OО](?:[-–—][0OО]){1,2})(\+\+|[+#‡†])?(?![\p{L}\p{N}\-–—])`,
      captures: { 1: { name: "keyword.control.castling.pgn" }, 2: { name: "keyword.operator.check.pgn" } },
    },
    "null-move": { name: "keyword.control.null-move.pgn", match: r`(?<![\p{L}\p{N}\-])(?:--|Z0)(?![\p{L}\p{N}\-])` },
    "move-number": {
      patterns: [
        { name: "constant.numeric.move-number.pgn", match: r`(?<![\p{L}\p{N}.])\d+\s*(?:\.\s*\.\s*\.|…|\.|\))` },
        { comment: "a number without its dot (old texts)", name: "constant.numeric.move-number.pgn", match: r`(?<![\p{L}\p{N}.])\d+(?=\s)` },
      ],
    },
    "position-description": {
      comment: "Белые: Крс1, Фf2, Лe1; пп. a3, b2. (notation.md 1): here `;` is not a line comment",
      name: "meta.position-description.pgn",
      begin: r`(?<![\p{L}])(${SIDES})\s*(:)`,
      beginCaptures: { 1: { name: "entity.name.label.pgn" }, 2: { name: "punctuation.separator.label.pgn" } },
      end: r`(?=$|[{(\[])`,
      patterns: [
        { name: "entity.name.label.pgn", match: r`(?<![\p{L}])(?:${PAWNS})(?![\p{L}])` },
        { name: "punctuation.separator.pawns.pgn", match: ";" },
        { include: "#move" },
      ],
    },
    move: {
      comment: "piece, origin, capture or dash, destination, promotion, en passant, check, in the letters of every language",
      name: "meta.move.pgn",
      match: move,
      captures: {
        1: { name: "entity.name.type.piece.pgn" },
        2: { name: "variable.other.square.origin.pgn" },
        3: { name: "keyword.operator.dash.pgn" },
        4: { name: "keyword.operator.capture.pgn" },
        5: { name: "entity.name.type.piece.captured.pgn" },
        6: { name: "variable.other.square.pgn" },
        7: { name: "keyword.operator.promotion.pgn" },
        8: { name: "entity.name.type.piece.promotion.pgn" },
        9: { name: "support.constant.annotation.en-passant.pgn" },
        10: { name: "keyword.operator.check.pgn" },
      },
    },
    nag: { name: "support.constant.annotation.nag.pgn", match: r`\$\d+` },
    glyph: { name: "support.constant.annotation.glyph.pgn", match: r`!!|\?\?|!\?|\?!|!|\?|‼|⁇|⁉|⁈` },
    evaluation: {
      comment: "evaluation symbols written as text (±, +-, ∞, ...)",
      name: "support.constant.annotation.evaluation.pgn",
      match: r`(?<=^|\s)(?:\+-|-\+|\+/-|-/\+|\+=|=\+|=|±|∓|⩲|⩱|∞|=∞|□|⊕|⇆|↑|→|△)(?=\s|$)`,
    },
  },
};

const file = join(dirname(fileURLToPath(import.meta.url)), "..", "syntaxes", "pgn.tmLanguage.json");
const text = JSON.stringify(grammar, null, 2) + "\n";
if (process.argv.includes("--check")) {
  if (readFileSync(file, "utf8") !== text) {
    console.error("syntaxes/pgn.tmLanguage.json is stale: run `node scripts/grammar.mjs`");
    process.exit(1);
  }
} else {
  writeFileSync(file, text);
}
