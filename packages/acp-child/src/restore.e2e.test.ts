// Cross-process: the real child binary over stdio, a fake OpenAI-compatible server, SIGKILL. One child asks
// a question in several sessions at once and is killed; a child with the restore switch and one without then
// load those sessions, each session exercising one scenario of RESTORE-SPEC.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { chatsDir, ledgerPath, type OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  RED_BLUE_QUESTION,
  reply,
  startFakeOpenAIServer,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, type PendingPermission, spawnChild } from "./testing/child-harness.js";

const RESTORE_KEY = "qwen.daemon.restoreAskUserQuestion";
const SUPPRESS_KEY = "qwen.daemon.suppressRestoreAskUserQuestion";
const CANCEL_REASON_KEY = "qwen.daemon.permissionCancelReason";
const PROMPT_ID_KEY = "qwen.daemon.promptId";
const MISSING_TEXT =
  "Tool result missing from saved history; the previous run likely ended before this tool completed.";
const ORPHAN_TEXT =
  "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.";
const CANCELED_TEXT = 'Tool "ask_user_question" was canceled by the user.';

/** The fake model: "ask ..." asks the question, "mixed ..." asks and writes a file, a tool result gets a reply. */
function model(request: OpenAIChatRequest): FakeReply {
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

const SCENARIOS = [
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
type Scenario = (typeof SCENARIOS)[number];

let server: FakeOpenAIServer;
let home: string;
let workspace: string;
const sessions = {} as Record<Scenario, { sessionId: string; callId: string }>;

const text = (t: string) => [{ type: "text" as const, text: t }];
const isToolCall = (u: SessionNotification, callId: string) =>
  u.update.sessionUpdate === "tool_call" && u.update.toolCallId === callId;
const finalUpdate = (updates: SessionNotification[], callId: string) =>
  updates.find((u) => u.update.sessionUpdate === "tool_call_update" && u.update.toolCallId === callId);
const answer = (p: PendingPermission, answers: Record<string, string>) =>
  p.respond({ outcome: { outcome: "selected", optionId: "proceed_once" }, answers });
const toolMessages = (n: number) => server.requests[n]!.messages.filter((m) => m.role === "tool");

beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: model });
  home = await mkdtemp(join(tmpdir(), "acp-child-home-"));
  workspace = await mkdtemp(join(tmpdir(), "acp-child-ws-"));
});

afterAll(async () => {
  await server?.close();
  await rm(home, { recursive: true, force: true });
  await rm(workspace, { recursive: true, force: true });
});

