// Many sessions' rings under the daemon's one buffer budget: together they never hold more than it, the oldest
// replay data of the daemon goes first, and a cursor into what went gets state_resync_required.
import { describe, expect, it } from "vitest";
import { BufferBudget } from "../budget/buffer-budget.js";
import type { DaemonFrame } from "./daemon-event.js";
import { SessionEventBus } from "./event-bus.js";
import { ManualClock } from "./manual-clock.js";
import type { Subscription } from "./subscription.js";

const big = (n: number) => ({ text: "x".repeat(n) });
/** A budget that holds exactly `n` events of `big(1000)` (each 1,123-1,125 bytes of SSE text, by id width). */
const eventsWorth = (n: number) => n * 1130;

function busOn(budget: BufferBudget, options: ConstructorParameters<typeof SessionEventBus>[0] = {}) {
  return new SessionEventBus({ epoch: "e", clock: new ManualClock(1), budget, ...options });
}

function drain(sub: Subscription): DaemonFrame[] {
  const out: DaemonFrame[] = [];
  for (let f = sub.tryNext(); f !== undefined; f = sub.tryNext()) out.push(f);
  return out;
}

const ringTotal = (buses: readonly SessionEventBus[]) => buses.reduce((sum, b) => sum + b.ringBytes, 0);

describe("event rings under one buffer budget", () => {
  it("many sessions' rings together stay within the budget, though each is far under its own cap", () => {
    const budget = new BufferBudget(100_000);
    const buses = Array.from({ length: 40 }, () => busOn(budget, { ringMaxBytes: 16 * 1024 * 1024 }));
    for (let round = 0; round < 20; round += 1) {
      for (const bus of buses) {
        bus.publish("session_update", big(1000));
        expect(ringTotal(buses)).toBeLessThanOrEqual(100_000);
      }
    }
    expect(ringTotal(buses)).toBe(budget.usedBytes);
    // Without the budget each ring would hold its 20 events (40 x 20 x ~1 KB = ~800 KB).
    expect(ringTotal(buses)).toBeGreaterThan(90_000);
  });

  it("evicts the daemon's oldest replay data first: an idle session's ring goes before a busy one's", () => {
    const budget = new BufferBudget(eventsWorth(19));
    const idle = busOn(budget);
    const busy = busOn(budget);
    for (let i = 0; i < 5; i += 1) idle.publish("session_update", big(1000));
    for (let i = 0; i < 14; i += 1) busy.publish("session_update", big(1000));
    expect(idle.eventsAfter(0)).toHaveLength(5);
    for (let i = 0; i < 3; i += 1) busy.publish("session_update", big(1000));
    // The three newest of busy pushed out the three oldest of idle, not busy's own.
    expect(idle.eventsAfter(0).map((e) => e.id)).toEqual([4, 5]);
    expect(busy.eventsAfter(0).map((e) => e.id)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
  });

  it("a client whose cursor was evicted by the budget gets state_resync_required, then what is left", () => {
    const budget = new BufferBudget(eventsWorth(10));
    const quiet = busOn(budget);
    const loud = busOn(budget);
    for (let i = 0; i < 4; i += 1) quiet.publish("session_update", big(1000));
    for (let i = 0; i < 8; i += 1) loud.publish("session_update", big(1000));
    expect(quiet.earliestAvailableId).toBe(3);
    const frames = drain(quiet.subscribe({ lastEventId: 1 }));
    expect(frames.map((f) => f.type)).toEqual([
      "state_resync_required",
      "session_update",
      "session_update",
      "replay_complete",
    ]);
    expect(frames[0]?.data).toEqual({ reason: "ring_evicted", lastDeliveredId: 1, earliestAvailableId: 3 });
    // A cursor still covered replays as usual.
    expect(drain(loud.subscribe({ lastEventId: 6 })).map((f) => f.id ?? f.type)).toEqual([
      7,
      8,
      "replay_complete",
    ]);
  });

  it("a closed session's ring leaves the budget at once, and events published after close do not enter it", () => {
    const budget = new BufferBudget(1_000_000);
    const bus = busOn(budget);
    for (let i = 0; i < 3; i += 1) bus.publish("session_update", big(1000));
    expect(budget.usedBytes).toBe(bus.ringBytes);
    bus.close();
    expect(budget.usedBytes).toBe(0);
    bus.publish("session_update", big(1000));
    expect(budget.usedBytes).toBe(0);
  });

  it("a ring's own caps and advanceTo give their bytes back to the budget", () => {
    const budget = new BufferBudget(1_000_000);
    const counted = busOn(budget, { ringSize: 3 });
    const sized = busOn(budget, { ringMaxBytes: 2500 });
    for (let i = 0; i < 10; i += 1) {
      counted.publish("session_update", big(100));
      sized.publish("session_update", big(1000));
    }
    expect(budget.usedBytes).toBe(counted.ringBytes + sized.ringBytes);
    counted.advanceTo(100);
    expect(budget.usedBytes).toBe(sized.ringBytes);
  });

  it("a slow subscriber may queue no more than the whole budget", () => {
    const budget = new BufferBudget(5000);
    const bus = busOn(budget);
    const slow = bus.subscribe({ maxQueued: 2048 });
    for (let i = 0; i < 10; i += 1) bus.publish("session_update", big(1000));
    expect(slow.closeReason).toBe("queue_overflow");
  });
});
