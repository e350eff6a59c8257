import { describe, expect, it, vi } from "vitest";
import { SessionEventBus } from "../events/event-bus.js";
import { ManualClock } from "../events/manual-clock.js";
import { DuplicatePermissionRequestError, PermissionMediator } from "./mediator.js";
import { makeMediator, peek, QUESTION_OPTIONS, req } from "./mediator-harness.js";

const select = (optionId: string) => ({ outcome: "selected" as const, optionId });
const cancelled = { outcome: "cancelled" as const };

describe("PermissionMediator registration", () => {
  it("registers synchronously and emits permission_request with the wire data", () => {
    const { mediator, events } = makeMediator();
    void mediator.request(req({ promptId: "p1" }));
    expect(mediator.hasPending("s1")).toBe(true);
    expect(events).toEqual([
      {
        sessionId: "s1",
        type: "permission_request",
        data: {
          requestId: "r1",
          sessionId: "s1",
          toolCall: { toolCallId: "call-1", title: "Run ls", kind: "execute" },
          options: req().options,
        },
        extra: { promptId: "p1", originatorClientId: "client_a" },
      },
    ]);
    expect(mediator.pending("s1")).toEqual([
      {
        requestId: "r1",
        sessionId: "s1",
        toolCall: req().toolCall,
        options: req().options,
        createdAt: 1_000,
        originatorClientId: "client_a",
        promptId: "p1",
        policy: "first-responder",
      },
    ]);
  });

  it("a session cancelled right after the request cannot leak it", async () => {
    const { mediator } = makeMediator();
    const decision = mediator.request(req());
    mediator.cancelSession("s1", "session_closed");
    expect(mediator.hasPending("s1")).toBe(false);
    expect(await decision).toEqual({ outcome: { outcome: "cancelled" }, reason: "session_closed" });
  });

  it("refuses a second pending request with the same id on the same session", () => {
    const { mediator } = makeMediator();
    void mediator.request(req());
    expect(() => mediator.request(req())).toThrow(DuplicatePermissionRequestError);
    // The same id on another session is another request.
    expect(() => mediator.request(req({ sessionId: "s2" }))).not.toThrow();
  });

  it("offers the pending requests as initial snapshot events", () => {
    const { mediator } = makeMediator();
    void mediator.request(req({ requestId: "r1", promptId: "p1" }));
    void mediator.request(req({ requestId: "r2", options: QUESTION_OPTIONS }));
    const snapshot = mediator.pendingRequestEvents("s1");
    expect(snapshot.map((e) => [e.type, e.data.requestId])).toEqual([
      ["permission_request", "r1"],
      ["permission_request", "r2"],
    ]);
    expect(snapshot[0]).toMatchObject({ promptId: "p1", originatorClientId: "client_a" });
    expect(mediator.pendingRequestEvents("other")).toEqual([]);
  });
});

