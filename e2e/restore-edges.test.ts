// Restore cases around the main story: several clients loading at once, a restored question nobody answers
// in time (an unattended end persists nothing, so the next load asks again), and questions that come in
// twos (two questions in one call; two calls in one batch).
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, userTexts } from "./harness/model-requests.js";
import { QUESTION_PREAMBLE } from "./harness/model-script.js";
import { answeredText } from "./harness/protocol-texts.js";
import { askQuestionThenCrash } from "./harness/question-scenario.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  restoreSession,
  sendPrompt,
  submitAnswers,
  vote,
  waitForStatus,
  waitingQuestion,
} from "./harness/session-api.js";
import { ledgerOf, readLedger, readTranscript } from "./harness/session-files.js";
import type { SseClient } from "./harness/sse-client.js";
import { dataOf, permissionRequestOf, requestIdOf } from "./harness/sse-views.js";

const world = useE2eWorld();

/**
 * Answers every question that shows up in status (by header) until the turn ends; returns the requestIds it
 * answered, in order.
 */
async function answerUntilTurnEnds(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string,
  events: SseClient,
  byHeader: Record<string, string>,
): Promise<string[]> {
  const answered: string[] = [];
  let ended = false;
  const done = events.waitForEvent("turn_complete").then(() => {
    ended = true;
  });
  while (!ended) {
    const status = await getStatus(daemon, sessionId);
    for (const interaction of status.pendingInteractions) {
      if (answered.includes(interaction.requestId) || interaction.kind !== "user_question") continue;
      const question = interaction as ReturnType<typeof waitingQuestion>;
      const answers = Object.fromEntries(
        question.questions.map((q) => [q.answerKey, byHeader[q.header] ?? "?"]),
      );
      const res = await vote(daemon, sessionId, interaction.requestId, clientId, submitAnswers(answers));
      expect(res).toEqual({ status: 200, body: {} });
      answered.push(interaction.requestId);
    }
    await Promise.race([done, new Promise((r) => setTimeout(r, 25))]);
  }
  return answered;
}

