// AgentSession against the fake OpenAI server over real HTTP, with transcripts in temp dirs.
// A "crash" is simulated by copying the session's files at the instant the question is asked (what a
// SIGKILL would leave) into another QWEN_HOME, and loading from there.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Config } from "../config.js";
import { ORPHAN_TOOL_RESULT_TEXT } from "../history/orphan-repair.js";
import { ModelError } from "../model/provider.js";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { transcriptPath } from "../storage/jsonl/paths.js";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeOpenAIServer,
  type FakeScript,
  messageText,
  reply,
  startFakeOpenAIServer,
  trailingToolMessages,
} from "../testing/index.js";
import { createAskUserQuestionTool } from "../tools/ask-user-question.js";
import {
  ASK_USER_QUESTION_CANCELLED_TEXT,
  TOOL_CANCELLED_BEFORE_EXECUTION_TEXT,
} from "../tools/ask-user-question-result.js";
import { ToolRegistry } from "../tools/registry.js";
import { PromptLedger } from "../transcript/ledger.js";
import { readTranscript } from "../transcript/reader.js";
import type { TranscriptRecord } from "../transcript/records.js";
import {
  AgentSession,
  type AgentSessionOptions,
  SessionBusyError,
  SessionExistsError,
} from "./agent-session.js";
import type { ConfirmationHandler, ConfirmationOutcome, ConfirmationRequest } from "./contract.js";
import { SessionClosedAbort } from "./contract.js";
import {
  COLOR_ANSWER_TEXT,
  crashCopyOnAsk,
  crashedHomeOf,
  eventLog,
  providerFor,
  recordingTool,
  type TempWorkspace,
  tempWorkspace,
} from "./test-support.js";

const SESSION = "session-1";
const QUESTION_ID = "call_question_1";

let server: FakeOpenAIServer | undefined;
const workspaces: TempWorkspace[] = [];
const sessions: AgentSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await server?.close();
  server = undefined;
  await Promise.all(workspaces.splice(0).map((w) => w.remove()));
});

async function workspace(): Promise<TempWorkspace> {
  const ws = await tempWorkspace();
  workspaces.push(ws);
  return ws;
}

function options(
  ws: { qwenHome: string; cwd: string },
  s: FakeOpenAIServer,
  extra: Partial<AgentSessionOptions> & { restore?: boolean } = {},
): AgentSessionOptions {
  const { restore, ...rest } = extra;
  return {
    sessionId: SESSION,
    cwd: ws.cwd,
    storage: jsonlSessionStorage(ws.qwenHome),
    provider: providerFor(s),
    config: new Config({ restoreAskUserQuestion: restore === true }),
    tools: new ToolRegistry([createAskUserQuestionTool()]),
    onEvent: () => {},
    confirm: async () => ({ outcome: "rejected" }),
    ...rest,
  };
}

async function track(session: Promise<AgentSession>): Promise<AgentSession> {
  const s = await session;
  sessions.push(s);
  return s;
}

const prompt = (id: string) => ({ promptId: id, signal: new AbortController().signal });
const text = (t: string) => [{ text: t }];
const answered =
  (answers: Record<string, string>): ConfirmationHandler =>
  async () => ({ outcome: "approved", answers });
/** A host whose connection ends while it is asked: the session is closed and the request fails with it. */
const hostGoneWhileAsking =
  (controller: AbortController, code?: "session_closed" | "daemon_lost"): ConfirmationHandler =>
  (_request, signal) =>
    new Promise((_resolve, reject) => {
      signal.addEventListener("abort", () => reject(new Error("connection closed")));
      controller.abort(new SessionClosedAbort("connection closed", code));
    });
const questionReply = () => askUserQuestionCall([DEFAULT_QUESTION], { id: QUESTION_ID, text: "Let me ask." });
const readRecords = async (ws: { qwenHome: string; cwd: string }) =>
  (await readTranscript(transcriptPath(ws.qwenHome, ws.cwd, SESSION))).records;
const ledgerOf = (ws: { qwenHome: string; cwd: string }) =>
  PromptLedger.forSession({
    storage: jsonlSessionStorage(ws.qwenHome),
    cwd: ws.cwd,
    sessionId: SESSION,
  }).read();
const responsesOf = (records: readonly TranscriptRecord[]) =>
  records.flatMap((r) =>
    r.type === "tool_result" ? r.message.parts.map((p) => p.functionResponse?.response) : [],
  );

