#!/usr/bin/env node
// "Builds" the web client: the browser runs src/ as it is (plain ES modules), so dist/ is a clean copy
// of src/ without tests. `qwen serve` serves dist/ (or the copy the cli ships as dist/web/).
import { cpSync, existsSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const dist = join(root, "dist");

/**
 * Files the browser never needs: unit tests and TypeScript sources.
 * @param {string} path
 */
function shipped(path) {
  const name = basename(path);
  return !name.endsWith(".ts") && !/\.test\.[cm]?js$/.test(name);
}

rmSync(dist, { recursive: true, force: true });
cpSync(src, dist, { recursive: true, filter: shipped });
if (!existsSync(join(dist, "index.html"))) {
  console.error("apps/web build: dist/index.html missing after copy");
  process.exit(1);
}
