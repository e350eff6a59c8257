// The built `qwen --acp` driven over real stdio by the ACP TypeScript SDK's own client side, twice:
// - @agentclientprotocol/sdk 2.4 (the builder API), once without and once with form elicitation, through
//   every stable method the agent serves: initialize, session/new with its config options,
//   session/set_config_option (mode, model), session/prompt with a question answered (the question's own
//   options, or a form), usage updates and message ids, session/cancel and `$/cancel_request` while a question
//   waits, session/list with its cwd filter, session/load (the replay names the same messages),
//   session/resume, session/close and session/delete; a prompt's answer names its user message, and a
//   load in another agent process replays that message under the same id;
// - the Zed-era 0.4.5 (`ClientSideConnection`, installed as the npm alias `acp-sdk-zed`): it still
//   initializes, prompts, answers a question by picking an option, cancels, and loads a session, even though
//   the agent now sends updates it has no schema for.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { type FakeOpenAIServer, type FakeReply, startFakeOpenAIServer } from "@qwen-daemon/core/testing";
import * as zed from "acp-sdk-zed";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AcpAgentWorld, type ChildHarness } from "../harness/acp-agent.js";
import { CLI_ENTRY } from "../harness/daemon-process.js";
import { ANSWERS, questionModel } from "../harness/questions.js";

const CANCELLED_BEFORE = "Tool call was cancelled before execution.";

/** The questions' model, with token counts on every reply. */
function model(request: OpenAIChatRequest): FakeReply {
  const answer = questionModel(request);
  if (answer.type !== "message") return answer;
  const prompt = request.messages.length * 10;
  return { ...answer, usage: { prompt_tokens: prompt, completion_tokens: 5, total_tokens: prompt + 5 } };
}

const text = (t: string) => [{ type: "text" as const, text: t }];

let server: FakeOpenAIServer;
let world: AcpAgentWorld | undefined;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: model });
});

afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

afterAll(async () => {
  await server?.close();
});

/** What the model was sent as the result of `callId`, the last time. */
const toolResult = (callId: string) =>
  server.requests
    .flatMap((r) => r.messages)
    .filter((m) => m.role === "tool" && m.tool_call_id === callId)
    .map((m) => (typeof m.content === "string" ? m.content : ""))
    .at(-1);

const CLIENTS = [
  { name: "without elicitation", capabilities: {}, form: false },
  { name: "with form elicitation", capabilities: { elicitation: { form: {} } }, form: true },
] as const;

