// A session created with `session/new` and never prompted is on disk at once: another agent process (the built
// `qwen --acp`, driven by the ACP SDK's client) lists, loads and resumes it, even after the first one was
// SIGKILLed right after creating it; `qwen serve` on the same QWEN_HOME lists, loads and resumes it too. The
// record that puts it there is not part of the conversation: the model never sees it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
  startFakeOpenAIServer,
} from "@qwen-daemon/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AcpAgentWorld } from "../harness/acp-agent.js";
import { DaemonProcess } from "../harness/daemon-process.js";

function model(request: OpenAIChatRequest): FakeReply {
  return reply.text(`echo: ${messageText(lastMessage(request))}`);
}

let server: FakeOpenAIServer;
let world: AcpAgentWorld;
const daemons: DaemonProcess[] = [];

beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: model });
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.kill9()));
  await world?.dispose();
});

/** Creates a session in one agent process and SIGKILLs it: nothing is left but what is on disk. */
async function sessionOfAKilledAgent(): Promise<{ sessionId: string; createdBefore: number }> {
  const first = await world.spawn({ restore: true });
  const { sessionId } = await first.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });
  const createdBefore = Date.now();
  await first.kill();
  return { sessionId, createdBefore };
}

describe("a session never prompted", () => {
  it("is listed, loaded, resumed and prompted by another agent process", async () => {
    world = new AcpAgentWorld(server.url);
    const { sessionId, createdBefore } = await sessionOfAKilledAgent();
    const file = join(
      world.qwenHome,
      "projects",
      world.workspace.replaceAll("/", "-"),
      "chats",
      `${sessionId}.jsonl`,
    );
    const [record, ...rest] = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rest).toEqual([]);
    expect(record).toMatchObject({
      type: "system",
      subtype: "session_created",
      sessionId,
      cwd: world.workspace,
    });
    expect(Date.parse(record.timestamp)).toBeLessThanOrEqual(createdBefore);

    const second = await world.spawn({ restore: true });
    const { sessions } = await second.agent.request("session/list", { cwd: world.workspace });
    expect(sessions).toEqual([{ sessionId, cwd: world.workspace, updatedAt: expect.any(String) }]);
    const loaded = await second.agent.request("session/load", {
      sessionId,
      cwd: world.workspace,
      mcpServers: [],
    });
    expect(loaded._meta).toBeUndefined();
    expect(second.updatesFor(sessionId)).toEqual([]);

    const third = await world.spawn({ restore: false });
    expect(
      await third.agent.request("session/resume", { sessionId, cwd: world.workspace, mcpServers: [] }),
    ).toMatchObject({ modes: expect.any(Object) });
    expect(
      await third.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] }),
    ).toMatchObject({ stopReason: "end_turn" });
    // The model got the user's message and nothing from the session record.
    const sent = server.requests.at(-1)?.messages.filter((m) => m.role !== "system") ?? [];
    expect(sent.map((m) => [m.role, messageText(m)])).toEqual([["user", "hello"]]);
  });

  it("is listed, loaded and resumed by qwen serve on the same QWEN_HOME", async () => {
    world = new AcpAgentWorld(server.url);
    const { sessionId } = await sessionOfAKilledAgent();
    const daemon = await DaemonProcess.start({
      cwd: world.workspace,
      args: ["--no-web", "--restore-ask-user-question"],
      env: {
        QWEN_HOME: world.qwenHome,
        OPENAI_BASE_URL: server.url,
        OPENAI_API_KEY: "test",
        OPENAI_MODEL: "fake",
      },
    });
    daemons.push(daemon);
    const listed = await daemon.json<{ sessions: { sessionId: string; clientCount: number }[] }>(
      "GET",
      `/workspace/${encodeURIComponent(world.workspace)}/sessions`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toEqual([expect.objectContaining({ sessionId, clientCount: 0 })]);
    const loaded = await daemon.json<{ sessionId: string; clientId: string; compactedReplay: unknown[] }>(
      "POST",
      `/session/${sessionId}/load`,
      {},
    );
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ sessionId, clientId: expect.any(String), compactedReplay: [] });
    const resumed = await daemon.json("POST", `/session/${sessionId}/resume`, {});
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ sessionId });
  });
});
