// docs/restore.md "The guarantees", measured at the worst instants:
// 1. Durable before shown: SIGKILL everything the moment the question is first visible (status, SSE) and a
//    restart + load still re-asks it.
// 5. An acknowledged answer is never lost: SIGKILL right after the vote's 200 and the user is not asked again;
//    the answer reaches the model.
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, requestsWithCall, toolResultText } from "./harness/model-requests.js";
import { answerText, conversationHandler, QUESTION_PREAMBLE } from "./harness/model-script.js";
import { killTree } from "./harness/process-tree.js";
import { answeredText, ORPHAN_REPAIR_TEXT } from "./harness/protocol-texts.js";
import { askQuestion, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  sendPrompt,
  submitAnswers,
  vote,
  waitForStatus,
  waitingQuestion,
} from "./harness/session-api.js";
import { dataOf, permissionRequestOf, requestIdOf } from "./harness/sse-views.js";

const world = useE2eWorld();

type KillAt = (daemon: DaemonProcess, sessionId: string, clientId: string) => Promise<void>;

/** Polls status as fast as HTTP allows and kills the whole tree in the same tick it first shows the question. */
const killOnFirstStatus: KillAt = async (daemon, sessionId, clientId) => {
  await sendPrompt(daemon, sessionId, clientId, DEFAULT_ASK_PROMPT);
  for (;;) {
    const status = await getStatus(daemon, sessionId);
    if (status.isWaitingForUserQuestion) {
      killTree(daemon.pid);
      break;
    }
  }
  await daemon.exited;
};

/** Kills the whole tree synchronously inside the SSE parser, as the permission_request frame arrives. */
const killOnFirstFrame: KillAt = async (daemon, sessionId, clientId) => {
  const events = await openEvents(daemon, sessionId);
  events.onFrame = (frame) => {
    if (frame.event === "permission_request") killTree(daemon.pid);
  };
  await sendPrompt(daemon, sessionId, clientId, DEFAULT_ASK_PROMPT);
  await daemon.exited;
  expect(events.events("permission_request")).toHaveLength(1);
  await events.close();
};

describe.each([
  ["the first status that shows it", killOnFirstStatus],
  ["its permission_request frame on SSE", killOnFirstFrame],
] as const)("durable before shown: SIGKILL at %s", (_when, killAt) => {
  it("restart + load with the switch still re-asks the question, and the answer continues the turn", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(first);
    await killAt(first, sessionId, clientId);
    expect(world.server.requests.length - firstRequest).toBe(1);

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", sessionId, clientId);
    expect(restored.hasActivePrompt).toBe(true);
    const question = waitingQuestion(
      await waitForStatus(second, sessionId, (s) => s.isWaitingForUserQuestion, 20_000),
    );
    expect(question.questions).toMatchObject([{ header: "Color", answerKey: "0" }]);
    const events = await openEvents(second, sessionId, { lastEventId: restored.lastEventId });
    const shown = await events.waitForEvent("permission_request");
    const callId = permissionRequestOf(shown).toolCall.toolCallId;
    expect(requestIdOf(shown)).toBe(question.requestId);

    expect(
      await vote(second, sessionId, question.requestId, restored.clientId, submitAnswers({ "0": "Green" })),
    ).toEqual({ status: 200, body: {} });
    await events.waitForEvent("turn_complete");
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [callId] },
      { role: "tool", text: answeredText([["Color", "Green"]]), toolCallId: callId },
    ]);
    await events.close();
  });
});

describe("an acknowledged answer is never lost", () => {
  it("vote 200 then an immediate SIGKILL: after restart + load nobody is asked again and the model gets it", async () => {
    const firstRequest = world.server.requests.length;
    // The model never answers after the question's result, so the kill cannot come too late to matter.
    world.server.setHandler(conversationHandler({ stallOnToolResult: true }));
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestion(first);
    const voted = await vote(
      first,
      asked.sessionId,
      asked.requestId,
      asked.clientId,
      submitAnswers({ "0": "Blue" }),
    );
    killTree(first.pid);
    expect(voted).toEqual({ status: 200, body: {} });
    await first.exited;
    await asked.events.close();
    world.server.setHandler(conversationHandler());

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    // Whatever the daemon does with the answer (already on disk, or re-applied from a journal), it must end
    // without anyone having to answer again.
    const settled = await waitForStatus(second, asked.sessionId, (s) => !s.hasActivePrompt, 20_000);
    expect(settled).toMatchObject({ isWaitingForUserQuestion: false, pendingInteractionCount: 0 });
    // A question re-hung on the way is answered by the daemon from its journal before any client sees it: no
    // permission_request, and at most its permission_resolved, marked as the journal's (whether this stream
    // sees it depends on when it connected).
    expect(events.events("permission_request")).toEqual([]);
    for (const resolved of events.events("permission_resolved"))
      expect(dataOf<{ source?: string }>(resolved).source).toBe("answer_journal");

    const promptId = await sendPrompt(second, asked.sessionId, restored.clientId, "Carry on");
    await events.waitForTurnComplete(promptId, "turn_complete of the next prompt");
    // The model got the user's real answer as the question's result, never the orphan-repair failure.
    const answered = answeredText([["Color", "Blue"]]);
    const withCall = requestsWithCall(world.server.requests.slice(firstRequest), asked.callId);
    const results = withCall
      .map(({ request }) => toolResultText(request, asked.callId))
      .filter((t) => t !== undefined);
    expect(results).not.toContain(ORPHAN_REPAIR_TEXT);
    expect(results.length).toBeGreaterThan(0);
    expect(new Set(results)).toEqual(new Set([answered]));
    const last = world.server.requests.at(-1)!;
    expect(messagesFromCall(last, asked.callId).slice(0, 2)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: answered, toolCallId: asked.callId },
    ]);
    expect(messagesFromCall(last, asked.callId).at(-1)).toEqual({ role: "user", text: "Carry on" });
    // If the turn was continued after the restart, the model's reply to the answer sits between them.
    const between = messagesFromCall(last, asked.callId).slice(2, -1);
    expect(between.every((m) => m.role === "assistant" && m.text === answerText(answered))).toBe(true);
    await events.close();
  });
});
