// Questions and sessions with a real third-party ACP client: acpx 0.19.1 (no elicitation, no qwen `_meta`)
// drives the built `qwen --acp` with the fake model over HTTP. acpx answers a permission request by kind
// only: `--approve-all` picks the first `allow_once` option, so it picks a question's first choice (and
// includes every option of a multi-select); its CLI has no way to pick another.
// - a question answered by picking an option: the model receives that option's label; `--deny-all` declines;
// - a two-question batch (a choice, then a multi-select) answered one request at a time, in order;
// - a question left waiting by a SIGKILL of the agent (asked to another plain client, which acpx cannot be
//   made to leave waiting) is asked again the same way before acpx's next prompt, and acpx answers it;
// - a session deleted (session/delete: acpx has no command for it, so an SDK client sends it) is gone from
//   `acpx sessions list`, which asks the agent's session/list.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { type FakeOpenAIServer, lastMessage, messageText } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnChild } from "../../packages/acp-child/src/testing/child-harness.js";
import { ANSWERS, questionModel } from "../harness/questions.js";
import { ACPX_VERSION, type AcpxMessage, AcpxWorld } from "./acpx-setup.js";
import { OUR_CLI_ENTRY } from "./processes.js";

const model = questionModel;

let world: AcpxWorld;
let server: FakeOpenAIServer;

const acpx = (workspace: string, env: Record<string, string>, args: string[]) =>
  world.acpx(workspace, env, args);

beforeAll(async () => {
  world = await AcpxWorld.start(model, ["--restore-ask-user-question"]);
  server = world.server;
}, 300_000);

afterAll(async () => {
  await world?.close();
});

/** Another plain ACP client (the SDK's, no capabilities) on the built agent, in acpx's folders. */
const plainAgent = (workspace: string, env: Record<string, string>, restore: boolean) =>
  spawnChild({
    command: [process.execPath, OUR_CLI_ENTRY],
    cwd: workspace,
    qwenHome: env.QWEN_HOME as string,
    modelUrl: server.url,
    restore,
    clientCapabilities: {},
  });

/** The permission requests acpx received, in order. */
const permissionRequests = (messages: AcpxMessage[]) =>
  messages.filter((m) => m.method === "session/request_permission").map((m) => m.params ?? {});
const titleOf = (params: Record<string, unknown>) => (params.toolCall as { title?: string }).title;
const optionNames = (params: Record<string, unknown>) =>
  (params.options as { name: string; kind: string }[]).map((o) => [o.name, o.kind]);

/** What the model was sent as the result of `callId`. */
const toolResult = (callId: string) =>
  server.requests
    .flatMap((r) => r.messages)
    .filter((m) => m.role === "tool" && m.tool_call_id === callId)
    .map(messageText)
    .at(-1);

/** `acpx sessions list`: the ids the agent's session/list gave (acpx prints them as `{source: "agent", sessions}`). */
async function agentSessions(workspace: string, env: Record<string, string>): Promise<string[]> {
  const run = await acpx(workspace, env, ["sessions", "list"]);
  expect(run.code, run.stderr).toBe(0);
  const line = run.stdout.split("\n").find((l) => l.startsWith('{"source":"agent"'));
  if (!line) throw new Error(`acpx printed no agent session list:\n${run.stdout}`);
  return (JSON.parse(line) as { sessions: { sessionId: string }[] }).sessions.map((s) => s.sessionId);
}

const callIdOf = (params: Record<string, unknown>) => (params.toolCall as { toolCallId: string }).toolCallId;

