import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RingBuffer } from "./ring-buffer.js";

describe("RingBuffer", () => {
  it("keeps the newest `capacity` items in order and reports what it dropped", () => {
    const ring = new RingBuffer<number>(3);
    expect([1, 2, 3].map((n) => ring.push(n))).toEqual([undefined, undefined, undefined]);
    expect(ring.push(4)).toBe(1);
    expect(ring.toArray()).toEqual([2, 3, 4]);
    expect([ring.first(), ring.last(), ring.at(1), ring.at(3), ring.at(-1)]).toEqual([
      2,
      4,
      3,
      undefined,
      undefined,
    ]);
    ring.clear();
    expect(ring.size).toBe(0);
    expect(ring.first()).toBeUndefined();
  });

  it("shift takes the oldest item out", () => {
    const ring = new RingBuffer<number>(3);
    for (const n of [1, 2, 3, 4]) ring.push(n);
    expect(ring.shift()).toBe(2);
    expect(ring.toArray()).toEqual([3, 4]);
    ring.push(5);
    ring.push(6);
    expect(ring.toArray()).toEqual([4, 5, 6]);
    expect([ring.shift(), ring.shift(), ring.shift(), ring.shift()]).toEqual([4, 5, 6, undefined]);
    expect(ring.size).toBe(0);
  });

  it("capacity 0 holds nothing; bad capacities are refused", () => {
    const ring = new RingBuffer<string>(0);
    expect(ring.push("a")).toBe("a");
    expect(ring.toArray()).toEqual([]);
    expect(() => new RingBuffer(-1)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });

  it("property: always equals the last `capacity` pushes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.array(fc.integer(), { maxLength: 100 }),
        (capacity, items) => {
          const ring = new RingBuffer<number>(capacity);
          for (const item of items) ring.push(item);
          expect(ring.toArray()).toEqual(capacity === 0 ? [] : items.slice(-capacity));
        },
      ),
    );
  });
});
