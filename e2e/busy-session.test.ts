// docs/restore.md "How a restore runs", step 4, "admission also requires the session idle", through real processes: a load or resume
// of a live session whose prompt is still running (its question waits for an answer) admits no restore
// prompt and does not ask again; the one waiting question keeps its requestId and its answer ends the turn.
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { askQuestion } from "./harness/question-scenario.js";
import { expectRestored, getStatus, submitAnswers, vote } from "./harness/session-api.js";

const world = useE2eWorld();

describe("a busy session is not admitted for restore", () => {
  it("load and resume with a client id while the question waits: nothing re-asked, the original answer ends it", async () => {
    const firstRequest = world.server.requests.length;
    const daemon = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestion(daemon);

    for (const action of ["load", "resume"] as const) {
      const attached = await expectRestored(daemon, action, asked.sessionId, asked.clientId);
      expect(attached.hasActivePrompt).toBe(true);
    }
    const status = await getStatus(daemon, asked.sessionId);
    expect(status.pendingInteractionCount).toBe(1);
    expect(status.pendingInteractions.map((p) => p.requestId)).toEqual([asked.requestId]);
    expect(asked.events.events("permission_request")).toHaveLength(1);
    // Only the original model request so far: no restore prompt reached the model.
    expect(world.server.requests.length - firstRequest).toBe(1);

    expect(
      await vote(daemon, asked.sessionId, asked.requestId, asked.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual({ status: 200, body: {} });
    await asked.events.waitForTurnComplete(asked.promptId);
    expect(asked.events.events("permission_request")).toHaveLength(1);
    await asked.events.close();
  });
});