describe("restore edge cases", () => {
  it("two clients load and resume at once: the question is re-asked once; a later load adds nothing", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const [loaded, resumed] = await Promise.all([
      restoreSession(second, "load", asked.sessionId, asked.clientId),
      restoreSession(second, "resume", asked.sessionId, "client_other-window"),
    ]);
    expect(loaded.status).toBe(200);
    expect(resumed.status).toBe(200);
    expect(loaded.body.clientId).not.toBe(resumed.body.clientId);
    expect([loaded.body.attached, resumed.body.attached].sort()).toEqual([false, true]);

    const events = await openEvents(second, asked.sessionId, { lastEventId: 0 });
    await events.waitForEvent("replay_complete");
    await events.waitForEvent("permission_request");
    const status = await getStatus(second, asked.sessionId);
    expect(status).toMatchObject({
      isWaitingForUserQuestion: true,
      pendingInteractionCount: 1,
      clientCount: 2,
    });
    const requestId = waitingQuestion(status).requestId;
    expect(events.events("permission_request").map(requestIdOf)).toEqual([requestId]);

    // Another load of the live session attaches; it does not ask a second time.
    const third = await expectRestored(second, "load", asked.sessionId, "client_third-window");
    expect(third).toMatchObject({ attached: true, hasActivePrompt: true });
    expect(waitingQuestion(await getStatus(second, asked.sessionId)).requestId).toBe(requestId);

    expect(
      await vote(second, asked.sessionId, requestId, resumed.body.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual({ status: 200, body: {} });
    await events.waitForEvent("turn_complete");
    expect(events.events("permission_request")).toHaveLength(1);
    expect(events.events("turn_complete")).toHaveLength(1);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: answeredText([["Color", "Blue"]]), toolCallId: asked.callId },
    ]);
    await events.close();
  });

  it("a restored question that times out persists nothing: the next restart asks it again", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);

    const second = await world.env.startDaemon([
      "--restore-ask-user-question",
      "--permission-response-timeout-ms",
      "400",
    ]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    const shown = await events.waitForEvent("permission_request");
    const timedOut = await events.waitForEvent("permission_resolved");
    expect(timedOut.json?.data).toMatchObject({
      requestId: requestIdOf(shown),
      outcome: { outcome: "cancelled" },
      reason: "timeout",
    });
    const after = await waitForStatus(second, asked.sessionId, (s) => !s.hasActivePrompt);
    expect(after).toMatchObject({ isWaitingForUserQuestion: false, pendingInteractionCount: 0 });
    // Nobody answered: the model was not called and the call still dangles on disk.
    expect(world.server.requests.length - firstRequest).toBe(1);
    const records = readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(records.filter((r) => r.type === "tool_result")).toEqual([]);
    expect(JSON.stringify(records.filter((r) => r.type !== "system").at(-1)?.message)).toContain(
      asked.callId,
    );
    const restorePromptId = shown.json?.promptId as string;
    expect(
      ledgerOf(readLedger(world.env.qwenHome, world.env.workspace, asked.sessionId), restorePromptId),
    ).toEqual([{ state: "in_flight" }, expect.objectContaining({ state: "interrupted" })]);
    // The timed-out request is gone like any resolved one.
    expect(
      (
        await vote(
          second,
          asked.sessionId,
          requestIdOf(shown),
          restored.clientId,
          submitAnswers({ "0": "Blue" }),
        )
      ).status,
    ).toBe(404);
    await events.close();
    await second.kill9();

    const third = await world.env.startDaemon(["--restore-ask-user-question"]);
    const again = await expectRestored(third, "load", asked.sessionId, restored.clientId);
    expect(again.hasActivePrompt).toBe(true);
    const status = await waitForStatus(third, asked.sessionId, (s) => s.isWaitingForUserQuestion);
    const requestId = waitingQuestion(status).requestId;
    expect(requestId).not.toBe(requestIdOf(shown));
    const later = await openEvents(third, asked.sessionId, { lastEventId: again.lastEventId });
    expect(
      await vote(third, asked.sessionId, requestId, again.clientId, submitAnswers({ "0": "Green" })),
    ).toEqual({
      status: 200,
      body: {},
    });
    await later.waitForEvent("turn_complete");
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: answeredText([["Color", "Green"]]), toolCallId: asked.callId },
    ]);
    await later.close();
  });

  it("two questions in one call: restored whole, one answer line per question", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first, "ASK_TWO: color and size");
    expect(asked.question.title).toBe("Ask user 2 questions");
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const question = waitingQuestion(
      await waitForStatus(second, asked.sessionId, (s) => s.isWaitingForUserQuestion),
    );
    expect(question).toMatchObject({
      title: "Ask user 2 questions",
      questions: [
        { header: "Color", answerKey: "0" },
        { header: "Size", answerKey: "1" },
      ],
    });
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    expect(
      await vote(
        second,
        asked.sessionId,
        question.requestId,
        restored.clientId,
        submitAnswers({ "0": "Green", "1": "Large" }),
      ),
    ).toEqual({ status: 200, body: {} });
    await events.waitForEvent("turn_complete");
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      {
        role: "tool",
        text: answeredText([
          ["Color", "Green"],
          ["Size", "Large"],
        ]),
        toolCallId: asked.callId,
      },
    ]);
    await events.close();
  });

  it("two ask_user_question calls in one batch: both are re-asked and both answers reach the model", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(first);
    const live = await openEvents(first, sessionId);
    await sendPrompt(first, sessionId, clientId, "ASK_BATCH: two calls");
    await live.waitForEvent("permission_request");
    await live.close();
    await first.kill9();
    // The fake server names calls `call_<request index>_<position>`.
    const callIds = [`call_${firstRequest}_0`, `call_${firstRequest}_1`];
    expect(world.server.requests).toHaveLength(firstRequest + 1);

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", sessionId, clientId);
    expect(restored.hasActivePrompt).toBe(true);
    const events = await openEvents(second, sessionId, { lastEventId: restored.lastEventId });
    const answered = await answerUntilTurnEnds(second, sessionId, restored.clientId, events, {
      Color: "Green",
      Size: "Small",
    });
    expect(answered).toHaveLength(2);
    const asks = events.events("permission_request").map(permissionRequestOf);
    expect(asks.map((d) => d.toolCall.toolCallId).sort()).toEqual([...callIds].sort());

    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, callIds[0]!)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: callIds },
      { role: "tool", text: answeredText([["Color", "Green"]]), toolCallId: callIds[0] },
      { role: "tool", text: answeredText([["Size", "Small"]]), toolCallId: callIds[1] },
    ]);
    expect(userTexts(ours[1]!)).toEqual(["ASK_BATCH: two calls"]);
    await events.close();
  });

  it("DELETE while the restored question waits persists nothing: loading it again on the same daemon re-asks", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    const shown = await events.waitForEvent("permission_request");
    const deleted = await second.json("DELETE", `/session/${asked.sessionId}`, undefined, {
      "X-Qwen-Client-Id": restored.clientId,
    });
    expect(deleted.status).toBe(204);
    const closed = await events.waitForEvent("session_closed");
    expect(closed.json?.data).toMatchObject({ sessionId: asked.sessionId });
    // Subscribers learn that the waiting question is gone (LiveSession#end: "its permission requests
    // resolved as session_closed"), before the session_closed frame.
    const resolved = events.events("permission_resolved");
    expect(resolved.map((f) => dataOf(f))).toEqual([
      expect.objectContaining({
        requestId: requestIdOf(shown),
        outcome: { outcome: "cancelled" },
        reason: "session_closed",
      }),
    ]);
    expect(events.frames.indexOf(resolved[0]!)).toBeLessThan(events.frames.indexOf(closed));
    await events.close();
    // Like the reference, status answers only for live sessions: after DELETE it is 404 until loaded again.
    const afterDelete = await second.json("GET", `/session/${asked.sessionId}/status`);
    expect(afterDelete.status).toBe(404);
    expect(afterDelete.body).toMatchObject({ code: "session_not_found", sessionId: asked.sessionId });

    const again = await expectRestored(second, "load", asked.sessionId, restored.clientId);
    expect(again.hasActivePrompt).toBe(true);
    const question = waitingQuestion(
      await waitForStatus(second, asked.sessionId, (s) => s.isWaitingForUserQuestion),
    );
    expect(question.requestId).not.toBe(requestIdOf(shown));
    const later = await openEvents(second, asked.sessionId, { lastEventId: again.lastEventId });
    expect(
      await vote(second, asked.sessionId, question.requestId, again.clientId, submitAnswers({ "0": "Blue" })),
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
});
