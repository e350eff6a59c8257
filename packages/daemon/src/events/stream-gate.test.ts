import { describe, expect, it } from "vitest";
import { defaultMaxEventStreams, StreamGate } from "./stream-gate.js";

describe("StreamGate", () => {
  it("hands out at most `limit` slots; a release (once, however often called) frees one", () => {
    const gate = new StreamGate(2);
    const a = gate.tryAcquire();
    const b = gate.tryAcquire();
    expect(gate.tryAcquire()).toBeUndefined();
    a?.();
    a?.();
    expect(gate.open).toBe(1);
    expect(gate.tryAcquire()).toBeDefined();
    expect(gate.tryAcquire()).toBeUndefined();
    b?.();
    expect(gate.open).toBe(1);
  });

  it("0 is no cap", () => {
    const gate = new StreamGate(0);
    for (let i = 0; i < 1000; i += 1) expect(gate.tryAcquire()).toBeDefined();
  });

  it("by default leaves a quarter of the connections (at least one) to other requests", () => {
    expect([1, 2, 4, 8, 64, 256, 0].map(defaultMaxEventStreams)).toEqual([1, 1, 3, 6, 48, 192, 0]);
  });
});
