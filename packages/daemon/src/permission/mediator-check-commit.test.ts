// The vote split used to make answers durable before they are applied: checkVote judges without resolving,
// commitVote applies (judging again), answerFromJournal replays an answer given before a restart.
import { describe, expect, it } from "vitest";
import { wire } from "../testing/vote-wire.js";
import { ConsensusTally } from "./consensus.js";
import { makeMediator, peek, QUESTION_OPTIONS, req } from "./mediator-harness.js";

const submit = { outcome: "selected" as const, optionId: "proceed_once" };
const question = (requestId = "r1") =>
  req({
    requestId,
    toolCall: { toolCallId: "call-q", _meta: { qwenInteractionKind: "user_question" } },
    options: QUESTION_OPTIONS,
  });

describe("checkVote", () => {
  it("reports the decision a vote would settle and leaves the request pending", async () => {
    const { mediator, events } = makeMediator();
    const decision = mediator.request(question());
    const emittedBefore = events.length;
    const check = mediator.checkVote({
      sessionId: "s1",
      requestId: "r1",
      clientId: "client_a",
      outcome: submit,
      answers: { "0": "Blue" },
    });
    expect(check).toMatchObject({
      kind: "decides",
      request: { requestId: "r1", sessionId: "s1", toolCall: { toolCallId: "call-q" } },
      decision: {
        outcome: { outcome: "selected", optionId: "proceed_once" },
        answers: { "0": "Blue" },
        voterClientId: "client_a",
      },
    });
    expect(mediator.hasPending("s1")).toBe(true);
    expect(events.length).toBe(emittedBefore);
    expect(await peek(decision)).toBe("pending");
    expect(mediator.audit().map((a) => a.kind)).toEqual(["requested"]);
  });

  it("a cancel vote decides as a user cancel, bypassing policy", () => {
    const { mediator } = makeMediator({ policy: "designated" });
    mediator.request(question());
    expect(
      mediator.checkVote({
        sessionId: "s1",
        requestId: "r1",
        clientId: "intruder",
        outcome: { outcome: "cancelled" },
      }),
    ).toMatchObject({
      kind: "decides",
      decision: { outcome: { outcome: "cancelled" }, reason: "user", voterClientId: "intruder" },
    });
    expect(mediator.hasPending("s1")).toBe(true);
  });

  it("refusals are final and reported once: 404, 400, 403", () => {
    const { mediator, ofType } = makeMediator({ policy: "designated" });
    mediator.request(question());
    expect(mediator.checkVote({ sessionId: "s1", requestId: "nope", outcome: submit })).toMatchObject({
      kind: "refused",
      result: { kind: "not_found" },
    });
    expect(
      mediator.checkVote({
        sessionId: "s1",
        requestId: "r1",
        clientId: "client_a",
        outcome: { outcome: "selected", optionId: "x" },
      }),
    ).toMatchObject({ kind: "refused", result: { kind: "invalid_option" } });
    expect(
      mediator.checkVote({ sessionId: "s1", requestId: "r1", clientId: "client_b", outcome: submit }),
    ).toMatchObject({
      kind: "refused",
      result: { kind: "forbidden", error: { body: { reason: "designated_mismatch" } } },
    });
    expect(ofType("permission_forbidden")).toHaveLength(1);
    expect(mediator.hasPending("s1")).toBe(true);
  });

  it("a vote on a request resolved meanwhile is refused as already resolved", () => {
    const { mediator, ofType } = makeMediator();
    mediator.request(question());
    mediator.vote({ sessionId: "s1", requestId: "r1", outcome: submit });
    expect(mediator.checkVote({ sessionId: "s1", requestId: "r1", outcome: submit })).toMatchObject({
      kind: "refused",
      result: { kind: "already_resolved" },
    });
    expect(ofType("permission_already_resolved")).toHaveLength(1);
  });

  it("under consensus tells a vote that would only be counted from the one that reaches the quorum", async () => {
    const { mediator, ofType } = makeMediator({ policy: "consensus" });
    const decision = mediator.request(
      req({ attachedClientIds: ["a", "b", "c"], options: QUESTION_OPTIONS, toolCall: { toolCallId: "q" } }),
    );
    const vote = (clientId: string) => ({ sessionId: "s1", requestId: "r1", clientId, outcome: submit });
    expect(mediator.checkVote(vote("a"))).toEqual({ kind: "partial" });
    expect(ofType("permission_partial_vote")).toHaveLength(0);
    expect(wire(mediator.commitVote(vote("a")))).toMatchObject({ status: 200, kind: "recorded" });
    expect(ofType("permission_partial_vote")).toHaveLength(1);
    // a's vote again would replace, not add: still not decisive.
    expect(mediator.checkVote(vote("a"))).toEqual({ kind: "partial" });
    expect(mediator.checkVote(vote("b"))).toMatchObject({
      kind: "decides",
      decision: { voterClientId: "b" },
    });
    expect(await peek(decision)).toBe("pending");
    expect(wire(mediator.commitVote(vote("b")))).toMatchObject({ status: 200, kind: "resolved" });
    expect(await decision).toMatchObject({ outcome: submit, voterClientId: "b" });
  });
});

