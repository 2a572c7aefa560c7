// Unit tests of what the extension decides without VS Code: where the
// server is. (The language list of package.json and src/languages.ts are
// generated from the server's languages: tests/tests/it/sourcegen.rs.)

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { checkArgs } from "../../src/checkArgs";
import { type ServerSearch, findServer } from "../../src/serverPath";
import { wordStarts } from "../../src/step";

function search(files: string[], overrides: Partial<ServerSearch> = {}): ServerSearch {
  return {
    configured: "",
    extensionPath: "/ext",
    workspaceFolder: "/ws",
    envPath: "/usr/local/bin:/home/me/.cargo/bin",
    home: "/home/me",
    platform: "linux",
    isExecutable: (file) => files.includes(file),
    ...overrides,
  };
}

test("the setting wins, relative to the workspace or the home folder", () => {
  const all = ["/ext/server/chess-ls", "/ws/bin/chess-ls", "/home/me/bin/chess-ls", "/usr/local/bin/chess-ls"];
  assert.deepEqual(findServer(search(all, { configured: "bin/chess-ls" })), {
    kind: "found",
    path: "/ws/bin/chess-ls",
    source: "setting",
  });
  assert.deepEqual(findServer(search(all, { configured: "~/bin/chess-ls" })), {
    kind: "found",
    path: "/home/me/bin/chess-ls",
    source: "setting",
  });
});

test("a setting that points nowhere is an error that names the setting, not a silent fallback", () => {
  const found = findServer(search(["/ext/server/chess-ls"], { configured: "/opt/chess-ls" }));
  assert.equal(found.kind, "missing");
  assert.ok(found.kind === "missing" && found.message.includes('"chess-ls.server.path"'));
  assert.ok(found.kind === "missing" && found.message.includes("/opt/chess-ls"));
});

test("then the bundled binary, then PATH", () => {
  assert.deepEqual(findServer(search(["/ext/server/chess-ls", "/usr/local/bin/chess-ls"])), {
    kind: "found",
    path: "/ext/server/chess-ls",
    source: "bundled",
  });
  assert.deepEqual(findServer(search(["/home/me/.cargo/bin/chess-ls"])), {
    kind: "found",
    path: "/home/me/.cargo/bin/chess-ls",
    source: "PATH",
  });
  // Windows: `;` between PATH entries and the `.exe` name.
  assert.deepEqual(findServer(search(["/b/chess-ls.exe"], { platform: "win32", envPath: "/a;/b" })), {
    kind: "found",
    path: "/b/chess-ls.exe",
    source: "PATH",
  });
});

test("nothing found: the message says how to fix it", () => {
  const found = findServer(search([]));
  assert.equal(found.kind, "missing");
  const message = found.kind === "missing" ? found.message : "";
  assert.match(message, /cargo install --path server/);
  assert.match(message, /chess-ls\.server\.path/);
  assert.match(message, /Restart server/);
});

