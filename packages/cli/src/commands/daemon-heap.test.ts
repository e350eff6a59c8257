import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DAEMON_RUNTIME_V8_FLAGS } from "./daemon-heap.js";

/**
 * Young-generation size (MB) in a fresh node that sets `flags` at run time (as `tuneDaemonHeap` does), then
 * allocates 40 MB of objects that survive a while, like a burst of module loading.
 */
function newSpaceAfterBurst(flags: readonly string[]): number {
  const script = `
    const v8 = await import("node:v8");
    for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
    const keep = [];
    for (let i = 0; i < 400_000; i++) keep.push({ i, s: "x" + i });
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    process.stdout.write(String(space.space_size / 2 ** 20));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  return Number(out);
}

describe("DAEMON_RUNTIME_V8_FLAGS", () => {
  it("keep the young generation at its initial size through an allocation burst, set at run time", () => {
    expect(newSpaceAfterBurst([])).toBeGreaterThan(4);
    expect(newSpaceAfterBurst(DAEMON_RUNTIME_V8_FLAGS)).toBeLessThanOrEqual(2);
  });
});

/**
 * Full GCs in a fresh node that sets `flags` at run time, then keeps 8 MB live while it churns 160 MB of objects
 * that live long enough to be promoted (a window of 2 MB), as a daemon's requests do across an fsync.
 */
function fullGcsUnderChurn(flags: readonly string[]): number {
  const script = `
    const v8 = await import("node:v8");
    const { PerformanceObserver, constants } = await import("node:perf_hooks");
    for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
    let full = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full += 1;
    }).observe({ entryTypes: ["gc"] });
    const live = [];
    for (let i = 0; i < 80_000; i++) live.push({ i, s: "live" + i });
    let window = [];
    for (let i = 0; i < 1_600_000; i++) {
      window.push({ i, s: "turn" + i });
      if (window.length === 20_000) window = [];
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.stdout.write(String(full));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  return Number(out);
}

describe("--heap-growing-percent among the daemon's run-time flags", () => {
  it("takes effect when set at run time: promoted garbage is collected at a smaller heap, so more often", () => {
    const stock = fullGcsUnderChurn(DAEMON_RUNTIME_V8_FLAGS.filter((f) => !f.startsWith("--heap-growing")));
    const tuned = fullGcsUnderChurn(DAEMON_RUNTIME_V8_FLAGS);
    expect(tuned).toBeGreaterThan(stock);
  });
});
