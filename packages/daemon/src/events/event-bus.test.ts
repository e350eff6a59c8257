import { describe, expect, it } from "vitest";
import type { DaemonFrame } from "./daemon-event.js";
import { SessionEventBus, SubscriberLimitExceededError } from "./event-bus.js";
import { ManualClock } from "./manual-clock.js";
import { formatSseEvent } from "./sse-frame.js";
import type { Subscription } from "./subscription.js";

function makeBus(options: ConstructorParameters<typeof SessionEventBus>[0] = {}) {
  return new SessionEventBus({ epoch: "epoch-1", clock: new ManualClock(42), ...options });
}

function drain(sub: Subscription): DaemonFrame[] {
  const out: DaemonFrame[] = [];
  for (let f = sub.tryNext(); f !== undefined; f = sub.tryNext()) out.push(f);
  return out;
}

const summary = (frames: DaemonFrame[]) =>
  frames.map((f) => (f.id === undefined ? f.type : `${f.type}#${f.id}`));

function publishN(bus: SessionEventBus, n: number): void {
  for (let i = 0; i < n; i += 1) bus.publish("session_update", { i });
}

describe("SessionEventBus.publish", () => {
  it("stamps ids 1.., v, envelope extras and serverTimestamp", () => {
    const bus = makeBus();
    const first = bus.publish(
      "turn_complete",
      { stopReason: "end_turn" },
      { promptId: "p1", originatorClientId: "c1" },
    );
    const second = bus.publish("session_update", { x: 1 });
    expect(first).toEqual({
      id: 1,
      v: 1,
      type: "turn_complete",
      data: { stopReason: "end_turn" },
      promptId: "p1",
      originatorClientId: "c1",
      _meta: { serverTimestamp: 42 },
    });
    expect(Object.keys(second)).toEqual(["id", "v", "type", "data", "_meta"]);
    expect(second.id).toBe(2);
    expect(bus.lastEventId).toBe(2);
  });

  it("ids are per bus", () => {
    const a = makeBus();
    const b = makeBus();
    a.publish("x", {});
    a.publish("x", {});
    expect(b.publish("x", {}).id).toBe(1);
  });

  it("refuses unserialisable data without burning an id", () => {
    const bus = makeBus();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => bus.publish("x", cyclic)).toThrow(TypeError);
    expect(bus.publish("x", {}).id).toBe(1);
  });

  it("generates a fresh uuid epoch per bus unless one is given", () => {
    const a = new SessionEventBus();
    const b = new SessionEventBus();
    expect(a.epoch).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.epoch).not.toBe(b.epoch);
  });
});

describe("subscribe without a cursor", () => {
  it("gets only events published after subscribing, after the initial snapshot", async () => {
    const bus = makeBus();
    bus.publish("old", {});
    const sub = bus.subscribe({
      initial: [{ type: "permission_request", data: { requestId: "r1" }, originatorClientId: "c1" }],
    });
    bus.publish("new", { n: 1 });
    const frames = drain(sub);
    expect(frames[0]).toEqual({
      v: 1,
      type: "permission_request",
      data: { requestId: "r1" },
      originatorClientId: "c1",
      _meta: { serverTimestamp: 42 },
    });
    expect(summary(frames)).toEqual(["permission_request", "new#2"]);
  });

  it("a waiting reader is woken by the next publish", async () => {
    const bus = makeBus();
    const sub = bus.subscribe();
    const next = sub.next();
    bus.publish("hello", {});
    expect(await next).toMatchObject({ done: false, value: { id: 1, type: "hello" } });
  });

  it("works as an async iterator and ends when the bus closes, after draining", async () => {
    const bus = makeBus();
    const sub = bus.subscribe();
    bus.publish("a", {});
    bus.publish("session_closed", {});
    bus.close();
    const seen: string[] = [];
    for await (const frame of sub) seen.push(frame.type);
    expect(seen).toEqual(["a", "session_closed"]);
    expect(sub.closeReason).toBe("bus_closed");
    expect(bus.subscriberCount).toBe(0);
  });
});

