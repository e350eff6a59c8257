// Cross-process: the stable ACP v1 methods beyond prompting, on the real child — session/delete,
// session/set_config_option (approval mode, model from settings' modelProviders.openai[]), session/list
// pages with its cursor and cwd filter, and what initialize advertises for them.
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import { type ChildWorld, openChildWorld, text } from "./testing/child-world.js";

function model(request: OpenAIChatRequest): FakeReply {
  if (messageText(lastMessage(request)) === "stall") return reply.stall({ text: "thinking..." });
  if (messageText(lastMessage(request)).startsWith("count")) {
    const tokens = request.messages.length * 100;
    return reply.text("counted", {
      reasoning: "hmm",
      usage: { prompt_tokens: tokens, completion_tokens: 7, total_tokens: tokens + 7 },
    });
  }
  return reply.text(`echo: ${messageText(lastMessage(request))}`);
}

let world: ChildWorld;
let child: ChildHarness;

const chats = () => join(world.home, "projects", world.workspace.replaceAll("/", "-"), "chats");
const filesOf = async (sessionId: string) =>
  (await readdir(chats())).filter((name) => name.startsWith(sessionId));

beforeAll(async () => {
  world = await openChildWorld(model, "acp-stable");
  // qwen-code's settings shape: the configured model plus the ones a session may switch to.
  await writeFile(
    join(world.home, "settings.json"),
    JSON.stringify({
      modelProviders: {
        openai: [
          { id: "fast-model", name: "Fast", description: "Answers quickly" },
          { id: "deep-model", name: "Deep", baseUrl: world.server.url, envKey: "DEEP_KEY" },
        ],
      },
    }),
  );
  child = await spawnChild({
    qwenHome: world.home,
    modelUrl: world.server.url,
    restore: false,
    env: { DEEP_KEY: "deep-secret" },
  });
});

afterAll(async () => {
  await child?.close();
  await world?.close();
});

const newSession = async () => child.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });

describe("initialize", () => {
  it("advertises exactly what the agent serves: load, list, resume, close, delete, embedded context, HTTP MCP", () => {
    expect(child.initialized).toEqual({
      protocolVersion: 1,
      agentInfo: { name: expect.any(String), version: expect.any(String) },
      authMethods: [],
      agentCapabilities: {
        loadSession: true,
        // Images and audio are named in the message, not sent to the model; SSE MCP servers are skipped.
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        // No additionalDirectories: a session has one workspace.
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
      },
    });
  });
});

