// docs/restore.md "How a restore runs", step 5, "Cancel persists a decline": cancelling a restored question ends the turn, the decline
// is written as the question's result (the model sees it with the next prompt), and a later restart + load
// does not ask the declined question again.
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { messagesFromCall, userTexts } from "./harness/model-requests.js";
import { PLAIN_ANSWER, QUESTION_PREAMBLE } from "./harness/model-script.js";
import { CANCELED_BY_USER_TEXT } from "./harness/protocol-texts.js";
import { askQuestionThenCrash, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import {
  cancelVote,
  expectRestored,
  getStatus,
  openEvents,
  sendPrompt,
  vote,
  waitForStatus,
} from "./harness/session-api.js";
import { ledgerOf, readLedger } from "./harness/session-files.js";
import { agentText, dataOf, requestIdOf } from "./harness/sse-views.js";

const world = useE2eWorld();

describe("cancel vote on a restored question", () => {
  it("ends the turn, survives another restart, and the model sees the decline with the next prompt", async () => {
    const firstRequest = world.server.requests.length;
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const events = await openEvents(second, asked.sessionId, { lastEventId: restored.lastEventId });
    const again = await events.waitForEvent("permission_request");
    const requestId = requestIdOf(again);
    const restorePromptId = again.json?.promptId as string;

    expect(await vote(second, asked.sessionId, requestId, restored.clientId, cancelVote)).toEqual({
      status: 200,
      body: {},
    });
    const ended = await events.waitFor(
      (f) => f.event === "turn_complete" || f.event === "turn_error",
      20_000,
      "end of the restore turn",
    );
    expect(ended.event).toBe("turn_complete");
    expect(ended.json?.promptId).toBe(restorePromptId);
    expect(events.events("permission_resolved").map((f) => dataOf(f))).toEqual([
      expect.objectContaining({ requestId, outcome: { outcome: "cancelled" } }),
    ]);
    // A decline ends the turn: the model was not called again.
    expect(world.server.requests.length - firstRequest).toBe(1);
    expect(await waitForStatus(second, asked.sessionId, (s) => !s.hasActivePrompt)).toMatchObject({
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });
    const ledger = readLedger(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(ledgerOf(ledger, asked.promptId)).toEqual([
      { state: "in_flight" },
      { state: "interrupted", code: "restored", restoredBy: restorePromptId },
    ]);
    // The decline is the user's answer, not a lost prompt: the restore prompt has a terminal entry with the
    // turn's own stop reason (never `interrupted`, which would mean "ask again").
    const { stopReason } = dataOf<{ stopReason: string }>(ended);
    const terminal = stopReason === "cancelled" ? "cancelled" : "completed";
    expect(ledgerOf(ledger, restorePromptId)).toEqual([
      { state: "in_flight" },
      { state: terminal, stopReason },
    ]);
    await events.close();
    await second.kill9();

    // The decline is on disk: a third daemon with the switch has nothing to re-ask.
    const third = await world.env.startDaemon(["--restore-ask-user-question"]);
    const reloaded = await expectRestored(third, "load", asked.sessionId, restored.clientId);
    expect(reloaded.hasActivePrompt).toBe(false);
    const replayed = (reloaded.compactedReplay ?? []).map((e) => e.data.update ?? {});
    expect(replayed.filter((u) => u.sessionUpdate === "tool_call_update")).toEqual([
      expect.objectContaining({
        toolCallId: asked.callId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: CANCELED_BY_USER_TEXT } }],
      }),
    ]);
    expect(await getStatus(third, asked.sessionId)).toMatchObject({
      hasActivePrompt: false,
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });

    const later = await openEvents(third, asked.sessionId, { lastEventId: reloaded.lastEventId });
    const promptId = await sendPrompt(third, asked.sessionId, reloaded.clientId, "Never mind");
    await later.waitForTurnComplete(promptId, "turn_complete of the next prompt");
    expect(later.events("permission_request")).toEqual([]);
    const ours = world.server.requests.slice(firstRequest);
    expect(ours).toHaveLength(2);
    expect(messagesFromCall(ours[1]!, asked.callId)).toEqual([
      { role: "assistant", text: QUESTION_PREAMBLE, toolCalls: [asked.callId] },
      { role: "tool", text: CANCELED_BY_USER_TEXT, toolCallId: asked.callId },
      { role: "user", text: "Never mind" },
    ]);
    expect(userTexts(ours[1]!)).toEqual([DEFAULT_ASK_PROMPT, "Never mind"]);
    expect(agentText(later)).toBe(PLAIN_ANSWER);
    await later.close();
  });
});
