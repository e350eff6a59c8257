// A standard ACP client that advertises form elicitation, over real stdio to the built `qwen --acp`, with the
// fake model over HTTP: questions arrive as `elicitation/create` forms; accept, multi-select, "other",
// decline and cancel give the model exactly the texts of the permission path; after a SIGKILL a fresh agent
// process loads the session and the restore prompt asks the same question again as a form. Without the
// capability: the daemon (it advertises `qwen.daemon.questionAnswers`) still gets `session/request_permission`
// with Submit/Cancel and answers beside it; any other client picks among the question's own options.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type FakeOpenAIServer,
  messageText,
  startFakeOpenAIServer,
  trailingToolMessages,
} from "@qwen-daemon/core/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AcpAgentWorld, type ChildHarness } from "../harness/acp-agent.js";
import { ANSWERS, APPROACH, FEATURES, questionModel } from "../harness/questions.js";

const CANCELED = 'Tool "ask_user_question" was canceled by the user.';
const RESTORE_KEY = "qwen.daemon.restoreAskUserQuestion";
const ELICITATION = { elicitation: { form: {} } };

const model = questionModel;

let server: FakeOpenAIServer;
let world: AcpAgentWorld;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: model });
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await world?.dispose();
});

const text = (t: string) => [{ type: "text" as const, text: t }];
/** The tool results the model was sent last. */
const lastToolResults = () => {
  const last = server.requests.at(-1);
  return last ? trailingToolMessages(last).map((m) => messageText(m)) : [];
};

async function newSession(agent: ChildHarness): Promise<string> {
  return (await agent.agent.request("session/new", { cwd: world.workspace, mcpServers: [] })).sessionId;
}

async function transcript(sessionId: string): Promise<Record<string, unknown>[]> {
  const projects = join(world.qwenHome, "projects", world.workspace.replaceAll("/", "-"), "chats");
  const raw = await readFile(join(projects, `${sessionId}.jsonl`), "utf8");
  return raw
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a client that advertises elicitation.form", () => {
  it("gets the question as a form, and option B reaches the model as exactly **Approach**: B", async () => {
    world = new AcpAgentWorld(server.url);
    const agent = await world.spawn({ restore: false, clientCapabilities: ELICITATION });
    const sessionId = await newSession(agent);
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: text("ask approach") });
    const form = await agent.nextElicitation();
    expect(form.params).toMatchObject({
      mode: "form",
      sessionId,
      toolCallId: expect.any(String),
      message: "Which approach should I take?",
      requestedSchema: {
        type: "object",
        properties: {
          "0": {
            type: "string",
            title: "Approach",
            description: "Which approach should I take?",
            oneOf: [
              { const: "A", title: "A", description: "Rewrite the module" },
              { const: "B", title: "B", description: "Patch the bug only" },
            ],
          },
          "0_other": { type: "string" },
        },
      },
    });
    // The form belongs to the tool call the client was told about.
    const toolCall = agent.updatesFor(sessionId).find((u) => u.update.sessionUpdate === "tool_call");
    expect(toolCall?.update).toMatchObject({
      toolCallId: (form.params as { toolCallId: string }).toolCallId,
    });
    expect(agent.permissions).toEqual([]);

    form.respond({ action: "accept", content: { "0": "B" } });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(lastToolResults()).toEqual([`${ANSWERS}**Approach**: B`]);
  });

  it("answers a multi-select and an 'other' text in one form", async () => {
    world = new AcpAgentWorld(server.url);
    const agent = await world.spawn({ restore: false, clientCapabilities: ELICITATION });
    const sessionId = await newSession(agent);
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: text("ask both") });
    const form = await agent.nextElicitation();
    expect(form.params).toMatchObject({
      message: "Ask user 2 questions",
      requestedSchema: {
        properties: {
          "1": {
            type: "array",
            title: "Features",
            items: { anyOf: FEATURES.options.map((o) => ({ const: o.label, title: o.label })) },
          },
          "1_other": { type: "string" },
        },
      },
    });
    form.respond({
      action: "accept",
      content: { "0": "A", "0_other": "Neither: delete it", "1": ["Export", "Auth"], "1_other": "Dark mode" },
    });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(lastToolResults()).toEqual([
      `${ANSWERS}**Approach**: Neither: delete it\n**Features**: Auth, Export, Dark mode`,
    ]);
  });

  it.each(["decline", "cancel"])(
    "%s is the user's no: the turn ends and the cancel text is persisted, as with a permission Cancel",
    async (action) => {
      world = new AcpAgentWorld(server.url);
      const agent = await world.spawn({ restore: false, clientCapabilities: ELICITATION });
      const sessionId = await newSession(agent);
      const requestsBefore = server.requests.length;
      const prompt = agent.agent.request("session/prompt", { sessionId, prompt: text("ask approach") });
      const form = await agent.nextElicitation();
      form.respond({ action });
      expect(await prompt).toMatchObject({ stopReason: "end_turn" });
      // No model request after the question in that turn.
      expect(server.requests.length).toBe(requestsBefore + 1);
      const final = agent
        .updatesFor(sessionId)
        .find((u) => u.update.sessionUpdate === "tool_call_update" && u.update.status === "failed");
      expect(final?.update).toMatchObject({
        content: [{ type: "content", content: { type: "text", text: CANCELED } }],
      });
      const results = (await transcript(sessionId)).filter((r) => r.type === "tool_result");
      expect(results).toEqual([
        expect.objectContaining({
          message: {
            role: "user",
            parts: [
              {
                functionResponse: {
                  id: (form.params as { toolCallId: string }).toolCallId,
                  name: "ask_user_question",
                  response: { error: CANCELED },
                },
              },
            ],
          },
          toolCallResult: expect.objectContaining({ status: "cancelled" }),
        }),
      ]);
      // The model sees the refusal with the next prompt, before the new user message.
      expect(await agent.agent.request("session/prompt", { sessionId, prompt: text("go on") })).toMatchObject(
        {
          stopReason: "end_turn",
        },
      );
      const messages = server.requests.at(-1)?.messages ?? [];
      expect(messages.slice(-2).map((m) => [m.role, messageText(m)])).toEqual([
        ["tool", CANCELED],
        ["user", "go on"],
      ]);
    },
  );

  it("after a SIGKILL, a fresh agent loads the session and the restore prompt asks the same form again", async () => {
    world = new AcpAgentWorld(server.url);
    const first = await world.spawn({ restore: true, clientCapabilities: ELICITATION });
    const sessionId = await newSession(first);
    first.agent.request("session/prompt", { sessionId, prompt: text("ask approach") }).catch(() => undefined);
    const asked = await first.nextElicitation();
    const callId = (asked.params as { toolCallId: string }).toolCallId;
    await first.kill();

    const second = await world.spawn({ restore: true, clientCapabilities: ELICITATION });
    const loaded = await second.agent.request("session/load", {
      sessionId,
      cwd: world.workspace,
      mcpServers: [],
    });
    // The hint a client acts on: send the restore prompt.
    expect(loaded._meta).toEqual({ [RESTORE_KEY]: true });
    const restore = second.agent.request("session/prompt", {
      sessionId,
      prompt: [],
      _meta: { [RESTORE_KEY]: true },
    });
    const again = await second.nextElicitation();
    expect(again.params).toEqual(asked.params);
    expect((again.params as { toolCallId: string }).toolCallId).toBe(callId);
    expect(second.permissions).toEqual([]);
    again.respond({ action: "accept", content: { "0": "B" } });
    expect(await restore).toMatchObject({ stopReason: "end_turn" });
    expect(lastToolResults()).toEqual([`${ANSWERS}**Approach**: B`]);
  });
});

