// AgentSession against the fake OpenAI server over real HTTP, with transcripts in temp dirs.
// A "crash" is simulated by copying the session's files at the instant the question is asked (what a
// SIGKILL would leave) into another QWEN_HOME, and loading from there.
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import {
  type FakeOpenAIServer,
  messageText,
  reply,
  startFakeOpenAIServer,
  trailingToolMessages,
} from "../testing/index.js";
import {
  ASK_USER_QUESTION_CANCELLED_TEXT,
  TOOL_CANCELLED_BEFORE_EXECUTION_TEXT,
} from "../tools/ask-user-question-result.js";
import { ToolRegistry } from "../tools/registry.js";
import { PromptLedger } from "../transcript/ledger.js";
import type { TranscriptRecord } from "../transcript/records.js";
import { AgentSession, SessionBusyError, SessionExistsError } from "./agent-session.js";
import {
  closeFixtures,
  hostGoneWhileAsking,
  ledgerOf,
  options,
  prompt,
  QUESTION_ID,
  questionReply,
  readRecords,
  responsesOf,
  SESSION,
  text,
  track,
  workspace,
} from "./agent-session-fixtures.js";
import type { ConfirmationOutcome, ConfirmationRequest } from "./contract.js";
import { SessionClosedAbort } from "./contract.js";
import { COLOR_ANSWER_TEXT, eventLog, recordingTool } from "./test-support.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await closeFixtures(server);
  server = undefined;
});

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
