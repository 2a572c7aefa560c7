// Bundles the page into dist/: main.js (the editor, CodeMirror 6), worker.js
// (the engine's worker), the engine's WebAssembly (built by
// scripts/build-web into pkg/), the static files, and a service worker that
// keeps them all for offline use. --dev keeps the bundles readable.
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dev = process.argv.includes("--dev");
const dist = "dist";
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);

const common = { bundle: true, format: "esm", target: "es2022", minify: !dev, sourcemap: dev, logLevel: "warning" };
await esbuild.build({ ...common, entryPoints: ["src/main.ts"], outfile: join(dist, "main.js") });
await esbuild.build({ ...common, entryPoints: ["src/worker.ts"], outfile: join(dist, "worker.js") });
copyFileSync("pkg/chess_ls_web_bg.wasm", join(dist, "chess_ls_web_bg.wasm"));
for (const file of readdirSync("static")) {
  if (file !== "sw.js") {
    copyFileSync(join("static", file), join(dist, file));
  }
}

// The service worker lists every file of the page, under a name that
// changes with their content (a new build replaces the old cache).
const files = readdirSync(dist).filter((f) => statSync(join(dist, f)).isFile()).sort();
const hash = createHash("sha256");
for (const f of files) {
  hash.update(f).update(readFileSync(join(dist, f)));
}
const sw = readFileSync("static/sw.js", "utf8")
  .replace("__CACHE__", `chess-ls-${hash.digest("hex").slice(0, 16)}`)
  .replace('"__FILES__"', ["./", ...files].map((f) => JSON.stringify(f)).join(", "));
writeFileSync(join(dist, "sw.js"), sw);

let total = 0;
for (const f of readdirSync(dist)) {
  total += statSync(join(dist, f)).size;
}
console.log(`dist/: ${readdirSync(dist).length} files, ${(total / 1024 / 1024).toFixed(2)} MiB`);
