// Cross-process: cancelling a prompt while the real child waits on the client. session/cancel, then the
// pending permission request answered `cancelled` (what ACP asks of the client), ends the prompt `cancelled`
// and asks nothing more of the batch; the client's `$/cancel_request` for its session/prompt does the same
// while a permission request or a form elicitation waits: the agent withdraws its own request with
// `$/cancel_request`, the tool call ends failed and the model is told it was cancelled.
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, spawnChild } from "./testing/child-harness.js";
import { type ChildWorld, openChildWorld, text } from "./testing/child-world.js";
import { APPROACH, FEATURES } from "./testing/question-fixtures.js";

const CANCELLED_BEFORE = "Tool call was cancelled before execution.";

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const said = messageText(last);
  if (said === "ask two") return askUserQuestionCall([APPROACH, FEATURES]);
  return reply.text(`echo: ${said}`);
}

let world: ChildWorld;
const children: ChildHarness[] = [];

beforeAll(async () => {
  world = await openChildWorld(model, "acp-cancel");
});

afterAll(async () => {
  await Promise.all(children.map((c) => c.close()));
  await world?.close();
});

async function client(clientCapabilities: Parameters<typeof spawnChild>[0]["clientCapabilities"]) {
  const child = await spawnChild({
    qwenHome: world.home,
    modelUrl: world.server.url,
    restore: false,
    clientCapabilities,
  });
  children.push(child);
  const { sessionId } = await child.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });
  return { child, sessionId };
}

/** The question call's last status update, and what the model is sent about it with the next prompt. */
async function afterCancel(child: ChildHarness, sessionId: string) {
  const updates = child.updatesFor(sessionId).map((n) => n.update);
  const last = updates.filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
  await child.agent.request("session/prompt", { sessionId, prompt: text("next") });
  const sent = world.server.requests.at(-1)?.messages ?? [];
  return {
    status: last && "status" in last ? last.status : undefined,
    toolResults: sent.filter((m) => m.role === "tool").map(messageText),
  };
}

describe("session/cancel", () => {
  it("with the pending request answered cancelled, ends the prompt cancelled and asks nothing more", async () => {
    const { child, sessionId } = await client({});
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask two") });
    const first = await child.nextPermission();
    await child.agent.notify("session/cancel", { sessionId });
    first.respond({ outcome: { outcome: "cancelled" } });
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(child.permissions).toHaveLength(1);
    expect(await afterCancel(child, sessionId)).toEqual({
      status: "failed",
      toolResults: [CANCELLED_BEFORE],
    });
  });
});

describe("$/cancel_request for the client's session/prompt", () => {
  it("while a permission request waits: prompt cancelled, request withdrawn, call failed, model told", async () => {
    const { child, sessionId } = await client({});
    const cancel = new AbortController();
    const prompt = child.agent.request(
      "session/prompt",
      { sessionId, prompt: text("ask two") },
      { cancellationSignal: cancel.signal },
    );
    const waiting = await child.nextPermission();
    cancel.abort();
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    // The agent sent $/cancel_request for its own request (the harness aborts its signal on that).
    expect(waiting.signal.aborted).toBe(true);
    expect(child.permissions).toHaveLength(1);
    expect(await afterCancel(child, sessionId)).toEqual({
      status: "failed",
      toolResults: [CANCELLED_BEFORE],
    });
  });

  it("while a form elicitation waits: the same", async () => {
    const { child, sessionId } = await client({ elicitation: { form: {} } });
    const cancel = new AbortController();
    const prompt = child.agent.request(
      "session/prompt",
      { sessionId, prompt: text("ask two") },
      { cancellationSignal: cancel.signal },
    );
    const waiting = await child.nextElicitation();
    cancel.abort();
    expect(await prompt).toMatchObject({ stopReason: "cancelled" });
    expect(waiting.signal.aborted).toBe(true);
    expect(await afterCancel(child, sessionId)).toEqual({
      status: "failed",
      toolResults: [CANCELLED_BEFORE],
    });
  });

  it("a connection that ends is not a cancel: the daemon-less client's question stays restorable", async () => {
    const { child, sessionId } = await client({});
    void child.agent.request("session/prompt", { sessionId, prompt: text("ask two") }).catch(() => {});
    await child.nextPermission();
    await child.close();
    const reopened = await client({});
    await reopened.child.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    const replayed = reopened.child.updatesFor(sessionId).map((n) => n.update);
    // Without the restore switch the dangling call is replayed as missing, never as a cancel.
    expect(JSON.stringify(replayed)).not.toContain(CANCELLED_BEFORE);
  });
});