describe("a question asked, then the child is SIGKILLed while it waits", () => {
  it("asks with the PROTOCOL.md shape in every session at once, and leaves the call on disk", async () => {
    const child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    try {
      for (const name of SCENARIOS) {
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
      expect(child.permissions).toHaveLength(SCENARIOS.length);
    } finally {
      await child.kill();
    }
    const transcript = await readFile(
      join(chatsDir(home, workspace), `${sessions.restore.sessionId}.jsonl`),
      "utf8",
    );
    expect(transcript).toContain(sessions.restore.callId);
  });
});

describe("a child with --restore-ask-user-question", () => {
  let child: ChildHarness;
  beforeAll(async () => {
    child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
  });
  afterAll(async () => {
    await child?.close();
  });

  const load = (name: Scenario, meta?: Record<string, unknown>) =>
    child.agent.request("session/load", {
      sessionId: sessions[name].sessionId,
      cwd: workspace,
      mcpServers: [],
      ...(meta ? { _meta: meta } : {}),
    });
  const restorePrompt = (name: Scenario, promptId: string) =>
    child.agent.request("session/prompt", {
      sessionId: sessions[name].sessionId,
      prompt: [],
      _meta: { [RESTORE_KEY]: true, [PROMPT_ID_KEY]: promptId },
    });

  it("loadUpdates is a read-only replay that finalizes the question and changes nothing", async () => {
    const { sessionId, callId } = sessions.restore;
    const result = await child.agent.request<{ updates: SessionNotification["update"][] }>(
      "qwen/session/loadUpdates",
      {
        sessionId,
        cwd: workspace,
      },
    );
    expect(
      result.updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === callId),
    ).toMatchObject({
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: MISSING_TEXT } }],
    });
    expect(child.updatesFor(sessionId)).toEqual([]);
  });

  it("load hints the restore and replays the question as still in progress; the restore re-asks and the same turn completes", async () => {
    const { sessionId, callId } = sessions.restore;
    const response = await load("restore");
    expect(response._meta).toEqual({ [RESTORE_KEY]: true });
    const replay = child.updatesFor(sessionId);
    expect(replay[0]?.update).toMatchObject({
      sessionUpdate: "user_message_chunk",
      content: { text: "ask restore" },
    });
    expect(replay.find((u) => isToolCall(u, callId))?.update).toMatchObject({ status: "in_progress" });
    expect(finalUpdate(replay, callId)).toBeUndefined();

    const refused = await child.agent.request("qwen/control/session/continue", { sessionId });
    expect(refused).toEqual({ accepted: false, interruption: "none" });

    const requestsBefore = server.requests.length;
    const prompt = restorePrompt("restore", "restore-1");
    const permission = await child.nextPermission((p) => p.params.sessionId === sessionId);
    expect(permission.params.toolCall).toMatchObject({
      toolCallId: callId,
      title: "Ask user 1 question",
      _meta: { qwenInteractionKind: "user_question", qwenQuestions: [RED_BLUE_QUESTION] },
    });
    answer(permission, { "0": "Blue" });
    expect(await prompt).toEqual({ stopReason: "end_turn" });

    expect(server.requests).toHaveLength(requestsBefore + 1);
    const messages = server.requests[requestsBefore]!.messages;
    // The same turn: the answer follows the question's call directly, no new user message.
    expect(messages.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: callId }] });
    expect(messages.at(-1)).toEqual(
      expect.objectContaining({
        role: "tool",
        tool_call_id: callId,
        content: "User has provided the following answers:\n\n**Color**: Blue",
      }),
    );
    await child.waitForUpdate(
      (u) =>
        u.sessionId === sessionId &&
        u.update.sessionUpdate === "agent_message_chunk" &&
        u.update.content.type === "text" &&
        u.update.content.text.includes("model saw"),
    );

    const ledger = (await readFile(ledgerPath(home, workspace, sessionId), "utf8"))
      .trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { promptId: string; state: string; code?: string; restoredBy?: string },
      );
    expect(ledger).toContainEqual(
      expect.objectContaining({
        promptId: "orig-restore",
        state: "interrupted",
        code: "restored",
        restoredBy: "restore-1",
      }),
    );
    expect(ledger).toContainEqual(expect.objectContaining({ promptId: "restore-1", state: "completed" }));
  });

  it("treats a restore key on an answered question as a no-op", async () => {
    const before = server.requests.length;
    expect(await restorePrompt("restore", "restore-again")).toEqual({ stopReason: "end_turn" });
    expect(server.requests).toHaveLength(before);
    const reloaded = await load("restore");
    expect(reloaded._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
  });

  it("with the suppress key: no hint, the replay fails the call, and the next prompt carries the orphan repair", async () => {
    const { sessionId, callId } = sessions.suppress;
    const response = await load("suppress", { [SUPPRESS_KEY]: true });
    expect(response._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    expect(finalUpdate(child.updatesFor(sessionId), callId)?.update).toMatchObject({
      status: "failed",
      content: [{ content: { text: MISSING_TEXT } }],
    });
    const before = server.requests.length;
    expect(await child.agent.request("session/prompt", { sessionId, prompt: text("hello") })).toEqual({
      stopReason: "end_turn",
    });
    expect(toolMessages(before)).toContainEqual(
      expect.objectContaining({ tool_call_id: callId, content: ORPHAN_TEXT }),
    );
  });

  it("resume answers without replaying, still hints, and the restore works after it", async () => {
    const { sessionId, callId } = sessions.resume;
    const response = await child.agent.request("session/resume", {
      sessionId,
      cwd: workspace,
      mcpServers: [],
    });
    expect(response._meta).toEqual({ [RESTORE_KEY]: true });
    expect(child.updatesFor(sessionId)).toEqual([]);
    const prompt = restorePrompt("resume", "restore-resume");
    const permission = await child.nextPermission((p) => p.params.sessionId === sessionId);
    expect(permission.params.toolCall.toolCallId).toBe(callId);
    answer(permission, { "0": "Red" });
    expect(await prompt).toEqual({ stopReason: "end_turn" });
  });

  it("an unattended end (timeout) persists nothing: a reload re-hangs the question again", async () => {
    const { sessionId, callId } = sessions.timeout;
    expect((await load("timeout"))._meta).toEqual({ [RESTORE_KEY]: true });
    const first = restorePrompt("timeout", "restore-t1");
    const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
    asked.respond({ outcome: { outcome: "cancelled" }, _meta: { [CANCEL_REASON_KEY]: "timeout" } });
    await first;

    const updatesBefore = child.updatesFor(sessionId).length;
    expect((await load("timeout"))._meta).toEqual({ [RESTORE_KEY]: true });
    const replay = child.updatesFor(sessionId).slice(updatesBefore);
    expect(replay.find((u) => isToolCall(u, callId))?.update).toMatchObject({ status: "in_progress" });
    expect(finalUpdate(replay, callId)).toBeUndefined();

    const second = restorePrompt("timeout", "restore-t2");
    const again = await child.nextPermission((p) => p.params.sessionId === sessionId);
    expect(again.requestId).not.toBe(asked.requestId);
    expect(again.params.toolCall.toolCallId).toBe(callId);
    answer(again, { "0": "Blue" });
    expect(await second).toEqual({ stopReason: "end_turn" });
  });

  it("a cancel vote is the user's decline: it is persisted and the question is not re-asked", async () => {
    const { sessionId, callId } = sessions.vote_cancel;
    expect((await load("vote_cancel"))._meta).toEqual({ [RESTORE_KEY]: true });
    const prompt = restorePrompt("vote_cancel", "restore-vc");
    (await child.nextPermission((p) => p.params.sessionId === sessionId)).respond({
      outcome: { outcome: "cancelled" },
    });
    await prompt;
    const updatesBefore = child.updatesFor(sessionId).length;
    const reloaded = await load("vote_cancel");
    expect(reloaded._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    expect(finalUpdate(child.updatesFor(sessionId).slice(updatesBefore), callId)?.update).toMatchObject({
      status: "failed",
      content: [{ content: { text: CANCELED_TEXT } }],
    });
  });

  it("session/cancel while the restored question waits withdraws it and ends the prompt; nothing is persisted", async () => {
    const { sessionId } = sessions.session_cancel;
    expect((await load("session_cancel"))._meta).toEqual({ [RESTORE_KEY]: true });
    const prompt = restorePrompt("session_cancel", "restore-sc");
    const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
    await child.agent.notify("session/cancel", { sessionId });
    expect(await prompt).toEqual({ stopReason: "cancelled" });
    expect(asked.signal.aborted).toBe(true);
    expect((await load("session_cancel"))._meta).toEqual({ [RESTORE_KEY]: true });
  });

  it("session/cancel with the cancelled answer right behind it (our daemon's order) persists nothing either", async () => {
    const { sessionId } = sessions.cancel_answered;
    expect((await load("cancel_answered"))._meta).toEqual({ [RESTORE_KEY]: true });
    const prompt = restorePrompt("cancel_answered", "restore-ca");
    const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
    void child.agent.notify("session/cancel", { sessionId });
    asked.respond({ outcome: { outcome: "cancelled" }, _meta: { [CANCEL_REASON_KEY]: "agent_cancelled" } });
    expect(await prompt).toEqual({ stopReason: "cancelled" });
    expect((await load("cancel_answered"))._meta).toEqual({ [RESTORE_KEY]: true });
  });

  it("the reference daemon's Cancel vote (cancelled, agent_cancelled) is a decline: persisted, not re-asked", async () => {
    const { sessionId, callId } = sessions.vote_agent_cancelled;
    expect((await load("vote_agent_cancelled"))._meta).toEqual({ [RESTORE_KEY]: true });
    const prompt = restorePrompt("vote_agent_cancelled", "restore-vac");
    (await child.nextPermission((p) => p.params.sessionId === sessionId)).respond({
      outcome: { outcome: "cancelled" },
      _meta: { [CANCEL_REASON_KEY]: "agent_cancelled" },
    });
    expect(await prompt).toEqual({ stopReason: "end_turn" });
    const updatesBefore = child.updatesFor(sessionId).length;
    const reloaded = await load("vote_agent_cancelled");
    expect(reloaded._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    expect(finalUpdate(child.updatesFor(sessionId).slice(updatesBefore), callId)?.update).toMatchObject({
      status: "failed",
      content: [{ content: { text: CANCELED_TEXT } }],
    });
  });

  it("a batch mixing the question with another tool is not restorable", async () => {
    const { sessionId, callId } = sessions.mixed;
    const response = await load("mixed");
    expect(response._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    const finals = child
      .updatesFor(sessionId)
      .filter((u) => u.update.sessionUpdate === "tool_call_update" && u.update.status === "failed");
    expect(finals.map((u) => (u.update as { toolCallId: string }).toolCallId)).toContain(callId);
    expect(finals).toHaveLength(2);
  });

  it("a trailing question with invalid arguments is not restorable", async () => {
    const sessionId = "handmade-invalid-question";
    await writeTranscript(sessionId, [
      { type: "user", message: { role: "user", parts: [{ text: "ask badly" }] } },
      {
        type: "assistant",
        message: {
          role: "model",
          parts: [
            {
              functionCall: {
                id: "bad-1",
                name: "ask_user_question",
                args: { questions: [{ ...RED_BLUE_QUESTION, options: [RED_BLUE_QUESTION.options[0]] }] },
              },
            },
          ],
        },
      },
    ]);
    const response = await child.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    expect(response._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    expect(finalUpdate(child.updatesFor(sessionId), "bad-1")?.update).toMatchObject({ status: "failed" });
  });

  it("a forged restore key on a session without a question is a no-op end_turn", async () => {
    const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    expect(await child.agent.request("session/prompt", { sessionId, prompt: text("hello") })).toEqual({
      stopReason: "end_turn",
    });
    const before = server.requests.length;
    const permissionsBefore = child.permissions.length;
    const forged = await child.agent.request("session/prompt", {
      sessionId,
      prompt: text("hi"),
      _meta: { [RESTORE_KEY]: true },
    });
    expect(forged).toEqual({ stopReason: "end_turn" });
    expect(server.requests).toHaveLength(before);
    expect(child.permissions).toHaveLength(permissionsBefore);
  });

  it("two sessions in one child: one waits on its question while the other prompts freely", async () => {
    const waiting = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const free = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const waitingPrompt = child.agent.request("session/prompt", {
      sessionId: waiting.sessionId,
      prompt: text("ask now"),
    });
    const asked = await child.nextPermission((p) => p.params.sessionId === waiting.sessionId);
    for (let i = 0; i < 2; i++) {
      expect(
        await child.agent.request("session/prompt", {
          sessionId: free.sessionId,
          prompt: text(`hello ${i}`),
        }),
      ).toEqual({
        stopReason: "end_turn",
      });
    }
    answer(asked, { "0": "Red" });
    expect(await waitingPrompt).toEqual({ stopReason: "end_turn" });
  });

  it("a load while the question is live gives no hint and leaves the call open", () => loadWhileLive(child));

  it("survives unknown methods and malformed input, and writes only JSON-RPC frames to stdout", async () => {
    await expect(child.agent.request("qwen/no/such/method", {})).rejects.toMatchObject({ code: -32601 });
    child.writeRaw("this is not json\n");
    const list = await child.agent.request("session/list", { cwd: workspace });
    expect(list.sessions.map((s) => s.sessionId)).toContain(sessions.restore.sessionId);
    for (const line of child.stdoutLines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });
});

describe("a child without the switch", () => {
  let child: ChildHarness;
  beforeAll(async () => {
    child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: false });
  });
  afterAll(async () => {
    await child?.close();
  });

  it("replays the dangling question as failed with the exact text, no hint, and repairs it with the orphan text", async () => {
    const { sessionId, callId } = sessions.off;
    const response = await child.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    expect(response._meta ?? {}).not.toHaveProperty(RESTORE_KEY);
    expect(finalUpdate(child.updatesFor(sessionId), callId)?.update).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: MISSING_TEXT } }],
    });
    const before = server.requests.length;
    expect(
      await child.agent.request("session/prompt", { sessionId, prompt: text("hello after restart") }),
    ).toEqual({
      stopReason: "end_turn",
    });
    expect(toolMessages(before)).toContainEqual(
      expect.objectContaining({ tool_call_id: callId, content: ORPHAN_TEXT }),
    );
  });

  it("continue accepts the interrupted turn and runs it as a prompt carrying the continue key", async () => {
    const { sessionId } = sessions.continue_off;
    await child.agent.request("session/resume", { sessionId, cwd: workspace, mcpServers: [] });
    expect(await child.agent.request("qwen/control/session/continue", { sessionId })).toEqual({
      accepted: true,
      interruption: "interrupted_turn",
    });
    const before = server.requests.length;
    const result = await child.agent.request("session/prompt", {
      sessionId,
      prompt: [],
      _meta: { "qwen.daemon.continueLastTurn": true },
    });
    expect(result).toEqual({ stopReason: "end_turn" });
    expect(server.requests.length).toBeGreaterThan(before);
  });

  it("a load while the question is live leaves the call open here too", () => loadWhileLive(child));

  it("ignores a restore key: the restore-only path never runs with the switch off", async () => {
    const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const result = await child.agent.request("session/prompt", {
      sessionId,
      prompt: text("hello plain"),
      _meta: { [RESTORE_KEY]: true },
    });
    expect(result).toEqual({ stopReason: "end_turn" });
    expect(messageText(server.requests.at(-1)!.messages.at(-1))).toBe("hello plain");
  });
});

