// Cross-process: the real child spawned the way the reference `qwen serve` spawns it (private capability +
// required external tool guard in the env), driven by a client that plays that daemon. Also the
// reference-compatible `qwen-code/sessionId` and `qwen-code/invocation` keys.
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
  trailingToolMessages,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import { type ChildWorld, openChildWorld } from "./testing/child-world.js";

const TOKEN = "cap-0123456789abcdef";
const GUARD_ENV = {
  QWEN_CODE_PRIVATE_ACP_CAPABILITY: TOKEN,
  QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD: "required-v1",
};
const PREPARE = "qwen/control/external_tool_guard/prepare";
/** Prints the private variables as the shell tool's subprocess sees them. */
const ENV_PROBE = `echo "cap=\${QWEN_CODE_PRIVATE_ACP_CAPABILITY:-unset} guard=\${QWEN_CODE_PRIVATE_EXTERNAL_TOOL_GUARD:-unset}"`;

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const text = messageText(last);
  if (text.startsWith("shell ")) return reply.toolCall("run_shell_command", { command: text.slice(6) });
  if (text === "list") return reply.toolCall("list_directory", { path: "." });
  return reply.text(`echo: ${text}`);
}

let world: ChildWorld;
let server: FakeOpenAIServer;
let home: string;
let workspace: string;
const children: ChildHarness[] = [];

beforeAll(async () => {
  world = await openChildWorld(model, "acp-guard");
  ({ server, home, workspace } = world);
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.close()));
  await world?.close();
});

async function spawn(options: Partial<Parameters<typeof spawnChild>[0]>): Promise<ChildHarness> {
  const child = await spawnChild({ qwenHome: home, modelUrl: server.url, restore: false, ...options });
  children.push(child);
  return child;
}

/** A yolo session, so shell commands run without a permission request. */
async function yoloSession(child: ChildHarness, meta?: Record<string, unknown>): Promise<string> {
  const { sessionId } = await child.agent.request("session/new", {
    cwd: workspace,
    mcpServers: [],
    ...(meta ? { _meta: meta } : {}),
  });
  await child.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
  return sessionId;
}

/** Runs one prompt and returns what the model got back as the tool result. */
async function toolResultOf(
  child: ChildHarness,
  sessionId: string,
  text: string,
  promptId?: string,
): Promise<string> {
  const before = server.requests.length;
  const response = await child.agent.request("session/prompt", {
    sessionId,
    prompt: [{ type: "text", text }],
    ...(promptId
      ? { _meta: { "qwen-code/invocation": { version: 1, sessionId, promptId, originatorClientId: "c1" } } }
      : {}),
  });
  expect(response).toMatchObject({ stopReason: "end_turn" });
  const followUp = server.requests.slice(before).at(-1);
  if (!followUp) throw new Error("the model got no request");
  return trailingToolMessages(followUp)
    .map((m) => messageText(m))
    .join("\n");
}

describe("under a daemon that requires the external tool guard", () => {
  const prepared: Record<string, unknown>[] = [];
  let decide: (params: Record<string, unknown>) => unknown = () => ({ allowed: true });
  let child: ChildHarness;

  beforeAll(async () => {
    child = await spawn({
      env: GUARD_ENV,
      initializeMeta: { "qwen-code/private-parent-capability": TOKEN },
      clientMethods: {
        [PREPARE]: (params) => {
          prepared.push(params);
          return decide(params);
        },
      },
    });
  });

  it("acknowledges the guard in the initialize result", () => {
    expect(child.initialized._meta).toEqual({ "qwen-code/external-tool-guard-ready": "required-v1" });
  });

  it("clears a shell command with the daemon first, under the daemon's prompt id; its subprocess sees no private variable", async () => {
    const sessionId = await yoloSession(child);
    prepared.length = 0;
    const result = await toolResultOf(child, sessionId, `shell ${ENV_PROBE}`, "prompt-77");
    expect(result).toContain("cap=unset guard=unset");
    expect(prepared).toHaveLength(1);
    expect(prepared[0]).toEqual({
      sessionId,
      promptId: "prompt-77",
      toolCallId: expect.any(String),
      toolName: "run_shell_command",
      arguments: { command: ENV_PROBE },
      invocationCwd: workspace,
    });
  });

  it("does not run a denied command; the model gets the daemon's reason as the error", async () => {
    const sessionId = await yoloSession(child);
    decide = () => ({ allowed: false, reason: "Shell commands must run in a git worktree." });
    try {
      const result = await toolResultOf(child, sessionId, "shell touch denied.txt");
      expect(result).toBe("Shell commands must run in a git worktree.");
      const leaked = await import("node:fs/promises").then((fs) =>
        fs.access(join(workspace, "denied.txt")).then(
          () => true,
          () => false,
        ),
      );
      expect(leaked).toBe(false);
    } finally {
      decide = () => ({ allowed: true });
    }
  });

  it("fails closed when the daemon's answer is an error or malformed", async () => {
    const sessionId = await yoloSession(child);
    decide = () => {
      throw new Error("guard exploded");
    };
    try {
      expect(await toolResultOf(child, sessionId, "shell echo one")).toBe("Tool invocation guard failed");
      decide = () => ({ allowed: "yes" });
      expect(await toolResultOf(child, sessionId, "shell echo two")).toBe("Tool invocation guard failed");
    } finally {
      decide = () => ({ allowed: true });
    }
  });

  it("does not ask about tools that execute no shell command", async () => {
    const sessionId = await yoloSession(child);
    prepared.length = 0;
    await toolResultOf(child, sessionId, "list");
    expect(prepared).toEqual([]);
  });

  it("creates a session under the requested qwen-code/sessionId, once", async () => {
    const requested = { "qwen-code/sessionId": "interop-session-1" };
    expect(await yoloSession(child, requested)).toBe("interop-session-1");
    await expect(
      child.agent.request("session/new", { cwd: workspace, mcpServers: [], _meta: requested }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("already exists") });
    await expect(
      child.agent.request("session/new", {
        cwd: workspace,
        mcpServers: [],
        _meta: { "qwen-code/sessionId": "../escape" },
      }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("qwen-code/sessionId") });
  });
});

describe("the private parent capability", () => {
  it("refuses an initialize with the wrong token", async () => {
    await expect(
      spawn({ env: GUARD_ENV, initializeMeta: { "qwen-code/private-parent-capability": "cap-wrong" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid private ACP parent capability"),
    });
  });

  it("without the guard switch: trusted, no ack, and shell commands run without asking", async () => {
    let asked = 0;
    const child = await spawn({
      env: { QWEN_CODE_PRIVATE_ACP_CAPABILITY: TOKEN },
      initializeMeta: { "qwen-code/private-parent-capability": TOKEN },
      clientMethods: {
        [PREPARE]: () => {
          asked++;
          return { allowed: false, reason: "must not be asked" };
        },
      },
    });
    expect(child.initialized._meta ?? {}).not.toHaveProperty("qwen-code/external-tool-guard-ready");
    const sessionId = await yoloSession(child);
    expect(await toolResultOf(child, sessionId, `shell ${ENV_PROBE}`)).toContain("cap=unset");
    expect(asked).toBe(0);
  });
});
