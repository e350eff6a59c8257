// docs/restore.md "The guarantees", "Sessions are independent": permission waits are per session. Two sessions share one
// workspace (and so one ACP child); while one waits for its user's answer, the other runs prompts to the end,
// before and after a restart that re-asks the first session's question.
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { PLAIN_ANSWER } from "./harness/model-script.js";
import { askQuestion } from "./harness/question-scenario.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  sendPrompt,
  submitAnswers,
  vote,
  waitForStatus,
} from "./harness/session-api.js";
import { agentText } from "./harness/sse-views.js";

const world = useE2eWorld();

/** Runs one plain prompt on a second session and waits for its turn to complete. */
async function plainTurn(daemon: DaemonProcess, sessionId: string, clientId: string): Promise<void> {
  const events = await openEvents(daemon, sessionId);
  const promptId = await sendPrompt(daemon, sessionId, clientId, "Just answer");
  const complete = await events.waitForTurnComplete(promptId, "turn_complete of the other session");
  expect(complete.json?.data).toMatchObject({ stopReason: "end_turn" });
  expect(agentText(events)).toBe(PLAIN_ANSWER);
  expect(events.events("permission_request")).toEqual([]);
  await events.close();
}

describe("a waiting question does not hold up another session", () => {
  it("live, and after a restart that re-asks it", async () => {
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestion(first);
    const other = await createSession(first, { sessionScope: "thread" });
    expect(other.sessionId).not.toBe(asked.sessionId);
    await plainTurn(first, other.sessionId, other.clientId);
    expect(await getStatus(first, asked.sessionId)).toMatchObject({ isWaitingForUserQuestion: true });
    await asked.events.close();
    await first.kill9();

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const reloaded = await expectRestored(second, "load", other.sessionId, other.clientId);
    expect(reloaded.hasActivePrompt).toBe(false);
    // The load admits the restore prompt; the child's re-ask reaches status a moment later.
    const waiting = await waitForStatus(second, asked.sessionId, (st) => st.isWaitingForUserQuestion);
    await plainTurn(second, other.sessionId, reloaded.clientId);
    expect(await getStatus(second, asked.sessionId)).toMatchObject({ isWaitingForUserQuestion: true });
    const requestId = waiting.pendingInteractions[0]!.requestId;
    expect(
      await vote(second, asked.sessionId, requestId, restored.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual({ status: 200, body: {} });
  });
});
