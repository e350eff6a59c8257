import { type ModelProvider, type Tool, type ToolDeclaration, ToolRegistry } from "@qwen-daemon/core";
import { describe, expect, it, vi } from "vitest";
import type { Logger } from "./logger.js";
import { firstSessionWarmUp, WARM_UP_AFTER_LOAD_MS } from "./warm-up.js";

const nextTasks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

function recording(warmUp?: (tools: ToolDeclaration[]) => Promise<void>) {
  const calls: ToolDeclaration[][] = [];
  const warnings: string[] = [];
  const provider: ModelProvider = {
    id: "test",
    model: "m",
    isDemo: false,
    generate: () => ({
      [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }),
    }),
    warmUp: async (tools) => {
      calls.push(tools);
      await warmUp?.(tools);
    },
  };
  const log: Logger = { info: () => {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
  return { provider, log, calls, warnings };
}

const tool = {
  name: "t",
  description: "a tool",
  parameters: { type: "object" },
  kind: "read",
  validate: () => undefined,
  execute: async () => ({ llmContent: "", display: "" }),
} as unknown as Tool;

describe("firstSessionWarmUp", () => {
  it("warms the provider with the session's declarations once, after the current task", async () => {
    const { provider, log, calls } = recording();
    const warm = firstSessionWarmUp(provider, log);
    warm(new ToolRegistry([tool]), "new");
    warm(new ToolRegistry([tool]), "new");
    expect(calls).toHaveLength(0); // nothing runs before the session's answer is out
    await nextTasks(3);
    expect(calls).toEqual([[{ name: "t", description: "a tool", parameters: { type: "object" } }]]);
    warm(new ToolRegistry([tool]), "load");
    await nextTasks(3);
    expect(calls).toHaveLength(1);
  });

  it("after a load, waits before warming up (a restored question is re-asked first)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const { provider, log, calls } = recording();
      firstSessionWarmUp(provider, log)(new ToolRegistry([tool]), "load");
      await nextTasks(3);
      expect(calls).toHaveLength(0);
      vi.advanceTimersByTime(WARM_UP_AFTER_LOAD_MS);
      await nextTasks(3);
      expect(calls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("logs a failing warm-up instead of throwing", async () => {
    const { provider, log, warnings } = recording(async () => {
      throw new Error("boom");
    });
    firstSessionWarmUp(provider, log)(new ToolRegistry([tool]), "new");
    await nextTasks(3);
    expect(warnings).toEqual(["warm-up: model provider failed: Error: boom"]);
  });
});
