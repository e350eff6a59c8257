// Cross-process: the ACP surface of the real child besides restore — capabilities, modes, edit/exec
// permissions, MCP tools, listing, closing, cancelling, model errors, and bad input.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  RED_BLUE_QUESTION,
  reply,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import {
  CANCEL_REASON_KEY,
  type ChildWorld,
  fixtureMcpServer,
  openChildWorld,
  text,
} from "./testing/child-world.js";

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const text = messageText(last);
  const write = /^write (\S+)/.exec(text);
  if (write) return reply.toolCall("write_file", { file_path: write[1]!, content: `hello from ${write[1]}` });
  if (text === "mcp") return reply.toolCall("mcp__echo__echo", { text: "hi" });
  if (text.startsWith("ask")) return askUserQuestionCall([RED_BLUE_QUESTION]);
  if (text === "stall") return reply.stall({ text: "thinking..." });
  if (text === "fail") return reply.error(400, { message: "bad request (fake)" });
  return reply.text(`echo: ${text}`);
}

/** The tool messages the model was sent last, by content. */
const lastToolResults = () =>
  (server.requests.at(-1)?.messages ?? []).filter((m) => m.role === "tool").map((m) => messageText(m));

let world: ChildWorld;
let server: FakeOpenAIServer;
let workspace: string;
let child: ChildHarness;

const newSession = async (mcpServers: Parameters<ChildHarness["agent"]["request"]>[1] = []) =>
  (await child.agent.request("session/new", { cwd: workspace, mcpServers: mcpServers as never })).sessionId;

beforeAll(async () => {
  world = await openChildWorld(model, "acp-proto");
  ({ server, workspace } = world);
  child = await spawnChild({ qwenHome: world.home, modelUrl: server.url, restore: false });
});

afterAll(async () => {
  await child?.close();
  await world?.close();
});

