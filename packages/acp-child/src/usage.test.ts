import type { TranscriptRecord } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONTEXT_WINDOW, SessionUsage, usageTotalsOf } from "./usage.js";

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

  it("starts from the counts the transcript keeps with its replies", () => {
    const base = { parentUuid: null, sessionId: "s", timestamp: "t", cwd: "/w", version: "1" };
    const records: TranscriptRecord[] = [
      { ...base, uuid: "u1", type: "user", message: { role: "user", parts: [{ text: "hi" }] } },
      {
        ...base,
        uuid: "a1",
        type: "assistant",
        message: { role: "model", parts: [{ text: "hello" }] },
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
      },
      { ...base, uuid: "a2", type: "assistant", message: { role: "model", parts: [{ text: "again" }] } },
      {
        ...base,
        uuid: "a3",
        type: "assistant",
        message: { role: "model", parts: [{ text: "more" }] },
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 3 },
      },
    ];
    const totals = usageTotalsOf(records);
    expect(totals).toEqual({ inputTokens: 30, outputTokens: 5, totalTokens: 35 });
    expect(
      new SessionUsage(totals).add({ promptTokens: 40, completionTokens: 1, totalTokens: 41 }),
    ).toMatchObject({
      used: 41,
      _meta: { "qwen.sessionUsage": { inputTokens: 70, outputTokens: 6, totalTokens: 76 } },
    });
  });

  it("counts a missing number as 0 and a missing total as input plus output", () => {
    const usage = new SessionUsage(undefined, 32_000);
    expect(usage.add({ promptTokens: 7, completionTokens: 3 })).toMatchObject({ used: 10, size: 32_000 });
    expect(usage.add({})).toMatchObject({ used: 0 });
    expect(usage.totals).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
  });
});
