import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "../events/daemon-event.js";
import { ManualClock } from "../events/manual-clock.js";
import { Notifier } from "./notifier.js";
import type { NotifyEvent, NotifySource } from "./notify-event.js";
import { memoryOutbox, type OutboxRecord } from "./outbox.js";
import type { Sender } from "./senders.js";

const source: NotifySource = {
  sessionId: "s1",
  workspace: "/ws",
  displayName: "Paint the fence",
  restored: false,
};
let nextId = 1;
function event(type: string, data: Record<string, unknown>, promptId = "p1", at = 0): DaemonEvent {
  return { id: nextId++, v: 1, type, data, promptId, _meta: { serverTimestamp: at } };
}
const question = (requestId: string, toolCallId = "call_1") =>
  event("permission_request", {
    requestId,
    sessionId: "s1",
    options: [],
    toolCall: {
      toolCallId,
      title: "Ask user 1 question",
      kind: "think",
      _meta: {
        toolName: "ask_user_question",
        qwenInteractionKind: "user_question",
        qwenQuestions: [
          { question: "Which colour?", header: "Colour", options: [{ label: "Red" }, { label: "Blue" }] },
        ],
      },
    },
  });

/** A receiver that records what it got and fails while `failing` is set. */
function recorder(name: string) {
  const got: NotifyEvent[] = [];
  const state = { failing: false, pending: [] as (() => void)[] };
  const sender: Sender = {
    name,
    send: async (e) => {
      if (state.failing) throw new Error("receiver down");
      got.push(e);
    },
  };
  return { sender, got, state };
}