describe("a client without the capability", () => {
  it("the daemon (questionAnswers) gets Submit/Cancel with the questions, and answers beside the outcome", async () => {
    world = new AcpAgentWorld(server.url);
    const agent = await world.spawn({
      restore: false,
      clientCapabilities: { elicitation: { url: {} }, _meta: { "qwen.daemon.questionAnswers": true } },
    });
    const sessionId = await newSession(agent);
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: text("ask approach") });
    const permission = await agent.nextPermission();
    expect(permission.params.toolCall).toMatchObject({
      title: "Ask user 1 question",
      _meta: { qwenInteractionKind: "user_question", qwenQuestions: [APPROACH] },
    });
    expect(agent.elicitations).toEqual([]);
    permission.respond({ outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "B" } });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(lastToolResults()).toEqual([`${ANSWERS}**Approach**: B`]);
  });

  it("any other client picks one of the question's options, and the model gets the same text", async () => {
    world = new AcpAgentWorld(server.url);
    const agent = await world.spawn({ restore: false, clientCapabilities: { elicitation: { url: {} } } });
    const sessionId = await newSession(agent);
    const prompt = agent.agent.request("session/prompt", { sessionId, prompt: text("ask approach") });
    const permission = await agent.nextPermission();
    expect(permission.params.options.map((o) => [o.name, o.kind])).toEqual([
      ["A", "allow_once"],
      ["B", "allow_once"],
      ["Decline", "reject_once"],
    ]);
    permission.respond({
      outcome: { outcome: "selected", optionId: permission.params.options[1]?.optionId },
    });
    expect(await prompt).toMatchObject({ stopReason: "end_turn" });
    expect(lastToolResults()).toEqual([`${ANSWERS}**Approach**: B`]);
  });
});