/**
 * Runs prompt "p1" until its question is asked, copies the session's files into a fresh QWEN_HOME at that
 * instant (the state a kill leaves), then lets the original end unattended. Returns the crashed copy.
 */
async function crashWhileAsking(script: FakeScript = [questionReply()]) {
  const ws = await workspace();
  server = await startFakeOpenAIServer(script);
  const crashed = crashedHomeOf(ws);
  const original = await track(
    AgentSession.create(
      options(ws, server, {
        confirm: crashCopyOnAsk(ws, crashed),
      }),
    ),
  );
  await original.prompt(text("pick a color"), prompt("p1"));
  return { server, crashed };
}

describe("AgentSession: a question in a live session", () => {
  it("has the functionCall on disk while asking, and sends the exact answer text next", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply(), reply.text("Blue it is.")]);
    const { events, onEvent } = eventLog();
    let onDiskWhileAsking: TranscriptRecord | undefined;
    let eventsWhileAsking = 0;
    const confirm = vi.fn(async (request: ConfirmationRequest): Promise<ConfirmationOutcome> => {
      onDiskWhileAsking = (await readRecords(ws)).at(-1);
      eventsWhileAsking = events.length;
      expect(request).toMatchObject({
        kind: "user_question",
        call: { id: QUESTION_ID, name: "ask_user_question" },
      });
      return { outcome: "approved", answers: { "0": "Blue" } };
    });
    const session = await track(AgentSession.create(options(ws, server, { confirm, onEvent })));

    expect(await session.prompt(text("pick a color"), prompt("p1"))).toEqual({ stopReason: "end_turn" });
    expect(onDiskWhileAsking).toMatchObject({
      type: "assistant",
      message: { role: "model", parts: [{ text: "Let me ask." }, { functionCall: { id: QUESTION_ID } }] },
    });
    // The question reached the host (tool_call event) only after it was on disk.
    expect(events.slice(0, eventsWhileAsking).some((e) => e.type === "tool_call")).toBe(true);
    expect(trailingToolMessages(server.requests[1]!).map((m) => m.content)).toEqual([COLOR_ANSWER_TEXT]);

    const records = await readRecords(ws);
    expect(records.map((r) => r.type)).toEqual([
      "system",
      "user",
      "assistant",
      "tool_result",
      "assistant",
      "system",
    ]);
    expect(records[0]).toMatchObject({ type: "system", subtype: "session_created", cwd: ws.cwd });
    expect(records[1]).toMatchObject({ promptId: "p1", parentUuid: records[0]!.uuid });
    expect(records.at(-1)).toMatchObject({
      subtype: "turn_result",
      data: { stopReason: "end_turn", promptId: "p1" },
    });
    expect(session.records()).toEqual(records);
    expect((await ledgerOf(ws)).map((e) => e.state)).toEqual(["in_flight", "completed"]);
  });

  it("passes beforeExecute the prompt id with the call", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([reply.toolCall("probe", {}, "c1"), reply.text("done")]);
    const probe = recordingTool("probe", "none");
    const seen: unknown[] = [];
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          tools: new ToolRegistry([probe]),
          beforeExecute: async (call, ctx) => {
            seen.push({ call, promptId: ctx.promptId, cwd: ctx.cwd });
            return { allowed: false, reason: "denied by host" };
          },
        }),
      ),
    );
    expect(await session.prompt(text("run it"), prompt("p7"))).toEqual({ stopReason: "end_turn" });
    expect(seen).toEqual([{ call: { id: "c1", name: "probe", args: {} }, promptId: "p7", cwd: ws.cwd }]);
    expect(probe.calls).toEqual([]);
    expect(trailingToolMessages(server.requests[1]!).map((m) => m.content)).toEqual(["denied by host"]);
  });

  it("persists the decline when the user cancels; the model sees it with the next prompt", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply(), reply.text("Fine.")]);
    const session = await track(
      AgentSession.create(options(ws, server, { confirm: async () => ({ outcome: "rejected" }) })),
    );

    expect(await session.prompt(text("pick a color"), prompt("p1"))).toEqual({ stopReason: "end_turn" });
    expect(server.requests).toHaveLength(1);
    expect(responsesOf(await readRecords(ws))).toEqual([{ error: ASK_USER_QUESTION_CANCELLED_TEXT }]);

    await session.prompt(text("ok then"), prompt("p2"));
    const messages = server.requests[1]!.messages;
    expect(messages.at(-2)).toMatchObject({
      role: "tool",
      tool_call_id: QUESTION_ID,
      content: ASK_USER_QUESTION_CANCELLED_TEXT,
    });
    expect(messageText(messages.at(-1))).toBe("ok then");
  });

  it("persists the cancelled text when the prompt is cancelled while its question waits; the next request carries it", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply(), reply.text("Okay.")]);
    const controller = new AbortController();
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          restore: true,
          confirm: (_request, signal) =>
            new Promise((resolve) => {
              signal.addEventListener("abort", () => resolve({ outcome: "unattended", reason: "aborted" }));
              controller.abort();
            }),
        }),
      ),
    );
    const p1 = await session.prompt(text("pick a color"), { promptId: "p1", signal: controller.signal });
    expect(p1).toEqual({ stopReason: "cancelled" });
    const types = (await readRecords(ws)).map((r) => r.type);
    expect(types).toEqual(["system", "user", "assistant", "tool_result", "system"]);
    expect(responsesOf(await readRecords(ws))).toEqual([{ error: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT }]);
    expect((await ledgerOf(ws)).at(-1)).toMatchObject({ promptId: "p1", state: "cancelled" });
    expect(session.restorableQuestion()).toBeUndefined();

    await session.prompt(text("never mind"), prompt("p2"));
    const messages = server.requests[1]!.messages;
    expect(messages.at(-2)).toMatchObject({
      role: "tool",
      tool_call_id: QUESTION_ID,
      content: TOOL_CANCELLED_BEFORE_EXECUTION_TEXT,
    });
    await session.close();

    // Recorded, so nothing is left for a later load to ask again.
    const reloaded = await track(AgentSession.load(options(ws, server, { restore: true })));
    expect(reloaded.restorableQuestion()).toBeUndefined();
  });

  it("persists nothing when the host closes the session while a first-time question waits (daemon gone)", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply()]);
    const controller = new AbortController();
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          restore: true,
          // The host's request fails because its connection ended; the session is closed at the same time.
          confirm: hostGoneWhileAsking(controller),
        }),
      ),
    );
    const p1 = await session.prompt(text("pick a color"), { promptId: "p1", signal: controller.signal });
    expect(p1.stopReason).toBe("cancelled");
    expect((await readRecords(ws)).map((r) => r.type)).toEqual(["system", "user", "assistant", "system"]);
    // Nobody cancelled it: the prompt was cut short, and the ledger says so.
    expect((await ledgerOf(ws)).at(-1)).toMatchObject({
      promptId: "p1",
      state: "interrupted",
      code: "session_closed",
    });
    await session.close();
    const reloaded = await track(AgentSession.load(options(ws, server, { restore: true })));
    expect(reloaded.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
  });

  it("writes nothing more when the host is lost (daemon_lost): the disk looks as if the process had died", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply()]);
    const controller = new AbortController();
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          restore: true,
          confirm: hostGoneWhileAsking(controller, "daemon_lost"),
        }),
      ),
    );
    await session.prompt(text("pick a color"), { promptId: "p1", signal: controller.signal });
    expect((await readRecords(ws)).map((r) => r.type)).toEqual(["system", "user", "assistant"]);
    expect((await ledgerOf(ws)).map((e) => e.state)).toEqual(["in_flight"]);
    await session.close();
    const reloaded = await track(AgentSession.load(options(ws, server, { restore: true })));
    expect(reloaded.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
  });

  it("keeps no cut-off reply when the host is lost while the model streams (as if killed mid-stream)", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([reply.stall({ text: "FAKE-M" })]);
    const controller = new AbortController();
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          restore: true,
          // The first streamed text is the moment the daemon dies (the child sees its stdin end).
          onEvent: (event) => {
            if (event.type === "model_text")
              controller.abort(new SessionClosedAbort("connection closed", "daemon_lost"));
          },
        }),
      ),
    );
    await session.prompt(text("say something"), { promptId: "p1", signal: controller.signal });
    // What a SIGKILL at that instant leaves: the user message, no reply, the prompt in flight. The tail is
    // an interrupted prompt, so a later continue re-asks the model instead of taking "FAKE-M" as its answer.
    expect((await readRecords(ws)).map((r) => r.type)).toEqual(["system", "user"]);
    expect((await ledgerOf(ws)).map((e) => e.state)).toEqual(["in_flight"]);
  });

  it("records no cancelled tool call when the host is lost while a tool waits for approval", async () => {
    const ws = await workspace();
    const tool = recordingTool("write_notes", "edit");
    server = await startFakeOpenAIServer([reply.toolCall("write_notes", {}, "call_w1")]);
    const controller = new AbortController();
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          tools: new ToolRegistry([tool]),
          confirm: hostGoneWhileAsking(controller, "daemon_lost"),
        }),
      ),
    );
    await session.prompt(text("write notes"), { promptId: "p1", signal: controller.signal });
    // A kill leaves the call dangling (load repairs it with the orphan text); EOF must leave the same.
    expect((await readRecords(ws)).map((r) => r.type)).toEqual(["system", "user", "assistant"]);
    expect(tool.calls).toEqual([]);
  });

  it("persists nothing after the functionCall when nobody answers, so a load can ask again", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply()]);
    const session = await track(
      AgentSession.create(
        options(ws, server, { confirm: async () => ({ outcome: "unattended", reason: "timeout" }) }),
      ),
    );
    expect(await session.prompt(text("pick a color"), prompt("p1"))).toEqual({ stopReason: "end_turn" });
    const records = await readRecords(ws);
    expect(records.map((r) => r.type)).toEqual(["system", "user", "assistant", "system"]);
    expect((await ledgerOf(ws)).at(-1)).toMatchObject({
      promptId: "p1",
      state: "interrupted",
      code: "timeout",
    });
    await session.close();

    const reloaded = await track(AgentSession.load(options(ws, server, { restore: true })));
    expect(reloaded.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
  });

  it("refuses a second prompt while one runs", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([questionReply()]);
    let release: (o: ConfirmationOutcome) => void = () => {};
    let asked: () => void = () => {};
    const askedPromise = new Promise<void>((r) => (asked = r));
    const session = await track(
      AgentSession.create(
        options(ws, server, {
          confirm: () =>
            new Promise((resolve) => {
              release = resolve;
              asked();
            }),
        }),
      ),
    );
    const first = session.prompt(text("pick a color"), prompt("p1"));
    await askedPromise;
    expect(session.promptActive).toBe(true);
    await expect(session.prompt(text("again"), prompt("p2"))).rejects.toBeInstanceOf(SessionBusyError);
    release({ outcome: "rejected" });
    await first;
    expect(session.promptActive).toBe(false);
  });

  it("will not create over an existing transcript", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([reply.text("hi")]);
    const session = await track(AgentSession.create(options(ws, server)));
    await session.prompt(text("hello"), prompt("p1"));
    await expect(AgentSession.create(options(ws, server))).rejects.toBeInstanceOf(SessionExistsError);
  });
});

