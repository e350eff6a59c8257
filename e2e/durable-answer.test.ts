// docs/restore.md "The guarantees" with real processes: an answer the daemon acknowledged with 200 survives an
// immediate SIGKILL of the daemon and its children. The child is frozen (SIGSTOP) before the vote, so it
// provably never writes the answer itself: after the restart only the daemon's answer journal holds it.
// The restarted daemon's child re-hangs the question; the daemon answers it from the journal before any client
// sees it, so nobody is asked twice, and the model receives the answer as the question's tool result in the
// same turn.
import { readFileSync } from "node:fs";
import { answersPath, type OpenAIChatRequest, transcriptPath } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeReply,
  lastMessage,
  messageText,
  RED_BLUE_QUESTION,
  reply,
} from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { descendantsOf } from "./harness/process-tree.js";
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
import type { SseFrame } from "./harness/sse-client.js";

// The exact text docs/protocol.md "What the model is told" gives for an answered question.
const ANSWERED = "User has provided the following answers:\n\n**Color**: Blue";

/** The fake model: a tool result gets a closing text, anything else gets the question. */
function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  return askUserQuestionCall([RED_BLUE_QUESTION]);
}

type Part = { functionCall?: { id: string }; functionResponse?: { id: string } };
type Line = Record<string, unknown> & { message?: { parts?: Part[] } };

function jsonLines(path: string): Line[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return []; // a torn last line
      }
    });
}

const callIdsOf = (lines: Line[]) =>
  lines.flatMap((r) => (r.message?.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall.id] : [])));
const functionResponsesOf = (lines: Line[]) =>
  lines.flatMap((r) =>
    (r.message?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])),
  );

type PermissionRequestData = { requestId: string; sessionId: string; toolCall: { toolCallId: string } };

/** The `data` of a permission_request frame (throws when the frame has none). */
function requestData(frame: SseFrame): PermissionRequestData {
  const data = frame.json?.data;
  if (data === undefined) throw new Error(`permission_request without data: ${frame.raw}`);
  return data as unknown as PermissionRequestData;
}

const world = useE2eWorld(() => model);

describe("an acknowledged answer is never lost", () => {
  it("vote 200, immediate SIGKILL, restart: the re-hung question is answered from the journal", async () => {
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(first);
    const events = await openEvents(first, sessionId);
    await sendPrompt(first, sessionId, clientId, "pick a color");
    const asked = await events.waitForEvent("permission_request");
    const { requestId, toolCall } = requestData(asked);
    const callId = toolCall.toolCallId;
    await events.close();

    // Freeze the children: whatever the daemon sends them now, they cannot act on it before the kill.
    const children = descendantsOf(first.pid);
    expect(children.length).toBeGreaterThan(0);
    for (const pid of children) process.kill(pid, "SIGSTOP");

    const voted = await vote(first, sessionId, requestId, clientId, submitAnswers({ "0": "Blue" }));
    expect(voted).toEqual({ status: 200, body: {} });
    await first.kill9();

    // On disk: the question's call with no result (the child never saw the answer), and the journaled answer.
    const transcript = jsonLines(transcriptPath(world.env.qwenHome, world.env.workspace, sessionId));
    const calls = callIdsOf(transcript);
    const results = functionResponsesOf(transcript);
    expect(calls).toContain(callId);
    expect(results.map((r) => r.id)).not.toContain(callId);
    expect(jsonLines(answersPath(world.env.qwenHome, world.env.workspace, sessionId))).toEqual([
      expect.objectContaining({
        type: "answer",
        sessionId,
        toolCallId: callId,
        requestId,
        outcome: { outcome: "selected", optionId: "proceed_once" },
        answers: { "0": "Blue" },
      }),
    ]);
    const requestsBefore = world.server.requests.length;

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", sessionId, clientId);
    expect(restored.hasActivePrompt).toBe(true);
    const live = await openEvents(second, sessionId, { lastEventId: restored.lastEventId });
    const done = await live.waitForEvent("turn_complete");

    // The question was re-hung under a new requestId and answered by the journal before anyone saw it: no
    // permission_request, only its resolution.
    expect(live.events("permission_request")).toEqual([]);
    const resolved = live.events("permission_resolved").map((f) => f.json?.data);
    expect(resolved).toEqual([
      {
        requestId: expect.any(String),
        sessionId,
        outcome: { outcome: "selected", optionId: "proceed_once" },
        answers: { "0": "Blue" },
        source: "answer_journal",
      },
    ]);
    expect(resolved[0]?.requestId).not.toBe(requestId);
    expect(done.json?.data).toMatchObject({ stopReason: "end_turn" });
    // It ended the restore prompt's turn, the one that re-hung the question.
    expect(done.json?.promptId).toBe(live.events("permission_resolved")[0]?.json?.promptId);
    await live.close();

    // The model got the answer as the question's tool result and finished the turn.
    const after = world.server.requests.slice(requestsBefore);
    expect(after).toHaveLength(1);
    const last = after[0] as OpenAIChatRequest;
    const toolMessage = last.messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
    expect(messageText(toolMessage)).toBe(ANSWERED);
    const status = await getStatus(second, sessionId);
    expect(status).toMatchObject({
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
      hasActivePrompt: false,
    });
    const final = jsonLines(transcriptPath(world.env.qwenHome, world.env.workspace, sessionId));
    expect(functionResponsesOf(final)).toEqual([expect.objectContaining({ id: callId })]);
  });

  it("vote 200 then SIGKILL with no pause (the race the reference loses): the answer is never asked again", async () => {
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(first);
    const events = await openEvents(first, sessionId);
    await sendPrompt(first, sessionId, clientId, "pick a color");
    const asked = await events.waitForEvent("permission_request");
    const { requestId, toolCall } = requestData(asked);
    await events.close();
    expect((await vote(first, sessionId, requestId, clientId, submitAnswers({ "0": "Blue" }))).status).toBe(
      200,
    );
    await first.kill9();

    // Whichever side won the race (the child writing the result, or the kill), after a restart and a load
    // nobody is asked again, and the answer is the question's result in the transcript (the model has it,
    // or gets it with the session's next turn when the kill cut the turn after the result was written).
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    await expectRestored(second, "load", sessionId, clientId);
    await waitForStatus(second, sessionId, (s) => !s.hasActivePrompt);
    expect(await getStatus(second, sessionId)).toMatchObject({
      isWaitingForUserQuestion: false,
      pendingInteractionCount: 0,
    });
    const results = functionResponsesOf(
      jsonLines(transcriptPath(world.env.qwenHome, world.env.workspace, sessionId)),
    );
    expect(results).toEqual([
      { id: toolCall.toolCallId, name: "ask_user_question", response: { output: ANSWERED } },
    ]);
    for (const request of world.server.requests) {
      const result = request.messages.find(
        (m) => m.role === "tool" && m.tool_call_id === toolCall.toolCallId,
      );
      if (result !== undefined) expect(messageText(result)).toBe(ANSWERED);
    }
  });
});