describe(`acpx ${ACPX_VERSION} answering questions of the built qwen --acp`, () => {
  it("answers a question by picking one of its options; the model receives that option's label", async () => {
    const { workspace, env } = world.dirs();
    const run = await acpx(workspace, env, ["--approve-all", "exec", "ask approach"]);
    expect(run.code, run.stderr).toBe(0);
    const [asked, ...more] = permissionRequests(run.messages);
    expect(more).toEqual([]);
    expect(asked && optionNames(asked)).toEqual([
      ["A", "allow_once"],
      ["B", "allow_once"],
      ["Decline", "reject_once"],
    ]);
    expect(asked && titleOf(asked)).toBe("Approach: Which approach should I take?");
    expect(toolResult(callIdOf(asked ?? {}))).toBe(`${ANSWERS}**Approach**: A`);
  });

  it("--deny-all picks Decline: the batch is the user's cancel, and nothing more is asked", async () => {
    const { home, workspace, env } = world.dirs();
    const run = await acpx(workspace, env, ["--deny-all", "exec", "ask both"]);
    // acpx's exit code for "a permission was denied".
    expect(run.code, run.stderr).toBe(5);
    const [asked, ...more] = permissionRequests(run.messages);
    expect(more).toEqual([]);
    // Request ids of the two directions overlap; acpx's answer is the result that has an outcome.
    const answer = run.messages.find((m) => m.result && "outcome" in m.result);
    expect(answer?.result).toMatchObject({ outcome: { outcome: "selected", optionId: "decline" } });
    // The turn ended there; the decline is what the model will read with the next prompt.
    const chats = join(home, ".qwen", "projects", workspace.replaceAll("/", "-"), "chats");
    const transcript = readdirSync(chats).find((f) => f.split(".").length === 2);
    expect(transcript && readFileSync(join(chats, transcript), "utf8")).toContain(
      `Tool \\"ask_user_question\\" was canceled by the user.`,
    );
    expect(asked && titleOf(asked)).toContain("question 1 of 2");
  });

  it("answers a two-question batch one request at a time, in order", async () => {
    const { workspace, env } = world.dirs();
    const run = await acpx(workspace, env, ["--approve-all", "exec", "ask both"]);
    expect(run.code, run.stderr).toBe(0);
    const asked = permissionRequests(run.messages);
    expect(asked.map(titleOf)).toEqual([
      "Approach: Which approach should I take? (question 1 of 2)",
      'Features: include "Auth"? (question 2 of 2)',
      'Features: include "Search"? (question 2 of 2)',
      'Features: include "Export"? (question 2 of 2)',
    ]);
    expect(toolResult(callIdOf(asked[0] ?? {}))).toBe(
      `${ANSWERS}**Approach**: A\n**Features**: Auth, Search, Export`,
    );
  });

  it("after a SIGKILL while a question waits, acpx's next prompt gets it asked again the same way", async () => {
    const { home, workspace, env } = world.dirs();
    const created = await acpx(workspace, env, ["sessions", "new"]);
    expect(created.code, created.stderr).toBe(0);
    const chats = join(home, ".qwen", "projects", workspace.replaceAll("/", "-"), "chats");
    const sessionId = (readdirSync(chats)[0] as string).replace(/\.jsonl$/, "");

    // Another plain ACP client asks in that session, and the agent is killed while the question waits.
    const first = await plainAgent(workspace, env, true);
    await first.agent.request("session/load", { sessionId, cwd: workspace, mcpServers: [] });
    void first.agent
      .request("session/prompt", { sessionId, prompt: [{ type: "text", text: "ask approach" }] })
      .catch(() => undefined);
    const waiting = await first.nextPermission();
    await first.kill();

    const run = await acpx(workspace, env, ["--approve-all", "prompt", "carry on"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.methods).not.toContain("session/new");
    const [again, ...more] = permissionRequests(run.messages);
    expect(more).toEqual([]);
    expect(again?.toolCall).toMatchObject({
      toolCallId: waiting.params.toolCall.toolCallId,
      title: waiting.params.toolCall.title,
    });
    expect(again?.options).toEqual(waiting.params.options);
    // The same turn went on with acpx's pick, then acpx's own prompt ran.
    expect(toolResult(waiting.params.toolCall.toolCallId)).toBe(`${ANSWERS}**Approach**: A`);
    expect(messageText(lastMessage(server.requests.at(-1) as OpenAIChatRequest))).toBe("carry on");
  });

  it("a deleted session is gone from `acpx sessions list` (the agent's session/list)", async () => {
    const { workspace, env } = world.dirs();
    const created = await acpx(workspace, env, ["sessions", "new"]);
    expect(created.code, created.stderr).toBe(0);
    const listed = await agentSessions(workspace, env);
    expect(listed).toHaveLength(1);
    const sessionId = listed[0] as string;

    const sdk = await plainAgent(workspace, env, false);
    await sdk.agent.request("session/delete", { sessionId });
    await sdk.close();

    expect(await agentSessions(workspace, env)).toEqual([]);
  });
});
