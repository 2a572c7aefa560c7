// The server's own request, `chess-ls/positionAt` (server/src/lsp/handlers/position.rs).

import type { Range, TextDocumentPositionParams } from "vscode-languageclient/node";

export const POSITION_AT = "chess-ls/positionAt";

export type PositionAtParams = TextDocumentPositionParams;

export interface MoveInfo {
  /** `7.` or `7...`. */
  number: string;
  /** The move in the game's language (`Кbd2`). */
  san: string;
  /** The move in English SAN (`Nbd2`). */
  english: string;
  /** UCI, castling as the king's move (`e1g1`). */
  uci: string;
  range: Range;
  /** As written the move is illegal or ambiguous: this is the reading the check went on with. */
  guessed: boolean;
}

export interface PositionInfo {
  language: string;
  languageName: string;
  languageSource: "chosen" | "letters" | "replay" | "undecided";
  fen: string | null;
  board: string | null;
  status: string | null;
  move: MoveInfo | null;
  /** On a move wrong as written: the position it was tried in, its
   * findings and the guess (`fen` and `move` above are the guess's). */
  tried?: TriedInfo;
}

export interface TriedInfo {
  /** The move as written (`Кd2`). */
  written: string;
  fen: string;
  board: string;
  status: string;
  /** The messages of the errors on it. */
  findings: string[];
  /** The reading the check went on with (`Кbd2`), if it went on. */
  guess: string | null;
}
