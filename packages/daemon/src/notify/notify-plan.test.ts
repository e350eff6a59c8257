import { describe, expect, it } from "vitest";
import { sampleNotifyEvent } from "../testing/notify-event.js";
import type { NotifyEvent } from "./notify-event.js";
import { defaultBackoffMs, NotifyPlanner, type PlanAction } from "./notify-plan.js";

function waiting(id = "s1:call_1", requestId = "r1"): NotifyEvent {
  return sampleNotifyEvent({ id, requestId, toolCallId: id.split(":")[1] });
}
const turn: NotifyEvent = { ...waiting("s1:turn:p1"), type: "turn_completed", title: "The agent finished" };
delete (turn as Partial<NotifyEvent>).requestId;

function planner(options: Partial<ConstructorParameters<typeof NotifyPlanner>[0]> = {}) {
  let n = 0;
  return new NotifyPlanner({
    senders: ["command", "webhook"],
    delayMs: 1000,
    newKey: () => `k${++n}`,
    ...options,
  });
}
const ops = (actions: PlanAction[]) =>
  actions.map((a) => `${a.op}:${a.op === "add" ? a.entry.key : a.op === "told" ? a.id : a.key}`);

describe("NotifyPlanner", () => {
  it("makes one entry per receiver; a waiting question is due after the delay, a turn's end at once", () => {
    const p = planner();
    const added = p.notify(waiting(), 10_000);
    expect(added.map((a) => (a.op === "add" ? [a.entry.sender, a.entry.dueAt] : a.op))).toEqual([
      ["command", 11_000],
      ["webhook", 11_000],
    ]);
    p.notify(turn, 10_000);
    expect(p.takeDue(10_500).map((e) => e.event.type)).toEqual(["turn_completed", "turn_completed"]);
    expect(p.nextDueAt()).toBe(11_000);
    expect(p.takeDue(11_000).map((e) => [e.key, e.sender])).toEqual([
      ["k1", "command"],
      ["k2", "webhook"],
    ]);
    // In flight: not offered again.
    expect(p.takeDue(99_999)).toEqual([]);
  });

  it("an answer before the delay cancels it; one after the send cannot", () => {
    const p = planner();
    p.notify(waiting(), 0);
    expect(p.resolved("s1", "other-request")).toEqual([]);
    expect(p.resolved("s1", "r1")).toEqual([
      { op: "close", key: "k1", outcome: "cancelled" },
      { op: "close", key: "k2", outcome: "cancelled" },
    ]);
    expect(p.takeDue(5000)).toEqual([]);
    p.notify(waiting("s1:call_2", "r2"), 0);
    p.takeDue(1000);
    expect(p.resolved("s1", "r2")).toEqual([]);
    expect(p.delivered("k3")).toEqual([
      { op: "close", key: "k3", outcome: "delivered" },
      { op: "told", id: "s1:call_2" },
    ]);
  });

  it("the same question asked again (a restore) replaces what was still pending, keeping its id", () => {
    const p = planner({ senders: ["webhook"] });
    p.notify(waiting("s1:call_1", "r-old"), 0);
    const again = p.notify({ ...waiting("s1:call_1", "r-new"), restored: true }, 500);
    expect(ops(again)).toEqual(["close:k1", "add:k2"]);
    const [entry] = p.takeDue(1500);
    expect(entry?.event).toMatchObject({ id: "s1:call_1", requestId: "r-new", restored: true });
  });

  it("a question told before is not told again when a restore asks it again (also after a restart)", () => {
    const p = planner({ senders: ["command", "webhook"], delayMs: 0 });
    p.notify(waiting("s1:call_1", "r-old"), 0);
    p.takeDue(0);
    // Told once, however many receivers had it.
    expect(ops([...p.delivered("k1"), ...p.delivered("k2")])).toEqual([
      "close:k1",
      "told:s1:call_1",
      "close:k2",
    ]);
    expect(p.notify({ ...waiting("s1:call_1", "r-new"), restored: true }, 10)).toEqual([]);
    // A new question, or one never delivered, is told.
    expect(ops(p.notify({ ...waiting("s1:call_2", "r2"), restored: true }, 10))).toEqual([
      "add:k3",
      "add:k4",
    ]);
    expect(p.notify(turn, 10)).toHaveLength(2);

    const restarted = planner({ senders: ["webhook"], delayMs: 0 });
    restarted.load([], p.told);
    expect(restarted.notify({ ...waiting("s1:call_1", "r-3"), restored: true }, 0)).toEqual([]);
  });

  it("retries a failed delivery with a growing pause, and gives up after the last attempt", () => {
    const p = planner({ senders: ["webhook"], delayMs: 0, maxAttempts: 3 });
    p.notify(waiting(), 0);
    p.takeDue(0);
    expect(p.failed("k1", 100)).toEqual([{ op: "retry", key: "k1", attempts: 1, dueAt: 1100 }]);
    expect(p.takeDue(1099)).toEqual([]);
    p.takeDue(1100);
    expect(p.failed("k1", 1100)).toEqual([{ op: "retry", key: "k1", attempts: 2, dueAt: 3100 }]);
    p.takeDue(3100);
    expect(p.failed("k1", 3100)).toEqual([{ op: "close", key: "k1", outcome: "failed" }]);
    expect(p.open).toEqual([]);
    expect([1, 2, 3, 7, 8, 20].map(defaultBackoffMs)).toEqual([1000, 2000, 4000, 60_000, 60_000, 60_000]);
  });

  it("keeps at most maxOpen entries, dropping the oldest", () => {
    const p = planner({ senders: ["command"], maxOpen: 2 });
    p.notify(waiting("s1:a", "ra"), 0);
    p.notify(waiting("s1:b", "rb"), 0);
    expect(p.notify(waiting("s1:c", "rc"), 0)).toEqual([
      expect.objectContaining({ op: "add" }),
      { op: "close", key: "k1", outcome: "dropped" },
    ]);
    expect(p.open.map((e) => e.event.id)).toEqual(["s1:b", "s1:c"]);
  });

  it("takes back what the outbox held after a restart: due at once when its time passed", () => {
    const p = planner({ senders: ["command"] });
    const held = { key: "old", sender: "command", event: waiting(), dueAt: 5000, attempts: 2 };
    const gone = { key: "gone", sender: "smoke-signal", event: waiting(), dueAt: 0, attempts: 0 };
    expect(p.load([held, gone])).toEqual([{ op: "close", key: "gone", outcome: "dropped" }]);
    expect(p.takeDue(9000).map((e) => [e.key, e.attempts])).toEqual([["old", 2]]);
  });
});
