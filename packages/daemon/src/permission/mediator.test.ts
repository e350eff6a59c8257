// The mediator's core: registering requests, first-responder votes, votes that do not apply, cancel votes.
import { describe, expect, it } from "vitest";
import { wire } from "../testing/vote-wire.js";
import { DuplicatePermissionRequestError } from "./mediator.js";
import { makeMediator, QUESTION_OPTIONS, req } from "./mediator-harness.js";

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
    const result = wire(
      mediator.vote({
        sessionId: "s1",
        requestId: "r1",
        clientId: "client_b",
        outcome: select("proceed_once"),
        answers: { "0": "blue" },
      }),
    );
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
          wire(
            mediator.vote({
              sessionId: "s1",
              requestId: "r1",
              clientId: `client_${i}`,
              outcome: select(i % 2 === 0 ? "allow" : "deny"),
            }),
          ),
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
    expect(wire(mediator.vote({ sessionId: "s1", requestId: "nope", outcome: select("allow") }))).toEqual({
      status: 404,
      kind: "not_found",
      body: { error: "No pending permission request for session", sessionId: "s1", requestId: "nope" },
    });
    expect(wire(mediator.vote({ requestId: "nope", outcome: select("allow") }))).toEqual({
      status: 404,
      kind: "not_found",
      body: { error: "No pending permission request", requestId: "nope" },
    });
    expect(events).toEqual([]);
  });

  it("a request of another session is 404 on the session route and stays pending", () => {
    const { mediator } = makeMediator();
    void mediator.request(req({ sessionId: "s1" }));
    const result = wire(mediator.vote({ sessionId: "s2", requestId: "r1", outcome: select("allow") }));
    expect(result.status).toBe(404);
    expect(result.body).toEqual({
      error: "No pending permission request for session",
      sessionId: "s2",
      requestId: "r1",
    });
    expect(mediator.hasPending("s1")).toBe(true);
    // Cancel votes bypass policies, not session scoping.
    expect(wire(mediator.vote({ sessionId: "s2", requestId: "r1", outcome: cancelled })).status).toBe(404);
    expect(mediator.hasPending("s1")).toBe(true);
  });

  it("the legacy route finds a request in any session", async () => {
    const { mediator } = makeMediator();
    const decision = mediator.request(req({ sessionId: "s7" }));
    expect(wire(mediator.vote({ requestId: "r1", outcome: select("deny") })).status).toBe(200);
    expect(await decision).toMatchObject({ outcome: { outcome: "selected", optionId: "deny" } });
  });

  it("a second vote on a resolved request is 404 plus permission_already_resolved", () => {
    const { mediator, ofType } = makeMediator();
    void mediator.request(req({ promptId: "p1" }));
    mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") });
    const again = wire(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("deny") }));
    expect(again).toEqual({
      status: 404,
      kind: "already_resolved",
      body: { error: "No pending permission request for session", sessionId: "s1", requestId: "r1" },
    });
    const legacy = wire(mediator.vote({ requestId: "r1", outcome: select("deny") }));
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
    expect(wire(mediator.vote({ sessionId: "s2", requestId: "r1", outcome: select("allow") })).kind).toBe(
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
    const result = wire(
      mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("proceed_always") }),
    );
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
      wire(mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_a", outcome: cancelled })),
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
    expect(
      wire(mediator.vote({ sessionId: "s1", requestId: "r1", ...voter, outcome: cancelled })).status,
    ).toBe(200);
    expect(await decision).toMatchObject({ outcome: { outcome: "cancelled" }, reason: "user" });
  });
});
