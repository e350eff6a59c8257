import { describe, expect, it } from "vitest";
import { DaemonError } from "../errors/daemon-error.js";
import { ManualClock } from "../events/manual-clock.js";
import { DISPATCH_FAILED_CODE, PromptQueue, type QueuedPrompt, type TurnOutcome } from "./prompt-queue.js";

function harness(maxPending = 3) {
  const clock = new ManualClock(0);
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const runs: Array<{ entry: QueuedPrompt; finish: (o: TurnOutcome) => void }> = [];
  const interrupted: string[] = [];
  const ended: string[] = [];
  const queue = new PromptQueue({
    sessionId: "s",
    maxPending,
    clock,
    publish: (type, data) => events.push({ type, data }),
    dispatch: (entry) => new Promise((resolve) => runs.push({ entry, finish: resolve })),
    interrupt: (entry) => interrupted.push(entry.promptId),
    onTurnEnd: (entry) => ended.push(entry.promptId),
    reportError: (error) => {
      throw error;
    },
  });
  const admit = (promptId: string, deadlineMs?: number) =>
    queue.admit({ promptId, kind: "user", text: promptId, prompt: [], meta: {}, deadlineMs });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { clock, events, runs, interrupted, ended, queue, admit, settle };
}

const types = (events: Array<{ type: string; data: Record<string, unknown> }>) =>
  events.map((e) => `${e.type}:${e.data.promptId}`);

describe("PromptQueue", () => {
  it("runs one prompt at a time, FIFO, each with exactly one terminal", async () => {
    const h = harness();
    h.admit("a");
    h.admit("b");
    expect(h.runs.map((r) => r.entry.promptId)).toEqual(["a"]);
    expect(h.queue.list().map((e) => [e.promptId, e.state])).toEqual([
      ["a", "running"],
      ["b", "queued"],
    ]);
    h.runs[0]?.finish({ kind: "complete", stopReason: "end_turn" });
    await h.settle();
    expect(h.runs.map((r) => r.entry.promptId)).toEqual(["a", "b"]);
    h.runs[1]?.finish({ kind: "error", message: "boom", code: "x" });
    await h.settle();
    // Only b waited behind another prompt, so only b is announced as pending.
    expect(types(h.events)).toEqual([
      "pending_prompt_added:b",
      "turn_complete:a",
      "pending_prompt_started:b",
      "turn_error:b",
      "pending_prompt_completed:b",
    ]);
    expect(h.events.find((e) => e.type === "turn_error")?.data).toEqual({
      sessionId: "s",
      message: "boom",
      code: "x",
      promptId: "b",
    });
    expect(h.queue.pendingCount).toBe(0);
  });

  it("counts the running prompt against the bound and throws prompt_queue_full beyond it", () => {
    const h = harness(2);
    h.admit("a");
    h.admit("b");
    expect(() => h.admit("c")).toThrow(DaemonError);
    try {
      h.admit("c");
    } catch (error) {
      expect((error as DaemonError).code).toBe("prompt_queue_full");
    }
  });

  it("a bound of 0 is no cap (--max-pending-prompts-per-session 0)", () => {
    const h = harness(0);
    for (let i = 0; i < 50; i++) h.admit(`p${i}`);
    expect(h.queue.pendingCount).toBe(50);
    expect(h.runs.map((r) => r.entry.promptId)).toEqual(["p0"]);
  });

  it("cancelActive publishes prompt_cancelled once and interrupts; false when idle", async () => {
    const h = harness();
    expect(h.queue.cancelActive()).toBe(false);
    h.admit("a");
    expect(h.queue.cancelActive()).toBe(true);
    expect(h.queue.cancelActive()).toBe(false);
    expect(h.interrupted).toEqual(["a"]);
    expect(types(h.events).filter((t) => t.startsWith("prompt_cancelled"))).toEqual(["prompt_cancelled:a"]);
    h.runs[0]?.finish({ kind: "complete", stopReason: "cancelled" });
    await h.settle();
    expect(h.events.find((e) => e.type === "turn_complete")?.data.stopReason).toBe("cancelled");
  });

  it("a queued prompt past its deadline is dropped with turn_error; a running one is interrupted", async () => {
    const h = harness();
    h.admit("a", 100);
    h.admit("b", 50);
    h.clock.advance(50);
    expect(types(h.events)).toContain("turn_error:b");
    expect(h.queue.list().map((e) => e.promptId)).toEqual(["a"]);
    h.clock.advance(50);
    expect(h.interrupted).toEqual(["a"]);
    expect(types(h.events).filter((t) => t.startsWith("turn_error"))).toEqual([
      "turn_error:b",
      "turn_error:a",
    ]);
    // The running turn's own end changes nothing but the bookkeeping; still one terminal.
    h.runs[0]?.finish({ kind: "complete", stopReason: "cancelled" });
    await h.settle();
    expect(types(h.events).filter((t) => t.startsWith("turn_"))).toEqual(["turn_error:b", "turn_error:a"]);
    expect(h.queue.pendingCount).toBe(0);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it("failAll ends everything, clears deadlines and refuses new prompts", async () => {
    const h = harness();
    h.admit("a", 1000);
    h.admit("b");
    h.queue.failAll("session_died", "gone");
    expect(types(h.events).filter((t) => t.startsWith("turn_error"))).toEqual([
      "turn_error:a",
      "turn_error:b",
    ]);
    expect(h.clock.pendingTimers).toBe(0);
    expect(() => h.admit("c")).toThrow(/closed/);
    h.runs[0]?.finish({ kind: "complete", stopReason: "end_turn" });
    await h.settle();
    expect(types(h.events).filter((t) => t.startsWith("turn_complete"))).toEqual([]);
    expect(h.ended).toEqual(["a", "b"]);
  });
});

describe("PromptQueue with a dispatch that fails", () => {
  it("a dispatch that rejects ends its prompt with turn_error, is reported, and the next prompt runs", async () => {
    const events: string[] = [];
    const reported: string[] = [];
    let calls = 0;
    const queue = new PromptQueue({
      sessionId: "s",
      maxPending: 3,
      clock: new ManualClock(0),
      publish: (type, data) => events.push(`${type}:${data.promptId}:${data.code ?? ""}`),
      dispatch: async () => {
        calls += 1;
        if (calls === 1) throw new TypeError("cannot serialise the echo");
        return { kind: "complete", stopReason: "end_turn" };
      },
      interrupt: () => {},
      onTurnEnd: () => {},
      reportError: (error, context) => reported.push(`${context}: ${String(error)}`),
    });
    queue.admit({ promptId: "a", kind: "user", text: "a", prompt: [], meta: {} });
    queue.admit({ promptId: "b", kind: "user", text: "b", prompt: [], meta: {} });
    await new Promise((r) => setTimeout(r, 0));
    expect(events).toEqual([
      "pending_prompt_added:b:",
      `turn_error:a:${DISPATCH_FAILED_CODE}`,
      "pending_prompt_started:b:",
      "turn_complete:b:",
      "pending_prompt_completed:b:",
    ]);
    expect(reported).toEqual(["prompt a of session s failed to run: TypeError: cannot serialise the echo"]);
    expect(queue.pendingCount).toBe(0);
  });
});
