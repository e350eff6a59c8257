// `--restore-pending-approvals` for an MCP tool on a real stdio server (core's fixture, its `append` tool writes
// one line per run), through the real child process: the child is SIGKILLed while the approval waits, and while
// the tool runs after its effect; a new child loads the session (this test plays the daemon: it sends the restore
// prompt when the load hints it). Never twice, never without an approval; the model's history stays valid.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type OpenAIChatRequest, toolStartedResultUnknownText } from "@qwen-daemon/core";
import {
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
  startFakeOpenAIServer,
} from "@qwen-daemon/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import {
  fixtureMcpServer,
  PROCEED_ONCE,
  PROMPT_ID_KEY,
  RESTORE_APPROVALS_KEY,
  text,
} from "./testing/child-world.js";

const TOOL = "mcp__counter__append";

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  if (messageText(last).startsWith("count")) return reply.toolCalls([{ name: TOOL, args: {} }]);
  return reply.text("Done.");
}

let server: FakeOpenAIServer;
let root: string;
const children: ChildHarness[] = [];
beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: model });
});
afterAll(() => server.close());
afterEach(async () => {
  for (const c of children.splice(0)) await c.kill();
  await rm(root, { recursive: true, force: true });
});

async function world(pauseMs: number) {
  root = await mkdtemp(join(tmpdir(), "approval-mcp-"));
  const counter = join(root, "counter.txt");
  await writeFile(counter, "");
  const mcpServers = [
    fixtureMcpServer("counter", [
      { name: "FIXTURE_COUNTER_FILE", value: counter },
      { name: "FIXTURE_APPEND_PAUSE_MS", value: String(pauseMs) },
    ]),
  ];
  const spawn = async () => {
    const child = await spawnChild({
      qwenHome: join(root, "home"),
      modelUrl: server.url,
      restore: false,
      extraArgs: ["--restore-pending-approvals"],
    });
    children.push(child);
    return child;
  };
  const runs = async () => (await readFile(counter, "utf8")).split("\n").filter((l) => l === "ran").length;
  /** A first child whose model asks to run the tool: the approval waits (its prompt settles only by a kill). */
  const askToCount = async () => {
    const first = await spawn();
    const { sessionId } = await first.agent.request("session/new", {
      cwd: root,
      mcpServers: mcpServers as never,
    });
    void first.agent.request("session/prompt", { sessionId, prompt: text("count once") }).catch(() => {});
    const asked = await first.nextPermission((p) => p.params.sessionId === sessionId, 30_000);
    return { first, sessionId, asked };
  };
  /** A new child that loads the session, as a restarted daemon's would. */
  const loadAgain = async (sessionId: string) => {
    const second = await spawn();
    const loaded = await second.agent.request("session/load", {
      sessionId,
      cwd: root,
      mcpServers: mcpServers as never,
    });
    return { second, loaded };
  };
  return { runs, askToCount, loadAgain };
}

describe("an MCP tool approval across a crash of the agent", () => {
  it("killed while the approval waits: asked again on load, approved, runs once, the turn goes on", async () => {
    const w = await world(0);
    const { first, sessionId, asked } = await w.askToCount();
    expect(asked.params.toolCall.toolCallId).toBeTruthy();
    await first.kill();
    expect(await w.runs()).toBe(0);

    const { second, loaded } = await w.loadAgain(sessionId);
    expect(loaded._meta?.[RESTORE_APPROVALS_KEY]).toBe(true);
    const restore = second.agent.request("session/prompt", {
      sessionId,
      prompt: [],
      _meta: { [RESTORE_APPROVALS_KEY]: true, [PROMPT_ID_KEY]: "restore-1" },
    });
    const again = await second.nextPermission((p) => p.params.sessionId === sessionId, 30_000);
    expect(again.params.toolCall.toolCallId).toBe(asked.params.toolCall.toolCallId);
    again.respond(PROCEED_ONCE);
    expect((await restore).stopReason).toBe("end_turn");
    expect(await w.runs()).toBe(1);
    const last = server.requests.at(-1);
    expect(last?.messages.at(-1)).toMatchObject({ role: "tool", content: "appended" });
    expect(server.rejected).toEqual([]);
  }, 60_000);

  it("killed after the tool's effect: never run again; the turn goes on, the model told its result is unknown", async () => {
    const w = await world(3_000);
    const { first, sessionId, asked } = await w.askToCount();
    asked.respond(PROCEED_ONCE);
    const deadline = Date.now() + 20_000;
    while ((await w.runs()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await first.kill();
    expect(await w.runs()).toBe(1);

    const { second, loaded } = await w.loadAgain(sessionId);
    // A person approved it and the model never saw its (unknown) result: the restore lets the turn go on
    // (docs/restore.md "After a crash: how the session ends decides"), asking nothing and running nothing.
    expect(loaded._meta?.[RESTORE_APPROVALS_KEY]).toBe(true);
    const restore = await second.agent.request("session/prompt", {
      sessionId,
      prompt: [],
      _meta: { [RESTORE_APPROVALS_KEY]: true, [PROMPT_ID_KEY]: "restore-1" },
    });
    expect((restore as { stopReason: string }).stopReason).toBe("end_turn");
    expect(await w.runs()).toBe(1);
    const last = server.requests.at(-1);
    expect(last?.messages.at(-1)?.role).toBe("tool");
    const sent = last?.messages.find((m) => m.role === "tool");
    expect(sent && messageText(sent)).toBe(toolStartedResultUnknownText(TOOL));
    expect(second.permissions).toHaveLength(0);
    expect(server.rejected).toEqual([]);
  }, 60_000);
});
