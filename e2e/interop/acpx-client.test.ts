// A real third-party ACP client against our agent: acpx 0.19.1 (headless ACP CLI, from the npm registry,
// run on the interop Node 22 since it needs >= 22.13) drives the built `qwen --acp` with the fake model over
// HTTP. acpx advertises `fs` and `terminal` (not elicitation), so: a write goes through its
// fs/write_text_file, a command runs in its terminal, and a session made with `acpx sessions new` (never
// prompted) is resumed by the next acpx process instead of being silently replaced.
// Installing acpx needs the registry or a warm cache; when impossible the file fails with the reason.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import {
  type FakeOpenAIServer,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACPX_VERSION, AcpxWorld } from "./acpx-setup.js";
import { OUR_CLI_ENTRY } from "./processes.js";

const _AGENT = `${process.execPath} ${OUR_CLI_ENTRY} --acp`;

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const text = messageText(last);
  if (text === "write it")
    return reply.toolCall("write_file", { file_path: "via-acpx.txt", content: "from acpx\n" });
  if (text === "run it") return reply.toolCall("run_shell_command", { command: "echo from-the-terminal" });
  return reply.text(`echo: ${text}`);
}

let world: AcpxWorld;
let server: FakeOpenAIServer;

const dirs = () => world.dirs();
const acpx = (workspace: string, env: Record<string, string>, args: string[]) =>
  world.acpx(workspace, env, args);

beforeAll(async () => {
  world = await AcpxWorld.start(model);
  server = world.server;
}, 300_000);

afterAll(async () => {
  await world?.close();
});

describe(`acpx ${ACPX_VERSION} driving the built qwen --acp`, () => {
  it("writes through acpx's fs/write_text_file and runs a command in acpx's terminal", async () => {
    const { workspace, env } = dirs();
    const write = await acpx(workspace, env, ["--approve-all", "exec", "write it"]);
    expect(write.code, write.stderr).toBe(0);
    expect(write.messages.find((m) => m.method === "initialize")?.params).toMatchObject({
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    });
    expect(write.messages.find((m) => m.method === "fs/write_text_file")?.params).toMatchObject({
      path: join(workspace, "via-acpx.txt"),
      content: "from acpx\n",
    });
    expect(readFileSync(join(workspace, "via-acpx.txt"), "utf8")).toBe("from acpx\n");

    const shell = await acpx(workspace, env, ["--approve-all", "exec", "run it"]);
    expect(shell.code, shell.stderr).toBe(0);
    expect(shell.methods.filter((m) => m.startsWith("terminal/"))).toEqual([
      "terminal/create",
      "terminal/wait_for_exit",
      "terminal/output",
      "terminal/release",
    ]);
    const toolResult = server.requests.at(-1)?.messages.at(-1);
    expect(messageText(toolResult)).toContain("Output: from-the-terminal");
  });

  it("resumes a session made by `acpx sessions new` in the next acpx process (no new session)", async () => {
    const { home, workspace, env } = dirs();
    const created = await acpx(workspace, env, ["sessions", "new"]);
    expect(created.code, created.stderr).toBe(0);
    // In this mode acpx prints its own summary line instead of the JSON-RPC exchange.
    expect(created.stdout).toContain('"created":true');
    const chats = join(home, ".qwen", "projects", workspace.replaceAll("/", "-"), "chats");
    const [file, ...others] = readdirSync(chats);
    expect(others).toEqual([]);
    const sessionId = (file as string).replace(/\.jsonl$/, "");

    // acpx's queue owner lingers for its TTL; the next run must still find the session on disk.
    const prompted = await acpx(workspace, env, ["prompt", "hello again"]);
    expect(prompted.code, prompted.stderr).toBe(0);
    expect(prompted.methods).not.toContain("session/new");
    const reopened = prompted.messages.find(
      (m) => m.method === "session/resume" || m.method === "session/load",
    );
    expect(reopened?.params).toMatchObject({ sessionId });
    expect(readdirSync(chats).filter((name) => !name.endsWith(".ledger.jsonl"))).toEqual([
      `${sessionId}.jsonl`,
    ]);
  });
});
