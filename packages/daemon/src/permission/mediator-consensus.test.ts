import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wire } from "../testing/vote-wire.js";
import { ConsensusTally, consensusQuorum } from "./consensus.js";
import { makeMediator, peek, req } from "./mediator-harness.js";

const select = (optionId: string) => ({ outcome: "selected" as const, optionId });
const five = ["c1", "c2", "c3", "c4", "c5"];

function consensus(attachedClientIds: string[], consensusQuorumOverride?: number) {
  const harness = makeMediator({
    policy: "consensus",
    ...(consensusQuorumOverride !== undefined ? { consensusQuorum: consensusQuorumOverride } : {}),
  });
  const decision = harness.mediator.request(req({ attachedClientIds }));
  const vote = (clientId: string | undefined, optionId: string) =>
    harness.mediator.vote({
      sessionId: "s1",
      requestId: "r1",
      ...(clientId !== undefined ? { clientId } : {}),
      outcome: select(optionId),
    });
  return { ...harness, decision, vote };
}

describe("consensusQuorum", () => {
  it("is floor(M/2)+1, or the configured quorum capped at M, never below 1", () => {
    expect([1, 2, 3, 4, 5, 6].map((m) => consensusQuorum(m))).toEqual([1, 2, 2, 3, 3, 4]);
    expect(consensusQuorum(3, 5)).toBe(3);
    expect(consensusQuorum(5, 2)).toBe(2);
    expect(consensusQuorum(0, 3)).toBe(1);
  });

  it("property: a quorum is always reachable and is a strict majority by default", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.option(fc.integer({ min: 1, max: 600 })), (m, q) => {
        const quorum = consensusQuorum(m, q ?? undefined);
        expect(quorum).toBeGreaterThanOrEqual(1);
        expect(quorum).toBeLessThanOrEqual(m);
        if (q === null) expect(2 * quorum).toBeGreaterThan(m);
      }),
    );
  });

  it("property: whatever the vote order, at most one option is decided and only at the quorum", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.constantFrom("a", "b", "c")), { maxLength: 30 }),
        (votes) => {
          const tally = new ConsensusTally(five);
          for (const [voter, option] of votes) {
            const progress = tally.cast(five[voter] as string, option);
            const counts = Object.values(tally.optionTallies());
            expect(counts.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(five.length);
            if (progress.decided) {
              expect(progress.votesFor).toBe(3);
              return;
            }
            expect(Math.max(...counts)).toBeLessThan(3);
            expect(progress.votesNeeded).toBe(3 - Math.max(...counts));
          }
        },
      ),
    );
  });
});

