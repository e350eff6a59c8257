// Benchmark-only preload: `node --expose-gc --require bench/memory-probe.cjs <cli> serve` (the daemon passes
// its own node flags to the ACP children it spawns, so they load it too). With QWEN_BENCH_PROBE_DIR set, a
// SIGUSR2 makes the process write its memory as it stands (`sampled`: what a user's `ps` sees) to
// `<dir>/<pid>.<n>.json`. When the file `<dir>/<pid>.gc` exists at that moment, it also runs two full garbage
// collections and adds its memory right after (`afterGc`: the live size). A forced full GC resets V8's heap
// sizing (its limits are recomputed from the live size), so a run that wants to see the heap as users do
// forces none until its last sample. Nothing of it is in the shipped code: production never pays for it.
"use strict";
const { existsSync, renameSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.QWEN_BENCH_PROBE_DIR;
if (dir && typeof globalThis.gc === "function") {
  let n = 0;
  // Garbage collections by kind since start, to tell a heap that grows because no full collection ran
  // from one that grows in live data. (The probe's own forced collections are counted too.)
  const { PerformanceObserver, constants } = require("node:perf_hooks");
  const gcs = { minor: 0, major: 0, incremental: 0, weakcb: 0 };
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind];
      if (kind !== undefined) gcs[kind] += 1;
    }
  }).observe({ entryTypes: ["gc"] });
  const figures = (m) => ({
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rss: m.rss,
  });
  // Allocation profile on request: `<dir>/<pid>.alloc-start` starts V8's sampling heap profiler, counting
  // what is collected as well as what lives (so per-turn garbage shows), `<dir>/<pid>.alloc-stop` writes it
  // to `<dir>/<pid>.heapprofile` (Chrome DevTools format). Checked on each SIGUSR2.
  let profiler;
  let profiled = false;
  const allocationProfile = () => {
    if (profiled) return;
    if (profiler === undefined && existsSync(join(dir, `${process.pid}.alloc-start`))) {
      const inspector = require("node:inspector");
      profiler = new inspector.Session();
      profiler.connect();
      profiler.post("HeapProfiler.startSampling", {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    } else if (profiler !== undefined && existsSync(join(dir, `${process.pid}.alloc-stop`))) {
      const session = profiler;
      profiled = true;
      session.post("HeapProfiler.stopSampling", (error, result) => {
        const file = join(dir, `${process.pid}.heapprofile`);
        writeFileSync(`${file}.tmp`, JSON.stringify(error ? { error: String(error) } : result.profile));
        renameSync(`${file}.tmp`, file);
        session.disconnect();
      });
    }
  };
  process.on("SIGUSR2", () => {
    allocationProfile();
    const sample = { pid: process.pid, sampled: figures(process.memoryUsage()), gcs: { ...gcs } };
    // Where the heap's committed memory is, by V8 space (new, old, code, large objects, ...), in bytes.
    sample.spaces = Object.fromEntries(
      require("node:v8")
        .getHeapSpaceStatistics()
        .map((s) => [s.space_name.replace(/_space$/, ""), s.space_size]),
    );
    // A heap snapshot on request: `<dir>/<pid>.snapshot` holds the folder to write it to (V8 collects first).
    const snapshotRequest = join(dir, `${process.pid}.snapshot`);
    if (existsSync(snapshotRequest)) {
      const folder = require("node:fs").readFileSync(snapshotRequest, "utf8");
      require("node:fs").rmSync(snapshotRequest);
      require("node:v8").writeHeapSnapshot(join(folder, `${process.pid}.${n + 1}.heapsnapshot`));
    }
    if (existsSync(join(dir, `${process.pid}.gc`))) {
      globalThis.gc();
      globalThis.gc();
      sample.afterGc = figures(process.memoryUsage());
    }
    n += 1;
    sample.n = n;
    const file = join(dir, `${process.pid}.${n}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(sample));
    renameSync(`${file}.tmp`, file); // whole or absent: the reader never sees half a file
  });
}