describe("first-responder", () => {
  it("the first valid vote wins, with answers and voter", async () => {
    const { mediator, ofType } = makeMediator();
    const decision = mediator.request(req({ options: QUESTION_OPTIONS }));
    const result = mediator.vote({
      sessionId: "s1",
      requestId: "r1",
      clientId: "client_b",
      outcome: select("proceed_once"),
      answers: { "0": "blue" },
    });
    expect(result).toEqual({ status: 200, kind: "resolved", body: {} });
    expect(await decision).toEqual({
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "blue" },
      voterClientId: "client_b",
    });
    expect(ofType("permission_resolved")).toEqual([
      {
        sessionId: "s1",
        type: "permission_resolved",
        data: {
          requestId: "r1",
          sessionId: "s1",
          outcome: { outcome: "selected", optionId: "proceed_once" },
          voterClientId: "client_b",
          answers: { "0": "blue" },
        },
        extra: { originatorClientId: "client_b" },
      },
    ]);
  });

  it("50 concurrent votes: exactly one 200, 49 404s, one permission_resolved", async () => {
    const { mediator, ofType } = makeMediator();
    const decision = mediator.request(req());
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        Promise.resolve().then(() =>
          mediator.vote({
            sessionId: "s1",
            requestId: "r1",
            clientId: `client_${i}`,
            outcome: select(i % 2 === 0 ? "allow" : "deny"),
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(49);
    expect(ofType("permission_resolved")).toHaveLength(1);
    expect(ofType("permission_already_resolved")).toHaveLength(49);
    const winner = results.findIndex((r) => r.status === 200);
    expect(await decision).toMatchObject({ voterClientId: `client_${winner}` });
  });

  it("a vote without a client id is accepted (loopback tools without the header)", async () => {
    const { mediator, ofType } = makeMediator();
    const decision = mediator.request(req());
    mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") });
    expect(await decision).toEqual({ outcome: { outcome: "selected", optionId: "allow" } });
    expect(ofType("permission_resolved")[0]?.extra).toEqual({});
  });
});

describe("votes that do not apply", () => {
  it("unknown request: 404 with the exact session-route and legacy bodies, no event", () => {
    const { mediator, events } = makeMediator();
    expect(mediator.vote({ sessionId: "s1", requestId: "nope", outcome: select("allow") })).toEqual({
      status: 404,
      kind: "not_found",
      body: { error: "No pending permission request for session", sessionId: "s1", requestId: "nope" },
    });
    expect(mediator.vote({ requestId: "nope", outcome: select("allow") })).toEqual({
      status: 404,
      kind: "not_found",
      body: { error: "No pending permission request", requestId: "nope" },
    });
    expect(events).toEqual([]);
  });

  it("a request of another session is 404 on the session route and stays pending", () => {
    const { mediator } = makeMediator();
    void mediator.request(req({ sessionId: "s1" }));
    const result = mediator.vote({ sessionId: "s2", requestId: "r1", outcome: select("allow") });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({
      error: "No pending permission request for session",
      sessionId: "s2",
      requestId: "r1",
    });
    expect(mediator.hasPending("s1")).toBe(true);
    // Cancel votes bypass policies, not session scoping.
    expect(mediator.vote({ sessionId: "s2", requestId: "r1", outcome: cancelled }).status).toBe(404);
    expect(mediator.hasPending("s1")).toBe(true);
  });

  it("the legacy route finds a request in any session", async () => {
    const { mediator } = makeMediator();
    const decision = mediator.request(req({ sessionId: "s7" }));
    expect(mediator.vote({ requestId: "r1", outcome: select("deny") }).status).toBe(200);
    expect(await decision).toMatchObject({ outcome: { outcome: "selected", optionId: "deny" } });
  });

  it("a second vote on a resolved request is 404 plus permission_already_resolved", () => {
    const { mediator, ofType } = makeMediator();
    void mediator.request(req({ promptId: "p1" }));
    mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") });
    const again = mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("deny") });
    expect(again).toEqual({
      status: 404,
      kind: "already_resolved",
      body: { error: "No pending permission request for session", sessionId: "s1", requestId: "r1" },
    });
    const legacy = mediator.vote({ requestId: "r1", outcome: select("deny") });
    expect(legacy.body).toEqual({ error: "No pending permission request", requestId: "r1" });
    expect(ofType("permission_already_resolved")).toEqual([
      {
        sessionId: "s1",
        type: "permission_already_resolved",
        data: { requestId: "r1", sessionId: "s1", outcome: { outcome: "selected", optionId: "allow" } },
        extra: { promptId: "p1" },
      },
      expect.objectContaining({ sessionId: "s1", type: "permission_already_resolved" }),
    ]);
    // A resolved request of another session is not announced there.
    expect(mediator.vote({ sessionId: "s2", requestId: "r1", outcome: select("allow") }).kind).toBe(
      "not_found",
    );
    expect(ofType("permission_already_resolved")).toHaveLength(2);
  });

  it("resolved ids are kept in a bounded FIFO: the oldest become plain unknown ids", () => {
    const { mediator } = makeMediator({ resolvedCapacity: 3 });
    for (const id of ["a", "b", "c", "d"]) {
      void mediator.request(req({ requestId: id }));
      mediator.vote({ sessionId: "s1", requestId: id, outcome: select("allow") });
    }
    const kindOf = (id: string) =>
      mediator.vote({ sessionId: "s1", requestId: id, outcome: select("allow") }).kind;
    expect(kindOf("a")).toBe("not_found");
    expect(["b", "c", "d"].map(kindOf)).toEqual(["already_resolved", "already_resolved", "already_resolved"]);
  });

  it("an option that was not offered is 400 invalid_option_id and changes nothing", () => {
    const { mediator, events } = makeMediator();
    void mediator.request(req());
    const result = mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("proceed_always") });
    expect(result).toEqual({
      status: 400,
      kind: "invalid_option",
      body: {
        error: 'Permission r1: optionId "proceed_always" is not in the set of options the agent offered.',
        code: "invalid_option_id",
        requestId: "r1",
        optionId: "proceed_always",
      },
    });
    expect(mediator.hasPending("s1")).toBe(true);
    expect(events.map((e) => e.type)).toEqual(["permission_request"]);
  });
});

