// The hover's board as an image: an SVG drawn from the FEN, put in the
// hover's Markdown as a `data:` URI (VS Code renders `data:` images in
// hovers). The server's hover has a text board (```text) and the FEN after
// it; the extension swaps the text board for the image. Other editors keep
// the text.

const FIGURINES: Record<string, string> = {
  K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
  k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟",
};
const SQUARE = 24;
const MARGIN = 12;

/** The pieces of a FEN's placement, `board[rank][file]` from a8 (null: empty). */
export function placement(fen: string): (string | null)[][] | undefined {
  const rows = fen.trim().split(/\s+/)[0]?.split("/");
  if (rows === undefined || rows.length !== 8) {
    return undefined;
  }
  const board: (string | null)[][] = [];
  for (const row of rows) {
    const squares: (string | null)[] = [];
    for (const c of row) {
      if (/[1-8]/.test(c)) {
        squares.push(...Array<null>(Number(c)).fill(null));
      } else if (c in FIGURINES) {
        squares.push(c);
      } else {
        return undefined;
      }
    }
    if (squares.length !== 8) {
      return undefined;
    }
    board.push(squares);
  }
  return board;
}

/** An SVG of the position (`letters`: FEN letters instead of figurines). */
export function boardSvg(fen: string, style: "figurines" | "letters" = "figurines"): string | undefined {
  const board = placement(fen);
  if (board === undefined) {
    return undefined;
  }
  const size = 8 * SQUARE + 2 * MARGIN;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">`,
    `<rect width="${size}" height="${size}" fill="#ffffff"/>`,
  ];
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const x = MARGIN + file * SQUARE;
      const y = MARGIN + rank * SQUARE;
      const dark = (rank + file) % 2 === 1;
      parts.push(`<rect class="sq" x="${x}" y="${y}" width="${SQUARE}" height="${SQUARE}" fill="${dark ? "#b58863" : "#f0d9b5"}"/>`);
      const piece = board[rank]![file];
      if (piece != null) {
        const glyph = style === "letters" ? piece : FIGURINES[piece]!;
        const white = piece === piece.toUpperCase();
        const paint = style === "letters"
          ? `fill="${white ? "#ffffff" : "#000000"}" stroke="${white ? "#000000" : "#ffffff"}" stroke-width="0.8"`
          : `fill="#000000"`;
        parts.push(
          `<text class="piece" x="${x + SQUARE / 2}" y="${y + SQUARE * 0.8}" font-size="${SQUARE * 0.82}" text-anchor="middle" font-family="DejaVu Sans, Segoe UI Symbol, Noto Sans Symbols2, sans-serif" ${paint}>${glyph}</text>`,
        );
      }
    }
  }
  const label = `font-size="11" font-family="sans-serif" fill="#555555" text-anchor="middle"`;
  for (let i = 0; i < 8; i++) {
    parts.push(`<text x="${MARGIN + i * SQUARE + SQUARE / 2}" y="${size - 4}" ${label}>${"abcdefgh"[i]}</text>`);
    parts.push(`<text x="${MARGIN / 2}" y="${MARGIN + i * SQUARE + SQUARE / 2 + 4}" ${label}>${8 - i}</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/** The hover's Markdown with each text board that a FEN follows drawn as an image. */
export function withBoardImages(markdown: string, style: "figurines" | "letters" = "figurines"): string {
  return markdown.replace(/```text\n[\s\S]*?\n```\n\nFEN: `([^`]+)`/g, (all, fen: string) => {
    const svg = boardSvg(fen, style);
    if (svg === undefined) {
      return all;
    }
    const uri = `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
    return `![Board: ${fen}](${uri})\n\nFEN: \`${fen}\``;
  });
}
