// The world of the child's restore e2e tests (restore.e2e.test.ts, restore-switch-off.e2e.test.ts,
// restore-host-gone.e2e.test.ts): the fake model, one QWEN_HOME and workspace per test file, and the crash
// that leaves a question waiting on disk in each scenario's session. Test-only.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { chatsDir, type OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  RED_BLUE_QUESTION,
  reply,
} from "@qwen-daemon/core/testing";
import { expect } from "vitest";
import { type ChildHarness, type PendingPermission, spawnChild } from "./child-harness.js";
import { type ChildWorld, openChildWorld, PROCEED_ONCE, PROMPT_ID_KEY, text } from "./child-world.js";

export { CANCEL_REASON_KEY, PROMPT_ID_KEY, text } from "./child-world.js";

export const RESTORE_KEY = "qwen.daemon.restoreAskUserQuestion";
export const SUPPRESS_KEY = "qwen.daemon.suppressRestoreAskUserQuestion";
export const MISSING_TEXT =
  "Tool result missing from saved history; the previous run likely ended before this tool completed.";
export const ORPHAN_TEXT =
  "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.";
export const CANCELED_TEXT = 'Tool "ask_user_question" was canceled by the user.';

/** The fake model: "ask ..." asks the question, "mixed ..." asks and writes a file, a tool result gets a reply. */
export function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const text = messageText(last);
  if (text.startsWith("ask")) return askUserQuestionCall([RED_BLUE_QUESTION]);
  if (text.startsWith("mixed")) {
    return reply.toolCalls([
      { name: "ask_user_question", args: { questions: [RED_BLUE_QUESTION] } },
      { name: "write_file", args: { file_path: "mixed.txt", content: "x" } },
    ]);
  }
  return reply.text(`echo: ${text}`);
}

export const SCENARIOS = [
  "restore",
  "suppress",
  "resume",
  "timeout",
  "vote_cancel",
  "session_cancel",
  "cancel_answered",
  "vote_agent_cancelled",
  "mixed",
  "off",
  "continue_off",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export let server: FakeOpenAIServer;
export let home: string;
export let workspace: string;
let world: ChildWorld | undefined;
export const sessions = {} as Record<Scenario, { sessionId: string; callId: string }>;

export const isToolCall = (u: SessionNotification, callId: string) =>
  u.update.sessionUpdate === "tool_call" && u.update.toolCallId === callId;
export const finalUpdate = (updates: SessionNotification[], callId: string) =>
  updates.find((u) => u.update.sessionUpdate === "tool_call_update" && u.update.toolCallId === callId);
export const answer = (p: PendingPermission, answers: Record<string, string>) =>
  p.respond({ ...PROCEED_ONCE, answers });
export const toolMessages = (n: number) => server.requests[n]!.messages.filter((m) => m.role === "tool");

/** Starts the fake model and makes this file's QWEN_HOME and workspace; run beforeAll. */
export async function openWorld(): Promise<void> {
  world = await openChildWorld(model, "acp-child");
  ({ server, home, workspace } = world);
}

/** Stops the fake model and removes the folders; run afterAll. */
export async function closeWorld(): Promise<void> {
  await world?.close();
}

/**
 * One child asks a question in a session per scenario, all waiting at once, and is SIGKILLed: each session
 * is left with its question's call on disk and its prompt in flight (`sessions` holds their ids).
 */
export async function crashWhileAsking(names: readonly Scenario[] = SCENARIOS): Promise<void> {
  const child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
  try {
    for (const name of names) {
      const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
      const prompt = child.agent.request("session/prompt", {
        sessionId,
        prompt: text(name === "mixed" ? "mixed batch" : `ask ${name}`),
        _meta: { [PROMPT_ID_KEY]: `orig-${name}` },
      });
      prompt.catch(() => undefined); // settles only by the kill below (connection closed)
      const permission = await child.nextPermission((p) => p.params.sessionId === sessionId);
      sessions[name] = { sessionId, callId: permission.params.toolCall.toolCallId };
      if (name === "restore") {
        expect(permission.params).toEqual({
          sessionId,
          options: [
            { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
            { optionId: "cancel", name: "Cancel", kind: "reject_once" },
          ],
          toolCall: expect.objectContaining({
            toolCallId: expect.any(String),
            title: "Ask user 1 question",
            kind: "think",
            rawInput: { questions: [RED_BLUE_QUESTION] },
            _meta: {
              toolName: "ask_user_question",
              qwenInteractionKind: "user_question",
              qwenQuestions: [RED_BLUE_QUESTION],
            },
          }),
        });
        // The tool_call update reached the client before the permission request.
        expect(child.updates.some((u) => isToolCall(u, permission.params.toolCall.toolCallId))).toBe(true);
      }
    }
    // Several sessions wait at once: none blocked another from asking.
    expect(child.permissions).toHaveLength(names.length);
  } finally {
    await child.kill();
  }
  if (!names.includes("restore")) return;
  const transcript = await readFile(
    join(chatsDir(home, workspace), `${sessions.restore.sessionId}.jsonl`),
    "utf8",
  );
  expect(transcript).toContain(sessions.restore.callId);
}

/** A load of a session whose question is live in this very child: no hint, and the call is not "failed". */
export async function loadWhileLive(child: ChildHarness): Promise<void> {
  const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
  const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask live") });
  const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
  const callId = asked.params.toolCall.toolCallId;
  const updatesBefore = child.updatesFor(sessionId).length;
  const response = await child.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
  expect(response._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
  const replay = child.updatesFor(sessionId).slice(updatesBefore);
  expect(replay.find((u) => isToolCall(u, callId))?.update).toMatchObject({ status: "in_progress" });
  expect(finalUpdate(replay, callId)).toBeUndefined();
  answer(asked, { "0": "Red" });
  expect(await prompt).toMatchObject({ stopReason: "end_turn" });
}

export async function writeTranscript(
  sessionId: string,
  records: Array<Record<string, unknown>>,
): Promise<void> {
  const dir = chatsDir(home, workspace);
  await mkdir(dir, { recursive: true });
  let parentUuid: string | null = null;
  const lines = records.map((record, i) => {
    const uuid = `${sessionId}-${i}`;
    const line = {
      uuid,
      parentUuid,
      sessionId,
      timestamp: new Date().toISOString(),
      cwd: workspace,
      version: "test",
      ...record,
    };
    parentUuid = uuid;
    return JSON.stringify(line);
  });
  await writeFile(join(dir, `${sessionId}.jsonl`), `${lines.join("\n")}\n`, { mode: 0o600 });
}
