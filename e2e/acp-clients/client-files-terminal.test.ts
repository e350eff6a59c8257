// A client that advertises its files and terminal (an in-memory editor: buffers, client-owned terminals) over
// real stdio to the built `qwen --acp`, with the fake model over HTTP: read_file returns the unsaved buffer,
// writes and edits land in the client and not on disk, a shell command runs in the client's terminal (shown
// in the tool call) and its timeout kills it; `..` and absolute paths outside the workspace are refused with
// exactly the texts of the local path, before the client is asked anything.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
  startFakeOpenAIServer,
  trailingToolMessages,
} from "@qwen-daemon/core/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EditorHost, editorHost } from "../../packages/acp-child/src/testing/editor-host.js";
import { AcpAgentWorld, type ChildHarness } from "../harness/acp-agent.js";

const EDITOR_CAPABILITIES = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
// Shell syntax, not a template: the client terminal expands it.
const MARKER_COMMAND = 'echo "terminal=$QWEN_TEST_CLIENT_TERMINAL pager=$PAGER dir=$(pwd)"';

/** The prompt names the tool call: `read <path>`, `write <path>`, `edit <path>`, `run marker`, `run slow`. */
function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text("done");
  const text = messageText(last);
  const [verb, target = ""] = text.split(" ");
  switch (verb) {
    case "read":
      return reply.toolCall("read_file", { file_path: target });
    case "write":
      return reply.toolCall("write_file", { file_path: target, content: "written by the agent\n" });
    case "edit":
      return reply.toolCall("edit", { file_path: target, old_string: "two", new_string: "2" });
    case "run":
      return target === "slow"
        ? reply.toolCall("run_shell_command", { command: "sleep 30", timeout: 700 })
        : reply.toolCall("run_shell_command", { command: MARKER_COMMAND });
  }
  return reply.text(`echo: ${text}`);
}

let server: FakeOpenAIServer;
let world: AcpAgentWorld;
let editor: EditorHost;
let outside: string;

beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: model });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  world = new AcpAgentWorld(server.url);
  editor = editorHost();
  outside = mkdtempSync(join(tmpdir(), "qwen-acp-outside-"));
  writeFileSync(join(outside, "secret.txt"), "not yours\n");
});
afterEach(async () => {
  editor.dispose();
  await world.dispose();
  rmSync(outside, { recursive: true, force: true });
});

const text = (t: string) => [{ type: "text" as const, text: t }];
const lastToolResults = () => {
  const last = server.requests.at(-1);
  return last ? trailingToolMessages(last).map((m) => messageText(m)) : [];
};

/** A session in yolo mode (no permission prompts), in an agent with or without the editor's services. */
async function yoloSession(withEditor: boolean): Promise<{ agent: ChildHarness; sessionId: string }> {
  const agent = await world.spawn(
    withEditor
      ? { restore: false, clientCapabilities: EDITOR_CAPABILITIES, host: editor.host }
      : { restore: false },
  );
  const { sessionId } = await agent.agent.request("session/new", { cwd: world.workspace, mcpServers: [] });
  await agent.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
  return { agent, sessionId };
}

async function run(agent: ChildHarness, sessionId: string, prompt: string): Promise<string[]> {
  expect(await agent.agent.request("session/prompt", { sessionId, prompt: text(prompt) })).toMatchObject({
    stopReason: "end_turn",
  });
  return lastToolResults();
}

