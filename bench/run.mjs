#!/usr/bin/env node
// Runs every benchmark in sequence and prints their output (`npm run bench` at the repository root).
//   node bench/run.mjs [startup|restore-scan|transcript-load|daemon-latency|vote-latency|soak|pending-list|restart-restore|storage|cold-story ...]
//                      [-- options for the selected benchmarks, e.g. -- --runs 3 --reference]
// With names, runs only those; arguments after `--` are passed to each selected benchmark (`npm run bench --
// cold-story -- --reference`). The process benchmarks use the built packages: when a dist folder is
// missing this runs `npm run build` first; when sources are newer than a dist it only warns (rebuild with
// `npm run build` to measure the current code). A failing benchmark, or one still running after
// TIMEOUT_MS (e.g. a dist rebuilt under it), does not stop the others; the exit code is then 1.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const TSX = ["--conditions=source", "--import", "tsx"];
const TIMEOUT_MS = 10 * 60_000;

const BENCHMARKS = [
  {
    name: "startup",
    script: "bench/startup.mjs",
    node: [],
    what: "spawn -> /health; qwen --acp -> session/new",
  },
  {
    name: "restore-scan",
    script: "bench/restore-scan.mjs",
    node: TSX,
    what: "restore eligibility scan, 10 vs 1M entries",
  },
  {
    name: "transcript-load",
    script: "bench/transcript-load.mjs",
    node: [],
    what: "transcript load time and peak memory",
  },
  {
    name: "daemon-latency",
    script: "bench/daemon-latency.mjs",
    node: [],
    what: "prompt/vote latency, SSE fan-out, RSS",
  },
  {
    name: "vote-latency",
    script: "bench/vote-latency.mjs",
    node: [],
    what: "a vote's latency (median, p99) beside the reference's, in one run, and the ratio",
  },
  {
    name: "soak",
    script: "bench/soak.mjs",
    node: [],
    what: "4,000 question turns (QWEN_SOAK_TURNS): RSS and heapUsed of daemon and child at turns 100, 1,000 .. 4,000",
  },
  {
    name: "pending-list",
    script: "bench/pending-list.mjs",
    node: [],
    what: "session list with pendingOnDisk, 1k vs 100k-record transcript",
  },
  {
    name: "restart-restore",
    script: "bench/restart-restore.mjs",
    node: [],
    what: "SIGKILL -> restart -> restored question",
  },
  {
    name: "storage",
    script: "bench/storage.mjs",
    node: [],
    what: "JSONL vs PostgreSQL: prompt -> question, vote -> 200, load -> re-asked, durable appends/s (1 and 50 sessions)",
  },
  {
    name: "cold-story",
    script: "bench/cold-story.mjs",
    node: [],
    what: "cold restore story: start, first prompt -> question, SIGKILL -> restored, RSS (--reference: ratios)",
  },
];

/** The files each process benchmark needs from `npm run build`, and the sources they are built from. */
const BUILT = [
  { dist: "packages/core/dist/index.js", src: "packages/core/src" },
  { dist: "packages/core/dist/testing/index.js", src: "packages/core/src/testing" },
  { dist: "packages/acp-child/dist/index.js", src: "packages/acp-child/src" },
  { dist: "packages/daemon/dist/index.js", src: "packages/daemon/src" },
  { dist: "packages/cli/dist/bin.js", src: "packages/cli/src" },
];

function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
      newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function ensureBuilt() {
  const missing = BUILT.filter((b) => !existsSync(join(root, b.dist)));
  if (missing.length > 0) {
    console.log(`missing ${missing.map((b) => b.dist).join(", ")}: running \`npm run build\` first\n`);
    const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) {
      console.error("\n`npm run build` failed; fix the build, then run `npm run bench` again");
      process.exit(1);
    }
    return;
  }
  const stale = BUILT.filter(
    (b) => newestSourceMtime(join(root, b.src)) > statSync(join(root, b.dist)).mtimeMs,
  );
  if (stale.length > 0)
    console.log(
      `note: sources are newer than ${stale.map((b) => b.dist).join(", ")}; run \`npm run build\` to measure the current code\n`,
    );
}

const dashes = process.argv.indexOf("--", 2);
const wanted = process.argv.slice(2, dashes === -1 ? undefined : dashes);
const passed = dashes === -1 ? [] : process.argv.slice(dashes + 1);
const unknown = wanted.filter((name) => !BENCHMARKS.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(", ")}; known: ${BENCHMARKS.map((b) => b.name).join(", ")}`,
  );
  process.exit(2);
}
const selected = wanted.length === 0 ? BENCHMARKS : BENCHMARKS.filter((b) => wanted.includes(b.name));

ensureBuilt();
const failed = [];
for (const bench of selected) {
  const command = ["node", ...bench.node, bench.script, ...passed].join(" ");
  console.log(`=== ${bench.name}: ${bench.what}\n$ ${command}`);
  const started = performance.now();
  const result = spawnSync(process.execPath, [...bench.node, bench.script, ...passed], {
    cwd: root,
    stdio: "inherit",
    timeout: TIMEOUT_MS,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failed.push(bench.name);
    const why = result.error?.code === "ETIMEDOUT" ? "timed out" : (result.signal ?? `exit ${result.status}`);
    console.log(`--- ${bench.name} FAILED (${why}) after ${seconds} s\n`);
  } else {
    console.log(`--- ${bench.name} done in ${seconds} s\n`);
  }
}
if (failed.length > 0) {
  console.log(`failed: ${failed.join(", ")}`);
  process.exit(1);
}
