// The `qwen` binary itself: help and version, bad flags refused before anything starts, and one-shot
// headless prompts streamed to stdout (against the fake model, and on the built-in demo model).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeOpenAIServer, reply, startFakeOpenAIServer } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCaptured } from "./harness/captured-process.js";
import { CLI_ENTRY, DaemonProcess } from "./harness/daemon-process.js";

let server: FakeOpenAIServer;
const dirs: string[] = [];
const tmp = (prefix: string) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  server = await startFakeOpenAIServer({ handler: () => reply.text("Hello from the fake model.") });
});
afterAll(async () => {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs the built qwen asynchronously: the fake model lives in this process and must keep serving. */
async function qwen(args: string[], env: Record<string, string> = {}) {
  const cwd = tmp("qwen-cli-ws-");
  const run = spawnCaptured(process.execPath, [CLI_ENTRY, ...args], {
    cwd,
    env: { ...process.env, QWEN_HOME: tmp("qwen-cli-home-"), ...env },
  });
  const timer = setTimeout(() => run.child.kill("SIGKILL"), 30_000);
  const status = await run.closed;
  clearTimeout(timer);
  const { stdout, stderr } = run;
  return { status, stdout, stderr, cwd };
}

/** `qwen serve --no-web [args]` in a fresh folder; `use` gets it and the limits its /capabilities reports. */
async function withDaemon(
  args: string[],
  env: Record<string, string>,
  use: (daemon: DaemonProcess, limits: Record<string, number>) => Promise<void>,
): Promise<void> {
  const daemon = await DaemonProcess.start({
    cwd: tmp("qwen-cli-ws-"),
    args: ["--no-web", ...args],
    env: { QWEN_HOME: tmp("qwen-cli-home-"), ...env },
  });
  try {
    const caps = await daemon.json<{ limits: Record<string, number> }>("GET", "/capabilities");
    await use(daemon, caps.body.limits);
  } finally {
    await daemon.kill9();
  }
}

describe("qwen binary", () => {
  it("prints its version and help", async () => {
    expect((await qwen(["--version"])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await qwen(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("serve");
    expect(help.stdout).toContain("--acp");
    const serveHelp = await qwen(["serve", "--help"]);
    expect(serveHelp.stdout).toContain("--restore-ask-user-question");
    expect(serveHelp.stdout).toContain("--permission-policy");
  });

  it("refuses bad flag values with a clear message and a non-zero exit, before listening", async () => {
    const bad = await qwen(["serve", "--port", "abc"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--port must be an integer, got "abc".');
    expect(bad.stdout).not.toContain("listening");
    const policy = await qwen(["serve", "--permission-policy", "everyone"]);
    expect(policy.status).toBe(2);
    expect(policy.stderr).toContain("first-responder");
    const unknown = await qwen(["serve", "--frobnicate"]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain("unknown option '--frobnicate'");
    const relative = await qwen(["serve", "--port", "0", "--workspace", "relative/dir"]);
    expect(relative.status).toBe(2);
    expect(relative.stderr).toContain("--workspace must be an absolute path");
    const acpCommand = await qwen(["serve", "--port", "0", "--acp-command", "not json"]);
    expect(acpCommand.status).toBe(2);
    expect(acpCommand.stderr).toContain("--acp-command must be a JSON array");
  });

  it("serves with every cap switched off by 0, as its help says, and reports the limits it runs with", async () => {
    const args = ["--max-sessions", "0", "--max-pending-prompts-per-session", "0", "--max-connections=0"];
    await withDaemon(args, { QWEN_SERVE_EVENT_RING_SIZE: "16" }, async (daemon, limits) => {
      expect(limits).toMatchObject({
        maxSessions: 0,
        maxPendingPromptsPerSession: 0,
        maxConnections: 0,
        eventRingSize: 16,
        permissionResponseTimeoutMs: 0,
      });
      for (let i = 0; i < 3; i++)
        expect((await daemon.json("POST", "/session", { sessionScope: "thread" })).status).toBe(200);
    });
  });

  it("starts with the daemon's defaults when given no flags", async () => {
    await withDaemon([], {}, async (_daemon, limits) => {
      expect(limits).toMatchObject({
        maxSessions: 32,
        maxPendingPromptsPerSession: 5,
        maxConnections: 256,
        eventRingSize: 8000,
      });
    });
  });

  it("qwen -p streams the model's answer to stdout", async () => {
    const run = await qwen(["-p", "say hello"], {
      OPENAI_BASE_URL: server.url,
      OPENAI_API_KEY: "test",
      OPENAI_MODEL: "fake",
    });
    expect(run.stderr).not.toContain("Error");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Hello from the fake model.");
    const last = server.requests.at(-1) as {
      messages: { role: string; content: unknown }[];
      tools?: unknown[];
    };
    expect(last.messages.at(-1)).toMatchObject({ role: "user", content: "say hello" });
    // Nobody can answer questions in a headless run, so the tool is not offered.
    const toolNames = (last.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(toolNames).not.toContain("ask_user_question");
    expect(toolNames).toContain("read_file");
  });

  it('qwen "<prompt>" runs the demo model when no model is configured', async () => {
    const env = { OPENAI_BASE_URL: "", OPENAI_API_KEY: "", OPENAI_MODEL: "" };
    const run = await qwen(["list", "the", "files"], env);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("[demo model]");
  });
});
