// `--restore-pending-approvals` in AgentSession: the write-ahead start record, and load + restore after a crash
// at each point of an approved tool's life. The crash is simulated as in agent-session-given-answers.test.ts:
// the session's files are copied at the instant of interest (what a SIGKILL would leave on disk).
import { cp } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { Config } from "../config.js";
import { toolStartedResultUnknownText } from "../history/pending-approval-restore.js";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { chatsDir, transcriptPath } from "../storage/jsonl/paths.js";
import { type FakeOpenAIServer, reply, startFakeOpenAIServer } from "../testing/index.js";
import { toolCanceledByUserText } from "../tools/ask-user-question-result.js";
import { ToolRegistry } from "../tools/registry.js";
import type { Tool } from "../tools/tool.js";
import { readTranscript } from "../transcript/reader.js";
import { AgentSession, type AgentSessionLoadOptions } from "./agent-session.js";
import type { ConfirmationHandler } from "./contract.js";
import { crashedHomeOf, providerFor, suppressed, type TempWorkspace, tempWorkspace } from "./test-support.js";

const SESSION = "session-1";
const RUN = reply.toolCalls([{ name: "run_shell_command", args: { command: "echo x" }, id: "call_run" }]);
const signal = () => new AbortController().signal;

type Where = { qwenHome: string; cwd: string };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** An exec tool that counts its runs; `during` runs inside execute, before the tool's effect. */
function countingShell(during?: () => Promise<void>): Tool & { runs: number } {
  const tool = {
    runs: 0,
    name: "run_shell_command",
    description: "test shell",
    parameters: { type: "object", properties: {} },
    confirmation: "exec" as const,
    restoreClass: "exec" as const,
    validate: () => undefined,
    describe: () => ({ title: "Run", uiKind: "execute" as const }),
    execute: async () => {
      await during?.();
      tool.runs++;
      return { output: "ran" };
    },
  };
  return tool;
}

function options(where: Where, server: FakeOpenAIServer, extra: Partial<AgentSessionLoadOptions> = {}) {
  return {
    sessionId: SESSION,
    cwd: where.cwd,
    qwenHome: where.qwenHome,
    storage: jsonlSessionStorage(where.qwenHome),
    provider: providerFor(server),
    config: new Config({ restorePendingApprovals: true }),
    tools: new ToolRegistry([countingShell()]),
    onEvent: () => {},
    confirm: (async () => ({ outcome: "approved" })) as ConfirmationHandler,
    ...extra,
  };
}

async function setup(replies = [RUN, reply.text("Done.")]) {
  const ws: TempWorkspace = await tempWorkspace();
  cleanup.push(() => ws.remove());
  const server = await startFakeOpenAIServer(replies);
  cleanup.push(() => server.close());
  return { ws, server, crashed: crashedHomeOf(ws) };
}

async function open(session: Promise<AgentSession>): Promise<AgentSession> {
  const s = await session;
  cleanup.push(() => s.close());
  return s;
}

/**
 * A first session whose approval waits when the crash comes: its files are copied to `crashed` at that instant,
 * then the wait ends unattended (as when the session closes).
 */
async function crashWhileApprovalWaits(replies?: Parameters<typeof setup>[0]) {
  const world = await setup(replies);
  const { ws, server, crashed } = world;
  const first = await open(
    AgentSession.create(
      options(ws, server, {
        confirm: async () => {
          await copyFiles(ws, crashed);
          return { outcome: "unattended", reason: "session_closed" };
        },
      }),
    ),
  );
  await first.prompt([{ text: "run it" }], { promptId: "p1", signal: signal() });
  return world;
}

/** A confirmation handler that approves every call and notes its id in `asked`. */
const approvingInto =
  (asked: string[]): ConfirmationHandler =>
  async (request) => {
    asked.push(request.call.id);
    return { outcome: "approved" };
  };

/** The crashed files loaded by a new session with its own shell tool and confirmation handler. */
const loadCrashed = (crashed: Where, server: FakeOpenAIServer, shell: Tool, confirm: ConfirmationHandler) =>
  open(AgentSession.load(options(crashed, server, { tools: new ToolRegistry([shell]), confirm })));

/** A fresh load of the crashed files still finds the call waiting for its approval. */
async function expectAskedAgainByALaterLoad(crashed: Where, server: FakeOpenAIServer): Promise<void> {
  const later = await open(AgentSession.load(options(crashed, server)));
  expect(later.restorableApprovals()?.functionCalls.map((c) => c.id)).toEqual(["call_run"]);
}

