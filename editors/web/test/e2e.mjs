// The web page in a real headless Chromium (Debian's, driven by
// playwright-core): typing a game, a finding, a hover board, a quick-fix and
// Fix All, a dropped compressed file, a translation, the settings, a
// download, offline use, and no request outside the page's origin. Then
// the page's findings on every file of ../shared/corpus/realworld* equal
// `chess-ls --check --format json`'s (skipped with a note when the corpus
// or the binary is absent).
//
// Usage: node test/e2e.mjs   (after scripts/build-web; CHESS_LS is the
// chess-ls binary to compare with, default ../../target/debug/chess-ls)

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { openPage, ready, web } from "./browser.mjs";

const repo = resolve(web, "../..");
const results = join(web, "test-results");
mkdirSync(results, { recursive: true });

let failures = 0;
const started = Date.now();
const log = (...args) => console.log(`[web ${((Date.now() - started) / 1000).toFixed(1)}s]`, ...args);
function check(ok, what) {
  if (ok) {
    log(`ok: ${what}`);
  } else {
    failures++;
    log(`FAILED: ${what}`);
  }
}
async function waitFor(what, predicate, timeout = 15_000) {
  const until = Date.now() + timeout;
  for (;;) {
    if (await predicate()) {
      log(`ok: ${what}`);
      return true;
    }
    if (Date.now() > until) {
      throw new Error(`timed out waiting until ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const { origin, context, page, close } = await openPage();
// Every request of the page, its worker and its service worker.
const elsewhere = [];
context.on("request", (request) => {
  const url = request.url();
  if (!url.startsWith(origin) && !url.startsWith("blob:") && !url.startsWith("data:")) {
    elsewhere.push(url);
  }
});
page.on("pageerror", (e) => log(`page error: ${e.message}`));
page.on("console", (m) => m.type() === "error" && log(`console: ${m.text()}`));
let step = "load";

/** The editor's text. */
const text = () => page.evaluate(() => window.chessLs.view.state.doc.toString());
/** Where a piece of text (the nth) is drawn in the editor. */
async function coords(needle, nth = 0) {
  return page.evaluate(([needle, nth]) => {
    const view = window.chessLs.view;
    const doc = view.state.doc.toString();
    let at = -1;
    for (let i = 0; i <= nth; i++) {
      at = doc.indexOf(needle, at + 1);
    }
    const c = view.coordsAtPos(at + 1);
    return c === null ? null : { x: (c.left + c.right) / 2 + 2, y: (c.top + c.bottom) / 2 };
  }, [needle, nth]);
}
async function setText(value) {
  await page.evaluate((value) => {
    const view = window.chessLs.view;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
  }, value);
}
const codes = () => page.evaluate(() => window.chessLs.findings().map((f) => f.code));

try {
  await page.goto(origin + "/");
  await ready(page);
  log("the page is ready");

  step = "typing";
  // A Russian game typed key by key; 4. Кf5 is illegal (no knight reaches f5).
  await page.click(".cm-content");
  await page.keyboard.type("1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. Кf5 Кf6 *", { delay: 5 });
  const typed = Date.now();
  await waitFor("the illegal move is underlined", async () => (await page.locator(".cm-lintRange-error").count()) > 0, 10_000);
  log(`keystroke to squiggle: ${Date.now() - typed} ms`);
  check((await codes()).includes("illegal-move"), "the finding is illegal-move");
  const row = page.locator("#findings .finding.error").first();
  check((await row.innerText()).includes("1:35") && (await row.innerText()).includes("illegal-move"), `the list gives its place and code: ${await row.innerText()}`);
  await page.screenshot({ path: join(results, "01-typed.png") });

  step = "hover";
  const wrong = await coords("Кf5");
  await page.mouse.move(wrong.x, wrong.y);
  const hover = page.locator(".cm-tooltip-hover .hover.wrong");
  await hover.waitFor({ timeout: 10_000 });
  check((await hover.locator(".sq").count()) === 64, "the hover shows a board of 64 squares");
  check((await hover.locator(".title").innerText()).includes("Кf5 as written"), "titled with the move as written");
  check((await hover.locator(".fen").innerText()).startsWith("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/"), "the position it was tried in");
  await page.screenshot({ path: join(results, "02-hover.png") });
  await page.mouse.move(5, 5);

  step = "board";
  const bishop = await coords("Сc4");
  await page.mouse.click(bishop.x, bishop.y);
  await waitFor("the board beside the editor follows the cursor to 3. Сc4", async () =>
    (await page.locator("#board-caption").innerText()).includes("3. Сc4"));
  check((await page.locator('#board .sq[data-square="c4"]').getAttribute("data-piece")) === "B", "a white bishop stands on c4");
  check((await page.locator("#board .sq.moved").count()) === 2, "the move's squares are marked");
  check((await page.locator("#board-language").innerText()).includes("Russian"), "the notation language is named");

  step = "completion";
  // The legal moves in the game's language, offered as a move is typed.
  await setText("1. e4 e5 2. Кf3 Кc6 3. ");
  await page.evaluate(() => {
    const view = window.chessLs.view;
    view.dispatch({ selection: { anchor: view.state.doc.length } });
    view.focus();
  });
  await page.keyboard.type("С");
  const options = page.locator(".cm-tooltip-autocomplete li");
  await options.first().waitFor({ timeout: 10_000 });
  const offered = await options.allInnerTexts();
  check(offered.some((o) => o.startsWith("Сc4")) && offered.some((o) => o.startsWith("Сb5")), `the bishop's moves are offered in Russian: ${offered.join(", ").replace(/\n/g, " ")}`);
  await page.keyboard.type("c4");
  await page.keyboard.press("Enter");
  await waitFor("the move chosen is written", async () => (await text()).startsWith("1. e4 e5 2. Кf3 Кc6 3. Сc4"));

  step = "quick-fix";
  // A check mark on a move that gives no check: the lint tooltip's fix.
  await setText("1. e4 e5 2. Nf3+ Nc6 3. Bb5 a6 *\n");
  await waitFor("the wrong check mark is found", async () => (await codes()).includes("check-mark"));
  const plus = await coords("3+");
  await page.mouse.move(plus.x, plus.y);
  const action = page.locator(".cm-tooltip-lint .cm-diagnosticAction").first();
  await action.waitFor({ timeout: 10_000 });
  log(`quick-fix offered: ${await action.innerText()}`);
  await action.click();
  await waitFor("the quick-fix removes the check mark", async () => (await text()) === "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n");
  await waitFor("and its finding goes", async () => !(await codes()).includes("check-mark"));

  step = "fix-all";
  await setText("1. e4 e5 2. Nf3+ Nc6 3. Bb5+ a6 *\n");
  await waitFor("two wrong check marks are found", async () => (await codes()).filter((c) => c === "check-mark").length === 2);
  await page.click("#fix-all");
  await waitFor("Fix All removes both", async () => (await text()) === "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n");

  step = "translate";
  await setText("1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 *\n");
  await page.selectOption("#translate-to", "de");
  await page.click("#translate");
  await waitFor("the game is translated into German", async () => (await text()) === "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 *\n");

  step = "download";
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download")]);
  const saved = readFileSync(await download.path(), "utf8");
  check(saved === "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 *\n", `the download is the text as it is now (${download.suggestedFilename()})`);

  step = "drop";
  // A gzip-compressed PGN dropped on the page opens as a document of its own.
  const gz = gzipSync(Buffer.from('[Event "Drop"]\n\n1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. Nf5 *\n'));
  await page.evaluate(async (bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], "round5.pgn.gz"));
    document.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [...gz]);
  await waitFor("the dropped file is opened", async () => (await page.locator("#files button.current").innerText()) === "round5.pgn.gz");
  await waitFor("and its illegal move found", async () => (await codes()).includes("illegal-move"));
  check((await page.locator("#kind").innerText()).includes("gzip"), "it is said to be read through gzip");
  await page.screenshot({ path: join(results, "03-dropped.png") });

  step = "settings";
  await page.fill("#ignore", "illegal-move");
  await page.dispatchEvent("#ignore", "change");
  await waitFor("a code ignored in the settings is no longer reported", async () => !(await codes()).includes("illegal-move"));
  check((await page.inputValue("#settings-toml")).includes('ignore = ["illegal-move"]'), "the controls write a chess-ls.toml");
  await page.click(".settings summary");
  await page.fill("#settings-toml", "ignore = [\"no-such-code\"]\n");
  await waitFor("a wrong chess-ls.toml is said to be wrong", async () =>
    (await page.locator("#settings-status.error").count()) > 0 && (await page.locator("#settings-status").innerText()).includes("no-such-code"));
  await page.fill("#ignore", "");
  await page.dispatchEvent("#ignore", "change");
  await waitFor("the finding is back", async () => (await codes()).includes("illegal-move"));

  step = "offline";
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready, null, { timeout: 10_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await ready(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 10_000 });
  await context.setOffline(true);
  await page.reload();
  await ready(page);
  await page.click(".cm-content");
  await page.keyboard.type("1. e4 e5 2. Ke3 *", { delay: 5 });
  await waitFor("offline, the page still checks", async () => (await codes()).includes("illegal-move"));
  await context.setOffline(false);

  step = "origin";
  check(elsewhere.length === 0, `no request outside ${origin}${elsewhere.length ? `: ${elsewhere.join(", ")}` : ""}`);

  step = "realworld";
  await realworld();
} catch (error) {
  failures++;
  log(`FAILED at ${step}: ${error.message}`);
  await page.screenshot({ path: join(results, "failure.png") }).catch(() => {});
} finally {
  await close();
}
log(failures === 0 ? "all passed" : `${failures} failed`);
process.exit(failures === 0 ? 0 : 1);

/** The page's findings on every real text of the shared corpus equal the command line's. */
async function realworld() {
  const shared = resolve(repo, "../shared/corpus");
  const binary = process.env.CHESS_LS ?? join(repo, "target/debug/chess-ls");
  const folders = ["realworld", "realworld2"].map((f) => join(shared, f)).filter(existsSync);
  if (folders.length === 0 || !existsSync(binary)) {
    log(`note: skipped the comparison with --check (${folders.length === 0 ? `no ${shared}` : `no ${binary}`})`);
    return;
  }
  let files = 0;
  let findings = 0;
  for (const folder of folders) {
    for (const name of readdirSync(folder).sort()) {
      if (!/\.(pgn|txt|md|tex|html|typ)$/.test(name) || /^(README|TRUTH)/.test(name)) {
        continue;
      }
      const path = join(folder, name);
      const expected = cliFindings(binary, path);
      const actual = await page.evaluate(async ([name, bytes]) => {
        const engine = window.chessLs.engine;
        const read = await engine.call("readFile", name, new Uint8Array(bytes));
        if (read.error !== undefined) {
          return { error: read.error };
        }
        const out = [];
        for (const doc of read.documents) {
          const key = `realworld:${doc.name}`;
          await engine.call("open", key, doc.kind, doc.text);
          const found = await engine.call("diagnostics", key);
          await engine.call("close", key);
          for (const d of found.diagnostics) {
            out.push([d.line, d.column, d.endLine, d.endColumn, d.severity, d.code, d.message].join("|"));
          }
        }
        return { findings: out };
      }, [name, [...readFileSync(path)]]);
      if (actual.error !== undefined) {
        check(false, `${name}: the page could not read it: ${actual.error}`);
        continue;
      }
      const same = JSON.stringify([...actual.findings].sort()) === JSON.stringify([...expected].sort());
      if (!same) {
        const missing = expected.filter((e) => !actual.findings.includes(e));
        const extra = actual.findings.filter((a) => !expected.includes(a));
        check(false, `${basename(folder)}/${name}: the page's findings differ from --check's (missing ${JSON.stringify(missing.slice(0, 3))}, extra ${JSON.stringify(extra.slice(0, 3))})`);
      }
      files++;
      findings += expected.length;
    }
  }
  check(files > 0, `the page's findings equal --check's on ${files} real texts (${findings} findings)`);
}

function cliFindings(binary, path) {
  let out;
  try {
    out = execFileSync(binary, ["--check", "--format", "json", path], { encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "ignore"] });
  } catch (error) {
    out = error.stdout ?? ""; // exit status 1: findings
  }
  return out.split("\n").filter((l) => l !== "").map((l) => {
    const d = JSON.parse(l);
    return [d.line, d.column, d.end_line, d.end_column, d.severity, d.code, d.message].join("|");
  });
}
