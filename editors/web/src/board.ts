// A board drawn from a FEN: 64 squares of HTML with the figurines as text
// (no image, no font fetched), the squares of a move marked.

const FIGURINES: Record<string, string> = {
  K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
  k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟",
};

const NAMES: Record<string, string> = {
  k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn",
};

/** The pieces of a FEN's first field, by square (`e4` -> `P`). */
export function placement(fen: string): Map<string, string> {
  const pieces = new Map<string, string>();
  const rows = (fen.split(" ")[0] ?? "").split("/");
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const c of row) {
      if (c >= "1" && c <= "8") {
        file += Number(c);
      } else {
        pieces.set(`${"abcdefgh"[file]}${rank}`, c);
        file += 1;
      }
    }
  });
  return pieces;
}

/** A board element: `marked` are squares to highlight (a move's two). */
export function drawBoard(fen: string, marked: string[] = [], flipped = false, size = "board"): HTMLElement {
  const pieces = placement(fen);
  const board = document.createElement("div");
  board.className = size;
  board.setAttribute("role", "img");
  const files = flipped ? [..."hgfedcba"] : [..."abcdefgh"];
  const ranks = flipped ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
  const described: string[] = [];
  for (const rank of ranks) {
    for (const file of files) {
      const square = `${file}${rank}`;
      const cell = document.createElement("div");
      const dark = ("abcdefgh".indexOf(file) + rank) % 2 === 1;
      cell.className = `sq ${dark ? "dark" : "light"}${marked.includes(square) ? " moved" : ""}`;
      cell.dataset.square = square;
      const piece = pieces.get(square);
      if (piece !== undefined) {
        cell.dataset.piece = piece;
        cell.textContent = FIGURINES[piece] ?? "?";
        const white = piece === piece.toUpperCase();
        described.push(`${white ? "white" : "black"} ${NAMES[piece.toLowerCase()] ?? piece} ${square}`);
      }
      board.append(cell);
    }
  }
  board.setAttribute("aria-label", `Board: ${described.join(", ")}`);
  return board;
}
