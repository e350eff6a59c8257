// Cross-process: a plain ACP client (no form elicitation, not the daemon) answers questions on the real
// child by picking among the question's own options, one permission request at a time; the model receives
// exactly the text a form or the daemon would have produced. A question left waiting by a SIGKILL is asked
// again the same way before the client's next prompt (the client sends no restore prompt of its own).
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildHarness, type PendingPermission, spawnChild } from "./testing/child-harness.js";
import { type ChildWorld, openChildWorld, text } from "./testing/child-world.js";
import { APPROACH, FEATURES } from "./testing/question-fixtures.js";

const ANSWERS = "User has provided the following answers:\n\n";
const CANCELED = 'Tool "ask_user_question" was canceled by the user.';

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const said = messageText(last);
  if (said.startsWith("ask one")) return askUserQuestionCall([APPROACH]);
  if (said.startsWith("ask two")) return askUserQuestionCall([APPROACH, FEATURES]);
  return reply.text(`echo: ${said}`);
}

let world: ChildWorld;
const children: ChildHarness[] = [];

beforeAll(async () => {
  world = await openChildWorld(model, "acp-choices");
});

afterAll(async () => {
  await Promise.all(children.map((c) => (c.proc.exitCode === null ? c.kill() : undefined)));
  await world?.close();
});

/** A client like most in use: files and terminal maybe, but no elicitation and no qwen `_meta`. */
async function plainClient(restore: boolean): Promise<ChildHarness> {
  const child = await spawnChild({
    qwenHome: world.home,
    modelUrl: world.server.url,
    restore,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
  children.push(child);
  return child;
}

const newSession = async (child: ChildHarness) =>
  (await child.agent.request("session/new", { cwd: world.workspace, mcpServers: [] })).sessionId;

const pick = (permission: PendingPermission, name: string) => {
  const option = permission.params.options.find((o) => o.name === name);
  if (!option) throw new Error(`no option named ${name} in ${JSON.stringify(permission.params.options)}`);
  permission.respond({ outcome: { outcome: "selected", optionId: option.optionId } });
};

/** What the model received as the question's tool result, in the last request that carried one. */
const lastToolResult = () => {
  const withTool = world.server.requests.filter((r) => r.messages.at(-1)?.role === "tool");
  return messageText(withTool.at(-1)?.messages.at(-1));
};

describe("a plain ACP client", () => {
  it("answers a single question by picking one of its options; the model receives that label", async () => {
    const child = await plainClient(false);
    const sessionId = await newSession(child);
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask one") });
    const permission = await child.nextPermission();
    expect(permission.params.options).toEqual([
      { optionId: "choice_0", name: "A", kind: "allow_once" },
      { optionId: "choice_1", name: "B", kind: "allow_once" },
      { optionId: "decline", name: "Decline", kind: "reject_once" },
    ]);
    expect(permission.params.toolCall.title).toBe("Approach: Which approach?");
    pick(permission, "B");
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(lastToolResult()).toBe(`${ANSWERS}**Approach**: B`);
    expect(child.permissions).toHaveLength(1);
  });

  it("answers a two-question batch in order; a multi-select is asked option by option", async () => {
    const child = await plainClient(false);
    const sessionId = await newSession(child);
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask two") });
    const titles: string[] = [];
    for (const choice of ["A", "Include", "Skip", "Include"]) {
      const permission = await child.nextPermission();
      titles.push(permission.params.toolCall.title ?? "");
      pick(permission, choice);
    }
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(titles).toEqual([
      "Approach: Which approach? (question 1 of 2)",
      'Features: include "Auth"? (question 2 of 2)',
      'Features: include "Search"? (question 2 of 2)',
      'Features: include "Export"? (question 2 of 2)',
    ]);
    expect(lastToolResult()).toBe(`${ANSWERS}**Approach**: A\n**Features**: Auth, Export`);
  });

  it("Decline is the user's cancel of the whole batch", async () => {
    const child = await plainClient(false);
    const sessionId = await newSession(child);
    const prompt = child.agent.request("session/prompt", { sessionId, prompt: text("ask two") });
    pick(await child.nextPermission(), "Decline");
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    // The second question is never asked.
    expect(child.permissions).toHaveLength(1);
    await child.agent.request("session/prompt", { sessionId, prompt: text("and now") });
    const sent = world.server.requests.at(-1)?.messages ?? [];
    expect(sent.some((m) => m.role === "tool" && messageText(m) === CANCELED)).toBe(true);
  });

  it("after a SIGKILL the question is asked again the same way before its next prompt, then the prompt runs", async () => {
    const first = await plainClient(true);
    const sessionId = await newSession(first);
    void first.agent.request("session/prompt", { sessionId, prompt: text("ask one") }).catch(() => {});
    const asked = await first.nextPermission();
    const callId = asked.params.toolCall.toolCallId;
    await first.kill();

    const second = await plainClient(true);
    await second.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    expect(second.permissions).toEqual([]);
    const before = world.server.requests.length;
    const prompt = second.agent.request("session/prompt", { sessionId, prompt: text("carry on") });
    const again = await second.nextPermission();
    expect(again.params.toolCall.toolCallId).toBe(callId);
    expect(again.params.options).toEqual(asked.params.options);
    pick(again, "A");
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    const [restored, next] = world.server.requests.slice(before);
    // The same turn goes on with the real answer, then the client's prompt.
    expect(restored?.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: callId,
      content: `${ANSWERS}**Approach**: A`,
    });
    expect(messageText(next?.messages.at(-1))).toBe("carry on");
    expect(world.server.requests).toHaveLength(before + 2);
  });

  it("a cancelled re-ask leaves the question waiting: the next prompt asks it again, Decline ends it", async () => {
    const first = await plainClient(true);
    const sessionId = await newSession(first);
    void first.agent.request("session/prompt", { sessionId, prompt: text("ask one") }).catch(() => {});
    const asked = await first.nextPermission();
    await first.kill();

    const second = await plainClient(true);
    await second.agent.request("session/load", { sessionId, cwd: world.workspace, mcpServers: [] });
    const cancelled = second.agent.request("session/prompt", { sessionId, prompt: text("carry on") });
    const again = await second.nextPermission();
    await second.agent.notify("session/cancel", { sessionId });
    again.respond({ outcome: { outcome: "cancelled" } });
    expect(await cancelled).toMatchObject({ stopReason: "cancelled" });

    const declined = second.agent.request("session/prompt", { sessionId, prompt: text("and now") });
    const third = await second.nextPermission();
    expect(third.params.toolCall.toolCallId).toBe(asked.params.toolCall.toolCallId);
    pick(third, "Decline");
    expect(await declined).toMatchObject({ stopReason: "end_turn" });
    // Declined for good: the prompt after that is asked nothing.
    await second.agent.request("session/prompt", { sessionId, prompt: text("last") });
    expect(second.permissions).toHaveLength(2);
    const sent = world.server.requests.at(-1)?.messages ?? [];
    expect(sent).toContainEqual(
      expect.objectContaining({
        role: "tool",
        tool_call_id: asked.params.toolCall.toolCallId,
        content: CANCELED,
      }),
    );
  });
});