describe("replay with Last-Event-ID", () => {
  it("replays N+1.. then replay_complete (without id)", () => {
    const bus = makeBus();
    publishN(bus, 5);
    const sub = bus.subscribe({ lastEventId: 3, initial: [{ type: "ignored_with_cursor", data: {} }] });
    bus.publish("live", {});
    const frames = drain(sub);
    expect(summary(frames)).toEqual(["session_update#4", "session_update#5", "replay_complete", "live#6"]);
    expect(frames[2]).toEqual({
      v: 1,
      type: "replay_complete",
      data: { replayedCount: 2, lastReplayedEventId: 5, lastEventId: 5 },
      _meta: { serverTimestamp: 42 },
    });
  });

  it("an up-to-date cursor replays nothing but still completes", () => {
    const bus = makeBus();
    publishN(bus, 2);
    expect(drain(bus.subscribe({ lastEventId: 2 })).map((f) => [f.type, f.data])).toEqual([
      ["replay_complete", { replayedCount: 0 }],
    ]);
    expect(summary(drain(makeBus().subscribe({ lastEventId: 0 })))).toEqual(["replay_complete"]);
  });

  it("a cursor the ring no longer holds gets state_resync_required, then what survives", () => {
    const bus = makeBus({ ringSize: 3 });
    publishN(bus, 10); // ring holds 8, 9, 10
    expect(bus.earliestAvailableId).toBe(8);
    const frames = drain(bus.subscribe({ lastEventId: 5 }));
    expect(frames[0]).toEqual({
      v: 1,
      type: "state_resync_required",
      data: { reason: "ring_evicted", lastDeliveredId: 5, earliestAvailableId: 8 },
      _meta: { serverTimestamp: 42 },
    });
    expect(summary(frames)).toEqual([
      "state_resync_required",
      "session_update#8",
      "session_update#9",
      "session_update#10",
      "replay_complete",
    ]);
    // The edge: cursor 7 needs 8.. which is all there.
    expect(summary(drain(bus.subscribe({ lastEventId: 7 })))[0]).toBe("session_update#8");
  });

  it("a cursor from another id sequence (ahead of us, or another epoch) resyncs", () => {
    const bus = makeBus();
    publishN(bus, 2);
    const ahead = drain(bus.subscribe({ lastEventId: 99 }));
    expect(ahead[0]?.data).toEqual({ reason: "epoch_reset", lastDeliveredId: 99, earliestAvailableId: 1 });
    expect(summary(ahead)).toEqual([
      "state_resync_required",
      "session_update#1",
      "session_update#2",
      "replay_complete",
    ]);
    const otherEpoch = drain(bus.subscribe({ lastEventId: 1, epoch: "epoch-0" }));
    expect(otherEpoch[0]?.data).toMatchObject({ reason: "epoch_reset" });
    expect(summary(drain(bus.subscribe({ lastEventId: 1, epoch: "epoch-1" })))).toEqual([
      "session_update#2",
      "replay_complete",
    ]);
  });

  it("refuses malformed cursors and maxQueued outside 16..2048", () => {
    const bus = makeBus();
    expect(() => bus.subscribe({ lastEventId: -1 })).toThrow(RangeError);
    expect(() => bus.subscribe({ lastEventId: 1.5 })).toThrow(RangeError);
    expect(() => bus.subscribe({ maxQueued: 15 })).toThrow(RangeError);
    expect(() => bus.subscribe({ maxQueued: 2049 })).toThrow(RangeError);
    expect(bus.subscribe({ maxQueued: 16 }).maxQueued).toBe(16);
    expect(bus.subscribe({ maxQueued: 2048 }).maxQueued).toBe(2048);
    expect(bus.subscribe().maxQueued).toBe(256);
  });
});