describe("session/set_config_option", () => {
  it("offers the approval mode and the models from settings, the configured one first and current", async () => {
    const created = await newSession();
    const [mode, modelOption] = created.configOptions ?? [];
    expect(mode).toMatchObject({ id: "mode", category: "mode", type: "select", currentValue: "default" });
    expect(modelOption).toMatchObject({
      id: "model",
      category: "model",
      type: "select",
      currentValue: "fake",
      options: [
        { value: "fake", name: "fake" },
        { value: "fast-model", name: "Fast", description: "Answers quickly" },
        { value: "deep-model", name: "Deep" },
      ],
    });
  });

  it("sends the next model request to the chosen model, with its own key, and reports it on load and resume", async () => {
    const { sessionId } = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("before") });
    expect(world.server.requests.at(-1)?.model).toBe("fake");

    const answer = await child.agent.request("session/set_config_option", {
      sessionId,
      configId: "model",
      value: "deep-model",
    });
    expect(answer.configOptions.find((o) => o.id === "model")?.currentValue).toBe("deep-model");
    await child.agent.request("session/prompt", { sessionId, prompt: text("after") });
    expect(world.server.requests.at(-1)?.model).toBe("deep-model");
    expect(world.server.requestHeaders.at(-1)?.authorization).toBe("Bearer deep-secret");

    const loaded = await child.agent.request("session/load", {
      sessionId,
      cwd: world.workspace,
      mcpServers: [],
    });
    expect(loaded?.configOptions?.find((o) => o.id === "model")?.currentValue).toBe("deep-model");
    const resumed = await child.agent.request("session/resume", { sessionId, cwd: world.workspace });
    expect(resumed.configOptions?.find((o) => o.id === "model")?.currentValue).toBe("deep-model");
    // The reloaded core session keeps the choice.
    await child.agent.request("session/prompt", { sessionId, prompt: text("after load") });
    expect(world.server.requests.at(-1)?.model).toBe("deep-model");
  });

  it("sets the approval mode as option `mode` (and tells the client it changed)", async () => {
    const { sessionId } = await newSession();
    const answer = await child.agent.request("session/set_config_option", {
      sessionId,
      configId: "mode",
      value: "yolo",
    });
    expect(answer.configOptions.find((o) => o.id === "mode")?.currentValue).toBe("yolo");
    await child.waitForUpdate(
      (u) =>
        u.sessionId === sessionId &&
        u.update.sessionUpdate === "current_mode_update" &&
        u.update.currentModeId === "yolo",
    );
  });

  it("refuses an unknown option, an unknown value and a boolean with invalid params naming the choices", async () => {
    const { sessionId } = await newSession();
    const set = (params: Record<string, unknown>) =>
      child.agent.request("session/set_config_option", { sessionId, ...params } as never);
    await expect(set({ configId: "temperature", value: "hot" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('this agent has "mode" and "model"'),
    });
    await expect(set({ configId: "model", value: "gpt-nope" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("fast-model"),
    });
    await expect(set({ configId: "mode", type: "boolean", value: true })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      child.agent.request("session/set_config_option", {
        sessionId: "no-such-session",
        configId: "mode",
        value: "plan",
      }),
    ).rejects.toMatchObject({ code: -32002 });
  });
});

describe("usage and message ids", () => {
  it("sends usage_update after each model request: the context used now, the session's counts added up", async () => {
    const { sessionId } = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("count one") });
    await child.agent.request("session/prompt", { sessionId, prompt: text("count two") });
    const usage = child
      .updatesFor(sessionId)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "usage_update");
    // The first request sends the user message (100 tokens here), the second three messages (300).
    expect(usage).toEqual([
      {
        sessionUpdate: "usage_update",
        used: 107,
        size: 131_072,
        _meta: { "qwen.sessionUsage": { inputTokens: 100, outputTokens: 7, totalTokens: 107 } },
      },
      {
        sessionUpdate: "usage_update",
        used: 307,
        size: 131_072,
        _meta: { "qwen.sessionUsage": { inputTokens: 400, outputTokens: 14, totalTokens: 414 } },
      },
    ]);

    // The counts are kept with the replies on disk: a session reopened from disk goes on adding.
    await child.agent.request("session/close", { sessionId });
    await child.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    await child.agent.request("session/prompt", { sessionId, prompt: text("count three") });
    const after = child
      .updatesFor(sessionId)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "usage_update");
    expect(after.at(-1)).toMatchObject({
      used: 507,
      _meta: { "qwen.sessionUsage": { inputTokens: 900, outputTokens: 21, totalTokens: 921 } },
    });
  });

  it("names each reply with a message id, the same live and in a replay; replayed user messages have theirs", async () => {
    const { sessionId } = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("count me") });
    await child.agent.request("session/prompt", { sessionId, prompt: text("count me again") });
    const chunks = (kind: string) =>
      child
        .updatesFor(sessionId)
        .map((n) => n.update)
        .filter((u) => u.sessionUpdate === kind) as { messageId?: string | null }[];
    const live = chunks("agent_message_chunk").map((c) => c.messageId);
    const liveThought = chunks("agent_thought_chunk").map((c) => c.messageId);
    const replies = [...new Set(live)];
    // Two replies, each streamed in several chunks that share one id; a reply's thought shares it too.
    expect(replies).toHaveLength(2);
    for (const id of replies) expect(id).toEqual(expect.any(String));
    expect([...new Set(liveThought)]).toEqual(replies);

    const before = child.updatesFor(sessionId).length;
    await child.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    const replay = child
      .updatesFor(sessionId)
      .slice(before)
      .map((n) => n.update) as { sessionUpdate: string; messageId?: string | null }[];
    const ids = (kind: string) => replay.filter((u) => u.sessionUpdate === kind).map((u) => u.messageId);
    expect(ids("agent_message_chunk")).toEqual(replies);
    const users = ids("user_message_chunk");
    expect(users).toHaveLength(2);
    expect(new Set([...users, ...replies]).size).toBe(4);
  });
});