describe("the ACP surface of the child", () => {
  it("advertises load, resume, list, close, prompt and MCP capabilities", () => {
    expect(child.initialized).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: {}, resume: {}, close: {} },
        promptCapabilities: { embeddedContext: true },
        mcpCapabilities: { http: true },
      },
    });
  });

  it("offers the approval modes and switches them with session/set_mode", async () => {
    const response = await child.agent.request("session/new", { cwd: workspace, mcpServers: [] });
    expect(response.modes?.currentModeId).toBe("default");
    expect(response.modes?.availableModes.map((m) => m.id)).toEqual(["default", "auto-edit", "yolo", "plan"]);
    await child.agent.request("session/set_mode", { sessionId: response.sessionId, modeId: "yolo" });
    await child.waitForUpdate(
      (u) =>
        u.sessionId === response.sessionId &&
        u.update.sessionUpdate === "current_mode_update" &&
        u.update.currentModeId === "yolo",
    );
    await expect(
      child.agent.request("session/set_mode", { sessionId: response.sessionId, modeId: "reckless" }),
    ).rejects.toMatchObject({ code: -32602 });

    // yolo: the edit runs without asking.
    const before = child.permissions.length;
    expect(
      await child.agent.request("session/prompt", {
        sessionId: response.sessionId,
        prompt: text("write yolo.txt"),
      }),
    ).toMatchObject({
      stopReason: "end_turn",
    });
    expect(child.permissions).toHaveLength(before);
    expect(await readFile(join(workspace, "yolo.txt"), "utf8")).toBe("hello from yolo.txt");
  });

  it("asks for edits with allow always / allow / reject; 'always' stops the asking for the session", async () => {
    const sessionId = await newSession();
    const first = child.agent.request("session/prompt", { sessionId, prompt: text("write a.txt") });
    const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
    expect(asked.params.options).toEqual([
      { optionId: "proceed_always", name: "Allow All Edits", kind: "allow_always" },
      { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
      { optionId: "cancel", name: "Reject", kind: "reject_once" },
    ]);
    expect(asked.params.toolCall).toMatchObject({ kind: "edit", _meta: { toolName: "write_file" } });
    asked.respond({ outcome: { outcome: "selected", optionId: "proceed_always" } });
    expect(await first).toMatchObject({ stopReason: "end_turn" });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("hello from a.txt");

    const before = child.permissions.length;
    expect(
      await child.agent.request("session/prompt", { sessionId, prompt: text("write b.txt") }),
    ).toMatchObject({
      stopReason: "end_turn",
    });
    expect(child.permissions).toHaveLength(before);
  });

  it("a rejected edit is not performed", async () => {
    const sessionId = await newSession();
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("write rejected.txt") });
    (await child.nextPermission((p) => p.params.sessionId === sessionId)).respond({
      outcome: { outcome: "selected", optionId: "cancel" },
    });
    await prompt;
    await expect(readFile(join(workspace, "rejected.txt"), "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("connects stdio MCP servers given to session/new and asks before running their tools", async () => {
    const sessionId = await newSession([fixtureMcpServer("echo")]);
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("mcp") });
    const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
    expect(asked.params.options.map((o) => o.optionId)).toEqual(["proceed_always", "proceed_once", "cancel"]);
    asked.respond({ outcome: { outcome: "selected", optionId: "proceed_once" } });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(messageText(server.requests.at(-1)!.messages.at(-1))).toContain("echo: hi");
    await child.agent.request("session/close", { sessionId });
  });

  it("cancels a running prompt with session/cancel", async () => {
    const sessionId = await newSession();
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("stall") });
    await child.waitForUpdate(
      (u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk",
    );
    await child.agent.notify("session/cancel", { sessionId });
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    // The session takes the next prompt normally.
    expect(
      await child.agent.request("session/prompt", { sessionId, prompt: text("after cancel") }),
    ).toMatchObject({
      stopReason: "end_turn",
    });
  });

  it("a cancelled answer with agent_cancelled while the prompt runs is the user's decline (reference daemon's Cancel vote)", async () => {
    const sessionId = await newSession();
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask vote") });
    (await child.nextPermission((p) => p.params.sessionId === sessionId)).respond({
      outcome: { outcome: "cancelled" },
      _meta: { [CANCEL_REASON_KEY]: "agent_cancelled" },
    });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    await child.agent.request("session/prompt", { sessionId, prompt: text("next") });
    expect(lastToolResults()).toEqual(['Tool "ask_user_question" was canceled by the user.']);
  });

  it("session/cancel while a fresh question waits, the cancelled answer right behind it: cancelled before execution", async () => {
    const sessionId = await newSession();
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask cancel") });
    const asked = await child.nextPermission((p) => p.params.sessionId === sessionId);
    // What our daemon does on a prompt cancel: session/cancel first, then the request answered cancelled.
    void child.agent.notify("session/cancel", { sessionId });
    asked.respond({ outcome: { outcome: "cancelled" }, _meta: { [CANCEL_REASON_KEY]: "agent_cancelled" } });
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    await child.agent.request("session/prompt", { sessionId, prompt: text("next") });
    expect(lastToolResults()).toEqual(["Tool call was cancelled before execution."]);
  });

  it("reports a model error as a failed prompt and keeps serving", async () => {
    const sessionId = await newSession();
    await expect(
      child.agent.request("session/prompt", { sessionId, prompt: text("fail") }),
    ).rejects.toBeDefined();
    expect(
      await child.agent.request("session/prompt", { sessionId, prompt: text("still here") }),
    ).toMatchObject({
      stopReason: "end_turn",
    });
  });

  it("lists the workspace's sessions with their first message as title", async () => {
    const sessionId = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("a title for the list") });
    const { sessions } = await child.agent.request("session/list", { cwd: workspace });
    expect(sessions).toContainEqual(
      expect.objectContaining({ sessionId, cwd: workspace, title: "a title for the list" }),
    );
    const fresh = await newSession();
    expect(
      (await child.agent.request("session/list", { cwd: workspace })).sessions.map((s) => s.sessionId),
    ).toContain(fresh);
  });

  it("closes sessions; a closed or unknown session is not found", async () => {
    const sessionId = await newSession();
    await child.agent.request("session/close", { sessionId });
    await expect(
      child.agent.request("session/prompt", { sessionId, prompt: text("x") }),
    ).rejects.toMatchObject({
      code: -32002,
    });
    await expect(
      child.agent.request("session/load", { sessionId: "no-such-session", cwd: workspace, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002 });
    await expect(
      child.agent.request("session/load", { sessionId: "../escape", cwd: workspace, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      child.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("a live session that was never prompted survives load and resume, and still takes prompts", async () => {
    const sessionId = await newSession();
    await child.agent.request("session/resume", { sessionId, cwd: workspace, mcpServers: [] });
    await child.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    expect(
      await child.agent.request("session/prompt", { sessionId, prompt: text("still here") }),
    ).toMatchObject({
      stopReason: "end_turn",
    });
  });

  it("continue asked while a resume reloads the session waits for the reload instead of failing", async () => {
    const sessionId = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("hello") });
    for (let round = 0; round < 10; round++) {
      const [, decision] = await Promise.all([
        child.agent.request("session/resume", { sessionId, cwd: workspace, mcpServers: [] }),
        child.agent.request("qwen/control/session/continue", { sessionId }),
        child.agent.request("qwen/session/loadUpdates", { sessionId, cwd: workspace }),
      ]);
      expect(decision).toEqual({ accepted: false, interruption: "none" });
    }
  });

  it("loadUpdates of an unknown session is empty, and bad params are -32602", async () => {
    expect(
      await child.agent.request("qwen/session/loadUpdates", { sessionId: "nothing-here", cwd: workspace }),
    ).toEqual({
      updates: [],
    });
    await expect(child.agent.request("qwen/session/loadUpdates", { cwd: workspace })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("answers the extensions under the spec's `_` names too, exactly as under qwen's", async () => {
    const sessionId = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("hello") });
    const replay = { sessionId, cwd: workspace };
    const qwenUpdates = await child.agent.request("qwen/session/loadUpdates", replay);
    expect((qwenUpdates as { updates: unknown[] }).updates.length).toBeGreaterThan(0);
    expect(await child.agent.request("_qwen/session/loadUpdates", replay)).toEqual(qwenUpdates);
    const decision = await child.agent.request("qwen/control/session/continue", { sessionId });
    expect(decision).toEqual({ accepted: false, interruption: "none" });
    expect(await child.agent.request("_qwen/control/session/continue", { sessionId })).toEqual(decision);
    await expect(child.agent.request("_qwen/session/loadUpdates", { cwd: workspace })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(child.agent.request("_qwen/unknown", {})).rejects.toMatchObject({ code: -32601 });
  });
});
