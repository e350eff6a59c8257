#!/usr/bin/env node
// Fails when production code of core, daemon, acp-child or cli imports a file-system call that writes
// (mkdir, open, rename, writeFile, appendFile, rm, unlink, truncate, ...) outside the files listed below.
// Every file the daemon or the agent relies on across a crash is written through one module,
// packages/core/src/storage/durable-fs.ts, which keeps the rules that make it survive a power loss
// (docs/restore.md "Power loss"); a write that went around it would not be durable, and the power-loss
// test's op log would not see it. Run by `npm test` and `npm run lint`.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SOURCES = ["core", "daemon", "acp-child", "cli"].map((name) => `packages/${name}/src`);

/** Files that may import writing calls, and why. */
const ALLOWED = new Map([
  ["packages/core/src/storage/durable-fs.ts", "the one module of durable file steps"],
  ["packages/core/src/storage/fs-op-log.ts", "the test-only op log of those steps"],
  ["packages/core/src/storage/jsonl/jsonl-file.ts", "opens logs for reading only"],
  ["packages/core/src/tools/text-file.ts", "opens the user's files for reading only"],
  ["packages/core/src/tools/write-file.ts", "the write_file tool: the user's workspace, not daemon state"],
  ["packages/core/src/tools/edit.ts", "the edit tool: the user's workspace, not daemon state"],
  [
    "packages/core/src/tools/file-system.ts",
    "the tools' file writes: the user's workspace, not daemon state",
  ],
  [
    "packages/cli/src/code-cache/load-bundle.ts",
    "a compile cache: a lost or torn entry is rejected and rebuilt",
  ],
]);

const WRITING = new Set(
  [
    "appendFile",
    "copyFile",
    "cp",
    "createWriteStream",
    "link",
    "mkdir",
    "mkdtemp",
    "open",
    "rename",
    "rm",
    "rmdir",
    "symlink",
    "truncate",
    "unlink",
    "writeFile",
  ].flatMap((name) => [name, `${name}Sync`]),
);
const IMPORT = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*["']node:fs(?:\/promises)?["']/g;
const NAMESPACE = /import\s*\*\s*as\s+\w+\s+from\s*["']node:fs(?:\/promises)?["']|from\s*["']fs["']/;

/** The writing calls a source file imports from node:fs (a namespace import counts as all of them). */
export function writingImports(text) {
  if (NAMESPACE.test(text)) return ["* (namespace import)"];
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    for (const part of match[1].split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)[0];
      if (WRITING.has(name)) found.push(name);
    }
  }
  return found;
}

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "testing" && entry.name !== "fixtures") yield* sources(path);
    } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) yield path;
  }
}

function main(root) {
  const problems = [];
  for (const dir of SOURCES) {
    for (const file of sources(join(root, dir))) {
      const name = relative(root, file);
      if (ALLOWED.has(name) || name.endsWith("test-support.ts")) continue;
      const found = writingImports(readFileSync(file, "utf8"));
      if (found.length > 0) problems.push(`${name}: imports ${found.join(", ")} from node:fs`);
    }
  }
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    console.error(
      `\n${problems.length} file(s) write around packages/core/src/storage/durable-fs.ts: use DurableFs ` +
        "(or, for a file nothing relies on across a crash, list it in scripts/check-durable-writes.mjs with why).",
    );
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv[2] ?? ROOT);
