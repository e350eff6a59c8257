// Cross-process: `--restore-pending-approvals` for a client that sends no restore prompt (any but the
// daemon). The real child is SIGKILLed while a write_file approval waits; a new child loads the session for
// a plain client, whose next ordinary prompt first gets the same approval asked again: approved, the file is
// written once and the model continues that turn, then the prompt runs.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import { type ChildWorld, openChildWorld, PROCEED_ONCE, text } from "./testing/child-world.js";

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  if (messageText(last) === "write it")
    return reply.toolCall("write_file", { file_path: "note.txt", content: "written once\n" });
  return reply.text(`echo: ${messageText(last)}`);
}

let world: ChildWorld;
const children: ChildHarness[] = [];

beforeAll(async () => {
  world = await openChildWorld(model, "acp-approval-next");
});

afterAll(async () => {
  await Promise.all(children.map((c) => (c.proc.exitCode === null ? c.kill() : undefined)));
  await world?.close();
});

async function plainClient(): Promise<ChildHarness> {
  const child = await spawnChild({
    qwenHome: world.home,
    modelUrl: world.server.url,
    restore: false,
    extraArgs: ["--restore-pending-approvals"],
    clientCapabilities: {},
  });
  children.push(child);
  return child;
}

describe("a plain client after a SIGKILL while an approval waits", () => {
  it("gets the approval asked again before its next prompt; the tool runs once, then the prompt", async () => {
    const first = await plainClient();
    const { sessionId } = await first.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });
    void first.agent.request("session/prompt", { sessionId, prompt: text("write it") }).catch(() => {});
    const asked = await first.nextPermission();
    await first.kill();

    const second = await plainClient();
    await second.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    const before = world.server.requests.length;
    const prompt = second.agent.request("session/prompt", { sessionId, prompt: text("carry on") });
    const again = await second.nextPermission();
    expect(again.params.toolCall.toolCallId).toBe(asked.params.toolCall.toolCallId);
    again.respond(PROCEED_ONCE);
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(await readFile(join(world.workspace, "note.txt"), "utf8")).toBe("written once\n");
    const [restored, next] = world.server.requests.slice(before);
    expect(restored?.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: asked.params.toolCall.toolCallId,
    });
    expect(messageText(next?.messages.at(-1))).toBe("carry on");
  });
});
