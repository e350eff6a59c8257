// One power-loss state put to the test: the disk a cut left is rebuilt in a fresh QWEN_HOME, a real daemon
// (with the restore switch and a fresh receiver) starts on it, and every promise made by then is checked as
// a person would see it. Returns the promises that did not hold, with what was seen instead.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import type { FakeOpenAIServer } from "@qwen-daemon/core/testing";
import type { E2eEnv } from "../harness/e2e-env.js";
import { toolResultText } from "../harness/model-requests.js";
import { openEvents, restoreSession, sendPrompt, waitForStatus } from "../harness/session-api.js";
import { writeDiskState } from "./disk-state.js";
import type { CutGroup } from "./promises.js";
import { daemonArgs, STORY_ANSWER, STORY_PROMPT, type StoryRun } from "./story.js";
import { webhookReceiver } from "./webhook-receiver.js";

/** Whether one of these model requests carries the story's answer as the question's result. */
function answerReached(requests: readonly OpenAIChatRequest[], callId: string): boolean {
  return requests.some((r) => toolResultText(r, callId)?.includes(STORY_ANSWER.modelSees));
}

export async function brokenPromises(
  env: E2eEnv,
  model: FakeOpenAIServer,
  story: StoryRun,
  group: CutGroup,
  scratch: string,
): Promise<string[]> {
  const home = mkdtempSync(join(scratch, "home-"));
  writeDiskState(group.state, home);
  const hook = await webhookReceiver();
  const broken: string[] = [];
  const check = async (promise: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      broken.push(`${promise}: ${(error as Error).message}`);
    }
  };
  const { sessionId, clientId, promptId, callId } = story;
  const modelBefore = model.requests.length;
  const daemon = await env.startDaemon(daemonArgs(hook.url), { QWEN_HOME: home });
  try {
    // Before any load: the only way the notification can go out now is the outbox.
    if (group.promises.has("notification_delivered")) {
      await check("notification_delivered", async () => {
        await hook.until(
          (r) => r.body.type === "question_waiting" && r.body.id === `${sessionId}:${callId}`,
          "question_waiting from the outbox",
        );
      });
    }
    if (!group.promises.has("session_exists")) return broken;
    const loaded = await restoreSession(daemon, "load", sessionId, clientId);
    if (loaded.status !== 200) {
      broken.push(`session_exists: the load answered ${loaded.status} ${JSON.stringify(loaded.body)}`);
      return broken;
    }
    if (group.promises.has("prompt_reported")) {
      await check("prompt_reported", async () => {
        const terminals = (loaded.body as { promptTerminals?: { promptId: string }[] }).promptTerminals ?? [];
        const replayed = JSON.stringify(loaded.body.compactedReplay ?? []).includes(STORY_PROMPT);
        if (!terminals.some((t) => t.promptId === promptId) && !replayed)
          throw new Error(`neither promptTerminals nor the replay has it: ${JSON.stringify(loaded.body)}`);
        // Once the model asked its question the agent had started the prompt: "never started" would be false.
        const never = terminals.some(
          (t) => t.promptId === promptId && (t as { code?: string }).code === "never_started",
        );
        if (group.first >= story.marks.asked && never)
          throw new Error(`reported never_started after the agent ran it: ${JSON.stringify(terminals)}`);
      });
    }
    if (group.promises.has("question_asked_again")) {
      // Between the answer's fsync and the 200 the test sees, the journal may already hold the answer: the
      // question is then answered from it as it comes back, and the model receives the answer instead.
      await check("question_asked_again", async () => {
        await waitForStatus(
          daemon,
          sessionId,
          (s) => s.isWaitingForUserQuestion || answerReached(model.requests.slice(modelBefore), callId),
        );
      });
    }
    if (group.promises.has("answer_delivered")) {
      await check("answer_delivered", async () => {
        const before = model.requests.length;
        const events = await openEvents(daemon, sessionId, { lastEventId: loaded.body.lastEventId });
        try {
          // Runs after the restored turn (if any); the model then has the whole history, answer included.
          await events.waitForTurnComplete(
            await sendPrompt(daemon, sessionId, loaded.body.clientId, "Just answer, please"),
          );
        } finally {
          await events.close();
        }
        const after = model.requests.slice(before);
        if (!answerReached(after, callId)) {
          const results = after.map((r) => toolResultText(r, callId));
          throw new Error(`the model never received the answer; results it saw: ${JSON.stringify(results)}`);
        }
      });
    }
    return broken;
  } finally {
    await daemon.kill9();
    hook.close();
    rmSync(home, { recursive: true, force: true });
  }
}
