// The hover's board as an image: an SVG drawn from the FEN, put in the
// hover's Markdown as a `data:` URI (VS Code renders `data:` images in
// hovers). The server's hover has a text board (```text) and the FEN after
// it; the extension swaps the text board for the image, beside the text:
// VS Code's hover is at most 250 px high in a window of a usual size (a
// quarter of the editor's height, at least 250 px), wider than high, so a
// board under the text would need scrolling. Other editors keep the text.

const FIGURINES: Record<string, string> = {
  K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
  k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟",
};
/** A square of the hover's board, in px: the same for a legal move's board
 * and a wrong move's (the position it was tried in, where the position
 * matters most). A wrong move's hover comes under VS Code's own lines for
 * the diagnostic and its status bar (some 140 px for a message of two
 * lines and two related places), so in a hover 250 px high its board is
 * scrolled to (the wheel, or the hover made taller by dragging its edge,
 * which VS Code keeps): a board of 12 px squares fitted, and was too small
 * to read. */
const SQUARE = 24;

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
export function boardSvg(fen: string, style: "figurines" | "letters" = "figurines", square = SQUARE): string | undefined {
  const board = placement(fen);
  if (board === undefined) {
    return undefined;
  }
  const SQUARE = square;
  // The coordinates stand in the left and bottom margins; a small board
  // has no margin on the other two sides.
  const MARGIN = square >= 20 ? 12 : 9;
  const far = square >= 20 ? MARGIN : 1;
  const width = MARGIN + 8 * SQUARE + far;
  const height = far + 8 * SQUARE + MARGIN;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const x = MARGIN + file * SQUARE;
      const y = far + rank * SQUARE;
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
  const font = MARGIN - 1;
  const label = `font-size="${font}" font-family="sans-serif" fill="#555555" text-anchor="middle"`;
  for (let i = 0; i < 8; i++) {
    parts.push(`<text x="${MARGIN + i * SQUARE + SQUARE / 2}" y="${height - MARGIN / 3}" ${label}>${"abcdefgh"[i]}</text>`);
    parts.push(`<text x="${MARGIN / 2}" y="${far + i * SQUARE + SQUARE / 2 + font * 0.35}" ${label}>${8 - i}</text>`);
  }
  parts.push("</svg>");
  return parts.join("");
}

/** The hover's Markdown with its text board (one that a FEN follows) drawn
 * as an image, laid out beside the text: the board on the left; on the
 * right the text before and after it, the FEN last in a smaller line.
 * `shown`: messages the editor already shows above the hover (the
 * diagnostics under the mouse), left out of it. The Markdown stays
 * Markdown between the table's tags (each part set off by blank lines), so
 * the MarkdownString needs `supportHtml`. */
export function withBoardImages(
  markdown: string,
  style: "figurines" | "letters" = "figurines",
  shown: readonly string[] = [],
): string {
  const found = /```text\n[\s\S]*?\n```\n\nFEN: `([^`]+)`/.exec(markdown);
  if (found === null) {
    return markdown;
  }
  const fen = found[1]!;
  const svg = boardSvg(fen, style, SQUARE);
  if (svg === undefined) {
    return markdown;
  }
  const uri = `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
  const [, width, height] = /width="(\d+)" height="(\d+)"/.exec(svg)!;
  const unescape = (text: string) => text.replace(/\\(.)/g, "$1");
  const paragraphs = [markdown.slice(0, found.index), markdown.slice(found.index + found[0].length)]
    .flatMap((part) => part.split(/\n\n+/))
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .filter((p) => {
      const finding = /^(?:error|warning|info|hint) \([a-z-]+\): ([\s\S]*)$/.exec(p);
      return finding === null || !shown.includes(unescape(finding[1]!));
    });
  // The image straight in its cell (not in a paragraph and its margins),
  // floated (not on the baseline of a line, with room below it).
  return [
    `<table><tr><td><img src="${uri}" alt="Board: ${fen}" width="${width}" height="${height}" align="left"></td><td>`,
    // One paragraph, its parts on lines of their own: no margins between.
    [...paragraphs, `<small>FEN: \`${fen}\`</small>`].join("<br>\n"),
    "</td></tr></table>",
  ].join("\n\n");
}