describe("after /load: advanceTo / setNextId", () => {
  it("the first live event after a compactedReplay of n items is n+1", () => {
    const bus = makeBus();
    bus.advanceTo(12);
    expect(bus.lastEventId).toBe(12);
    expect(bus.publish("live", {}).id).toBe(13);
    const other = makeBus();
    other.setNextId(8);
    expect(other.publish("live", {}).id).toBe(8);
  });

  it("never moves backwards, and a cursor inside the skipped range must resync", () => {
    const bus = makeBus();
    publishN(bus, 3);
    bus.advanceTo(2);
    expect(bus.lastEventId).toBe(3);
    bus.advanceTo(10);
    expect(summary(drain(bus.subscribe({ lastEventId: 10 })))).toEqual(["replay_complete"]);
    const stale = drain(bus.subscribe({ lastEventId: 3 }));
    expect(stale[0]?.data).toEqual({ reason: "ring_evicted", lastDeliveredId: 3, earliestAvailableId: 11 });
    bus.publish("live", {});
    expect(summary(drain(bus.subscribe({ lastEventId: 10 })))).toEqual(["live#11", "replay_complete"]);
    expect(() => bus.advanceTo(-1)).toThrow(RangeError);
  });
});

describe("slow subscribers", () => {
  it("a subscriber maxQueued live events behind is evicted with client_evicted; others are unaffected", async () => {
    const bus = makeBus();
    const slow = bus.subscribe({ maxQueued: 16 });
    const fast = bus.subscribe({ maxQueued: 16 });
    const fastSeen: number[] = [];
    for (let i = 1; i <= 20; i += 1) {
      bus.publish("session_update", { i });
      fastSeen.push(...drain(fast).map((f) => f.id ?? -1));
    }
    expect(fastSeen).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(slow.closed).toBe(true);
    expect(slow.closeReason).toBe("queue_overflow");
    expect(bus.subscriberCount).toBe(1);
    const frames = drain(slow);
    expect(summary(frames).slice(-2)).toEqual(["session_update#16", "client_evicted"]);
    expect(frames.at(-1)?.data).toEqual({
      reason: "queue_overflow",
      droppedAfter: 17,
      queueSize: 16,
      maxQueued: 16,
    });
    expect(await slow.next()).toEqual({ done: true, value: undefined });
  });

  it("a subscriber whose unread live events pass the ring's byte bound is evicted, however few they are", () => {
    const bus = makeBus({ ringMaxBytes: 10_000 });
    const slow = bus.subscribe({ maxQueued: 16 });
    const fast = bus.subscribe({ maxQueued: 16 });
    for (let i = 0; i < 5; i += 1) {
      bus.publish("session_update", { text: "x".repeat(3000) });
      drain(fast);
    }
    expect(slow.closeReason).toBe("queue_overflow");
    expect(fast.closed).toBe(false);
    const frames = drain(slow);
    expect(summary(frames)).toEqual([
      "session_update#1",
      "session_update#2",
      "session_update#3",
      "client_evicted",
    ]);
    expect(frames.at(-1)?.data).toMatchObject({ reason: "queue_overflow", droppedAfter: 4, queueSize: 3 });
  });

  it("replayed frames do not count against maxQueued", () => {
    const bus = makeBus();
    publishN(bus, 100);
    const sub = bus.subscribe({ lastEventId: 0, maxQueued: 16 });
    publishN(bus, 16);
    expect(sub.closed).toBe(false);
    expect(sub.queued).toBe(100 + 1 + 16);
    bus.publish("one_too_many", {});
    expect(sub.closeReason).toBe("queue_overflow");
  });

  it("unsubscribing drops the buffer and detaches at once", async () => {
    const bus = makeBus();
    const sub = bus.subscribe();
    bus.publish("a", {});
    const closed: string[] = [];
    const watched = bus.subscribe({ onClose: (reason) => closed.push(reason) });
    sub.close();
    expect(await sub.next()).toEqual({ done: true, value: undefined });
    expect(bus.subscriberCount).toBe(1);
    await watched.return();
    expect(closed).toEqual(["unsubscribed"]);
    expect(bus.subscriberCount).toBe(0);
  });
});