const copyFiles = (from: Where, to: Where) =>
  cp(chatsDir(from.qwenHome, from.cwd), chatsDir(to.qwenHome, to.cwd), { recursive: true });
const records = async (where: Where) =>
  (await readTranscript(transcriptPath(where.qwenHome, where.cwd, SESSION))).records;
const shape = (rs: Awaited<ReturnType<typeof records>>) =>
  rs.map((r) => (r.type === "system" ? `system:${r.subtype}` : r.type));
const toolResultsSent = (server: FakeOpenAIServer) =>
  Object.fromEntries(
    (server.requests.at(-1)?.messages ?? []).flatMap((m) =>
      m.role === "tool" ? [[m.tool_call_id, m.content]] : [],
    ),
  );

describe("write-ahead start record", () => {
  it("is fsynced after the approval and before the tool runs, on a reply marked as recording starts", async () => {
    const { ws, server } = await setup();
    let onDiskWhenRun: string[] = [];
    const shell = countingShell(async () => {
      onDiskWhenRun = shape(await records(ws));
    });
    const s = await open(AgentSession.create(options(ws, server, { tools: new ToolRegistry([shell]) })));
    await s.prompt([{ text: "run it" }], { promptId: "p1", signal: signal() });
    expect(onDiskWhenRun.slice(-2)).toEqual(["assistant", "system:tool_started"]);
    const all = await records(ws);
    const started = all.find((r) => r.type === "system" && r.subtype === "tool_started");
    expect(started?.type === "system" && started.data).toEqual({
      callId: "call_run",
      name: "run_shell_command",
      approval: "user",
    });
    const assistant = all.find((r) => r.type === "assistant" && r.message.parts.some((p) => p.functionCall));
    expect(assistant?.type === "assistant" && assistant.toolStarts).toBe("recorded");
    expect(shell.runs).toBe(1);
  });

  it("says how the call was allowed: by the approval mode", async () => {
    const { ws, server } = await setup();
    const config = new Config({ restorePendingApprovals: true, approvalMode: "yolo" });
    const s = await open(AgentSession.create(options(ws, server, { config })));
    await s.prompt([{ text: "run it" }], { promptId: "p1", signal: signal() });
    const started = (await records(ws)).find((r) => r.type === "system" && r.subtype === "tool_started");
    expect(started?.type === "system" && started.data?.approval).toBe("approval_mode");
  });

  it("is not written with the switch off: the transcript is today's", async () => {
    const { ws, server } = await setup();
    const s = await open(AgentSession.create(options(ws, server, { config: new Config() })));
    await s.prompt([{ text: "run it" }], { promptId: "p1", signal: signal() });
    const all = await records(ws);
    expect(shape(all)).toEqual([
      "system:session_created",
      "user",
      "assistant",
      "tool_result",
      "assistant",
      "system:turn_result",
    ]);
    expect(all.some((r) => r.type === "assistant" && r.toolStarts !== undefined)).toBe(false);
  });
});

