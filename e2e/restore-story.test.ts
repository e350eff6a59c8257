// The restore story end to end (docs/restore.md "How a restore runs", issue 6): a question is asked, the daemon and
// its children are SIGKILLed, a daemon started with --restore-ask-user-question loads (or resumes) the session
// for a client, the question is asked again under a new requestId, and the answer reaches the model as the
// question's tool result, continuing the same turn without a new user message.
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, requestsWithCall, userTexts } from "./harness/model-requests.js";
import { answerText, QUESTION_PREAMBLE } from "./harness/model-script.js";
import { askQuestionThenCrash, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import {
  expectRestored,
  getStatus,
  openEvents,
  submitAnswers,
  vote,
  waitForStatus,
  waitingQuestion,
} from "./harness/session-api.js";
import { ledgerOf, readLedger, readTranscript } from "./harness/session-files.js";
import { agentText, dataOf, permissionRequestOf, userEchoes } from "./harness/sse-views.js";

// The exact text docs/protocol.md "What the model is told" gives, spelled out once here too, so a broken helper cannot hide a wrong text.
const ANSWERED = "User has provided the following answers:\n\n**Color**: Green";
const FINAL_TEXT = answerText(ANSWERED);

/** The session's entry in GET /workspace/:cwd/sessions. */
async function listedSession(daemon: DaemonProcess, sessionId: string): Promise<Record<string, unknown>> {
  const res = await daemon.json<{ sessions: { sessionId: string }[] }>(
    "GET",
    `/workspace/${encodeURIComponent(world.env.workspace)}/sessions`,
  );
  expect(res.status).toBe(200);
  const entry = res.body.sessions.find((s) => s.sessionId === sessionId);
  expect(entry, `session ${sessionId} in the list`).toBeDefined();
  return entry as Record<string, unknown>;
}

const world = useE2eWorld();

describe.each(["load", "resume"] as const)("restore through POST /session/:id/%s", (action) => {
  it("re-asks the question with a new requestId and continues the same turn with the answer", async () => {
    const firstRequest = world.server.requests.length;
    // The first daemon runs without the switch on the load path and with it on the resume path: the
    // crashed daemon's switch must not matter, only the one that loads.
    const first = await world.env.startDaemon(action === "resume" ? ["--restore-ask-user-question"] : []);
    const asked = await askQuestionThenCrash(first);

    // What the client saw before the crash.
    const shown = permissionRequestOf(asked.permissionRequest);
    expect(shown.sessionId).toBe(asked.sessionId);
    expect(shown.toolCall.title).toBe("Ask user 1 question");
    expect(shown.toolCall._meta).toMatchObject({
      toolName: "ask_user_question",
      qwenInteractionKind: "user_question",
    });
    expect(shown.options.map((o) => o.optionId)).toEqual(["proceed_once", "cancel"]);
    expect(asked.permissionRequest.json?.promptId).toBe(asked.promptId);
    expect(asked.status).toMatchObject({ isWaitingForUserQuestion: true, pendingInteractionCount: 1 });
    expect(asked.question).toMatchObject({
      requestId: asked.requestId,
      kind: "user_question",
      title: "Ask user 1 question",
      questions: [{ question: "Which color should the button be?", header: "Color", answerKey: "0" }],
    });
    expect(world.server.requests.length - firstRequest).toBe(1);

    // A killed daemon leaves the transcript ending in the question's call and the prompt in flight.
    const onDisk = readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(onDisk.at(-1)?.type).toBe("assistant");
    expect(JSON.stringify(onDisk.at(-1)?.message)).toContain(asked.callId);
    expect(
      ledgerOf(readLedger(world.env.qwenHome, world.env.workspace, asked.sessionId), asked.promptId),
    ).toEqual([{ state: "in_flight" }]);

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    expect(second.stdout).toContain("restore ask_user_question: on");
    // Before any load the session exists only on disk: listed, nobody attached, nothing running or waiting.
    expect(await listedSession(second, asked.sessionId)).toMatchObject({
      clientCount: 0,
      hasActivePrompt: false,
      isWaitingForUserQuestion: false,
    });
    const restored = await expectRestored(second, action, asked.sessionId, asked.clientId);
    expect(restored.sessionId).toBe(asked.sessionId);
    expect(restored.clientId).toMatch(/^client_/);
    expect(restored.hasActivePrompt).toBe(true);
    if (action === "load") {
      // Replay leaves the question in progress: no failed update for the restored call.
      const updates = (restored.compactedReplay ?? []).map((e) => e.data.update ?? {});
      expect(updates).toContainEqual(
        expect.objectContaining({
          sessionUpdate: "tool_call",
          toolCallId: asked.callId,
          status: "in_progress",
        }),
      );
      expect(
        updates.filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === asked.callId),
      ).toEqual([]);
      expect(restored.lastEventId).toBe(restored.compactedReplay?.length);
    } else {
      expect(restored.compactedReplay).toBeUndefined();
      expect(restored.lastEventId).toBe(0);
    }

    // The re-asked question, as a client that subscribes right after the load sees it.
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    const again = await events.waitForEvent("permission_request");
    const againData = permissionRequestOf(again);
    const newRequestId = againData.requestId;
    const restorePromptId = again.json?.promptId as string;
    expect(newRequestId).not.toBe(asked.requestId);
    expect(againData.toolCall.toolCallId).toBe(asked.callId);
    expect(restorePromptId).toBeTruthy();
    expect(restorePromptId).not.toBe(asked.promptId);

    const status = await getStatus(second, asked.sessionId);
    expect(status).toMatchObject({ isWaitingForUserQuestion: true, pendingInteractionCount: 1 });
    expect(waitingQuestion(status)).toMatchObject({
      requestId: newRequestId,
      kind: "user_question",
      questions: [{ question: "Which color should the button be?", header: "Color", answerKey: "0" }],
    });

    // The session list shows the waiting question too (docs/restore.md "What you see", step 3).
    expect(await listedSession(second, asked.sessionId)).toMatchObject({
      clientCount: 1,
      hasActivePrompt: true,
      isWaitingForUserQuestion: true,
      pendingInteractions: [expect.objectContaining({ requestId: newRequestId, kind: "user_question" })],
    });

    // Old requestIds do not survive the restart.
    const stale = await vote(
      second,
      asked.sessionId,
      asked.requestId,
      restored.clientId,
      submitAnswers({ "0": "Blue" }),
    );
    expect(stale).toEqual({
      status: 404,
      body: {
        error: "No pending permission request for session",
        sessionId: asked.sessionId,
        requestId: asked.requestId,
      },
    });
    // Asking again did not call the model.
    expect(world.server.requests.length - firstRequest).toBe(1);

    const answered = await vote(
      second,
      asked.sessionId,
      newRequestId,
      restored.clientId,
      submitAnswers({ "0": "Green" }),
    );
    expect(answered).toEqual({ status: 200, body: {} });

    const complete = await events.waitForEvent("turn_complete");
    expect(complete.json?.promptId).toBe(restorePromptId);
    expect(complete.json?.data).toMatchObject({ stopReason: "end_turn" });
    const resolved = events.events("permission_resolved").map((f) => dataOf(f));
    expect(resolved).toEqual([
      expect.objectContaining({
        requestId: newRequestId,
        outcome: { outcome: "selected", optionId: "proceed_once" },
      }),
    ]);
    // The restore is not a user prompt: nothing echoed as a user message, the model's answer streamed.
    expect(userEchoes(events)).toEqual([]);
    expect(agentText(events)).toBe(FINAL_TEXT);
    expect(events.events("turn_error")).toEqual([]);

    // Exactly one more model request: the same turn, with the real answer right after the call.
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(requestsWithCall(ours, asked.callId).map((r) => r.index)).toEqual([1]);
    const next = ours[1]!;
    expect(messagesFromCall(next, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: ANSWERED, toolCallId: asked.callId },
    ]);
    expect(userTexts(next)).toEqual([DEFAULT_ASK_PROMPT]);

    const after = await waitForStatus(second, asked.sessionId, (s) => !s.hasActivePrompt);
    expect(after).toMatchObject({ isWaitingForUserQuestion: false, pendingInteractionCount: 0 });

    // Ledger closed: the crashed prompt is interrupted and names the restore prompt that took over.
    const ledger = readLedger(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(ledgerOf(ledger, asked.promptId)).toEqual([
      { state: "in_flight" },
      { state: "interrupted", code: "restored", restoredBy: restorePromptId },
    ]);
    expect(ledgerOf(ledger, restorePromptId)).toEqual([
      { state: "in_flight" },
      { state: "completed", stopReason: "end_turn" },
    ]);

    // The transcript holds one user record and the real answer as the question's result.
    const records = readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(records.filter((r) => r.type === "user")).toHaveLength(1);
    const results = records.filter((r) => r.type === "tool_result");
    expect(results).toHaveLength(1);
    expect(results[0]?.message?.parts).toEqual([
      { functionResponse: { id: asked.callId, name: "ask_user_question", response: { output: ANSWERED } } },
    ]);
    await events.close();
  });
});
