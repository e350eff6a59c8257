#!/usr/bin/env node
// Fails when a file of the repository cites a document the repository does not hold. Readers of the code
// (and of the README and docs/) have only what is here, so a comment cites docs/restore.md or docs/protocol.md
// or states its rule in place. Run by `npm test` and `npm run lint`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP_DIRS = new Set(["node_modules", "dist", ".git", ".turbo", "coverage", "captures"]);
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|css|html|yaml|yml)$/;
// The developers' own notes live outside the repository; none of their names may be cited here.
const OUTSIDE = [
  /RESTORE-SPEC/,
  /\b(PROTOCOL|ARCHITECTURE|TOOLCHAIN)\.md\b/,
  /(^|[\s"'`(])\.\.\/shared\//,
  /\/work\/shared\b/,
];

/** Every citation of an outside document in `text`, as `line: text`. */
export function outsideCitations(text) {
  const hits = [];
  text.split("\n").forEach((line, i) => {
    if (OUTSIDE.some((re) => re.test(line))) hits.push(`${i + 1}: ${line.trim()}`);
  });
  return hits;
}

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(join(dir, entry.name));
    } else if (entry.isFile() && TEXT.test(entry.name)) {
      yield join(dir, entry.name);
    }
  }
}

function main(root) {
  const self = fileURLToPath(import.meta.url);
  let failed = 0;
  for (const file of files(root)) {
    if (file === self) continue;
    for (const hit of outsideCitations(readFileSync(file, "utf8"))) {
      console.error(`${relative(root, file)}:${hit}`);
      failed++;
    }
  }
  if (failed > 0) {
    console.error(
      `\n${failed} citation(s) of documents outside the repository: cite docs/ or state the rule in place.`,
    );
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv[2] ?? ROOT);
