// A real third-party ACP client against our agent: acpx 0.19.1 (headless ACP CLI, from the npm registry,
// run on the interop Node 22 since it needs >= 22.13) drives the built `qwen --acp` with the fake model over
// HTTP. acpx advertises `fs` and `terminal` (not elicitation), so: a write goes through its
// fs/write_text_file, a command runs in its terminal, and a session made with `acpx sessions new` (never
// prompted) is resumed by the next acpx process instead of being silently replaced.
// Installing acpx needs the registry or a warm cache; when impossible the file fails with the reason.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUR_CLI_ENTRY } from "./processes.js";
import { installReference, REPO_ROOT } from "./reference-setup.js";

const ACPX_VERSION = "0.19.1";
const ACPX_CACHE = process.env.QWEN_ACPX_CACHE || join(REPO_ROOT, "node_modules", ".cache", "acpx");
const AGENT = `${process.execPath} ${OUR_CLI_ENTRY} --acp`;

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  const text = messageText(last);
  if (text === "write it")
    return reply.toolCall("write_file", { file_path: "via-acpx.txt", content: "from acpx\n" });
  if (text === "run it") return reply.toolCall("run_shell_command", { command: "echo from-the-terminal" });
  return reply.text(`echo: ${text}`);
}

let server: FakeOpenAIServer;
let node22: string;
let acpxCli: string;
const scratch: string[] = [];

/** npm-installs acpx into the cache once (idempotent: a cache with the pinned version is reused). */
async function installAcpx(): Promise<string> {
  const cli = join(ACPX_CACHE, "node_modules", "acpx", "dist", "cli.js");
  const pkg = join(ACPX_CACHE, "node_modules", "acpx", "package.json");
  if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).version === ACPX_VERSION) return cli;
  rmSync(ACPX_CACHE, { recursive: true, force: true });
  await run("mkdir", ["-p", ACPX_CACHE], {});
  writeFileSync(join(ACPX_CACHE, "package.json"), '{ "name": "acpx-cache", "private": true }\n');
  const npm = await run(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", `acpx@${ACPX_VERSION}`],
    { cwd: ACPX_CACHE },
  );
  if (npm.code !== 0 || !existsSync(cli)) {
    throw new Error(
      `Could not install acpx@${ACPX_VERSION} into ${ACPX_CACHE} (npm exit ${npm.code}):\n${npm.stderr}`,
    );
  }
  return cli;
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ? { PATH: process.env.PATH ?? "", ...options.env } : process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh HOME (acpx's state, our transcripts) and workspace. */
function dirs(): { home: string; workspace: string; env: Record<string, string> } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "acpx-home-")));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), "acpx-ws-")));
  scratch.push(home, workspace);
  const env = {
    HOME: home,
    QWEN_HOME: join(home, ".qwen"),
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: "test",
    OPENAI_MODEL: "fake",
  };
  return { home, workspace, env };
}

/** `acpx --agent <our agent> --format json ...args`; the JSON-RPC it exchanged, one message per line. */
async function acpx(workspace: string, env: Record<string, string>, args: string[]) {
  const result = await run(node22, [acpxCli, "--agent", AGENT, "--ttl", "1", "--format", "json", ...args], {
    cwd: workspace,
    env,
  });
  const messages = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { method?: string; params?: Record<string, unknown>; id?: unknown });
  return { ...result, messages, methods: messages.flatMap((m) => (m.method ? [m.method] : [])) };
}

beforeAll(async () => {
  if (!existsSync(OUR_CLI_ENTRY))
    throw new Error(`${OUR_CLI_ENTRY} does not exist: build first (npm run build)`);
  node22 = (await installReference()).node22;
  acpxCli = await installAcpx();
  server = await startFakeOpenAIServer({ handler: model });
}, 300_000);

afterAll(async () => {
  await server?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
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
