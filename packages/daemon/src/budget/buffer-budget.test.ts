import { describe, expect, it } from "vitest";
import { BufferBudget, type ReplayEntry, type ReplayHolder } from "./buffer-budget.js";

/** A FIFO of entries, as a ring holds them: evictOldest gives back its oldest. */
class Fifo implements ReplayHolder {
  readonly entries: ReplayEntry[] = [];
  constructor(readonly budget: BufferBudget) {}
  add(bytes: number): ReplayEntry {
    const entry = this.budget.addReplay(this, bytes);
    this.entries.push(entry);
    return entry;
  }
  evictOldest(): void {
    const oldest = this.entries.shift();
    if (oldest !== undefined) this.budget.release(oldest);
  }
  get bytes(): number {
    return this.entries.reduce((sum, e) => sum + e.bytes, 0);
  }
}

describe("BufferBudget", () => {
  it("refuses a capacity that is not a positive integer", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new BufferBudget(bad)).toThrow(RangeError);
    }
  });

  it("evicts the oldest replay data of the daemon first, whichever holder has it", () => {
    const budget = new BufferBudget(100);
    const a = new Fifo(budget);
    const b = new Fifo(budget);
    a.add(30); // oldest
    b.add(30);
    a.add(30);
    expect(budget.usedBytes).toBe(90);
    b.add(30); // 120 > 100: a's first goes
    expect(a.bytes).toBe(30);
    expect(b.bytes).toBe(60);
    expect(budget.usedBytes).toBe(90);
    b.add(30); // b's first is now the oldest
    expect(a.bytes).toBe(30);
    expect(b.bytes).toBe(60);
    expect(budget.snapshot()).toEqual({ capacity: 100, replayBytes: 90, heldBytes: 0, evictedEntries: 2 });
  });

  it("never holds more than its capacity, over many holders and sizes", () => {
    const budget = new BufferBudget(10_000);
    const holders = Array.from({ length: 50 }, () => new Fifo(budget));
    let seed = 7;
    for (let i = 0; i < 5_000; i += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      (holders[seed % holders.length] as Fifo).add(1 + (seed % 700));
      expect(budget.usedBytes).toBeLessThanOrEqual(10_000);
    }
    expect(holders.reduce((sum, h) => sum + h.bytes, 0)).toBe(budget.usedBytes);
  });

  it("keeps the entry just added even when it alone is over the budget, until the next one", () => {
    const budget = new BufferBudget(100);
    const a = new Fifo(budget);
    a.add(10);
    a.add(500);
    expect(a.entries.map((e) => e.bytes)).toEqual([500]);
    a.add(1);
    expect(a.entries.map((e) => e.bytes)).toEqual([1]);
  });

  it("release is idempotent and takes the entry out wherever it is", () => {
    const budget = new BufferBudget(1000);
    const a = new Fifo(budget);
    const first = a.add(1);
    const middle = a.add(2);
    a.add(3);
    budget.release(middle);
    budget.release(middle);
    expect(budget.usedBytes).toBe(4);
    budget.release(first);
    expect(budget.usedBytes).toBe(3);
  });

  it("held bytes (bodies) push replay data out and are never evicted themselves", () => {
    const budget = new BufferBudget(100);
    const a = new Fifo(budget);
    a.add(40);
    a.add(40);
    const release = budget.hold(50);
    expect(a.bytes).toBe(40);
    expect(budget.usedBytes).toBe(90);
    a.add(40); // over: the older replay entry goes, the held bytes stay
    expect(a.bytes).toBe(40);
    expect(budget.snapshot().heldBytes).toBe(50);
    release();
    release();
    expect(budget.snapshot().heldBytes).toBe(0);
  });

  it("a holder that does not give its entry back cannot stall eviction", () => {
    const budget = new BufferBudget(10);
    const stubborn: ReplayHolder = { evictOldest: () => {} };
    budget.addReplay(stubborn, 8);
    budget.addReplay(stubborn, 8);
    expect(budget.usedBytes).toBe(8);
  });
});
