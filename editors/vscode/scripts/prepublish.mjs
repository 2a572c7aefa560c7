// `vscode:prepublish`, which vsce runs before it packs (also for a plain
// `npx @vscode/vsce package` in a fresh clone): the bundled extension
// (dist/extension.js, minified) and the licence the package carries (the
// repository's LICENSE, copied: the extension ships under it).
import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
copyFileSync(join(here, "..", "..", "LICENSE"), join(here, "LICENSE"));
execFileSync(process.execPath, [join(here, "scripts", "build.mjs"), "--production"], { cwd: here, stdio: "inherit" });