/** Lets queued promise callbacks (outbox writes, sends) run: every microtask runs before a macrotask. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

function notifier(
  options: { delayMs?: number; outbox?: ReturnType<typeof memoryOutbox>; senders?: Sender[] } = {},
) {
  const clock = new ManualClock(1_000_000);
  const logs: string[] = [];
  const outbox = options.outbox ?? memoryOutbox();
  const hook = recorder("webhook");
  const n = new Notifier({
    senders: options.senders ?? [hook.sender],
    outbox,
    delayMs: options.delayMs ?? 0,
    clock,
    log: (l) => logs.push(l),
    linkBase: () => "http://127.0.0.1:4170",
    newKey: (() => {
      let k = 0;
      return () => `k${++k}`;
    })(),
  });
  return { n, clock, logs, outbox, hook };
}

describe("Notifier", () => {
  it("tells a waiting question once, with its stable id, the link and the words", async () => {
    const { n, clock, hook, outbox } = notifier();
    await n.start();
    n.observe(source, question("r1"));
    clock.advance(0);
    await settle();
    expect(hook.got).toEqual([
      expect.objectContaining({
        v: 1,
        id: "s1:call_1",
        type: "question_waiting",
        title: "Which colour?",
        sessionTitle: "Paint the fence",
        url: "http://127.0.0.1:4170/#session=s1",
        requestId: "r1",
        restored: false,
        questions: [
          { question: "Which colour?", header: "Colour", options: ["Red", "Blue"], multiSelect: false },
        ],
      }),
    ]);
    expect(outbox.records.map((r) => r.op)).toEqual(["add", "close", "told"]);
    expect(n.stats).toMatchObject({ open: 0, delivered: 1 });
  });

  it("honours the delay: an answer before it means no notification", async () => {
    const { n, clock, hook } = notifier({ delayMs: 5000 });
    await n.start();
    n.observe(source, question("r1"));
    clock.advance(4000);
    await settle();
    n.observe(
      source,
      event("permission_resolved", { requestId: "r1", outcome: { outcome: "selected", optionId: "x" } }),
    );
    clock.advance(10_000);
    await settle();
    expect(hook.got).toEqual([]);
    n.observe(source, question("r2", "call_2"));
    clock.advance(4999);
    await settle();
    expect(hook.got).toEqual([]);
    clock.advance(1);
    await settle();
    expect(hook.got.map((e) => e.id)).toEqual(["s1:call_2"]);
  });

  it("tells a turn's end at once, a failure with its error", async () => {
    const { n, clock, hook } = notifier({ delayMs: 60_000 });
    await n.start();
    n.observe(source, event("turn_complete", { stopReason: "end_turn" }, "p1"));
    n.observe(source, event("turn_error", { message: "model down", code: "model_error" }, "p2"));
    n.observe(source, event("session_update", { update: {} }));
    clock.advance(0);
    await settle();
    expect(hook.got.map((e) => [e.id, e.type, e.title])).toEqual([
      ["s1:turn:p1", "turn_completed", "The agent finished"],
      ["s1:turn:p2", "turn_failed", "The turn failed: model down"],
    ]);
    expect(hook.got[1]?.error).toEqual({ message: "model down", code: "model_error" });
  });

  it("retries a failing receiver with backoff, logs it, and another receiver is not held back", async () => {
    const hook = recorder("webhook");
    const cmd = recorder("command");
    const { n, clock, logs } = notifier({ senders: [cmd.sender, hook.sender] });
    hook.state.failing = true;
    await n.start();
    n.observe(source, question("r1"));
    clock.advance(0);
    await settle();
    expect(cmd.got).toHaveLength(1);
    expect(hook.got).toHaveLength(0);
    expect(logs).toContainEqual(expect.stringContaining("to the webhook failed (attempt 1): receiver down"));
    clock.advance(999);
    await settle();
    expect(logs.filter((l) => l.includes("to the webhook failed"))).toHaveLength(1);
    hook.state.failing = false;
    clock.advance(1);
    await settle();
    expect(hook.got.map((e) => e.id)).toEqual(["s1:call_1"]);
    expect(n.stats).toMatchObject({ open: 0, delivered: 2, retried: 1, failed: 0 });
  });

  it("gives up after the last attempt, and says so", async () => {
    const { n, clock, hook, logs } = notifier();
    hook.state.failing = true;
    await n.start();
    n.observe(source, question("r1"));
    for (let i = 0; i < 12; i++) {
      clock.advance(60_000);
      await settle();
    }
    expect(logs.filter((l) => l.includes("to the webhook failed"))).toHaveLength(8);
    expect(logs.some((l) => l.includes("gave up"))).toBe(true);
    expect(n.stats).toMatchObject({ open: 0, failed: 1 });
  });

  it("delivers after a restart what was due, from the outbox alone", async () => {
    const outbox = memoryOutbox();
    const before = notifier({ delayMs: 5000, outbox });
    await before.n.start();
    before.n.observe(source, question("r1"));
    await settle();
    // The daemon dies before the delay is over: nothing was sent, the entry is on record.
    expect(before.hook.got).toEqual([]);
    expect(outbox.records.map((r: OutboxRecord) => r.op)).toEqual(["add"]);
    const after = notifier({ delayMs: 5000, outbox: memoryOutbox(outbox.records) });
    after.clock.advance(10_000);
    await after.n.start();
    after.clock.advance(0);
    await settle();
    expect(after.hook.got.map((e) => e.id)).toEqual(["s1:call_1"]);
  });

  it("a question asked again after a restore is not told again once delivered; one never told is, marked restored", async () => {
    const { n, clock, hook } = notifier();
    await n.start();
    n.observe(source, question("r1"));
    clock.advance(0);
    await settle();
    n.observe({ ...source, restored: true }, question("r2"));
    n.observe({ ...source, restored: true }, question("r3", "call_2"));
    clock.advance(0);
    await settle();
    expect(hook.got.map((e) => [e.id, e.requestId, e.restored])).toEqual([
      ["s1:call_1", "r1", false],
      ["s1:call_2", "r3", true],
    ]);
  });

  it("never throws into the event path, even for odd events", async () => {
    const { n } = notifier();
    await n.start();
    expect(() => n.observe(source, event("permission_request", { toolCall: "nonsense" }))).not.toThrow();
    expect(() => n.observe(source, event("turn_complete", {}, undefined as unknown as string))).not.toThrow();
  });
});
