// The mediator under the designated and local-only policies, and a request keeping the policy it began under.
import { describe, expect, it } from "vitest";
import { wire } from "../testing/vote-wire.js";
import { makeMediator, peek, req } from "./mediator-harness.js";

const select = (optionId: string) => ({ outcome: "selected" as const, optionId });

describe("designated", () => {
  it("only the prompt's originator may vote; others get 403 designated_mismatch", async () => {
    const { mediator, ofType } = makeMediator({ policy: "designated" });
    const decision = mediator.request(req({ originatorClientId: "client_a", promptId: "p9" }));
    const refused = wire(
      mediator.vote({
        sessionId: "s1",
        requestId: "r1",
        clientId: "client_b",
        outcome: select("allow"),
      }),
    );
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
    expect(wire(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: select("allow") })).status).toBe(
      403,
    );
    expect(await peek(decision)).toBe("pending");
    expect(
      wire(mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_a", outcome: select("deny") }))
        .status,
    ).toBe(200);
    expect(await decision).toMatchObject({ outcome: { outcome: "selected", optionId: "deny" } });
  });

  it("a request with no originator falls back to first-responder", async () => {
    const { mediator } = makeMediator({ policy: "designated" });
    const decision = mediator.request(req({ originatorClientId: undefined }));
    expect(
      wire(
        mediator.vote({ sessionId: "s1", requestId: "r1", clientId: "client_z", outcome: select("allow") }),
      ).status,
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
        wire(mediator.vote({ sessionId: "s1", requestId: "r1", remoteAddress, outcome: select("allow") }))
          .status,
      ).toBe(200);
      expect(await decision).toMatchObject({ outcome: { outcome: "selected" } });
    },
  );

  it.each(["10.0.0.2", "::ffff:10.0.0.2", "192.168.1.1", undefined])(
    "refuses a vote from %s with 403 remote_not_allowed",
    (remoteAddress) => {
      const { mediator, ofType } = makeMediator({ policy: "local-only" });
      void mediator.request(req());
      const result = wire(
        mediator.vote({
          sessionId: "s1",
          requestId: "r1",
          clientId: "client_a",
          ...(remoteAddress !== undefined ? { remoteAddress } : {}),
          outcome: select("allow"),
        }),
      );
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
      wire(mediator.vote({ sessionId: "s1", requestId, clientId: "client_b", outcome: select("allow") }))
        .status;
    expect(byB("early")).toBe(403);
    expect(byB("late")).toBe(200);
    expect(await late).toMatchObject({ voterClientId: "client_b" });
    expect(await peek(early)).toBe("pending");
    expect(() => mediator.setPolicy("anarchy" as never)).toThrow();
  });
});
