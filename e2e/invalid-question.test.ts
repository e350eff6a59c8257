// An ask_user_question the model got wrong (one option) is never shown to anyone: the validation text goes
// back to the model as the tool result. Restore eligibility is fail-closed (docs/restore.md "When it happens, and when not"): a
// trailing question whose args do not validate is never re-asked after a restart, whether its validation
// result made it to disk or the process died with the call still dangling.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, userTexts } from "./harness/model-requests.js";
import {
  answerText,
  conversationHandler,
  INVALID_OPTIONS_TEXT,
  INVALID_QUESTION,
  PLAIN_ANSWER,
  QUESTION_PREAMBLE,
} from "./harness/model-script.js";
import { failedReplayUpdate, ORPHAN_REPAIR_TEXT } from "./harness/protocol-texts.js";
import { askQuestionThenCrash } from "./harness/question-scenario.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  type Restored,
  sendPrompt,
} from "./harness/session-api.js";
import { chatsDir, ledgerOf, readLedger, readTranscript } from "./harness/session-files.js";
import type { SseClient } from "./harness/sse-client.js";
import { agentText, dataOf, type SessionUpdate } from "./harness/sse-views.js";

const INVALID_PROMPT = "ASK_INVALID: one option only";

const world = useE2eWorld();

/** After a load: nothing waits, and the next prompt (the barrier) runs without any permission request. */
async function expectNothingReAsked(
  daemon: DaemonProcess,
  sessionId: string,
  restored: Restored,
): Promise<{ events: SseClient; promptId: string }> {
  expect(restored.hasActivePrompt).toBe(false);
  expect(await getStatus(daemon, sessionId)).toMatchObject({
    hasActivePrompt: false,
    isWaitingForUserQuestion: false,
    pendingInteractionCount: 0,
  });
  const events = await openEvents(daemon, sessionId, { lastEventId: restored.lastEventId });
  const promptId = await sendPrompt(daemon, sessionId, restored.clientId, "Carry on");
  await events.waitForTurnComplete(promptId, "turn_complete of the next prompt");
  expect(events.events("permission_request")).toEqual([]);
  return { events, promptId };
}

describe("ask_user_question with one option", () => {
  it("is answered with the validation text, never shown, and not re-asked after restart + load", async () => {
    const firstRequest = world.server.requests.length;
    // The model "thinks" forever after the validation error, so the crash comes right after the question.
    world.server.setHandler(conversationHandler({ stallOnToolResult: true }));
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(first);
    const events = await openEvents(first, sessionId);
    const promptId = await sendPrompt(first, sessionId, clientId, INVALID_PROMPT);
    const followUp = await world.server.waitForRequest(firstRequest + 2, 20_000);

    // The model request can overtake the child's updates on their way to SSE: take the id from the request.
    const assistant = followUp.messages.find((m) => m.role === "assistant");
    const callId = (assistant?.role === "assistant" ? assistant.tool_calls?.[0]?.id : undefined) as string;
    expect(callId).toBeTruthy();
    // The live view shows the call failed with the same text.
    const failed = await events.waitFor(
      (f) =>
        f.event === "session_update" &&
        dataOf<{ update: SessionUpdate }>(f).update.sessionUpdate === "tool_call_update",
      20_000,
      "tool_call_update",
    );
    expect(dataOf<{ update: SessionUpdate }>(failed).update).toMatchObject({
      toolCallId: callId,
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: INVALID_OPTIONS_TEXT } }],
    });
    // The validation text is the question's result, right after the call; nobody was asked.
    expect(messagesFromCall(followUp, callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [callId] },
      { role: "tool", text: INVALID_OPTIONS_TEXT, toolCallId: callId },
    ]);
    expect(events.events("permission_request")).toEqual([]);
    expect(await getStatus(first, sessionId)).toMatchObject({
      hasActivePrompt: true,
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });
    await events.close();
    await first.kill9();

    world.server.setHandler(conversationHandler());
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", sessionId, clientId);
    const replayed = (restored.compactedReplay ?? []).map((e) => e.data.update ?? {});
    expect(replayed.filter((u) => u.sessionUpdate === "tool_call_update")).toEqual([
      expect.objectContaining({
        toolCallId: callId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: INVALID_OPTIONS_TEXT } }],
      }),
    ]);
    const next = await expectNothingReAsked(second, sessionId, restored);
    expect(ledgerOf(readLedger(world.env.qwenHome, world.env.workspace, sessionId), promptId)).toEqual([
      { state: "in_flight" },
      { state: "interrupted", code: "daemon_lost" },
    ]);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(3);
    expect(messagesFromCall(ours[2]!, callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [callId] },
      { role: "tool", text: INVALID_OPTIONS_TEXT, toolCallId: callId },
      { role: "user", text: "Carry on" },
    ]);
    await next.events.close();
  });

  it("completes the turn live: the model continues after the validation text", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon();
    const { sessionId, clientId } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    const promptId = await sendPrompt(daemon, sessionId, clientId, INVALID_PROMPT);
    const complete = await events.waitForTurnComplete(promptId, "turn_complete");
    expect(complete.json?.data).toMatchObject({ stopReason: "end_turn" });
    expect(events.events("permission_request")).toEqual([]);
    expect(agentText(events)).toBe(QUESTION_PREAMBLE + answerText(INVALID_OPTIONS_TEXT));
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(ours[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: INVALID_OPTIONS_TEXT });
    await events.close();
  });

  it("a dangling call with invalid args on disk is repaired, not re-asked (fail-closed eligibility)", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);

    // Same crash, but the trailing call's args now fail validation (as if the model had sent one option
    // and the process died before the validation result was written).
    const path = join(chatsDir(world.env.qwenHome, world.env.workspace), `${asked.sessionId}.jsonl`);
    const records = readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId);
    // The last history record: a child that saw its stdin end before the SIGKILL reached it may have added
    // a `system` turn_result after it (history scans skip those).
    const last = records.filter((r) => (r as { type: string }).type !== "system").at(-1) as {
      type: string;
      message: { parts: { functionCall?: { id?: string; args: unknown } }[] };
    };
    expect(last.type).toBe("assistant");
    const call = last.message.parts.find((p) => p.functionCall?.id === asked.callId)?.functionCall;
    expect(call).toBeDefined();
    call!.args = { questions: [{ ...INVALID_QUESTION, multiSelect: false }] };
    writeFileSync(path, `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const replayed = (restored.compactedReplay ?? []).map((e) => e.data.update ?? {});
    expect(replayed.filter((u) => u.sessionUpdate === "tool_call_update")).toEqual([
      failedReplayUpdate(asked.callId),
    ]);
    const next = await expectNothingReAsked(second, asked.sessionId, restored);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: ORPHAN_REPAIR_TEXT, toolCallId: asked.callId },
      { role: "user", text: "Carry on" },
    ]);
    expect(userTexts(ours[1]!)).toHaveLength(2);
    expect(agentText(next.events)).toBe(PLAIN_ANSWER);
    await next.events.close();
  });
});
