// Two clients on one session under each --permission-policy (docs/protocol.md "Permissions and questions"): who may
// answer a question, what a refused vote gets (403 with the reason), and whose answers reach the model.
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { toolResultText } from "./harness/model-requests.js";
import { answeredText } from "./harness/protocol-texts.js";
import { type AskedQuestion, askQuestion } from "./harness/question-scenario.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  submitAnswers,
  vote,
} from "./harness/session-api.js";
import { permissionRequestOf, requestIdOf } from "./harness/sse-views.js";

const world = useE2eWorld();

/** Client A creates the session and asks (the originator); client B attaches to the same session. */
async function twoClientsAndAQuestion(
  daemon: DaemonProcess,
): Promise<{ asked: AskedQuestion; a: string; b: string }> {
  const asked = await askQuestion(daemon);
  const b = await createSession(daemon);
  expect(b).toMatchObject({ sessionId: asked.sessionId, attached: true });
  expect(b.clientId).not.toBe(asked.clientId);
  return { asked, a: asked.clientId, b: b.clientId };
}

const forbidden = (asked: AskedQuestion, requestId: string, reason: string) => ({
  status: 403,
  body: {
    error: `Permission ${requestId} on session ${asked.sessionId}: vote rejected by policy (${reason}).`,
    code: "permission_forbidden",
    reason,
    requestId,
    sessionId: asked.sessionId,
  },
});

/** Waits for the turn to end and returns the tool result the model received for the question. */
async function answerTheModelGot(asked: AskedQuestion, firstRequest: number): Promise<string | undefined> {
  await asked.events.waitForEvent("turn_complete");
  const ours = world.server.requests.slice(firstRequest);
  expect(ours).toHaveLength(2);
  return toolResultText(ours[1]!, asked.callId);
}

