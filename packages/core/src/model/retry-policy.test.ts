import { describe, expect, it } from "vitest";
import { ModelError } from "./provider.js";
import { backoffDelayMs, DEFAULT_RETRY_POLICY, retryDelayMs } from "./retry-policy.js";

const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 5 };

describe("retry policy", () => {
  it("doubles the step, caps it, and jitters within [step/2, step]", () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
  });

  it("retries only retryable errors and only while attempts remain", () => {
    const server = new ModelError("server", "x", { status: 500 });
    expect(retryDelayMs(server, 1, policy, () => 0)).toBe(50);
    expect(retryDelayMs(server, 5, policy, () => 0)).toBeUndefined();
    expect(retryDelayMs(new ModelError("auth", "x"), 1, policy, () => 0)).toBeUndefined();
    expect(retryDelayMs(new ModelError("protocol", "x"), 1, policy, () => 0)).toBeUndefined();
    expect(retryDelayMs(new ModelError("network", "x"), 1, policy, () => 0)).toBe(50);
  });

  it("honours Retry-After, but not one beyond the accepted maximum", () => {
    const soon = new ModelError("rate_limit", "x", { retryAfterMs: 3000 });
    expect(retryDelayMs(soon, 1, policy, () => 0)).toBe(3000);
    const late = new ModelError("rate_limit", "x", { retryAfterMs: policy.maxRetryAfterMs + 1 });
    expect(retryDelayMs(late, 1, policy, () => 0)).toBeUndefined();
  });
});
