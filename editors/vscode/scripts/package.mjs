// `npm run package`: builds the release chess-ls binary (cargo), puts it in
// server/chess-ls, bundles the extension and packs a linux-x64 .vsix with
// vsce (offline). CHESS_LS_BINARY=<file> uses that binary instead of cargo.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(here, "../..");
const run = (cmd, args, cwd = here) => execFileSync(cmd, args, { cwd, stdio: "inherit" });

let binary = process.env.CHESS_LS_BINARY;
if (!binary) {
  run("cargo", ["build", "--release", "-p", "chess-ls"], repo);
  binary = join(repo, "target", "release", "chess-ls");
}
mkdirSync(join(here, "server"), { recursive: true });
copyFileSync(binary, join(here, "server", "chess-ls"));
chmodSync(join(here, "server", "chess-ls"), 0o755);
// The release profile keeps debug info (for profiling); users need none.
try {
  execFileSync("strip", ["--strip-debug", join(here, "server", "chess-ls")]);
} catch {
  console.warn("strip failed or is missing: the bundled server keeps its debug info");
}
// The bundle and the licence: vsce runs `vscode:prepublish`
// (scripts/prepublish.mjs) itself before it packs. The options
// (no dependencies, no repository, the README's screenshot kept as a
// packaged relative path) are package.json's "vsce" ones, so that the
// README's `npx @vscode/vsce package` makes the same package.
const { version } = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const out = process.env.VSIX_OUT || join(here, `chess-ls-linux-x64-${version}.vsix`);
run(process.execPath, [
  join(here, "node_modules", "@vscode", "vsce", "vsce"),
  "package",
  "--target", "linux-x64",
  // The README's screenshot is in the .vsix (media/): the extension's page
  // in the editor shows it from there. (`vsce publish` and the README's
  // plain `vsce package` point it at baseImagesUrl, for the Marketplace.)
  "--no-rewrite-relative-links",
  "-o", out,
]);
console.log(`packaged ${out}`);