describe("permission policies with two clients", () => {
  it("first-responder: any attached client answers; the second vote finds nothing pending", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon(["--permission-policy", "first-responder"]);
    const { asked, a, b } = await twoClientsAndAQuestion(daemon);
    expect(await vote(daemon, asked.sessionId, asked.requestId, b, submitAnswers({ "0": "Blue" }))).toEqual({
      status: 200,
      body: {},
    });
    expect(await vote(daemon, asked.sessionId, asked.requestId, a, submitAnswers({ "0": "Green" }))).toEqual({
      status: 404,
      body: {
        error: "No pending permission request for session",
        sessionId: asked.sessionId,
        requestId: asked.requestId,
      },
    });
    expect(await answerTheModelGot(asked, firstRequest)).toBe(answeredText([["Color", "Blue"]]));
    const resolved = await asked.events.waitForEvent("permission_resolved");
    expect(resolved.json?.data).toMatchObject({ requestId: asked.requestId, voterClientId: b });
    const late = await asked.events.waitForEvent("permission_already_resolved");
    expect(late.json?.data).toMatchObject({ requestId: asked.requestId });
    await asked.events.close();
  });

  it("designated: only the prompt's originator may answer", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon(["--permission-policy", "designated"]);
    const { asked, a, b } = await twoClientsAndAQuestion(daemon);
    expect(await vote(daemon, asked.sessionId, asked.requestId, b, submitAnswers({ "0": "Blue" }))).toEqual(
      forbidden(asked, asked.requestId, "designated_mismatch"),
    );
    const refused = await asked.events.waitForEvent("permission_forbidden");
    expect(refused.json?.data).toEqual({
      requestId: asked.requestId,
      sessionId: asked.sessionId,
      clientId: b,
      reason: "designated_mismatch",
    });
    // The refusal changed nothing: the question still waits for A.
    expect(await getStatus(daemon, asked.sessionId)).toMatchObject({ isWaitingForUserQuestion: true });
    expect(await vote(daemon, asked.sessionId, asked.requestId, a, submitAnswers({ "0": "Green" }))).toEqual({
      status: 200,
      body: {},
    });
    expect(await answerTheModelGot(asked, firstRequest)).toBe(answeredText([["Color", "Green"]]));
    await asked.events.close();
  });

  it("designated after a restore: the client whose load re-asked the question is the one who answers", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--permission-policy", "designated"]);
    const asked = await askQuestion(first);
    await asked.events.close();
    await first.kill9();

    const second = await world.env.startDaemon([
      "--permission-policy",
      "designated",
      "--restore-ask-user-question",
    ]);
    const loader = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const other = await expectRestored(second, "load", asked.sessionId, undefined);
    expect(other.clientId).not.toBe(loader.clientId);
    const events = await openEvents(second, asked.sessionId);
    const again = await events.waitForEvent("permission_request");
    const requestId = requestIdOf(again);
    expect(again.json?.originatorClientId).toBe(loader.clientId);
    expect(
      await vote(second, asked.sessionId, requestId, other.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual(forbidden(asked, requestId, "designated_mismatch"));
    expect(
      await vote(second, asked.sessionId, requestId, loader.clientId, submitAnswers({ "0": "Green" })),
    ).toEqual({
      status: 200,
      body: {},
    });
    await events.waitForEvent("turn_complete");
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(toolResultText(ours[1]!, asked.callId)).toBe(answeredText([["Color", "Green"]]));
    await events.close();
  });

  it("consensus: a partial vote is announced, outsiders are refused, the quorum-reaching answer is used", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon(["--permission-policy", "consensus"]);
    const { sessionId, clientId: a } = await createSession(daemon);
    const { clientId: b } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    const accepted = await daemon.json<{ promptId: string }>(
      "POST",
      `/session/${sessionId}/prompt`,
      { prompt: [{ type: "text", text: "ASK: colors by committee" }] },
      { "x-qwen-client-id": a },
    );
    expect(accepted.status).toBe(202);
    const shown = await events.waitForEvent("permission_request");
    const requestId = requestIdOf(shown);
    const callId = permissionRequestOf(shown).toolCall.toolCallId;
    const asked = { sessionId } as AskedQuestion;

    expect(await vote(daemon, sessionId, requestId, a, submitAnswers({ "0": "Blue" }))).toEqual({
      status: 200,
      body: {},
    });
    const partial = await events.waitForEvent("permission_partial_vote");
    expect(partial.json?.data).toEqual({
      requestId,
      sessionId,
      votesReceived: 1,
      votesNeeded: 1,
      quorum: 2,
      optionTallies: { proceed_once: 1 },
    });
    expect(await getStatus(daemon, sessionId)).toMatchObject({ isWaitingForUserQuestion: true });

    // A client that attached after the question was issued is not in its electorate; nor is an anonymous one.
    const { clientId: c } = await createSession(daemon);
    expect(await vote(daemon, sessionId, requestId, c, submitAnswers({ "0": "Red" }))).toEqual(
      forbidden(asked, requestId, "designated_mismatch"),
    );
    expect(await vote(daemon, sessionId, requestId, undefined, submitAnswers({ "0": "Red" }))).toEqual(
      forbidden(asked, requestId, "designated_mismatch"),
    );

    expect(await vote(daemon, sessionId, requestId, b, submitAnswers({ "0": "Green" }))).toEqual({
      status: 200,
      body: {},
    });
    await events.waitForEvent("turn_complete");
    const resolved = events.events("permission_resolved").map((f) => f.json?.data);
    expect(resolved).toEqual([
      expect.objectContaining({
        requestId,
        voterClientId: b,
        outcome: { outcome: "selected", optionId: "proceed_once" },
      }),
    ]);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(toolResultText(ours[1]!, callId)).toBe(answeredText([["Color", "Green"]]));
    await events.close();
  });

  it("local-only: judged from the socket, so forwarding headers claiming a remote client change nothing", async () => {
    // Tests here send traffic to loopback addresses only, so the refusal of a real non-loopback socket is
    // covered in-process (packages/daemon/src/routes/permission.test.ts injects the socket address). What a
    // real socket shows here: a loopback voter whose headers pretend to be remote is still local.
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon(["--permission-policy", "local-only"]);
    const { asked, b } = await twoClientsAndAQuestion(daemon);
    const spoofed = await daemon.json(
      "POST",
      `/session/${asked.sessionId}/permission/${asked.requestId}`,
      submitAnswers({ "0": "Green" }),
      {
        "x-qwen-client-id": b,
        "x-forwarded-for": "203.0.113.9",
        forwarded: "for=203.0.113.9",
        "x-real-ip": "203.0.113.9",
      },
    );
    expect(spoofed).toMatchObject({ status: 200, body: {} });
    expect(await answerTheModelGot(asked, firstRequest)).toBe(answeredText([["Color", "Green"]]));
    await asked.events.close();
  });
});
