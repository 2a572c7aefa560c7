// Bundles the extension (dist/extension.js) with esbuild; with --tests also
// the unit tests and the end-to-end driver (out/). --production minifies.
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
const common = { bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "warning" };

await esbuild.build({
  ...common,
  entryPoints: ["src/extension.ts"],
  outfile: "dist/extension.js",
  external: ["vscode"],
  minify: production,
  sourcemap: !production,
});

if (process.argv.includes("--tests")) {
  await esbuild.build({ ...common, entryPoints: ["test/unit/unit.test.ts"], outfile: "out/unit.test.js" });
  await esbuild.build({
    ...common,
    entryPoints: ["test/e2e/driver.ts"],
    outfile: "out/e2e-driver.js",
    external: ["playwright-core"],
  });
}