describe("commitVote", () => {
  it("applies what checkVote judged and answers like vote", async () => {
    const { mediator, ofType } = makeMediator();
    const decision = mediator.request(question());
    const v = {
      sessionId: "s1",
      requestId: "r1",
      clientId: "client_a",
      outcome: submit,
      answers: { "0": "Red" },
    };
    expect(mediator.checkVote(v).kind).toBe("decides");
    expect(wire(mediator.commitVote(v))).toEqual({ status: 200, kind: "resolved", body: {} });
    expect(await decision).toEqual({
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "Red" },
      voterClientId: "client_a",
    });
    expect(ofType("permission_resolved")).toHaveLength(1);
  });

  it("judges again: a request that timed out between check and commit is 404 and keeps its timeout", async () => {
    const { mediator, clock } = makeMediator({ timeoutMs: 100 });
    const decision = mediator.request(question());
    const v = { sessionId: "s1", requestId: "r1", outcome: submit };
    expect(mediator.checkVote(v).kind).toBe("decides");
    clock.advance(100);
    expect(wire(mediator.commitVote(v))).toMatchObject({ status: 404, kind: "already_resolved" });
    expect(await decision).toEqual({ outcome: { outcome: "cancelled" }, reason: "timeout" });
  });
});

describe("answerFromJournal", () => {
  it("resolves at once with the journaled decision, ignoring policy, never shown as pending", async () => {
    const { mediator, events, ofType } = makeMediator({ policy: "local-only" });
    const replayed = { outcome: submit, answers: { "0": "Blue" } };
    const decision = mediator.answerFromJournal(question(), replayed);
    // Nothing a client reads ever held it: no permission_request, no pending entry, no snapshot event.
    expect(ofType("permission_request")).toEqual([]);
    expect(mediator.pending("s1")).toEqual([]);
    expect(mediator.pendingRequestEvents("s1")).toEqual([]);
    expect(mediator.hasPending("s1")).toBe(false);
    expect(await decision).toEqual(replayed);
    expect(events.map((e) => e.type)).toEqual(["permission_resolved"]);
    expect(ofType("permission_resolved").map((e) => e.data)).toEqual([
      {
        requestId: "r1",
        sessionId: "s1",
        outcome: submit,
        answers: { "0": "Blue" },
        source: "answer_journal",
      },
    ]);
    expect(mediator.audit().map((a) => a.kind)).toEqual(["requested", "resolved"]);
    expect(mediator.audit().at(-1)).toMatchObject({ kind: "resolved", source: "answer_journal" });
    expect(mediator.vote({ sessionId: "s1", requestId: "r1", outcome: submit }).kind).toBe(
      "already_resolved",
    );
  });

  it("replays a user cancel with its reason; after dispose it settles as session_closed, unrecorded", async () => {
    const { mediator, ofType } = makeMediator({ timeoutMs: 100 });
    const cancel = { outcome: { outcome: "cancelled" as const }, reason: "user" as const };
    expect(await mediator.answerFromJournal(question(), cancel)).toEqual(cancel);
    expect(ofType("permission_resolved")[0]?.data).toMatchObject({
      reason: "user",
      source: "answer_journal",
    });
    mediator.dispose();
    expect(await mediator.answerFromJournal(question("r2"), { outcome: submit })).toEqual({
      outcome: { outcome: "cancelled" },
      reason: "session_closed",
    });
    expect(ofType("permission_resolved")).toHaveLength(1);
  });
});

describe("ConsensusTally.wouldDecide", () => {
  it("predicts cast without recording anything, a re-vote replacing the voter's earlier choice", () => {
    const tally = new ConsensusTally(["a", "b", "c"]); // quorum 2
    expect(tally.wouldDecide("a", "x")).toBe(false);
    expect(tally.optionTallies()).toEqual({});
    tally.cast("a", "x");
    expect(tally.wouldDecide("a", "x")).toBe(false);
    expect(tally.wouldDecide("b", "y")).toBe(false);
    expect(tally.wouldDecide("b", "x")).toBe(true);
    expect(tally.cast("b", "x").decided).toBe(true);
  });
});
