#!/usr/bin/env node
// Builds the web client: esbuild bundles src/main.ts (with marked, DOMPurify, highlight.js and jsdiff) into
// one minified dist/app.js and src/style.css into dist/app.css; index.html is copied. Nothing is fetched at
// run time. `qwen serve` serves dist/ (or the copy the cli ships as dist/web/). Prints the sizes.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: { app: join(src, "main.ts"), "app-style": join(src, "style.css") },
  outdir: dist,
  bundle: true,
  format: "esm",
  target: ["es2022", "chrome111", "firefox113", "safari16.4"],
  minify: true,
  sourcemap: "linked",
  legalComments: "linked",
  logLevel: "warning",
  entryNames: "[name]",
  // The contract (@qwen-daemon/core/protocol) is bundled from its sources: only the constants the page uses.
  conditions: ["source"],
});
// esbuild names a CSS entry after its own name; the page links app.css.
copyFileSync(join(dist, "app-style.css"), join(dist, "app.css"));
rmSync(join(dist, "app-style.css"));
rmSync(join(dist, "app-style.css.map"), { force: true });
copyFileSync(join(src, "index.html"), join(dist, "index.html"));
if (!existsSync(join(dist, "app.js"))) {
  console.error("apps/web build: dist/app.js missing");
  process.exit(1);
}
/** @param {string} file */
const size = (file) => {
  const bytes = readFileSync(join(dist, file));
  return `${file} ${(bytes.length / 1024).toFixed(1)} kB (${(gzipSync(bytes).length / 1024).toFixed(1)} kB gzip)`;
};
console.log(`apps/web: ${size("app.js")}, ${size("app.css")}`);
