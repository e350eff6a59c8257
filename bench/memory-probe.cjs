// Benchmark-only preload: `node --expose-gc --require bench/memory-probe.cjs <cli> serve` (the daemon passes
// its own node flags to the ACP children it spawns, so they load it too). With QWEN_BENCH_PROBE_DIR set, a
// SIGUSR2 makes the process run two full garbage collections and write its memory, measured right after, to
// `<dir>/<pid>.<n>.json`. Nothing of it is in the shipped code: production never pays for it.
"use strict";
const { renameSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.QWEN_BENCH_PROBE_DIR;
if (dir && typeof globalThis.gc === "function") {
  let n = 0;
  process.on("SIGUSR2", () => {
    globalThis.gc();
    globalThis.gc();
    const m = process.memoryUsage();
    n += 1;
    const file = join(dir, `${process.pid}.${n}.json`);
    const sample = {
      pid: process.pid,
      n,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      rss: m.rss,
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(sample));
    renameSync(`${file}.tmp`, file); // whole or absent: the reader never sees half a file
  });
}