/** A load of a session whose question is live in this very child: no hint, and the call is not "failed". */
async function loadWhileLive(child: ChildHarness): Promise<void> {
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
  expect(await prompt).toEqual({ stopReason: "end_turn" });
}

async function writeTranscript(sessionId: string, records: Array<Record<string, unknown>>): Promise<void> {
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

describe("the daemon goes away while a first-time question waits", () => {
  it("the child sees its stdin end and persists nothing for the question, so a later load re-asks it", async () => {
    const first = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    const { sessionId } = await first.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const prompt = first.agent.request("session/prompt", {
      sessionId,
      prompt: text("ask then lose the daemon"),
    });
    prompt.catch(() => undefined); // settles only by the connection ending below
    const permission = await first.nextPermission((p) => p.params.sessionId === sessionId);
    // Like a crashed daemon: the pipe closes, nobody answers, and the child shuts down on its own.
    await first.close();
    const lines = (await readFile(join(chatsDir(home, workspace), `${sessionId}.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((r) => r.type).filter((t) => t !== "system")).toEqual(["user", "assistant"]);
    const ledger = (await readFile(join(chatsDir(home, workspace), `${sessionId}.ledger.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { state: string; code?: string });
    // The daemon went away: nothing more is written (no turn_result, no terminal), exactly as if the child had
    // been killed too; the next load closes the prompt (daemon_lost, or restored by the re-asking prompt).
    expect(lines.map((r) => r.type)).toEqual(["system", "user", "assistant"]);
    expect(lines[0]).toMatchObject({ subtype: "session_created" });
    expect(ledger.map((e) => e.state)).toEqual(["in_flight"]);

    const second = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    try {
      const loaded = await second.agent.request("session/load", {
        sessionId,
        cwd: workspace,
        mcpServers: [],
      });
      expect(loaded._meta).toEqual({ [RESTORE_KEY]: true });
      expect(permission.params.toolCall.toolCallId).toBeTruthy();
    } finally {
      await second.kill();
    }
  });
});

describe("SIGTERM while a first-time question waits", () => {
  it("closes cleanly: the prompt is ledgered interrupted, the question stays restorable, the process exits", async () => {
    const child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: true });
    const { sessionId } = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    const prompt = child.agent.request("session/prompt", {
      sessionId,
      prompt: text("ask then get terminated"),
    });
    prompt.catch(() => undefined); // settles only by the shutdown below
    await child.nextPermission((p) => p.params.sessionId === sessionId);
    const exited = new Promise<number | null>((resolve) => child.proc.once("exit", (code) => resolve(code)));
    child.proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    const dir = chatsDir(home, workspace);
    const types = (await readFile(join(dir, `${sessionId}.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.filter((t) => t !== "system")).toEqual(["user", "assistant"]);
    const ledger = (await readFile(join(dir, `${sessionId}.ledger.jsonl`), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { state: string });
    expect(ledger.at(-1)?.state).toBe("interrupted");
    await child.close();
  });
});