describe("consensus policy", () => {
  it("partial votes answer 200 and emit permission_partial_vote until the quorum wins", async () => {
    const { vote, decision, ofType } = consensus(five);
    expect(wire(vote("c1", "allow"))).toEqual({ status: 200, kind: "recorded", body: {} });
    expect(wire(vote("c2", "deny"))).toEqual({ status: 200, kind: "recorded", body: {} });
    expect(wire(vote("c3", "allow")).kind).toBe("recorded");
    expect(await peek(decision)).toBe("pending");
    expect(ofType("permission_partial_vote").map((e) => e.data)).toEqual([
      {
        requestId: "r1",
        sessionId: "s1",
        votesReceived: 1,
        votesNeeded: 2,
        quorum: 3,
        optionTallies: { allow: 1 },
      },
      {
        requestId: "r1",
        sessionId: "s1",
        votesReceived: 2,
        votesNeeded: 2,
        quorum: 3,
        optionTallies: { allow: 1, deny: 1 },
      },
      {
        requestId: "r1",
        sessionId: "s1",
        votesReceived: 3,
        votesNeeded: 1,
        quorum: 3,
        optionTallies: { allow: 2, deny: 1 },
      },
    ]);
    expect(wire(vote("c4", "allow"))).toEqual({ status: 200, kind: "resolved", body: {} });
    expect(await decision).toEqual({
      outcome: { outcome: "selected", optionId: "allow" },
      voterClientId: "c4",
    });
    expect(ofType("permission_resolved")).toHaveLength(1);
    expect(wire(vote("c5", "deny")).kind).toBe("already_resolved");
  });

  it("a split vote does not resolve; the option reaching quorum wins whichever order", async () => {
    for (const order of [
      ["c1:deny", "c2:allow", "c3:deny", "c4:allow", "c5:deny"],
      ["c5:deny", "c4:deny", "c3:allow", "c2:allow", "c1:deny"],
    ]) {
      const { vote, decision } = consensus(five);
      const statuses = order.map((v) => {
        const [client, option] = v.split(":") as [string, string];
        return vote(client, option).kind;
      });
      expect(statuses).toEqual(["recorded", "recorded", "recorded", "recorded", "resolved"]);
      expect(await decision).toMatchObject({ outcome: { optionId: "deny" } });
    }
  });

  it("two clients need both (unanimity); a split stays pending", async () => {
    const { vote, decision } = consensus(["c1", "c2"]);
    vote("c1", "allow");
    vote("c2", "deny");
    expect(await peek(decision)).toBe("pending");
  });

  it("a re-vote replaces the client's earlier vote and never counts twice", async () => {
    const { vote, decision, ofType } = consensus(["c1", "c2", "c3"]);
    expect(wire(vote("c1", "allow")).kind).toBe("recorded");
    expect(wire(vote("c1", "allow")).kind).toBe("recorded"); // not a second vote for allow
    expect(wire(vote("c1", "deny")).kind).toBe("recorded");
    expect(ofType("permission_partial_vote").at(-1)?.data).toMatchObject({
      votesReceived: 1,
      optionTallies: { deny: 1 },
    });
    expect(await peek(decision)).toBe("pending");
    expect(wire(vote("c2", "deny")).kind).toBe("resolved");
    expect(await decision).toMatchObject({ outcome: { optionId: "deny" } });
  });

  it("a configured quorum applies, capped at the number of attached clients", async () => {
    const low = consensus(five, 2);
    low.vote("c1", "allow");
    expect(low.vote("c2", "allow").kind).toBe("resolved");

    const capped = consensus(["c1", "c2"], 5);
    expect(capped.vote("c1", "allow").kind).toBe("recorded");
    expect(capped.ofType("permission_partial_vote")[0]?.data).toMatchObject({ quorum: 2, votesNeeded: 1 });
    expect(capped.vote("c2", "allow").kind).toBe("resolved");
    expect(await capped.decision).toMatchObject({ outcome: { optionId: "allow" } });
  });

  it("the electorate is frozen at request time: late joiners and anonymous voters get 403", async () => {
    const harness = makeMediator({ policy: "consensus" });
    const attached = ["c1", "c2", "c3"];
    const decision = harness.mediator.request(req({ attachedClientIds: attached }));
    attached.push("c4"); // a client attaching after the request changes nothing
    const vote = (clientId: string | undefined) =>
      harness.mediator.vote({
        sessionId: "s1",
        requestId: "r1",
        ...(clientId !== undefined ? { clientId } : {}),
        outcome: select("allow"),
      });
    expect(wire(vote("c4"))).toMatchObject({
      status: 403,
      body: { code: "permission_forbidden", reason: "designated_mismatch" },
    });
    expect(wire(vote(undefined)).status).toBe(403);
    expect(harness.ofType("permission_forbidden").map((e) => e.data.clientId)).toEqual(["c4", undefined]);
    expect(harness.mediator.audit().find((e) => e.kind === "requested")?.electorate).toEqual([
      "c1",
      "c2",
      "c3",
    ]);
    vote("c1");
    expect(wire(vote("c2")).kind).toBe("resolved");
    expect(await decision).toMatchObject({ outcome: { optionId: "allow" } });
  });

  it("uses the answers of the vote that reached the quorum", async () => {
    const harness = makeMediator({ policy: "consensus" });
    const decision = harness.mediator.request(req({ attachedClientIds: ["c1", "c2"] }));
    const v = (clientId: string, answer: string) =>
      harness.mediator.vote({
        sessionId: "s1",
        requestId: "r1",
        clientId,
        outcome: select("allow"),
        answers: { "0": answer },
      });
    v("c1", "red");
    v("c2", "green");
    expect(await decision).toEqual({
      outcome: { outcome: "selected", optionId: "allow" },
      answers: { "0": "green" },
      voterClientId: "c2",
    });
  });

  it("with nobody attached at request time it falls back to first-responder", async () => {
    const { vote, decision } = consensus([]);
    expect(wire(vote("late_client", "deny")).kind).toBe("resolved");
    expect(await decision).toMatchObject({ outcome: { optionId: "deny" } });
  });

  it("an option not offered is 400 before any tally", () => {
    const { vote, ofType } = consensus(five);
    expect(wire(vote("c1", "bogus")).status).toBe(400);
    expect(ofType("permission_partial_vote")).toHaveLength(0);
  });
});
