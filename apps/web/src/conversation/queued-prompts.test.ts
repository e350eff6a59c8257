import { describe, expect, it } from "vitest";
import { placeInLine, QueuedPrompts } from "./queued-prompts.js";

describe("QueuedPrompts", () => {
  it("keeps the daemon's order, whichever of the 202 and the event arrives first, and moves the rest up", () => {
    const q = new QueuedPrompts();
    expect(q.add("b", "second", 2, true)).toBe(true);
    expect(q.add("a", "first", 1, false)).toBe(true);
    expect(q.add("b", "second", 2, true)).toBe(false);
    q.add("c", "third", undefined, true);
    expect(q.list().map((m) => [m.promptId, m.position])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    expect(q.remove("a")).toBe(true);
    expect(q.remove("a")).toBe(false);
    expect(q.get("c")?.position).toBe(2);
    expect(q.clear()).toBe(true);
    expect(q.list()).toEqual([]);
  });

  it("does not queue again a message that already left (a 202 read after the stream said it started)", () => {
    const q = new QueuedPrompts();
    expect(q.add("a", "first", 1, true)).toBe(true);
    q.remove("a");
    expect(q.add("a", "first", 1, true)).toBe(false);
    // Started before anything said it was queued (its echo came first).
    q.remove("b");
    expect(q.add("b", "second", 1, true)).toBe(false);
    q.add("c", "third", 1, true);
    q.clear();
    expect(q.add("c", "third", 1, true)).toBe(false);
    expect(q.list()).toEqual([]);
  });

  it("says the place in line in words", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22].map(placeInLine)).toEqual([
      "next in line",
      "2nd in line",
      "3rd in line",
      "4th in line",
      "11th in line",
      "12th in line",
      "13th in line",
      "21st in line",
      "22nd in line",
    ]);
  });
});
