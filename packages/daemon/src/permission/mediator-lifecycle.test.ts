// How requests end besides votes (timeouts, cancellation, dispose), robustness of emit, and the audit ring.
import { describe, expect, it, vi } from "vitest";
import { SessionEventBus } from "../events/event-bus.js";
import { ManualClock } from "../events/manual-clock.js";
import { wire } from "../testing/vote-wire.js";
import { PermissionMediator } from "./mediator.js";
import { makeMediator, peek, req } from "./mediator-harness.js";

const select = (optionId: string) => ({ outcome: "selected" as const, optionId });

describe("timeouts", () => {
  it("timeoutMs > 0 resolves cancelled with reason timeout", async () => {
    const { mediator, clock, ofType } = makeMediator({ timeoutMs: 5_000 });
    const decision = mediator.request(req());
    clock.advance(4_999);
    expect(await peek(decision)).toBe("pending");
    clock.advance(1);
    expect(await decision).toEqual({ outcome: { outcome: "cancelled" }, reason: "timeout" });
    expect(ofType("permission_resolved")[0]?.data).toEqual({
      requestId: "r1",
      sessionId: "s1",
      outcome: { outcome: "cancelled" },
      reason: "timeout",
    });
    expect(mediator.audit().map((e) => e.kind)).toEqual(["requested", "timeout", "resolved"]);
    expect(wire(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") })).kind).toBe(
      "already_resolved",
    );
  });

  it("0 waits forever and a vote clears the timer", async () => {
    const forever = makeMediator({ timeoutMs: 0 });
    const waiting = forever.mediator.request(req());
    forever.clock.advance(10 * 24 * 3600 * 1000);
    expect(await peek(waiting)).toBe("pending");
    expect(forever.clock.pendingTimers).toBe(0);

    const timed = makeMediator({ timeoutMs: 1_000 });
    void timed.mediator.request(req());
    expect(timed.clock.pendingTimers).toBe(1);
    timed.mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") });
    expect(timed.clock.pendingTimers).toBe(0);
    timed.clock.advance(5_000);
    expect(timed.ofType("permission_resolved")).toHaveLength(1);
  });

  it("works with vitest fake timers through the default clock", async () => {
    vi.useFakeTimers();
    try {
      const mediator = new PermissionMediator({ timeoutMs: 30_000, emit: () => {} });
      const decision = mediator.request(req());
      vi.advanceTimersByTime(30_000);
      expect(await decision).toEqual({ outcome: { outcome: "cancelled" }, reason: "timeout" });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("session independence and cancellation", () => {
  it("one session waiting never blocks another", async () => {
    const { mediator } = makeMediator();
    const waiting = mediator.request(req({ sessionId: "s1", requestId: "q1" }));
    const other = mediator.request(req({ sessionId: "s2", requestId: "q2" }));
    mediator.vote({ sessionId: "s2", requestId: "q2", outcome: select("allow") });
    expect(await other).toMatchObject({ outcome: { outcome: "selected" } });
    expect(await peek(waiting)).toBe("pending");
    expect(mediator.hasPending("s2")).toBe(false);
  });

  it("cancelSession resolves only that session's requests", async () => {
    const { mediator, ofType } = makeMediator({ timeoutMs: 1_000 });
    const a = mediator.request(req({ sessionId: "s1", requestId: "a" }));
    const b = mediator.request(req({ sessionId: "s1", requestId: "b" }));
    const c = mediator.request(req({ sessionId: "s2", requestId: "c" }));
    expect(mediator.cancelSession("s1", "agent_cancelled")).toBe(2);
    expect(await a).toEqual({ outcome: { outcome: "cancelled" }, reason: "agent_cancelled" });
    expect(await b).toEqual({ outcome: { outcome: "cancelled" }, reason: "agent_cancelled" });
    expect(await peek(c)).toBe("pending");
    expect(ofType("permission_resolved").map((e) => e.data.requestId)).toEqual(["a", "b"]);
    expect(mediator.cancelSession("s1", "session_closed")).toBe(0);
  });

  it("cancelRequest and cancelPrompt target single requests", async () => {
    const { mediator } = makeMediator();
    const a = mediator.request(req({ requestId: "a", promptId: "p1" }));
    const b = mediator.request(req({ requestId: "b", promptId: "p2" }));
    const c = mediator.request(req({ requestId: "c", promptId: "p2" }));
    expect(mediator.cancelRequest("s1", "a", "agent_cancelled")).toBe(true);
    expect(mediator.cancelRequest("s1", "a", "agent_cancelled")).toBe(false);
    expect(await a).toMatchObject({ reason: "agent_cancelled" });
    expect(mediator.cancelPrompt("s1", "p2", "session_closed")).toBe(2);
    expect(await b).toMatchObject({ reason: "session_closed" });
    expect(await c).toMatchObject({ reason: "session_closed" });
  });

  it("dispose closes everything and settles later requests at once", async () => {
    const { mediator, clock } = makeMediator({ timeoutMs: 1_000 });
    const a = mediator.request(req({ sessionId: "s1" }));
    const b = mediator.request(req({ sessionId: "s2" }));
    mediator.dispose();
    expect(await a).toMatchObject({ reason: "session_closed" });
    expect(await b).toMatchObject({ reason: "session_closed" });
    expect(clock.pendingTimers).toBe(0);
    expect(await mediator.request(req({ sessionId: "s3" }))).toMatchObject({ reason: "session_closed" });
    expect(mediator.pendingCount).toBe(0);
  });
});

describe("robustness", () => {
  it("a throwing emit is reported and the decision still arrives", async () => {
    const reported: string[] = [];
    const mediator = new PermissionMediator({
      clock: new ManualClock(),
      emit: () => {
        throw new Error("bus down");
      },
      reportError: (_error, context) => reported.push(context),
    });
    const decision = mediator.request(req());
    mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") });
    expect(await decision).toMatchObject({ outcome: { outcome: "selected", optionId: "allow" } });
    expect(reported).toEqual([
      "emit of permission_request for session s1 failed",
      "emit of permission_resolved for session s1 failed",
    ]);
  });

  it("a listener voting again from inside permission_resolved sees already-resolved", async () => {
    const results: number[] = [];
    const mediator: PermissionMediator = new PermissionMediator({
      clock: new ManualClock(),
      emit: (_s, type) => {
        if (type === "permission_resolved") {
          results.push(
            wire(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("deny") })).status,
          );
        }
      },
    });
    const decision = mediator.request(req());
    mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") });
    expect(results).toEqual([404]);
    expect(await decision).toMatchObject({ outcome: { optionId: "allow" } });
  });

  it("wires straight into a SessionEventBus", () => {
    const buses = new Map([["s1", new SessionEventBus({ clock: new ManualClock(5) })]]);
    const mediator = new PermissionMediator({
      emit: (sessionId, type, data, extra) => buses.get(sessionId)?.publish(type, data, extra),
    });
    void mediator.request(req({ promptId: "p1" }));
    mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_a", outcome: select("allow") });
    const events = buses.get("s1")?.eventsAfter(0) ?? [];
    expect(events.map((e) => [e.id, e.type, e.promptId, e.originatorClientId])).toEqual([
      [1, "permission_request", "p1", "client_a"],
      [2, "permission_resolved", "p1", "client_a"],
    ]);
  });
});

describe("audit ring", () => {
  it("records requested / voted / forbidden / resolved, bounded", () => {
    const { mediator } = makeMediator({ policy: "designated", auditCapacity: 4 });
    void mediator.request(req());
    mediator.vote({
      sessionId: "s1",
      requestId: "r1",
      clientId: "client_b",
      remoteAddress: "::1",
      outcome: select("allow"),
    });
    mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_a", outcome: select("allow") });
    expect(mediator.audit().map((e) => e.kind)).toEqual(["requested", "forbidden", "voted", "resolved"]);
    expect(mediator.audit()[1]).toEqual({
      at: 1_000,
      kind: "forbidden",
      sessionId: "s1",
      requestId: "r1",
      policy: "designated",
      clientId: "client_b",
      remoteAddress: "::1",
      reason: "designated_mismatch",
    });
    void mediator.request(req({ requestId: "r2" }));
    expect(mediator.audit()).toHaveLength(4);
    expect(mediator.audit().map((e) => e.kind)).toEqual(["forbidden", "voted", "resolved", "requested"]);
  });

  it("rejects bad configuration", () => {
    expect(() => new PermissionMediator({ emit: () => {}, consensusQuorum: 0 })).toThrow(RangeError);
    expect(() => new PermissionMediator({ emit: () => {}, timeoutMs: -1 })).toThrow(RangeError);
  });
});