describe("the ring's byte bound", () => {
  const big = (n: number) => ({ text: "x".repeat(n) });

  it("drops the oldest events once the ring holds more than ringMaxBytes of frames, keeping the newest", () => {
    const bus = makeBus({ ringMaxBytes: 10_000 });
    for (let i = 0; i < 10; i += 1) bus.publish("session_update", big(3000));
    expect(bus.ringBytes).toBeLessThanOrEqual(10_000);
    expect(bus.eventsAfter(0).map((e) => e.id)).toEqual([8, 9, 10]);
    expect(bus.earliestAvailableId).toBe(8);
    // A cursor before what is left resyncs, exactly as when the count bound evicts.
    const frames = drain(bus.subscribe({ lastEventId: 2 }));
    expect(summary(frames)).toEqual([
      "state_resync_required",
      "session_update#8",
      "session_update#9",
      "session_update#10",
      "replay_complete",
    ]);
  });

  it("keeps a single event larger than the bound until the next one arrives", () => {
    const bus = makeBus({ ringMaxBytes: 1000 });
    bus.publish("session_update", big(5000));
    expect(bus.eventsAfter(0).map((e) => e.id)).toEqual([1]);
    bus.publish("session_update", { small: true });
    expect(bus.eventsAfter(0).map((e) => e.id)).toEqual([2]);
    expect(bus.ringBytes).toBeLessThan(1000);
  });

  it("accounts for events the count bound drops and for a cleared ring", () => {
    const bus = makeBus({ ringSize: 2, ringMaxBytes: 1_000_000 });
    const held = () => bus.eventsAfter(0).reduce((sum, e) => sum + formatSseEvent(e).length, 0);
    publishN(bus, 5);
    expect(bus.eventsAfter(0)).toHaveLength(2);
    expect(bus.ringBytes).toBe(held());
    publishN(bus, 50);
    expect(bus.ringBytes).toBe(held());
    bus.advanceTo(100);
    expect(bus.ringBytes).toBe(0);
  });
});

describe("limits and lifecycle", () => {
  it("caps subscribers", () => {
    const bus = makeBus({ maxSubscribers: 2 });
    const a = bus.subscribe();
    bus.subscribe();
    expect(() => bus.subscribe()).toThrow(SubscriberLimitExceededError);
    a.close();
    expect(() => bus.subscribe()).not.toThrow();
  });

  it("after close, subscriptions end at once and publish still numbers events", async () => {
    const bus = makeBus();
    bus.close();
    const sub = bus.subscribe();
    expect(sub.closeReason).toBe("bus_closed");
    expect(await sub.next()).toEqual({ done: true, value: undefined });
    expect(bus.publish("late", {}).id).toBe(1);
  });

  it("push mode delivers synchronously; a throwing callback only closes that subscriber", () => {
    const errors: string[] = [];
    const bus = makeBus({ reportError: (_e, context) => errors.push(context) });
    const seen: string[] = [];
    bus.subscribe({ onEvent: (f) => seen.push(f.type) });
    const bad = bus.subscribe({
      onEvent: () => {
        throw new Error("boom");
      },
    });
    bus.publish("a", {});
    bus.publish("b", {});
    expect(seen).toEqual(["a", "b"]);
    expect(bad.closeReason).toBe("subscriber_error");
    expect(errors).toHaveLength(1);
    expect(bus.subscriberCount).toBe(1);
  });

  it("eventsAfter returns ring events after an id", () => {
    const bus = makeBus({ ringSize: 4 });
    publishN(bus, 6);
    expect(bus.eventsAfter(0).map((e) => e.id)).toEqual([3, 4, 5, 6]);
    expect(bus.eventsAfter(4).map((e) => e.id)).toEqual([5, 6]);
    expect(bus.eventsAfter(6)).toEqual([]);
  });
});
