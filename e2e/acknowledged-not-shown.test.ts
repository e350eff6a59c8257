// Nothing acknowledged is shown again (docs/restore.md "The guarantees"), with real processes: a question or a
// tool approval is answered with 200 while the agent is frozen (SIGSTOP), so only the daemon's answer journal
// holds the answer, and everything is SIGKILLed. After a restart, a load with the client id makes the agent ask
// again, and the daemon answers from its journal before any client can see the request: no `permission_request`
// reaches a subscriber (neither one following the load's cursor, whose stream replays the event ring, nor one
// without a cursor, whose stream starts with the requests waiting), `/status` never lists it, and the turn
// goes on with the answer given before the crash.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { DEFAULT_QUESTION, type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { toolResultText } from "./harness/model-requests.js";
import { descendantsOf } from "./harness/process-tree.js";
import { answeredText } from "./harness/protocol-texts.js";
import {
  createSession,
  expectRestored,
  getStatus,
  openEvents,
  type SessionStatus,
  sendPrompt,
  submitAnswers,
  type VoteBody,
  vote,
} from "./harness/session-api.js";
import type { SseClient } from "./harness/sse-client.js";
import { dataOf, permissionRequestOf } from "./harness/sse-views.js";

const COUNTER = "counter.txt";

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text("Noted.");
  if (messageText(last).startsWith("RUN")) {
    return reply.toolCalls([{ name: "run_shell_command", args: { command: `echo x >> ${COUNTER}` } }]);
  }
  return reply.toolCalls([{ name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } }]);
}

const world = useE2eWorld(() => model);

type Case = { kind: string; switches: string[]; prompt: string; answer: VoteBody };

const CASES: Case[] = [
  {
    kind: "a question",
    switches: ["--restore-ask-user-question"],
    prompt: "ASK: pick a color",
    answer: submitAnswers({ "0": "Blue" }),
  },
  {
    kind: "a tool approval",
    switches: ["--restore-pending-approvals"],
    prompt: "RUN the counter",
    answer: { outcome: { outcome: "selected", optionId: "proceed_once" } },
  },
];

/** Follows the session until the turn has completed, keeping every status that listed something waiting. */
async function watchUntilComplete(
  daemon: Parameters<typeof getStatus>[0],
  sessionId: string,
  stream: SseClient,
): Promise<SessionStatus[]> {
  const waiting: SessionStatus[] = [];
  const done = stream.waitForEvent("turn_complete").then(() => true);
  let complete = false;
  void done.then(() => {
    complete = true;
  });
  while (!complete) {
    const status = await getStatus(daemon, sessionId);
    if (status.pendingInteractionCount > 0 || status.pendingInteractions.length > 0) waiting.push(status);
    await new Promise((r) => setTimeout(r, 2));
  }
  await done;
  return waiting;
}

describe("an acknowledged answer is never shown again after a restart", () => {
  for (const c of CASES) {
    it(`${c.kind}: answered 200, agent frozen, SIGKILL; the re-ask never reaches a client`, async () => {
      const first = await world.env.startDaemon(c.switches);
      const { sessionId, clientId } = await createSession(first);
      const events = await openEvents(first, sessionId);
      await sendPrompt(first, sessionId, clientId, c.prompt);
      const asked = permissionRequestOf(await events.waitForEvent("permission_request"));
      await events.close();
      for (const pid of descendantsOf(first.pid)) process.kill(pid, "SIGSTOP");
      expect(await vote(first, sessionId, asked.requestId, clientId, c.answer)).toEqual({
        status: 200,
        body: {},
      });
      await first.kill9();

      const second = await world.env.startDaemon(c.switches);
      const requestsBefore = world.server.requests.length;
      const restored = await expectRestored(second, "load", sessionId, clientId);
      // The restore runs from the load on; both kinds of subscriber connect at once.
      const [following, late] = await Promise.all([
        openEvents(second, sessionId, { lastEventId: restored.lastEventId }),
        openEvents(second, sessionId),
      ]);
      expect(restored.hasActivePrompt).toBe(true);
      const waiting = await watchUntilComplete(second, sessionId, following);
      await late.waitForEvent("turn_complete");

      expect(following.events("permission_request")).toEqual([]);
      expect(late.events("permission_request")).toEqual([]);
      expect(waiting).toEqual([]);
      // The one trace of the re-ask: its resolution, by the journal.
      const resolved = following.events("permission_resolved").map((f) => dataOf(f));
      expect(resolved).toEqual([
        expect.objectContaining({ source: "answer_journal", outcome: c.answer.outcome }),
      ]);
      expect(resolved[0]?.requestId).not.toBe(asked.requestId);
      await Promise.all([following.close(), late.close()]);

      // The turn went on with the answer from before the crash.
      const after = world.server.requests.slice(requestsBefore);
      expect(after).toHaveLength(1);
      const callId = asked.toolCall.toolCallId;
      const result = toolResultText(after[0] as OpenAIChatRequest, callId);
      if (c.kind === "a question") expect(result).toBe(answeredText([["Color", "Blue"]]));
      else expect(readFileSync(join(world.env.workspace, COUNTER), "utf8")).toBe("x\n");
      expect(result).toBeDefined();
      expect(await getStatus(second, sessionId)).toMatchObject({
        hasActivePrompt: false,
        pendingInteractionCount: 0,
      });
    });
  }
});