describe.each(CLIENTS)("ACP SDK 2.4 client $name", ({ capabilities, form }) => {
  let agent: ChildHarness;
  let sessionId: string;

  /** Answers the question "Which approach?" with B, the way this client is asked; the question's call id. */
  async function answerB(): Promise<string> {
    if (form) {
      const asked = await agent.nextElicitation();
      asked.respond({ action: "accept", content: { "0": "B" } });
      return (asked.params as { toolCallId: string }).toolCallId;
    }
    const asked = await agent.nextPermission();
    const option = asked.params.options.find((o) => o.name === "B");
    asked.respond({ outcome: { outcome: "selected", optionId: option?.optionId } });
    return asked.params.toolCall.toolCallId;
  }

  /** Waits for the question and returns the signal the agent aborts when it withdraws the request. */
  async function waitingQuestion(): Promise<{ signal: AbortSignal; cancel: () => void }> {
    if (form) {
      const asked = await agent.nextElicitation();
      return { signal: asked.signal, cancel: () => asked.respond({ action: "cancel" }) };
    }
    const asked = await agent.nextPermission();
    return { signal: asked.signal, cancel: () => asked.respond({ outcome: { outcome: "cancelled" } }) };
  }

  it("initializes, creates a session with its config options and sets mode and model", async () => {
    world = new AcpAgentWorld(server.url);
    agent = await world.spawn({ restore: false, clientCapabilities: capabilities });
    expect(agent.initialized.agentCapabilities).toMatchObject({
      loadSession: true,
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
    });
    const created = await agent.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });
    sessionId = created.sessionId;
    expect(created.configOptions?.map((o) => [o.id, o.currentValue])).toEqual([
      ["mode", "default"],
      ["model", "fake"],
    ]);
    const set = await agent.agent.request("session/set_config_option", {
      sessionId,
      configId: "mode",
      value: "auto-edit",
    });
    expect(set.configOptions.find((o) => o.id === "mode")?.currentValue).toBe("auto-edit");
    const model = await agent.agent.request("session/set_config_option", {
      sessionId,
      configId: "model",
      value: "fake",
    });
    expect(model.configOptions.find((o) => o.id === "model")?.currentValue).toBe("fake");

    // A question answered the way this client is asked; the model gets the same text either way.
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: text("ask approach") });
    const callId = await answerB();
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(toolResult(callId)).toBe(`${ANSWERS}**Approach**: B`);
    if (form) expect(agent.permissions).toEqual([]);
    else expect(agent.elicitations).toEqual([]);

    // Usage after each model request (two here: the question, then the answer), and message ids.
    const updates = agent.updatesFor(sessionId).map((n) => n.update);
    const usage = updates.filter((u) => u.sessionUpdate === "usage_update");
    expect(usage).toHaveLength(2);
    expect(usage[1]).toMatchObject({ _meta: { "qwen.sessionUsage": { outputTokens: 10 } } });
    const replies = updates.filter((u) => u.sessionUpdate === "agent_message_chunk") as {
      messageId?: string | null;
    }[];
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((u) => typeof u.messageId === "string")).toBe(true);

    // session/cancel while the question waits, the request then answered cancelled (ACP's order).
    const cancelled = agent.agent.request("session/prompt", { sessionId, prompt: text("ask approach") });
    const waiting = await waitingQuestion();
    await agent.agent.notify("session/cancel", { sessionId });
    waiting.cancel();
    expect(await cancelled).toMatchObject({ stopReason: "cancelled" });

    // $/cancel_request for the prompt while the question waits: the agent withdraws its own request.
    const abort = new AbortController();
    const requested = agent.agent.request(
      "session/prompt",
      { sessionId, prompt: text("ask approach") },
      { cancellationSignal: abort.signal },
    );
    const withdrawn = await waitingQuestion();
    abort.abort();
    expect(await requested).toMatchObject({ stopReason: "cancelled" });
    expect(withdrawn.signal.aborted).toBe(true);
    await agent.agent.request("session/prompt", { sessionId, prompt: text("go on") });
    const sent = server.requests.at(-1)?.messages ?? [];
    expect(sent.filter((m) => m.role === "tool").map((m) => m.content)).toContain(CANCELLED_BEFORE);

    // session/list filters by cwd.
    const listed = await agent.agent.request("session/list", { cwd: world.workspace });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    const elsewhere = await agent.agent.request("session/list", { cwd: world.qwenHome });
    expect(elsewhere.sessions).toEqual([]);

    // session/load replays the same messages under the same ids; resume reports the options.
    const liveIds = new Set(replies.map((u) => u.messageId));
    const before = agent.updatesFor(sessionId).length;
    const loaded = await agent.agent.request("session/load", {
      sessionId,
      cwd: world.workspace,
      mcpServers: [],
    });
    expect(loaded.configOptions?.find((o) => o.id === "mode")?.currentValue).toBe("auto-edit");
    const replayed = agent
      .updatesFor(sessionId)
      .slice(before)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk") as { messageId?: string | null }[];
    for (const id of liveIds) expect(replayed.map((u) => u.messageId)).toContain(id);
    const resumed = await agent.agent.request("session/resume", { sessionId, cwd: world.workspace });
    expect(resumed.configOptions?.find((o) => o.id === "model")?.currentValue).toBe("fake");

    // session/close, then session/delete: every file of the session is gone.
    await agent.agent.request("session/close", { sessionId });
    await agent.agent.request("session/delete", { sessionId });
    const chats = join(world.qwenHome, "projects", world.workspace.replaceAll("/", "-"), "chats");
    expect((await readdir(chats)).filter((f) => f.startsWith(sessionId))).toEqual([]);
    expect((await agent.agent.request("session/list", { cwd: world.workspace })).sessions).toEqual([]);
  });
});