describe("cancel votes", () => {
  it("resolve cancelled with reason user and the voter", async () => {
    const { mediator, ofType } = makeMediator();
    const decision = mediator.request(req());
    expect(
      mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_a", outcome: cancelled }),
    ).toEqual({
      status: 200,
      kind: "resolved",
      body: {},
    });
    expect(await decision).toEqual({
      outcome: { outcome: "cancelled" },
      reason: "user",
      voterClientId: "client_a",
    });
    expect(ofType("permission_resolved")[0]?.data).toEqual({
      requestId: "r1",
      sessionId: "s1",
      outcome: { outcome: "cancelled" },
      voterClientId: "client_a",
      reason: "user",
    });
  });

  it.each([
    ["designated", { clientId: "client_b" }],
    ["local-only", { clientId: "client_a", remoteAddress: "203.0.113.9" }],
    ["consensus", { clientId: "client_outsider" }],
  ] as const)("bypass the %s policy", async (policy, voter) => {
    const { mediator } = makeMediator({ policy });
    const decision = mediator.request(req({ attachedClientIds: ["client_a", "client_b", "client_c"] }));
    expect(mediator.vote({ sessionId: "s1", requestId: "r1", ...voter, outcome: cancelled }).status).toBe(
      200,
    );
    expect(await decision).toMatchObject({ outcome: { outcome: "cancelled" }, reason: "user" });
  });
});

describe("designated", () => {
  it("only the prompt's originator may vote; others get 403 designated_mismatch", async () => {
    const { mediator, ofType } = makeMediator({ policy: "designated" });
    const decision = mediator.request(req({ originatorClientId: "client_a", promptId: "p9" }));
    const refused = mediator.vote({
      sessionId: "s1",
      requestId: "r1",
      clientId: "client_b",
      outcome: select("allow"),
    });
    expect(refused).toEqual({
      status: 403,
      kind: "forbidden",
      body: {
        error: "Permission r1 on session s1: vote rejected by policy (designated_mismatch).",
        code: "permission_forbidden",
        reason: "designated_mismatch",
        requestId: "r1",
        sessionId: "s1",
      },
    });
    expect(ofType("permission_forbidden")).toEqual([
      {
        sessionId: "s1",
        type: "permission_forbidden",
        data: { requestId: "r1", sessionId: "s1", clientId: "client_b", reason: "designated_mismatch" },
        extra: { promptId: "p9" },
      },
    ]);
    // A vote with no client id is not the originator either.
    expect(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") }).status).toBe(403);
    expect(await peek(decision)).toBe("pending");
    expect(
      mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_a", outcome: select("deny") })
        .status,
    ).toBe(200);
    expect(await decision).toMatchObject({ outcome: { outcome: "selected", optionId: "deny" } });
  });

  it("a request with no originator falls back to first-responder", async () => {
    const { mediator } = makeMediator({ policy: "designated" });
    const decision = mediator.request(req({ originatorClientId: undefined }));
    expect(
      mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_z", outcome: select("allow") })
        .status,
    ).toBe(200);
    expect(await decision).toMatchObject({ voterClientId: "client_z" });
  });
});

describe("local-only", () => {
  it.each(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])(
    "accepts a vote from %s",
    async (remoteAddress) => {
      const { mediator } = makeMediator({ policy: "local-only" });
      const decision = mediator.request(req());
      expect(
        mediator.vote({ sessionId: "s1", requestId: "r1", remoteAddress, outcome: select("allow") }).status,
      ).toBe(200);
      expect(await decision).toMatchObject({ outcome: { outcome: "selected" } });
    },
  );

  it.each(["10.0.0.2", "::ffff:10.0.0.2", "192.168.1.1", undefined])(
    "refuses a vote from %s with 403 remote_not_allowed",
    (remoteAddress) => {
      const { mediator, ofType } = makeMediator({ policy: "local-only" });
      void mediator.request(req());
      const result = mediator.vote({
        sessionId: "s1",
        requestId: "r1",
        clientId: "client_a",
        ...(remoteAddress !== undefined ? { remoteAddress } : {}),
        outcome: select("allow"),
      });
      expect(result).toMatchObject({
        status: 403,
        body: { code: "permission_forbidden", reason: "remote_not_allowed" },
      });
      expect(ofType("permission_forbidden")[0]?.data).toMatchObject({
        reason: "remote_not_allowed",
        clientId: "client_a",
      });
      expect(mediator.hasPending("s1")).toBe(true);
    },
  );
});

describe("policy captured per request", () => {
  it("a pending request keeps the policy it was registered under", async () => {
    const { mediator } = makeMediator({ policy: "designated" });
    const early = mediator.request(req({ requestId: "early" }));
    mediator.setPolicy("first-responder");
    const late = mediator.request(req({ requestId: "late" }));
    expect(mediator.pending("s1").map((p) => p.policy)).toEqual(["designated", "first-responder"]);
    const byB = (requestId: string) =>
      mediator.vote({ sessionId: "s1", requestId, clientId: "client_b", outcome: select("allow") }).status;
    expect(byB("early")).toBe(403);
    expect(byB("late")).toBe(200);
    expect(await late).toMatchObject({ voterClientId: "client_b" });
    expect(await peek(early)).toBe("pending");
    expect(() => mediator.setPolicy("anarchy" as never)).toThrow();
  });
});

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
    expect(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") }).kind).toBe(
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
          results.push(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("deny") }).status);
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