describe("session/delete", () => {
  it("removes a persisted session's transcript and every log beside it, durably gone from session/list", async () => {
    const { sessionId } = await newSession();
    await child.agent.request("session/prompt", { sessionId, prompt: text("keep me") });
    // The daemon's journals live beside the transcript; a delete takes them too.
    await writeFile(join(chats(), `${sessionId}.answers.jsonl`), "{}\n");
    expect((await filesOf(sessionId)).length).toBeGreaterThanOrEqual(3);
    await child.agent.request("session/close", { sessionId });

    await child.agent.request("session/delete", { sessionId });
    expect(await filesOf(sessionId)).toEqual([]);
    const listed = await child.agent.request("session/list", { cwd: world.workspace });
    expect(listed.sessions.map((s) => s.sessionId)).not.toContain(sessionId);
    await expect(
      child.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] }),
    ).rejects.toMatchObject({ code: -32002 });
    // A second delete: the agent answers "not found" (-32002), which ACP clients count as already deleted.
    await expect(child.agent.request("session/delete", { sessionId })).resolves.toEqual({});
    expect(child.stdoutLines.at(-1)).toContain('"code":-32002');
  });

  it("closes a live session first: its running prompt ends, then its files are removed", async () => {
    const { sessionId } = await newSession();
    const running = child.agent.request("session/prompt", { sessionId, prompt: text("stall") });
    await child.waitForUpdate(
      (u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk",
    );
    await child.agent.request("session/delete", { sessionId });
    await running.catch(() => undefined);
    expect(await filesOf(sessionId)).toEqual([]);
    await expect(
      child.agent.request("session/prompt", { sessionId, prompt: text("still there?") }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it("finds a session of another workspace this connection named", async () => {
    const other = join(world.home, "other-workspace");
    await mkdir(other, { recursive: true });
    const { sessionId } = await child.agent.request("session/new", { cwd: other, mcpServers: [] });
    await child.agent.request("session/close", { sessionId });
    const file = join(world.home, "projects", other.replaceAll("/", "-"), "chats", `${sessionId}.jsonl`);
    expect(existsSync(file)).toBe(true);
    await child.agent.request("session/delete", { sessionId });
    expect(existsSync(file)).toBe(false);
  });
});

describe("session/list", () => {
  it("pages with nextCursor, newest first, every session once; a cursor of another cwd is refused", async () => {
    const other = join(world.home, "paged-workspace");
    await mkdir(other, { recursive: true });
    const made: string[] = [];
    for (let i = 0; i < 53; i++) {
      made.push((await child.agent.request("session/new", { cwd: other, mcpServers: [] })).sessionId);
    }
    const first = await child.agent.request("session/list", { cwd: other });
    expect(first.sessions).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await child.agent.request("session/list", { cwd: other, cursor: first.nextCursor });
    expect(second.sessions).toHaveLength(3);
    expect(second.nextCursor ?? undefined).toBeUndefined();
    const seen = [...first.sessions, ...second.sessions].map((s) => s.sessionId);
    expect([...seen].sort()).toEqual([...made].sort());
    for (const s of [...first.sessions, ...second.sessions]) expect(s.cwd).toBe(other);

    await expect(
      child.agent.request("session/list", { cwd: world.workspace, cursor: first.nextCursor }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      child.agent.request("session/list", { cwd: other, cursor: "not-a-cursor" }),
    ).rejects.toMatchObject({ code: -32602 });
    // The cwd filter: none of these in the agent's own workspace.
    const own = await child.agent.request("session/list", {});
    expect(own.sessions.some((s) => made.includes(s.sessionId))).toBe(false);
  });
});