describe("AgentSession.create over a session that was never saved", () => {
  it("closes the prompts a ledger left in flight without a transcript as lost", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([reply.text("hi")]);
    const before = PromptLedger.forSession({
      storage: jsonlSessionStorage(ws.qwenHome),
      cwd: ws.cwd,
      sessionId: SESSION,
    });
    await before.begin("p0");
    await before.close();
    const session = await track(AgentSession.create(options(ws, server)));
    expect((await ledgerOf(ws)).map((e) => [e.promptId, e.state, e.code])).toEqual([
      ["p0", "in_flight", undefined],
      ["p0", "interrupted", "daemon_lost"],
    ]);
    await session.prompt(text("hello"), prompt("p1"));
    expect(await session.openPrompts()).toEqual([]);
  });
});

describe("AgentSession.load after a crash while a question was asked", () => {
  it("with the switch on: keeps the call dangling, and restoreQuestion re-asks and continues the same turn", async () => {
    const { server, crashed } = await crashWhileAsking([questionReply(), reply.text("Blue it is.")]);
    const confirm = vi.fn(answered({ "0": "Blue" }));
    const session = await track(AgentSession.load(options(crashed, server, { restore: true, confirm })));

    const loaded = session.records().length;
    expect(session.chat.peekLastHistoryEntry()?.parts.at(-1)?.functionCall?.id).toBe(QUESTION_ID);
    expect(session.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
    expect(await session.openPrompts()).toEqual(["p1"]);

    expect(await session.restoreQuestion(prompt("p2"))).toEqual({ stopReason: "end_turn" });
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0]![0].call.id).toBe(QUESTION_ID);
    expect(trailingToolMessages(server.requests.at(-1)!).map((m) => [m.tool_call_id, m.content])).toEqual([
      [QUESTION_ID, COLOR_ANSWER_TEXT],
    ]);
    // Same turn: no new user record, the answer then the model's reply.
    const after = (await readRecords(crashed)).slice(loaded);
    expect(after.map((r) => r.type)).toEqual(["tool_result", "assistant", "system"]);
    expect(await ledgerOf(crashed)).toMatchObject([
      { promptId: "p1", state: "in_flight" },
      { promptId: "p2", state: "in_flight" },
      { promptId: "p1", state: "interrupted", code: "restored", restoredBy: "p2" },
      { promptId: "p2", state: "completed", stopReason: "end_turn" },
    ]);
    expect(session.restorableQuestion()).toBeUndefined();
  });

  it("restore cancelled: persists the decline", async () => {
    const { server, crashed } = await crashWhileAsking();
    const session = await track(
      AgentSession.load(
        options(crashed, server, { restore: true, confirm: async () => ({ outcome: "rejected" }) }),
      ),
    );
    expect(await session.restoreQuestion(prompt("p2"))).toEqual({ stopReason: "end_turn" });
    expect(responsesOf(await readRecords(crashed))).toEqual([{ error: ASK_USER_QUESTION_CANCELLED_TEXT }]);
  });

  it("restore unattended: persists nothing, so the question can be restored again", async () => {
    const { server, crashed } = await crashWhileAsking();
    const before = (await readRecords(crashed)).length;
    const session = await track(
      AgentSession.load(
        options(crashed, server, {
          restore: true,
          confirm: async () => ({ outcome: "unattended", reason: "aborted" }),
        }),
      ),
    );
    expect(await session.restoreQuestion(prompt("p2"))).toEqual({ stopReason: "cancelled" });
    const after = (await readRecords(crashed)).slice(before);
    expect(after.map((r) => r.type)).toEqual(["system"]);
    await session.close();

    const again = await track(AgentSession.load(options(crashed, server, { restore: true })));
    expect(again.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
  });

  it("restore aborted while the re-asked question waits: persists nothing, still restorable", async () => {
    const { server, crashed } = await crashWhileAsking();
    const before = (await readRecords(crashed)).length;
    const controller = new AbortController();
    const session = await track(
      AgentSession.load(
        options(crashed, server, {
          restore: true,
          confirm: (_request, signal) =>
            new Promise((resolve) => {
              signal.addEventListener("abort", () => resolve({ outcome: "unattended", reason: "aborted" }));
              controller.abort();
            }),
        }),
      ),
    );
    expect(await session.restoreQuestion({ promptId: "p2", signal: controller.signal })).toEqual({
      stopReason: "cancelled",
    });
    expect((await readRecords(crashed)).slice(before).map((r) => r.type)).toEqual(["system"]);
    expect(session.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
  });

  it("restore cancelled before it asks: persists nothing either (the user saw the question already)", async () => {
    const { server, crashed } = await crashWhileAsking();
    const before = (await readRecords(crashed)).length;
    const confirm = vi.fn(answered({ "0": "Blue" }));
    const session = await track(AgentSession.load(options(crashed, server, { restore: true, confirm })));
    const controller = new AbortController();
    controller.abort();
    expect(await session.restoreQuestion({ promptId: "p2", signal: controller.signal })).toEqual({
      stopReason: "cancelled",
    });
    expect(confirm).not.toHaveBeenCalled();
    expect((await readRecords(crashed)).slice(before).map((r) => r.type)).toEqual(["system"]);
    expect(session.restorableQuestion()?.functionCalls.map((c) => c.id)).toEqual([QUESTION_ID]);
  });

  it("with the switch off: repairs the call, closes the lost prompt, and the next request carries the orphan text", async () => {
    const { server, crashed } = await crashWhileAsking([questionReply(), reply.text("ok")]);
    const session = await track(AgentSession.load(options(crashed, server)));
    expect(session.restorableQuestion()).toBeUndefined();
    expect(await ledgerOf(crashed)).toMatchObject([
      { promptId: "p1", state: "in_flight" },
      { promptId: "p1", state: "interrupted", code: "daemon_lost" },
    ]);

    await session.prompt(text("what now"), prompt("p2"));
    const messages = server.requests.at(-1)!.messages;
    expect(messages.slice(-3)).toMatchObject([
      { role: "assistant", tool_calls: [{ id: QUESTION_ID }] },
      { role: "tool", tool_call_id: QUESTION_ID, content: ORPHAN_TOOL_RESULT_TEXT },
      { role: "user" },
    ]);
    expect(server.rejected).toEqual([]);
  });

  it("with the switch on, a plain prompt before the restore closes the question inline", async () => {
    const { server, crashed } = await crashWhileAsking([questionReply(), reply.text("ok")]);
    const confirm = vi.fn(answered({ "0": "Blue" }));
    const session = await track(AgentSession.load(options(crashed, server, { restore: true, confirm })));
    await session.prompt(text("something else"), prompt("p2"));
    expect(trailingToolMessages(server.requests.at(-1)!)).toEqual([]);
    expect(server.requests.at(-1)!.messages.slice(-2)).toMatchObject([
      { role: "tool", tool_call_id: QUESTION_ID, content: ORPHAN_TOOL_RESULT_TEXT },
      { role: "user" },
    ]);
    expect(server.rejected).toEqual([]);
    // A late restore is now a no-op.
    const requests = server.requests.length;
    expect(await session.restoreQuestion(prompt("p3"))).toEqual({ stopReason: "end_turn" });
    expect(server.requests).toHaveLength(requests);
    expect(confirm).not.toHaveBeenCalled();
    // The crashed prompt was closed before this one began (and only it).
    expect((await ledgerOf(crashed)).map((e) => [e.promptId, e.state, e.code])).toEqual([
      ["p1", "in_flight", undefined],
      ["p1", "interrupted", "daemon_lost"],
      ["p2", "in_flight", undefined],
      ["p2", "completed", undefined],
      ["p3", "in_flight", undefined],
      ["p3", "completed", undefined],
    ]);
  });

  it("suppressRestore repairs in step with a finalizing replay", async () => {
    const { server, crashed } = await crashWhileAsking();
    const session = await track(
      AgentSession.load({ ...options(crashed, server, { restore: true }), suppressRestore: true }),
    );
    expect(session.restorableQuestion()).toBeUndefined();
    expect(session.chat.peekLastHistoryEntry()?.parts[0]?.functionResponse?.response).toEqual({
      error: ORPHAN_TOOL_RESULT_TEXT,
    });
    expect(await session.openPrompts()).toEqual([]);
  });
});

describe("AgentSession.continueLastTurn", () => {
  it("refuses while a restorable question waits and the switch is on", async () => {
    const { server, crashed } = await crashWhileAsking();
    const requests = server.requests.length;
    const session = await track(AgentSession.load(options(crashed, server, { restore: true })));
    expect(await session.continueLastTurn(prompt("p2"))).toEqual({ accepted: false, interruption: "none" });
    expect(server.requests).toHaveLength(requests);
  });

  it("continues an interrupted turn with the synthetic failure, recorded", async () => {
    const { server, crashed } = await crashWhileAsking([questionReply(), reply.text("Let me retry.")]);
    const session = await track(AgentSession.load(options(crashed, server)));
    expect(await session.continueLastTurn(prompt("p2"))).toEqual({
      accepted: true,
      interruption: "interrupted_turn",
      stopReason: "end_turn",
    });
    expect(trailingToolMessages(server.requests.at(-1)!).map((m) => m.content)).toEqual([
      ORPHAN_TOOL_RESULT_TEXT,
    ]);
    expect(responsesOf(await readRecords(crashed))).toEqual([{ error: ORPHAN_TOOL_RESULT_TEXT }]);
    expect(await session.continueLastTurn(prompt("p3"))).toEqual({ accepted: false, interruption: "none" });
  });

  it("re-runs the model for a prompt it never answered", async () => {
    const ws = await workspace();
    server = await startFakeOpenAIServer([reply.error(400), reply.text("Here you go.")]);
    const first = await track(AgentSession.create(options(ws, server)));
    await expect(first.prompt(text("write a haiku"), prompt("p1"))).rejects.toBeInstanceOf(ModelError);
    expect((await ledgerOf(ws)).at(-1)).toMatchObject({ promptId: "p1", state: "failed" });
    await first.close();

    const session = await track(AgentSession.load(options(ws, server)));
    expect(await session.continueLastTurn(prompt("p2"))).toEqual({
      accepted: true,
      interruption: "interrupted_prompt",
      stopReason: "end_turn",
    });
    expect(messageText(server.requests.at(-1)!.messages.at(-1))).toBe("write a haiku");
    expect((await readRecords(ws)).filter((r) => r.type === "user")).toHaveLength(1);
  });
});
