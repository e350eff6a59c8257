// A load or resume of a session that is already live on this daemon, with a client id and the restore switch
// on, makes the daemon ask the child again whether a question waits (so a question left unanswered is re-asked
// without a restart). Races and edge cases of that re-check (issue 10 items 7, 8 and 9): it must never cost the
// session, never make a concurrent request fail, and what the load returns must match what is re-asked.
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { PLAIN_ANSWER } from "./harness/model-script.js";
import { failedReplayUpdate } from "./harness/protocol-texts.js";
import { askQuestionThenCrash } from "./harness/question-scenario.js";
import {
  continueSession,
  createSession,
  expectRestored,
  openEvents,
  restoreSession,
  sendPrompt,
  submitAnswers,
  vote,
  waitForStatus,
  waitingQuestion,
} from "./harness/session-api.js";
import { agentText, permissionRequestOf } from "./harness/sse-views.js";

const world = useE2eWorld();
const SWITCH = ["--restore-ask-user-question"];

describe.each(["load", "resume"] as const)("POST /session/:id/%s of a live session", (action) => {
  it("a session never prompted survives it: its next prompt completes (item 7)", async () => {
    const daemon = await world.env.startDaemon(SWITCH);
    const { sessionId, clientId } = await createSession(daemon);
    const restored = await expectRestored(daemon, action, sessionId, clientId);
    expect(restored.hasActivePrompt).toBe(false);
    const events = await openEvents(daemon, sessionId);
    const promptId = await sendPrompt(daemon, sessionId, restored.clientId, "hello");
    const end = await events.waitFor(
      (f) => (f.event === "turn_complete" || f.event === "turn_error") && f.json?.promptId === promptId,
    );
    expect(end.event).toBe("turn_complete");
    expect(agentText(events)).toBe(PLAIN_ANSWER);
    await events.close();
  });
});

describe("a live session reloaded by the re-check", () => {
  it("/continue racing a /resume of the same session never fails (item 8)", async () => {
    const daemon = await world.env.startDaemon(SWITCH);
    const { sessionId, clientId } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    await events.waitForTurnComplete(await sendPrompt(daemon, sessionId, clientId, "hello"));
    await events.close();
    for (let round = 0; round < 12; round++) {
      const [resumed, continued] = await Promise.all([
        restoreSession(daemon, "resume", sessionId, clientId),
        continueSession(daemon, sessionId, clientId),
      ]);
      expect(resumed.status).toBe(200);
      // Nothing was interrupted, so continue has nothing to do, whichever request the child sees first.
      expect({ round, status: continued.status, body: continued.body }).toMatchObject({
        round,
        status: 200,
        body: { accepted: false, interruption: "none" },
      });
    }
  });

  it("loaded first without a client id, then with one: the replay shows the re-asked call in progress (item 9)", async () => {
    const first = await world.env.startDaemon(SWITCH);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(SWITCH);
    // Nobody to ask: the call is replayed as failed and nothing waits.
    const anonymous = await expectRestored(second, "load", asked.sessionId, undefined);
    const toolUpdates = (r: typeof anonymous) =>
      (r.compactedReplay ?? [])
        .map((e) => e.data.update ?? {})
        .filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === asked.callId);
    expect(toolUpdates(anonymous)).toEqual([failedReplayUpdate(asked.callId)]);

    // A client loads it: the question is asked again, and its load must not say the call failed.
    const loaded = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    expect(loaded.hasActivePrompt).toBe(true);
    expect(toolUpdates(loaded).filter((u) => u.status === "failed")).toEqual([]);
    const events = await openEvents(second, asked.sessionId, { lastEventId: loaded.lastEventId });
    const request = permissionRequestOf(await events.waitForEvent("permission_request"));
    expect(request.toolCall.toolCallId).toBe(asked.callId);
    // A third load (on the same daemon) agrees too, while the question waits.
    const third = await expectRestored(second, "load", asked.sessionId, loaded.clientId);
    expect(toolUpdates(third).filter((u) => u.status === "failed")).toEqual([]);
    const status = await waitForStatus(second, asked.sessionId, (s) => s.isWaitingForUserQuestion);
    expect(waitingQuestion(status).requestId).toBe(request.requestId);
    expect(
      await vote(second, asked.sessionId, request.requestId, loaded.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual({ status: 200, body: {} });
    await events.waitForEvent("turn_complete");
    await events.close();
  });
});
