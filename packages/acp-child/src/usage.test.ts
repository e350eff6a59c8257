import { describe, expect, it } from "vitest";
import { DEFAULT_CONTEXT_WINDOW, SessionUsage } from "./usage.js";

describe("SessionUsage", () => {
  it("reports the last request's tokens as used and adds every request's counts up in _meta", () => {
    const usage = new SessionUsage();
    expect(usage.add({ promptTokens: 100, completionTokens: 20, totalTokens: 120 })).toEqual({
      sessionUpdate: "usage_update",
      used: 120,
      size: DEFAULT_CONTEXT_WINDOW,
      _meta: { "qwen.sessionUsage": { inputTokens: 100, outputTokens: 20, totalTokens: 120 } },
    });
    expect(usage.add({ promptTokens: 150, completionTokens: 5, totalTokens: 155 })).toMatchObject({
      used: 155,
      _meta: { "qwen.sessionUsage": { inputTokens: 250, outputTokens: 25, totalTokens: 275 } },
    });
  });

  it("counts a missing number as 0 and a missing total as input plus output", () => {
    const usage = new SessionUsage(32_000);
    expect(usage.add({ promptTokens: 7, completionTokens: 3 })).toMatchObject({ used: 10, size: 32_000 });
    expect(usage.add({})).toMatchObject({ used: 0 });
    expect(usage.totals).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
  });
});