test("the hover's text board becomes an SVG image drawn from the FEN", async () => {
  const { boardSvg, withBoardImages } = await import("../../src/boardSvg");
  const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const svg = boardSvg(start)!;
  assert.equal((svg.match(/class="sq"/g) ?? []).length, 64);
  assert.equal((svg.match(/class="piece"/g) ?? []).length, 32);
  assert.ok(svg.includes("♔") && svg.includes("♟"));
  assert.equal(boardSvg("8/8/8 w - - 0 1"), undefined);
  const hover = "**2. Кf3** (Nf3)\n\n```text\n8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n   a b c d e f g h\n```\n\nFEN: `" + start + "`";
  const out = withBoardImages(hover);
  assert.ok(!out.includes("```text"), out);
  // The board beside the text, the FEN last in a smaller line.
  assert.ok(out.startsWith('<table><tr><td><img src="data:image/svg+xml;base64,'), out);
  assert.ok(out.indexOf("**2. Кf3** (Nf3)") > out.indexOf("</td><td>"), out);
  assert.ok(out.endsWith("<br>\n<small>FEN: `" + start + "`</small>\n\n</td></tr></table>"), out);
  // A wrong move's hover: a board as large as a legal move's (the position
  // it was tried in matters most); the finding the editor shows above the
  // hover is left out, the guess kept, one FEN.
  const tried =
    "**Кd2** as written\n\nerror (ambiguous-move): Kd2 is ambiguous: read as \\*Kbd2\n\n" +
    "The position it was tried in · White to move\n\n```text\nx\n```\n\nFEN: `" + start + "`\n\n*A guess:* **Кbd2**";
  const drawnTried = withBoardImages(tried, "figurines", ["Kd2 is ambiguous: read as *Kbd2"]);
  assert.ok(!drawnTried.includes("ambiguous-move"), drawnTried);
  assert.ok(drawnTried.includes("The position it was tried in") && drawnTried.includes("*A guess:* **Кbd2**"), drawnTried);
  const width = (md: string) => {
    const b64 = /base64,([^"]+)"/.exec(md)![1]!;
    return Number(/width="(\d+)"/.exec(Buffer.from(b64, "base64").toString("utf8"))![1]);
  };
  assert.equal(width(drawnTried), width(out));
  assert.equal((drawnTried.match(/FEN: /g) ?? []).length, 1, "one FEN");
  assert.ok(withBoardImages(tried).includes("error (ambiguous-move)"), "kept when the editor does not show it");
  // A text board with no FEN after it stays as it is.
  assert.equal(withBoardImages("```text\nx\n```"), "```text\nx\n```");
});

test("the Marketplace page: settings titled chess-ls, a README for users with its screenshot shipped", () => {
  const root = path.join(__dirname, "..");
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    icon?: string;
    contributes: { configuration: { title: string } | { title: string }[] };
  };
  const configuration = [pkg.contributes.configuration].flat();
  assert.ok(configuration.every((c) => c.title === "chess-ls"), JSON.stringify(configuration.map((c) => c.title)));
  assert.ok(pkg.icon !== undefined && fs.existsSync(path.join(root, pkg.icon)), `the icon ${pkg.icon} exists`);
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  // Written for the people who install it: no paths of this repository,
  // no developer commands (those are in DEVELOPMENT.md).
  for (const dev of ["editors/", "server/", "../", "cargo ", "npm ", "test.sh"]) {
    assert.ok(!readme.includes(dev), `README.md mentions "${dev}"`);
  }
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(images.length > 0, "README.md shows a screenshot");
  for (const image of images) {
    assert.ok(/^https:/.test(image) || fs.existsSync(path.join(root, image)), `${image} is shipped`);
  }
});

test("stepping: the words where a move can start, outside comments, either way", () => {
  const text = "1. e4 {a comment: 2. d4} e5 ; 2. Nc3\n2. Nf3 (2. Bc4) Nc6";
  const at = (word: string) => text.indexOf(word);
  const words = (offsets: number[]) => offsets.map((o) => text.slice(o).split(/\s/)[0]);
  assert.deepEqual(words(wordStarts(text, 0, at("e4"), 1)), ["e5", "2.", "Nf3", "(2.", "Bc4)", "Nc6"]);
  assert.deepEqual(words(wordStarts(text, 0, at("Nf3"), -1)), ["2.", "e5", "e4", "1."]);
  // A window of the document: offsets are the document's.
  assert.deepEqual(wordStarts("e4 e5", 100, 100, 1), [103]);
});

test("the check task: chess-ls --check over the folder, and its problem matcher reads the CLI's report", () => {
  assert.deepEqual(checkArgs({ type: "chess-ls" }), ["--check", "."]);
  assert.deepEqual(checkArgs({ type: "chess-ls", manuscripts: true, paths: ["games"], args: ["--lang", "ru"] }), [
    "--check", "--search-manuscripts", "--lang", "ru", "games",
  ]);
  const root = path.join(__dirname, "..");
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    contributes: { problemMatchers: { name: string; pattern: { regexp: string }[] }[] };
  };
  const matcher = pkg.contributes.problemMatchers.find((m) => m.name === "chess-ls")!;
  const [title, where] = matcher.pattern.map((p) => new RegExp(p.regexp));
  // `chess-ls --check` (human format, no colours), as it prints a finding.
  const report = [
    "error[ambiguous-move]: Кd2 is ambiguous: the knight on b1 and the knight on f3 can go to d2",
    " --> ./games/ru-errors.pgn:6:69",
    "  |",
    "6 | 1. e4 e5 2. Кf3 Кc6 3. Сc4 Сc5 4. c3 Кf6 5. d4 exd4 6. cxd4 Сb4+ 7. Кd2 Кxe4",
    "  |                                                                     ^^^",
    "help: fix: Write Кbd2 (certain)",
    "warning[move-number]: 12 follows 10",
    "  --> ./chapter.md:14:3",
  ];
  const found: string[] = [];
  for (let i = 0; i + 1 < report.length; i++) {
    const t = title!.exec(report[i]!);
    const w = t && where!.exec(report[i + 1]!);
    if (t && w) {
      found.push(`${t[1]} ${t[2]} ${w[1]}:${w[2]}:${w[3]}`);
    }
  }
  assert.deepEqual(found, ["error ambiguous-move ./games/ru-errors.pgn:6:69", "warning move-number ./chapter.md:14:3"]);
});