describe("a prompt's message id with an ACP SDK 2.4 client", () => {
  it("is the id its user message is replayed under when another agent process loads the session", async () => {
    world = new AcpAgentWorld(server.url);
    const first = await world.spawn({ restore: false });
    const { sessionId } = await first.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });
    const answered = (await first.agent.request("session/prompt", {
      sessionId,
      prompt: text("hello there"),
    })) as {
      stopReason: string;
      _meta?: Record<string, unknown> | null;
    };
    expect(answered.stopReason).toBe("end_turn");
    const messageId = answered._meta?.["qwen.userMessageId"];
    expect(typeof messageId).toBe("string");
    await first.kill();

    const second = await world.spawn({ restore: false });
    await second.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    const users = second
      .updatesFor(sessionId)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "user_message_chunk") as {
      content: { text?: string };
      messageId?: string | null;
    }[];
    expect(users.map((u) => [u.content.text, u.messageId])).toEqual([["hello there", messageId]]);
  });
});

describe("the Zed-era ACP SDK 0.4.5 client", () => {
  let proc: ChildProcess | undefined;

  afterEach(async () => {
    if (proc && proc.exitCode === null) {
      const exited = new Promise((resolve) => proc?.once("exit", resolve));
      proc.kill("SIGKILL");
      await exited;
    }
    proc = undefined;
  });

  it("initializes, prompts, answers a question by picking an option, cancels, and loads", async () => {
    world = new AcpAgentWorld(server.url);
    const child = spawn(process.execPath, [CLI_ENTRY, "--acp"], {
      cwd: world.workspace,
      env: {
        PATH: process.env.PATH,
        HOME: world.qwenHome,
        QWEN_HOME: world.qwenHome,
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "x",
        OPENAI_MODEL: "fake",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    proc = child;
    const updates: zed.SessionNotification[] = [];
    const permissions: zed.RequestPermissionRequest[] = [];
    /** How the client answers the next permission request (set per step below). */
    let decide: (request: zed.RequestPermissionRequest) => Promise<zed.RequestPermissionResponse> =
      async () => ({ outcome: { outcome: "cancelled" } });
    const connection = new zed.ClientSideConnection(
      () => ({
        async requestPermission(params) {
          permissions.push(params);
          return decide(params);
        },
        async sessionUpdate(params) {
          updates.push(params);
        },
        async writeTextFile() {
          throw new Error("not advertised");
        },
        async readTextFile() {
          throw new Error("not advertised");
        },
      }),
      zed.ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );

    const init = await connection.initialize({
      protocolVersion: zed.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } },
    });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const { sessionId } = await connection.newSession({ cwd: world.workspace, mcpServers: [] });
    await connection.setSessionMode({ sessionId, modeId: "plan" });
    await connection.setSessionMode({ sessionId, modeId: "default" });

    expect(await connection.prompt({ sessionId, prompt: text("hello") })).toMatchObject({
      stopReason: "end_turn",
    });
    const said = updates.filter((u) => u.update.sessionUpdate === "agent_message_chunk");
    expect(said.map((u) => (u.update as { content: { text: string } }).content.text).join("")).toBe(
      "echo: hello",
    );

    decide = async (request) => ({
      outcome: {
        outcome: "selected",
        optionId: request.options.find((o) => o.name === "B")?.optionId ?? "none",
      },
    });
    expect(await connection.prompt({ sessionId, prompt: text("ask approach") })).toMatchObject({
      stopReason: "end_turn",
    });
    const asked = permissions.at(-1);
    expect(asked?.options.map((o) => o.name)).toEqual(["A", "B", "Decline"]);
    expect(toolResult(asked?.toolCall.toolCallId ?? "")).toBe(`${ANSWERS}**Approach**: B`);

    // Zed's cancel: session/cancel, then the pending request answered cancelled.
    let release = () => {};
    decide = () =>
      new Promise((resolve) => {
        release = () => resolve({ outcome: { outcome: "cancelled" } });
        void connection.cancel({ sessionId }).then(() => release());
      });
    expect(await connection.prompt({ sessionId, prompt: text("ask approach") })).toMatchObject({
      stopReason: "cancelled",
    });

    const before = updates.length;
    await connection.loadSession({ sessionId, cwd: world.workspace, mcpServers: [] });
    const replay = updates.slice(before).map((u) => u.update.sessionUpdate);
    expect(replay).toContain("user_message_chunk");
    expect(replay).toContain("agent_message_chunk");
    expect(replay).toContain("tool_call");
  });
});
