// When a load or resume must NOT re-ask the question (docs/restore.md "The switches" and "How a restore runs", step 4): a daemon started
// without --restore-ask-user-question, or a load by no client (nobody to ask). Then the old behaviour holds:
// replay shows the call failed, nothing waits, the crashed prompt is closed as daemon_lost, and the next
// prompt hands the model the orphan-repair text as the question's result.
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, userTexts } from "./harness/model-requests.js";
import { PLAIN_ANSWER, QUESTION_PREAMBLE } from "./harness/model-script.js";
import { failedReplayUpdate, ORPHAN_REPAIR_TEXT } from "./harness/protocol-texts.js";
import { type AskedQuestion, askQuestionThenCrash, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import { expectRestored, getStatus, openEvents, type Restored, sendPrompt } from "./harness/session-api.js";
import { ledgerOf, readLedger } from "./harness/session-files.js";
import { agentText } from "./harness/sse-views.js";

const world = useE2eWorld();

/** Everything a refused restore must look like, from the load's answer to the next prompt's model request. */
async function expectNotRestored(
  daemon: DaemonProcess,
  action: "load" | "resume",
  asked: AskedQuestion,
  restored: Restored,
  firstRequest: number,
): Promise<void> {
  expect(restored.hasActivePrompt).toBe(false);
  if (action === "load") {
    const updates = (restored.compactedReplay ?? []).map((e) => e.data.update ?? {});
    expect(updates.filter((u) => u.sessionUpdate === "tool_call_update")).toEqual([
      failedReplayUpdate(asked.callId),
    ]);
  }
  const status = await getStatus(daemon, asked.sessionId);
  expect(status).toMatchObject({
    hasActivePrompt: false,
    isWaitingForUserQuestion: false,
    isWaitingForPermission: false,
    pendingInteractionCount: 0,
    pendingInteractions: [],
  });
  // Nothing took the crashed prompt over, so the load closed it as lost.
  expect(
    ledgerOf(readLedger(world.env.qwenHome, world.env.workspace, asked.sessionId), asked.promptId),
  ).toEqual([{ state: "in_flight" }, { state: "interrupted", code: "daemon_lost" }]);

  // The next prompt is the barrier: had a restore prompt been admitted, it would run (and ask) first.
  const events = await openEvents(daemon, asked.sessionId, { lastEventId: restored.lastEventId });
  const promptId = await sendPrompt(daemon, asked.sessionId, restored.clientId, "Carry on");
  const complete = await events.waitForTurnComplete(promptId, "turn_complete of the next prompt");
  expect(complete.json?.data).toMatchObject({ stopReason: "end_turn" });
  expect(events.events("permission_request")).toEqual([]);
  expect(events.events("turn_complete")).toHaveLength(1);

  const ours = world.server.requests.slice(firstRequest);
  expect(ours).toHaveLength(2);
  const next = ours[1]!;
  expect(messagesFromCall(next, asked.callId)).toEqual([
    { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
    { role: "tool", text: ORPHAN_REPAIR_TEXT, toolCallId: asked.callId },
    { role: "user", text: "Carry on" },
  ]);
  expect(userTexts(next)).toEqual([DEFAULT_ASK_PROMPT, "Carry on"]);
  expect(agentText(events)).toBe(PLAIN_ANSWER);
  await events.close();
}

describe.each(["load", "resume"] as const)("POST /session/:id/%s that must not restore", (action) => {
  it("restarted WITHOUT the switch: the call is failed and the model gets the orphan text", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon();
    expect(second.stdout).toContain("restore ask_user_question: off");
    const restored = await expectRestored(second, action, asked.sessionId, asked.clientId);
    await expectNotRestored(second, action, asked, restored, firstRequest);
  });

  it("switch on but no X-Qwen-Client-Id: nobody to ask, nothing is re-asked", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, action, asked.sessionId, undefined);
    expect(restored.clientId).toMatch(/^client_/);
    await expectNotRestored(second, action, asked, restored, firstRequest);
  });
});