describe("the client's files", () => {
  it("read_file returns what the editor buffer holds, not the saved file", async () => {
    const notes = join(world.workspace, "notes.txt");
    writeFileSync(notes, "saved on disk\n");
    editor.buffers.set(notes, "unsaved in the editor\n");
    const { agent, sessionId } = await yoloSession(true);
    expect(await run(agent, sessionId, "read notes.txt")).toEqual(["unsaved in the editor"]);
    expect(editor.calls).toContainEqual({ method: "fs/read_text_file", target: notes });
    // A file the client does not have is "not found", as on disk.
    expect(await run(agent, sessionId, "read nothing.txt")).toEqual([
      `File not found: ${join(world.workspace, "nothing.txt")}`,
    ]);
  });

  it("write_file and edit land in the client, not on disk", async () => {
    const notes = join(world.workspace, "notes.txt");
    writeFileSync(notes, "one two on disk\n");
    editor.buffers.set(notes, "one two in the buffer\n");
    const { agent, sessionId } = await yoloSession(true);
    const out = join(world.workspace, "out.txt");
    expect(await run(agent, sessionId, "write out.txt")).toEqual([
      `Successfully created and wrote to new file: ${out}.`,
    ]);
    expect(await run(agent, sessionId, "edit notes.txt")).toEqual([
      `The file: ${notes} has been updated (1 replacement).`,
    ]);
    expect(editor.buffers.get(out)).toBe("written by the agent\n");
    expect(editor.buffers.get(notes)).toBe("one 2 in the buffer\n");
    expect(existsSync(out)).toBe(false);
    expect(readFileSync(notes, "utf8")).toBe("one two on disk\n");
  });

  it("refuses `..` and absolute paths outside the workspace exactly like the local path, asking the client nothing", async () => {
    const viaParent = `../${basename(outside)}/secret.txt`;
    const absolute = join(outside, "secret.txt");
    const prompts = [
      `read ${viaParent}`,
      `read ${absolute}`,
      `write ${viaParent}`,
      `write ${absolute}`,
      `edit ${absolute}`,
    ];
    const local = await yoloSession(false);
    const client = await yoloSession(true);
    for (const prompt of prompts) {
      const [localText] = await run(local.agent, local.sessionId, prompt);
      const target = prompt.split(" ")[1] as string;
      expect(localText).toBe(`Path "${target}" is outside the workspace "${world.workspace}".`);
      expect(await run(client.agent, client.sessionId, prompt)).toEqual([localText]);
    }
    expect(editor.calls).toEqual([]);
    expect(readFileSync(absolute, "utf8")).toBe("not yours\n");
  });
});

describe("the client's terminal", () => {
  it("runs the command in a client terminal the tool call carries, and releases it", async () => {
    const { agent, sessionId } = await yoloSession(true);
    const [result] = await run(agent, sessionId, "run marker");
    expect(result).toContain(`Output: terminal=1 pager=cat dir=${world.workspace}`);
    expect(result).toContain("Exit Code: 0");
    expect(result).toContain("Terminal: term-1");
    const [terminal] = editor.terminals;
    expect(terminal).toMatchObject({ command: "bash", args: ["-c", MARKER_COMMAND], cwd: world.workspace });
    expect(terminal?.outputByteLimit).toBe(64 * 1024);
    expect(editor.calls.map((c) => c.method)).toEqual([
      "terminal/create",
      "terminal/wait_for_exit",
      "terminal/output",
      "terminal/release",
    ]);
    const carried = agent
      .updatesFor(sessionId)
      .filter((u) => u.update.sessionUpdate === "tool_call_update")
      .map((u) => u.update as { status?: string; content?: { type: string; terminalId?: string }[] });
    expect(carried.find((u) => u.content !== undefined)).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: expect.any(String),
      status: "in_progress",
      content: [{ type: "terminal", terminalId: "term-1" }],
    });
    expect(carried.at(-1)).toMatchObject({
      status: "completed",
      content: [{ type: "terminal", terminalId: "term-1" }, { type: "content" }],
    });
  });

  it("kills the command when its timeout fires, with the local path's text", async () => {
    const { agent, sessionId } = await yoloSession(true);
    const [result] = await run(agent, sessionId, "run slow");
    expect(result).toBe(
      "Command timed out after 700ms before it could complete. There was no output before it timed out.",
    );
    const [terminal] = editor.terminals;
    expect(terminal?.killed).toBe(true);
    expect(await terminal?.exit).toEqual({ exitCode: null, signal: "SIGKILL" });
    expect(editor.calls.map((c) => c.method)).toEqual([
      "terminal/create",
      "terminal/wait_for_exit",
      "terminal/kill",
      "terminal/output",
      "terminal/release",
    ]);
  });
});
