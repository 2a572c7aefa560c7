// Stepping through the moves (the Board view's previous/next buttons and
// keys): where a move can start near the cursor, found without VS Code.
// The extension asks the server (`chess-ls/positionAt`) at these places in
// turn, and moves the cursor to the first that is another move: the moves
// in the order they are written, a variation's where it stands.

/** How much text either side of the cursor is searched for words. */
export const WINDOW = 20_000;

/**
 * The offsets in `text` where a word starts (after whitespace or at the
 * start), outside `{...}` and `;` comments, from `from` on (`direction`
 * 1, after it) or back from it (-1, before it, nearest first). `text`
 * starts at `base`'s offset in the document (a window of it); offsets are
 * the document's.
 */
export function wordStarts(text: string, base: number, from: number, direction: 1 | -1): number[] {
  const starts: number[] = [];
  let inBrace = false;
  let inLine = false;
  let previousSpace = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inBrace) {
      if (c === "}") {
        inBrace = false;
        previousSpace = false;
      }
      continue;
    }
    if (inLine) {
      if (c === "\n") {
        inLine = false;
        previousSpace = true;
      }
      continue;
    }
    if (c === "{") {
      inBrace = true;
      continue;
    }
    if (c === ";") {
      inLine = true;
      continue;
    }
    const space = /\s/.test(c);
    if (!space && previousSpace) {
      starts.push(base + i);
    }
    previousSpace = space;
  }
  return direction === 1 ? starts.filter((o) => o > from) : starts.filter((o) => o < from).reverse();
}
