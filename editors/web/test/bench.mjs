// The web page on a 10 MB file, in headless Chromium: how long the file
// takes to open (to its findings), and, typed in it, each key's time to the
// screen and a wrong move's time to its squiggle. Figures for BENCHMARKS.md,
// not a test.
//
// Usage: node test/bench.mjs [MiB=10] [trials=7]   (after scripts/build-web)

import { openPage, ready } from "./browser.mjs";

const mib = Number(process.argv[2] ?? 10);
const trials = Number(process.argv[3] ?? 7);

// A legal game (Morphy's Opera game) under tags that differ game by game.
const MOVES =
  "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7\n" +
  "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7\n" +
  "14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n";
const games = [];
let size = 0;
for (let i = 0; size < mib * 1024 * 1024; i++) {
  const game = `[Event "Bench ${i}"]\n[Site "Paris"]\n[Date "1858.??.??"]\n[Round "${i}"]\n[White "Morphy"]\n[Black "Duke and Count"]\n[Result "1-0"]\n\n${MOVES}\n`;
  games.push(game);
  size += Buffer.byteLength(game);
}
// The last game's last move illegal: one finding, so that the open is
// timed to its findings shown.
games[games.length - 1] = games[games.length - 1].replace("Rd8#", "Kh5");
const text = games.join("");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const { origin, page, close } = await openPage();
try {
  await page.goto(origin + "/");
  await ready(page);
  // Open: from the text handed to the page to its findings shown.
  const opened = await page.evaluate(async (text) => {
    const t0 = performance.now();
    await window.chessLs.open("big.pgn", text);
    for (let waited = 0; window.chessLs.findings().length === 0; waited += 5) {
      if (waited > 60_000) {
        throw new Error("no findings a minute after the open");
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    return performance.now() - t0;
  }, text);
  console.log(`${(size / 1024 / 1024).toFixed(1)} MiB, ${games.length} games: open -> findings shown ${opened.toFixed(0)} ms`);

  // In the middle of the file: `Rd8#` of a game replaced by typing `Kh5`
  // (illegal), timed in the page from the first key to the squiggle under
  // the word, and each key to the frame that draws it; undone in between.
  const middle = Math.floor(games.length / 2);
  const at = text.indexOf("Rd8#", games.slice(0, middle).reduce((n, g) => n + g.length, 0));
  const squiggles = [];
  const keys = [];
  for (let trial = 0; trial < trials; trial++) {
    await page.evaluate((at) => {
      const view = window.chessLs.view;
      view.dispatch({ selection: { anchor: at, head: at + 4 }, scrollIntoView: true });
      view.focus();
      const state = (window.benchState = { first: 0, squiggle: 0, keys: [] });
      const onKey = () => {
        const down = performance.now();
        state.first ||= down;
        requestAnimationFrame(() => requestAnimationFrame(() => state.keys.push(performance.now() - down)));
      };
      window.addEventListener("keydown", onKey, { capture: true });
      const look = () => {
        const marks = [...document.querySelectorAll(".cm-lintRange-error")];
        if (state.first && marks.some((m) => m.textContent === "Kh5" && m.getBoundingClientRect().height > 0)) {
          state.squiggle = performance.now() - state.first;
          window.removeEventListener("keydown", onKey, { capture: true });
          return;
        }
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    }, at);
    await new Promise((r) => setTimeout(r, 300));
    await page.keyboard.type("Kh5", { delay: 30 });
    await page.waitForFunction(() => window.benchState.squiggle > 0, null, { timeout: 30_000 });
    const state = await page.evaluate(() => window.benchState);
    squiggles.push(state.squiggle);
    keys.push(...state.keys);
    // Undone: the three keys are one step of the history.
    while ((await page.evaluate((at) => window.chessLs.view.state.sliceDoc(at, at + 4), at)) !== "Rd8#") {
      await page.keyboard.press("Control+z");
    }
    await page.waitForFunction(() => document.querySelectorAll(".cm-lintRange-error").length === 0, null, { timeout: 30_000 });
  }
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(" / ");
  console.log(`keystroke -> squiggle (${trials} trials, ms): ${list([...squiggles].sort((a, b) => a - b))}, median ${median(squiggles).toFixed(0)}`);
  console.log(`key -> drawn (${keys.length} keys, ms): median ${median(keys).toFixed(1)}, max ${Math.max(...keys).toFixed(1)}`);
} finally {
  await close();
}
