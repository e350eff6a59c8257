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
