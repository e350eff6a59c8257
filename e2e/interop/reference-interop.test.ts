// Interop with the reference implementation (qwen-code 0.24.4 on Node 22; NOTES.md in this
// folder), all with real processes and one fake model over HTTP:
//   (a) our daemon + our child, driven by the reference SDK's DaemonClient;
//   (b) the reference daemon running our child (QWEN_CLI_ENTRY), and clearing its shell commands through
//       the external tool guard;
//   (c) our daemon hosting the reference child (--acp-command).
// The reference is installed from the npm registry by setup-reference.sh (cached). When that is impossible
// the tests fail with the reason: interop that cannot be checked is not a pass.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  interopModel,
  SHELL_COMMAND,
  SHELL_MARKER_FILE,
  SHELL_PROMPT,
  SQLITE_ANSWER_TEXT,
  toolResultsSeen,
  WRITE_CONTENT,
  WRITE_FILE,
  WRITE_PROMPT,
} from "./interop-model.js";
import {
  ACP_TEE,
  type FlowRun,
  OUR_CLI_ENTRY,
  runSdkClientFlow,
  type ServeProcess,
  startServe,
} from "./processes.js";
import { installReference, type ReferencePaths } from "./reference-setup.js";

let ref: ReferencePaths;
let model: FakeOpenAIServer;
const scratch: string[] = [];

beforeAll(async () => {
  if (!existsSync(OUR_CLI_ENTRY)) {
    throw new Error(`${OUR_CLI_ENTRY} does not exist: build the packages first (npm run build)`);
  }
  ref = await installReference();
  model = await startFakeOpenAIServer({ handler: interopModel });
}, 300_000);

