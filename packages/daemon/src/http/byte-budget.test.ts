import { describe, expect, it } from "vitest";
import { BudgetWaitAborted, ByteBudget } from "./byte-budget.js";

const tick = () => new Promise((r) => setImmediate(r));

describe("ByteBudget", () => {
  it("grants what fits at once, queues the rest first come first served, and never exceeds its capacity", async () => {
    const budget = new ByteBudget(10);
    const granted: string[] = [];
    const take = (name: string, bytes: number) =>
      budget.acquire(bytes).then((release) => {
        granted.push(name);
        return release;
      });
    const a = take("a", 6);
    const b = take("b", 6);
    const c = take("c", 1); // fits, but waits behind b: no overtaking
    await tick();
    expect(granted).toEqual(["a"]);
    expect(budget.snapshot()).toEqual({ capacity: 10, inFlight: 6, waiting: 2, peak: 6 });
    const releaseA = await a;
    releaseA();
    releaseA(); // idempotent
    await tick();
    expect(granted).toEqual(["a", "b", "c"]);
    expect(budget.snapshot()).toMatchObject({ inFlight: 7, waiting: 0, peak: 7 });
    (await b)();
    (await c)();
    expect(budget.snapshot().inFlight).toBe(0);
  });

  it("a request larger than the whole budget gets all of it, alone", async () => {
    const budget = new ByteBudget(10);
    const release = await budget.acquire(50);
    expect(budget.snapshot().inFlight).toBe(10);
    release();
  });

  it("a waiter whose request is aborted leaves the queue and lets the next one through", async () => {
    const budget = new ByteBudget(10);
    const first = await budget.acquire(8);
    const abort = new AbortController();
    const granted: string[] = [];
    const aborted = budget.acquire(5, abort.signal).then(() => granted.push("aborted one"));
    void budget.acquire(2).then(() => granted.push("small"));
    await tick();
    expect(granted).toEqual([]);
    abort.abort();
    await expect(aborted).rejects.toBeInstanceOf(BudgetWaitAborted);
    await tick();
    expect(granted).toEqual(["small"]);
    first();
    await tick();
    expect(granted).toEqual(["small"]);
  });
});
