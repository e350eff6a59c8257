// docs/restore.md "The guarantees" beyond the restore (issue 10 item 5): a 200 to a vote means the answer reaches the
// model whatever the batch held. The question's batch here is not one a restore re-asks (it also lists the
// workspace), or it is loaded with nobody to ask it; the children are frozen (SIGSTOP) before the vote, so only
// the daemon's journal holds the answer when everything is SIGKILLed. After the restart the load closes the
// batch with the journaled answer instead of the orphan-repair failure, and, with a client on the load, the same
// turn goes on with it (the model never saw it).
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, toolResultText } from "./harness/model-requests.js";
import { descendantsOf } from "./harness/process-tree.js";
import { answeredText, ORPHAN_REPAIR_TEXT } from "./harness/protocol-texts.js";
import { DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  type Restored,
  sendPrompt,
  submitAnswers,
  vote,
} from "./harness/session-api.js";
import { readTranscript } from "./harness/session-files.js";
import { permissionRequestOf } from "./harness/sse-views.js";

const world = useE2eWorld();
const SWITCH = ["--restore-ask-user-question"];
const ANSWERED = answeredText([["Color", "Blue"]]);

/** Asks, freezes the children, votes (200 from the journal alone), then SIGKILLs everything. */
async function answerThenCrash(daemon: DaemonProcess, promptText: string) {
  const { sessionId, clientId } = await createSession(daemon);
  const events = await openEvents(daemon, sessionId);
  await sendPrompt(daemon, sessionId, clientId, promptText);
  const request = permissionRequestOf(await events.waitForEvent("permission_request"));
  await events.close();
  for (const pid of descendantsOf(daemon.pid)) process.kill(pid, "SIGSTOP");
  expect(await vote(daemon, sessionId, request.requestId, clientId, submitAnswers({ "0": "Blue" }))).toEqual({
    status: 200,
    body: {},
  });
  await daemon.kill9();
  return { sessionId, clientId, callId: request.toolCall.toolCallId };
}

/** The next prompt after the load: nothing is asked, and what the model receives for each call of the batch. */
async function nextPromptResults(
  daemon: DaemonProcess,
  sessionId: string,
  restored: Restored,
  callIds: string[],
) {
  expect(await getStatus(daemon, sessionId)).toMatchObject({
    hasActivePrompt: false,
    pendingInteractionCount: 0,
  });
  const events = await openEvents(daemon, sessionId, { lastEventId: restored.lastEventId });
  const before = world.server.requests.length;
  await events.waitForTurnComplete(await sendPrompt(daemon, sessionId, restored.clientId, "Carry on"));
  expect(events.events("permission_request")).toEqual([]);
  await events.close();
  const request = world.server.requests[before];
  if (request === undefined) throw new Error("the next prompt never reached the model");
  return { request, results: callIds.map((id) => toolResultText(request, id)) };
}

/** With a client on the load, the answered batch's turn goes on by itself: what the model then receives. */
async function continuedResults(
  daemon: DaemonProcess,
  sessionId: string,
  restored: Restored,
  callIds: string[],
) {
  const report = (restored as { restore?: { tail: string; action: string; promptId?: string } }).restore;
  expect(report).toMatchObject({ tail: "answered", action: "continued" });
  expect(restored.hasActivePrompt).toBe(true);
  const before = world.server.requests.length;
  const events = await openEvents(daemon, sessionId, { lastEventId: restored.lastEventId });
  await events.waitForTurnComplete(report?.promptId as string);
  expect(events.events("permission_request")).toEqual([]);
  await events.close();
  const request = world.server.requests.slice(0, before + 1).at(-1);
  if (request === undefined) throw new Error("the turn never reached the model");
  return { request, results: callIds.map((id) => toolResultText(request, id)) };
}

describe("an acknowledged answer in a batch that is not re-asked", () => {
  it("a question beside another tool: the load writes the answer as its result, the other call fails", async () => {
    const first = await world.env.startDaemon(SWITCH);
    const { sessionId, clientId, callId } = await answerThenCrash(first, "ASK_MIXED: look around, then ask");
    const batch = readTranscript(world.env.qwenHome, world.env.workspace, sessionId).at(-1);
    const calls = (batch?.message?.parts ?? []).flatMap((p) => {
      const call = p.functionCall as { id: string; name: string } | undefined;
      return call ? [call] : [];
    });
    expect(calls.map((c) => c.name)).toEqual(["list_directory", "ask_user_question"]);
    const listId = calls[0]?.id as string;

    const second = await world.env.startDaemon(SWITCH);
    const restored = await expectRestored(second, "load", sessionId, clientId);
    // The replay shows the question answered (from disk now), the listing failed.
    const finals = (restored.compactedReplay ?? [])
      .map((e) => e.data.update ?? {})
      .filter((u) => u.sessionUpdate === "tool_call_update");
    expect(finals.map((u) => [u.toolCallId, u.status])).toEqual([
      [listId, "failed"],
      [callId, "completed"],
    ]);
    // The model never saw the answer: the same turn goes on, the answer and the failure its newest messages.
    const { request, results } = await continuedResults(second, sessionId, restored, [listId, callId]);
    expect(results).toEqual([ORPHAN_REPAIR_TEXT, ANSWERED]);
    expect(messagesFromCall(request, listId).map((m) => m.role)).toEqual(["assistant", "tool", "tool"]);
  });

  it("a question loaded by no client (nobody to ask): the answer is applied, not lost to the next prompt", async () => {
    const first = await world.env.startDaemon(SWITCH);
    const { sessionId, callId } = await answerThenCrash(first, DEFAULT_ASK_PROMPT);
    const second = await world.env.startDaemon(SWITCH);
    const restored = await expectRestored(second, "load", sessionId, undefined);
    expect((restored as { restore?: unknown }).restore).toEqual({
      tail: "answered",
      action: "not_restored",
      reason: "no_client",
    });
    const { results } = await nextPromptResults(second, sessionId, restored, [callId]);
    expect(results).toEqual([ANSWERED]);
  });

  it("resume works the same way", async () => {
    const first = await world.env.startDaemon(SWITCH);
    const { sessionId, clientId, callId } = await answerThenCrash(first, "ASK_MIXED: look around, then ask");
    const second = await world.env.startDaemon(SWITCH);
    const restored = await expectRestored(second, "resume", sessionId, clientId);
    const { results } = await continuedResults(second, sessionId, restored, [callId]);
    expect(results).toEqual([ANSWERED]);
  });
});
