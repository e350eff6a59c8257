import { describe, expect, it } from "vitest";
import { WaitingMemory } from "./waiting-memory.js";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

describe("WaitingMemory", () => {
  const at = (iso: string) => Date.parse(iso);

  it("remembers a session seen waiting until something is written to it after", () => {
    let now = at("2026-01-10T12:00:00Z");
    const storage = memoryStorage();
    const m = new WaitingMemory(storage, () => now);
    m.observeListing([{ sessionId: "s", live: true, isWaitingForUserQuestion: true }]);
    now = at("2026-01-10T12:05:00Z");
    const again = new WaitingMemory(storage, () => now);
    // After a restart: on disk only, last written when the question was asked.
    expect(again.wasWaiting({ sessionId: "s", live: false, updatedAt: "2026-01-10T11:59:58Z" })).toBe(true);
    // Answered elsewhere (written to after we saw it waiting): no mark.
    expect(again.wasWaiting({ sessionId: "s", live: false, updatedAt: "2026-01-10T12:01:00Z" })).toBe(false);
    // Live sessions speak for themselves.
    expect(again.wasWaiting({ sessionId: "s", live: true })).toBe(false);
    expect(again.wasWaiting({ sessionId: "other", live: false })).toBe(false);
  });

  it("forgets a session seen live and not waiting", () => {
    const m = new WaitingMemory(memoryStorage(), () => 1000);
    m.observe("s", true);
    m.observeListing([{ sessionId: "s", live: false }]);
    expect(m.wasWaiting({ sessionId: "s", live: false })).toBe(true);
    m.observeListing([{ sessionId: "s", live: true }]);
    expect(m.wasWaiting({ sessionId: "s", live: false })).toBe(false);
  });

  it("reads corrupt storage as empty", () => {
    const storage = memoryStorage();
    storage.setItem("qwen-serve.waiting", "][");
    expect(new WaitingMemory(storage, () => 0).wasWaiting({ sessionId: "s", live: false })).toBe(false);
    storage.setItem("qwen-serve.waiting", JSON.stringify({ s: "yesterday" }));
    expect(new WaitingMemory(storage, () => 0).wasWaiting({ sessionId: "s", live: false })).toBe(false);
  });
});
