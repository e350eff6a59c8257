// Cross-process: the real child binary over stdio, a fake OpenAI-compatible server, SIGKILL. One child asks
// a question in several sessions at once and is killed; a child with the restore switch then loads those
// sessions, each session exercising one scenario of docs/restore.md (without the switch: restore-switch-off).
import { readFile } from "node:fs/promises";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { ledgerPath } from "@qwen-daemon/core";
import { RED_BLUE_QUESTION } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import {
  answer,
  CANCEL_REASON_KEY,
  CANCELED_TEXT,
  closeWorld,
  crashWhileAsking,
  finalUpdate,
  home,
  isToolCall,
  loadWhileLive,
  MISSING_TEXT,
  ORPHAN_TEXT,
  openWorld,
  PROMPT_ID_KEY,
  RESTORE_KEY,
  type Scenario,
  SUPPRESS_KEY,
  server,
  sessions,
  text,
  toolMessages,
  workspace,
  writeTranscript,
} from "./testing/restore-world.js";

beforeAll(openWorld);
afterAll(closeWorld);

describe("a question asked, then the child is SIGKILLed while it waits", () => {
  it("asks with the docs/protocol.md shape in every session at once, and leaves the call on disk", () =>
    crashWhileAsking());
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
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });

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
    expect(await restorePrompt("restore", "restore-again")).toMatchObject({ stopReason: "end_turn" });
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
    expect(await child.agent.request("session/prompt", { sessionId, prompt: text("hello") })).toMatchObject({
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
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
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
    expect(await second).toMatchObject({ stopReason: "end_turn" });
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
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
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
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
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
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
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
    expect(await child.agent.request("session/prompt", { sessionId, prompt: text("hello") })).toMatchObject({
      stopReason: "end_turn",
    });
    const before = server.requests.length;
    const permissionsBefore = child.permissions.length;
    const forged = await child.agent.request("session/prompt", {
      sessionId,
      prompt: text("hi"),
      _meta: { [RESTORE_KEY]: true },
    });
    expect(forged).toMatchObject({ stopReason: "end_turn" });
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
      ).toMatchObject({
        stopReason: "end_turn",
      });
    }
    answer(asked, { "0": "Red" });
    expect(await waitingPrompt).toMatchObject({ stopReason: "end_turn" });
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