afterAll(async () => {
  await model?.close();
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Reference settings that keep it off the network: no usage statistics, no telemetry export. */
const REFERENCE_QUIET_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** A fresh HOME (transcripts, the reference's ~/.qwen) and workspace for one daemon. */
async function scratchDirs(label: string): Promise<{ home: string; workspace: string }> {
  const home = await mkdtemp(join(tmpdir(), `interop-${label}-home-`));
  const workspace = await mkdtemp(join(tmpdir(), `interop-${label}-ws-`));
  scratch.push(home, workspace);
  // The reference reports usage statistics by default; tests send traffic to loopback only.
  await mkdir(join(home, ".qwen"), { recursive: true });
  await writeFile(join(home, ".qwen", "settings.json"), JSON.stringify(REFERENCE_QUIET_SETTINGS));
  return { home, workspace };
}

/** What both implementations need to use the fake model (NOTES.md §3). */
function modelEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "sk-fake",
    OPENAI_MODEL: "fake-model",
  };
}

async function startOurDaemon(label: string, args: string[] = []) {
  const dirs = await scratchDirs(label);
  const daemon = await startServe({
    name: `our daemon (${label})`,
    command: process.execPath,
    args: [OUR_CLI_ENTRY, "serve", "--port", "0", ...args],
    cwd: dirs.workspace,
    env: { ...modelEnv(dirs.home), QWEN_HOME: join(dirs.home, ".qwen") },
  });
  return { daemon, ...dirs };
}

async function startReferenceDaemon(label: string, env: Record<string, string>) {
  const dirs = await scratchDirs(label);
  const daemon = await startServe({
    name: `reference daemon (${label})`,
    command: ref.node22,
    args: [ref.cli, "serve", "--port", "0", "--no-web"],
    cwd: dirs.workspace,
    env: { ...modelEnv(dirs.home), ...env },
  });
  return { daemon, ...dirs };
}

/** Runs the SDK flow and checks every step docs/protocol.md promises; failures carry both sides' output. */
async function expectQuestionFlow(daemon: ServeProcess, workspace: string, args: string[] = []) {
  const before = model.requests.length;
  const run: FlowRun = await runSdkClientFlow({
    node22: ref.node22,
    sdk: ref.sdk,
    url: daemon.url,
    args: ["--cwd", workspace, ...args],
  });
  const context = () =>
    `SDK flow exit ${run.exitCode}\n--- flow steps ---\n${run.summary()}\n--- flow stderr ---\n${run.stderr}` +
    `\n--- daemon output (tail) ---\n${daemon.output().slice(-6000)}`;
  const step = (name: string) => run.steps.find((s) => s.step === name);
  const done = step("done");
  if (run.exitCode !== 0 || done?.ok !== true)
    throw new Error(`The SDK client flow did not pass.\n${context()}`);

  expect(step("permission_request"), context()).toMatchObject({
    interactionKind: "user_question",
    title: "Ask user 1 question",
  });
  expect(step("status_waiting"), context()).toMatchObject({
    status: { isWaitingForUserQuestion: true, pendingInteractionCount: 1 },
  });
  expect(step("vote"), context()).toMatchObject({ accepted: true });
  expect(step("turn_end"), context()).toMatchObject({
    type: "turn_complete",
    data: { stopReason: "end_turn" },
  });
  expect(step("revote"), context()).toMatchObject({ accepted: false });
  return { run, modelRequests: model.requests.slice(before) };
}

describe("(a) our daemon + our child, driven by the reference SDK's DaemonClient (Node 22)", () => {
  let daemon: ServeProcess;
  let workspace: string;
  beforeAll(async () => {
    ({ daemon, workspace } = await startOurDaemon("a"));
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it("blocking prompt: create → question → vote → turn_complete; a repeat vote is a 404", async () => {
    const { modelRequests } = await expectQuestionFlow(daemon, workspace);
    expect(toolResultsSeen(modelRequests)).toContain(SQLITE_ANSWER_TEXT);
  });

  it("non-blocking prompt on a long-lived subscription, cancelled by the vote", async () => {
    await expectQuestionFlow(daemon, workspace, ["--mode", "nonblocking", "--vote", "cancel"]);
  });
});

describe("(b) the reference daemon running our child (QWEN_CLI_ENTRY=<our cli entry>)", () => {
  let daemon: ServeProcess;
  let workspace: string;
  beforeAll(async () => {
    ({ daemon, workspace } = await startReferenceDaemon("b", { QWEN_CLI_ENTRY: OUR_CLI_ENTRY }));
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it("accepts our child (guard acknowledged): create → question → vote → the turn completes", async () => {
    const { modelRequests } = await expectQuestionFlow(daemon, workspace);
    expect(toolResultsSeen(modelRequests)).toContain(SQLITE_ANSWER_TEXT);
    expect(daemon.output()).not.toContain("did not acknowledge the required external tool guard");
  });
});

describe("(b) the reference daemon through a tee: the external tool guard, and writes through its fs", () => {
  let daemon: ServeProcess;
  let workspace: string;
  let teeLog: string;
  beforeAll(async () => {
    // acp-tee.mjs sits between the daemon and our child and records the NDJSON, so the guard call is visible.
    const dirs = await scratchDirs("b-guard-log");
    teeLog = join(dirs.home, "acp-tee.jsonl");
    ({ daemon, workspace } = await startReferenceDaemon("b-guard", {
      QWEN_CLI_ENTRY: ACP_TEE,
      TEE_TARGET: OUR_CLI_ENTRY,
      TEE_LOG: teeLog,
    }));
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it("asks qwen/control/external_tool_guard/prepare under the daemon's prompt id, then runs the command", async () => {
    const before = model.requests.length;
    const context = async () =>
      `--- daemon output (tail) ---\n${daemon.output().slice(-6000)}\n--- tee log (tail) ---\n${(
        await readFile(teeLog, "utf8").catch((e: unknown) => String(e))
      ).slice(-6000)}`;
    const { sessionId, promptId } = await approvedPrompt(daemon, workspace, SHELL_PROMPT, context);

    const exchange = await teeExchange(teeLog);
    const ack = exchange.find((e) => e.dir === "child->daemon" && e.msg.result?._meta);
    expect(ack?.msg.result._meta, await context()).toEqual({
      "qwen-code/external-tool-guard-ready": "required-v1",
    });
    const prepare = exchange.find(
      (e) => e.dir === "child->daemon" && e.msg.method === "qwen/control/external_tool_guard/prepare",
    );
    expect(prepare?.msg.params, await context()).toEqual({
      sessionId,
      promptId,
      toolCallId: expect.any(String),
      toolName: "run_shell_command",
      arguments: { command: SHELL_COMMAND },
      invocationCwd: workspace,
    });
    const answer = exchange.find(
      (e) => e.dir === "daemon->child" && e.msg.id === prepare?.msg.id && !e.msg.method,
    );
    expect(answer?.msg.result, await context()).toEqual({ allowed: true });

    // Allowed, so it ran; and the subprocess did not inherit the daemon's private capability.
    expect(existsSync(join(workspace, SHELL_MARKER_FILE)), await context()).toBe(true);
    const results = toolResultsSeen(model.requests.slice(before));
    expect(
      results.some((text) => text.includes("cap=unset")),
      `${results.join("\n")}\n${await context()}`,
    ).toBe(true);
  });

  it("writes a file through the daemon's fs/write_text_file, which it advertises", async () => {
    const context = async () => `--- daemon output (tail) ---\n${daemon.output().slice(-6000)}`;
    const { sessionId } = await approvedPrompt(daemon, workspace, WRITE_PROMPT, context);
    const exchange = await teeExchange(teeLog);
    const write = exchange.find((e) => e.dir === "child->daemon" && e.msg.method === "fs/write_text_file");
    expect(write?.msg.params, await context()).toEqual({
      sessionId,
      path: join(workspace, WRITE_FILE),
      content: WRITE_CONTENT,
    });
    const answer = exchange.find(
      (e) => e.dir === "daemon->child" && e.msg.id === write?.msg.id && !e.msg.method,
    );
    expect(answer?.msg.result, await context()).toEqual({});
    expect(await readFile(join(workspace, WRITE_FILE), "utf8")).toBe(WRITE_CONTENT);
  });
});

/** The NDJSON acp-tee.mjs recorded between the daemon and the child, one message per entry. */
async function teeExchange(teeLog: string) {
  return (await readFile(teeLog, "utf8"))
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { dir?: string; line?: string })
    .flatMap((entry) => (entry.line ? [{ dir: entry.dir, msg: JSON.parse(entry.line) }] : []));
}

/**
 * Creates a session, sends `prompt` (its one tool call needs a permission in default mode), votes the permission
 * through and waits for the turn to end.
 */
async function approvedPrompt(
  daemon: ServeProcess,
  workspace: string,
  prompt: string,
  context: () => Promise<string>,
): Promise<{ sessionId: string; promptId: string }> {
  const created = await http<{ sessionId: string }>(daemon, "POST", "/session", { cwd: workspace });
  expect(created.status, await context()).toBe(200);
  const sessionId = created.body.sessionId;
  const prompted = await http<{ promptId: string }>(daemon, "POST", `/session/${sessionId}/prompt`, {
    prompt: [{ type: "text", text: prompt }],
  });
  expect(prompted.status, await context()).toBe(202);
  const pending = await waitFor(
    "the tool's permission request",
    async () => {
      const status = await http<{ pendingInteractions?: { requestId: string }[] }>(
        daemon,
        "GET",
        `/session/${sessionId}/status`,
      );
      return status.body.pendingInteractions?.[0];
    },
    context,
  );
  const vote = await http(daemon, "POST", `/session/${sessionId}/permission/${pending.requestId}`, {
    outcome: { outcome: "selected", optionId: "proceed_once" },
  });
  expect(vote.status, await context()).toBe(200);
  await waitFor(
    "the turn to end",
    async () => {
      const status = await http<{ hasActivePrompt: boolean }>(daemon, "GET", `/session/${sessionId}/status`);
      return status.body.hasActivePrompt ? undefined : true;
    },
    context,
  );
  return { sessionId, promptId: prompted.body.promptId };
}

describe("(c) our daemon hosting the reference child (--acp-command)", () => {
  let daemon: ServeProcess;
  let workspace: string;
  beforeAll(async () => {
    ({ daemon, workspace } = await startOurDaemon("c", [
      "--acp-command",
      JSON.stringify([ref.node22, ref.cliJs]),
    ]));
  }, 60_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it("create → question → vote → the turn completes, and the reference child sends the answer text", async () => {
    const { modelRequests } = await expectQuestionFlow(daemon, workspace);
    expect(toolResultsSeen(modelRequests)).toContain(SQLITE_ANSWER_TEXT);
  });
});

async function http<T = Record<string, unknown>>(
  daemon: ServeProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${daemon.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}

/** Polls `probe` until it returns a value; fails with `context` after `timeoutMs`. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  context: () => Promise<string>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${await context()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
