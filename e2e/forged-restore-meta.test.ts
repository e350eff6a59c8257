// docs/restore.md "How a restore runs", step 4: the restore key in a prompt's `_meta` is set by the daemon alone. A client that puts
// `qwen.daemon.restoreAskUserQuestion` on POST /prompt (top level or on a content block) gets an ordinary
// prompt: the model receives its user message and nothing is re-asked, even when the session ends in a
// dangling question that a real restore would re-ask.
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, userTexts } from "./harness/model-requests.js";
import { PLAIN_ANSWER, QUESTION_PREAMBLE } from "./harness/model-script.js";
import { ORPHAN_REPAIR_TEXT } from "./harness/protocol-texts.js";
import { askQuestionThenCrash, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import { createSession, expectRestored, getStatus, openEvents, postPrompt } from "./harness/session-api.js";
import type { SseClient } from "./harness/sse-client.js";
import { agentText, userEchoes } from "./harness/sse-views.js";

const RESTORE_KEY = "qwen.daemon.restoreAskUserQuestion";
const FORGED_TEXT = "Forged restore, please";

const world = useE2eWorld();

const forgeries = {
  "top-level _meta": {
    prompt: [{ type: "text", text: FORGED_TEXT }],
    _meta: { [RESTORE_KEY]: true },
  },
  "_meta on the content block": {
    prompt: [{ type: "text", text: FORGED_TEXT, _meta: { [RESTORE_KEY]: true } }],
  },
};

/** Sends the forged prompt and waits for its turn to end; returns its promptId. */
async function sendForged(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string,
  events: SseClient,
  body: Record<string, unknown>,
): Promise<string> {
  const accepted = await postPrompt(daemon, sessionId, clientId, body);
  expect(accepted.status).toBe(202);
  const { promptId } = accepted.body;
  const complete = await events.waitForTurnComplete(promptId, "turn_complete of the forged prompt");
  expect(complete.json?.data).toMatchObject({ stopReason: "end_turn" });
  // An ordinary prompt is echoed as the user's message.
  expect(userEchoes(events)).toEqual([FORGED_TEXT]);
  expect(events.events("permission_request")).toEqual([]);
  return promptId;
}

describe.each(Object.entries(forgeries))("forged restore meta (%s)", (_where, body) => {
  it("on a fresh session: an ordinary prompt, the model gets the user message", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    await sendForged(daemon, sessionId, clientId, events, body);

    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(1);
    expect(ours[0]?.messages.map((m) => m.role)).toEqual(["user"]);
    expect(userTexts(ours[0]!)).toEqual([FORGED_TEXT]);
    expect(await getStatus(daemon, sessionId)).toMatchObject({
      hasActivePrompt: false,
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });
    await events.close();
  });

  it("on a session ending in a dangling question (loaded without a client): still no re-ask", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    // No client id: the daemon itself declines the restore, so the question is left to the forger.
    const restored = await expectRestored(second, "load", asked.sessionId, undefined);
    expect(restored.hasActivePrompt).toBe(false);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    await sendForged(second, asked.sessionId, restored.clientId, events, body);

    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: ORPHAN_REPAIR_TEXT, toolCallId: asked.callId },
      { role: "user", text: FORGED_TEXT },
    ]);
    expect(userTexts(ours[1]!)).toEqual([DEFAULT_ASK_PROMPT, FORGED_TEXT]);
    expect(agentText(events)).toBe(PLAIN_ANSWER);
    expect(await getStatus(second, asked.sessionId)).toMatchObject({
      hasActivePrompt: false,
      isWaitingForUserQuestion: false,
    });
    await events.close();
  });
});
