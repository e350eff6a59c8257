// What other requests do to a restored question while it waits: a user prompt queues behind it (and the model
// never sees `call → user text`), /continue refuses, POST /cancel ends it unattended (nothing persisted, the
// next load asks again). A LIVE (not restored) question whose prompt is cancelled is different: docs/protocol.md
// says the model gets `Tool call was cancelled before execution.`, so the call is closed on disk and a later
// restore has nothing to re-ask (the reference skips persistence only for restored call ids).
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, userTexts } from "./harness/model-requests.js";
import { answerText, PLAIN_ANSWER, QUESTION_PREAMBLE } from "./harness/model-script.js";
import { answeredText } from "./harness/protocol-texts.js";
import { askQuestion, askQuestionThenCrash, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import {
  CLIENT_ID_HEADER,
  cancelPrompt,
  expectRestored,
  getStatus,
  openEvents,
  sendPrompt,
  submitAnswers,
  vote,
  waitForStatus,
  waitingQuestion,
} from "./harness/session-api.js";
import { readTranscript } from "./harness/session-files.js";
import { agentText, requestIdOf } from "./harness/sse-views.js";

const CANCELLED_BEFORE_EXECUTION = "Tool call was cancelled before execution.";

const world = useE2eWorld();

describe("requests that meet a restored question", () => {
  it("a user prompt queues behind it; /continue refuses; the answer goes first, then the prompt", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    const shown = await events.waitForEvent("permission_request");
    const restorePromptId = shown.json?.promptId as string;

    const continued = await second.json(
      "POST",
      `/session/${asked.sessionId}/continue`,
      {},
      { [CLIENT_ID_HEADER]: restored.clientId },
    );
    expect(continued.status).toBe(200);
    expect(continued.body).toMatchObject({ accepted: false, interruption: "none" });

    const queuedId = await sendPrompt(second, asked.sessionId, restored.clientId, "And make it round");
    const pending = await second.json<{ pendingPrompts: { promptId: string; state: string }[] }>(
      "GET",
      `/session/${asked.sessionId}/pending-prompts`,
    );
    expect(pending.body.pendingPrompts.find((p) => p.promptId === queuedId)?.state).toBe("queued");
    // Still waiting on the question, and the model has not been called for the queued prompt.
    expect(waitingQuestion(await getStatus(second, asked.sessionId)).requestId).toBe(requestIdOf(shown));
    expect(world.server.requests.length - firstRequest).toBe(1);

    const requestId = requestIdOf(shown);
    expect(
      await vote(second, asked.sessionId, requestId, restored.clientId, submitAnswers({ "0": "Green" })),
    ).toEqual({ status: 200, body: {} });
    await events.waitForTurnComplete(queuedId, "turn_complete of the queued prompt");
    expect(events.events("turn_complete").map((f) => f.json?.promptId)).toEqual([restorePromptId, queuedId]);

    const answered = answeredText([["Color", "Green"]]);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(3);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: answered, toolCallId: asked.callId },
    ]);
    expect(messagesFromCall(ours[2]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: answered, toolCallId: asked.callId },
      { role: "assistant", text: answerText(answered) },
      { role: "user", text: "And make it round" },
    ]);
    expect(userTexts(ours[2]!)).toEqual([DEFAULT_ASK_PROMPT, "And make it round"]);
    await events.close();
  });

  it("POST /cancel ends the restored question unattended: nothing persisted, the next load asks again", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    await events.waitForEvent("permission_request");

    const cancelled = await cancelPrompt(second, asked.sessionId, restored.clientId);
    expect(cancelled.status).toBe(204);
    await events.waitFor((f) => f.event === "turn_complete" || f.event === "prompt_cancelled", 20_000, "end");
    expect(await waitForStatus(second, asked.sessionId, (s) => !s.hasActivePrompt)).toMatchObject({
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });
    expect(world.server.requests.length - firstRequest).toBe(1);
    expect(
      readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId).filter(
        (r) => r.type === "tool_result",
      ),
    ).toEqual([]);
    await events.close();
    await second.kill9();

    const third = await world.env.startDaemon(["--restore-ask-user-question"]);
    const again = await expectRestored(third, "load", asked.sessionId, restored.clientId);
    expect(again.hasActivePrompt).toBe(true);
    const question = waitingQuestion(
      await waitForStatus(third, asked.sessionId, (s) => s.isWaitingForUserQuestion),
    );
    const later = await openEvents(third, asked.sessionId, { lastEventId: again.lastEventId });
    expect(
      await vote(third, asked.sessionId, question.requestId, again.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual({ status: 200, body: {} });
    await later.waitForEvent("turn_complete");
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId).at(-1)).toEqual({
      role: "tool",
      text: answeredText([["Color", "Blue"]]),
      toolCallId: asked.callId,
    });
    await later.close();
  });

  it("a live question cancelled by POST /cancel: the model sees the cancel text with the next prompt", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon();
    const asked = await askQuestion(daemon);
    const cancelled = await cancelPrompt(daemon, asked.sessionId, asked.clientId);
    expect(cancelled.status).toBe(204);
    const ended = await asked.events.waitFor(
      (f) =>
        (f.event === "turn_complete" || f.event === "prompt_cancelled") &&
        f.json?.promptId === asked.promptId,
      20_000,
      "end of the cancelled prompt",
    );
    expect(ended).toBeDefined();
    const resolved = await asked.events.waitForEvent("permission_resolved");
    expect(resolved.json?.data).toMatchObject({
      requestId: asked.requestId,
      outcome: { outcome: "cancelled" },
    });
    await waitForStatus(daemon, asked.sessionId, (s) => !s.hasActivePrompt);

    const promptId = await sendPrompt(daemon, asked.sessionId, asked.clientId, "Forget it");
    await asked.events.waitForTurnComplete(promptId, "turn_complete of the next prompt");
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: CANCELLED_BEFORE_EXECUTION, toolCallId: asked.callId },
      { role: "user", text: "Forget it" },
    ]);
    expect(agentText(asked.events).endsWith(PLAIN_ANSWER)).toBe(true);
    await asked.events.close();
  });

  it("a live question cancelled by POST /cancel is not resurrected by a later restart + load", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestion(first);
    const cancelled = await cancelPrompt(first, asked.sessionId, asked.clientId);
    expect(cancelled.status).toBe(204);
    await waitForStatus(first, asked.sessionId, (s) => !s.hasActivePrompt);
    await asked.events.close();
    await first.kill9();

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    // The user cancelled that prompt: its question must not come back.
    expect(restored.hasActivePrompt, "the cancelled prompt's question was re-asked on load").toBe(false);
    expect(await getStatus(second, asked.sessionId)).toMatchObject({
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    const promptId = await sendPrompt(second, asked.sessionId, restored.clientId, "Forget it");
    await events.waitForTurnComplete(promptId, "turn_complete of the next prompt");
    expect(events.events("permission_request")).toEqual([]);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: CANCELLED_BEFORE_EXECUTION, toolCallId: asked.callId },
      { role: "user", text: "Forget it" },
    ]);
    await events.close();
  });
});
