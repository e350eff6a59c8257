import { describe, expect, it } from "vitest";
import { FailureLimiter } from "./failure-limiter.js";

describe("FailureLimiter", () => {
  it("blocks an address after max failures within the window, per address, until they age out", () => {
    const limiter = new FailureLimiter({ max: 3, windowMs: 1000 });
    for (const t of [0, 10, 20]) {
      expect(limiter.blocked("a", t)).toBe(false);
      limiter.fail("a", t);
    }
    expect(limiter.blocked("a", 30)).toBe(true);
    expect(limiter.blocked("b", 30)).toBe(false);
    expect(limiter.blocked("a", 1005)).toBe(false);
  });

  it("forgets the least recently failing address beyond its bound", () => {
    const limiter = new FailureLimiter({ max: 1, windowMs: 1000, maxAddresses: 2 });
    limiter.fail("a", 0);
    limiter.fail("b", 1);
    limiter.fail("c", 2);
    expect(limiter.blocked("a", 3)).toBe(false);
    expect(limiter.blocked("b", 3)).toBe(true);
    expect(limiter.blocked("c", 3)).toBe(true);
  });
});