describe("load and restore after a crash", () => {
  it("asks an approval the crash left unanswered again; approved, it runs once and the turn goes on", async () => {
    const { server, crashed } = await crashWhileApprovalWaits([
      RUN,
      reply.text("Done."),
      reply.text("Finished."),
    ]);
    const shell = countingShell();
    const asked: string[] = [];
    const loaded = await loadCrashed(crashed, server, shell, approvingInto(asked));
    expect(loaded.restorableApprovals()?.functionCalls.map((c) => c.id)).toEqual(["call_run"]);
    expect(loaded.restorableQuestion()).toBeUndefined();
    const requestsBefore = server.requests.length;
    await loaded.restorePendingApprovals({ promptId: "r1", signal: signal() });
    expect(asked).toEqual(["call_run"]);
    expect(shell.runs).toBe(1);
    expect(server.requests.length).toBe(requestsBefore + 1);
    expect(toolResultsSent(server)).toEqual({ call_run: "ran" });
    expect(loaded.restorableApprovals()).toBeUndefined();
  });

  it("never runs a call that had started again: load closes it as started, result unknown", async () => {
    const { ws, server, crashed } = await setup([RUN, reply.text("Done."), reply.text("Checked.")]);
    const shell = countingShell(() => copyFiles(ws, crashed));
    const first = await open(AgentSession.create(options(ws, server, { tools: new ToolRegistry([shell]) })));
    await first.prompt([{ text: "run it" }], { promptId: "p1", signal: signal() });
    const again = countingShell();
    const asked: string[] = [];
    const loaded = await loadCrashed(crashed, server, again, approvingInto(asked));
    const text = toolStartedResultUnknownText("run_shell_command");
    const last = (await records(crashed)).at(-1);
    expect(last?.type === "tool_result" && last.message.parts[0]?.functionResponse).toEqual({
      id: "call_run",
      name: "run_shell_command",
      response: { error: text },
    });
    expect(loaded.restorableApprovals()).toBeUndefined();
    await loaded.prompt([{ text: "did it run?" }], { promptId: "p2", signal: signal() });
    expect(toolResultsSent(server)).toEqual({ call_run: text });
    expect([again.runs, asked]).toEqual([0, []]);
  });

  it("a batch cut off in its first tool: load closes that one as started, the restore asks only the other", async () => {
    const TWO = reply.toolCalls([
      { name: "run_shell_command", args: { command: "echo a" }, id: "call_a" },
      { name: "run_shell_command", args: { command: "echo b" }, id: "call_b" },
    ]);
    const { ws, server, crashed } = await setup([TWO, reply.text("Done."), reply.text("Checked.")]);
    let copied = false;
    const shell = countingShell(async () => {
      if (copied) return;
      copied = true;
      await copyFiles(ws, crashed);
    });
    const first = await open(AgentSession.create(options(ws, server, { tools: new ToolRegistry([shell]) })));
    await first.prompt([{ text: "run both" }], { promptId: "p1", signal: signal() });
    const again = countingShell();
    const asked: string[] = [];
    const loaded = await loadCrashed(crashed, server, again, approvingInto(asked));
    expect(loaded.restorableApprovals()?.functionCalls.map((c) => c.id)).toEqual(["call_b"]);
    await loaded.restorePendingApprovals({ promptId: "p2", signal: signal() });
    expect([again.runs, asked]).toEqual([1, ["call_b"]]);
    expect(toolResultsSent(server)).toEqual({
      call_a: toolStartedResultUnknownText("run_shell_command"),
      call_b: "ran",
    });
  });

  it("a refused re-asked approval records the refusal and never runs the tool", async () => {
    const { server, crashed } = await crashWhileApprovalWaits();
    const shell = countingShell();
    const loaded = await loadCrashed(crashed, server, shell, async () => ({ outcome: "rejected" }));
    await loaded.restorePendingApprovals({ promptId: "r1", signal: signal() });
    expect(shell.runs).toBe(0);
    const last = (await records(crashed)).filter((r) => r.type === "tool_result").at(-1);
    expect(last?.type === "tool_result" && last.message.parts[0]?.functionResponse?.response).toEqual({
      error: toolCanceledByUserText("run_shell_command"),
    });
    expect(loaded.restorableApprovals()).toBeUndefined();
  });

  it("an unattended end of the re-asked approval records nothing: a later load asks again", async () => {
    const { server, crashed } = await crashWhileApprovalWaits();
    const loaded = await open(
      AgentSession.load(
        options(crashed, server, { confirm: async () => ({ outcome: "unattended", reason: "timeout" }) }),
      ),
    );
    await loaded.restorePendingApprovals({ promptId: "r1", signal: signal() });
    expect((await records(crashed)).some((r) => r.type === "tool_result")).toBe(false);
    await loaded.close();
    await expectAskedAgainByALaterLoad(crashed, server);
  });

  it("with the switch off, the same crash gets today's orphan repair and nothing is re-asked", async () => {
    const { server, crashed } = await crashWhileApprovalWaits();
    const loaded = await open(AgentSession.load(options(crashed, server, { config: new Config() })));
    expect(loaded.restorableApprovals()).toBeUndefined();
    // Written with the switch on, loaded with it off: nothing is closed on disk either.
    expect((await records(crashed)).at(-1)?.type).toBe("assistant");
  });

  it("a suppressed load (nobody to ask) leaves the call open on disk for a later load", async () => {
    const { server, crashed } = await crashWhileApprovalWaits();
    const nobodyThere = await open(AgentSession.load(suppressed(options(crashed, server), "approvals")));
    expect(nobodyThere.restorableApprovals()).toBeUndefined();
    await nobodyThere.close();
    await expectAskedAgainByALaterLoad(crashed, server);
  });
});
