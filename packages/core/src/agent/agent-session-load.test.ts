// AgentSession.load after a simulated crash (the session's files copied at the instant the question is asked,
// what a SIGKILL would leave, see agent-session-fixtures.ts), and continueLastTurn.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ORPHAN_TOOL_RESULT_TEXT } from "../history/orphan-repair.js";
import { ModelError } from "../model/provider.js";
import {
  type FakeOpenAIServer,
  messageText,
  reply,
  startFakeOpenAIServer,
  trailingToolMessages,
} from "../testing/index.js";
import { ASK_USER_QUESTION_CANCELLED_TEXT } from "../tools/ask-user-question-result.js";
import { AgentSession } from "./agent-session.js";
import {
  answered,
  closeFixtures,
  crashWhileAsking,
  ledgerOf,
  options,
  prompt,
  QUESTION_ID,
  questionReply,
  readRecords,
  responsesOf,
  text,
  track,
  workspace,
} from "./agent-session-fixtures.js";
import { COLOR_ANSWER_TEXT, suppressed } from "./test-support.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await closeFixtures(server);
  server = undefined;
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

  it("a suppressed preservation repairs in step with a finalizing replay", async () => {
    const { server, crashed } = await crashWhileAsking();
    const session = await track(AgentSession.load(suppressed(options(crashed, server, { restore: true }))));
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
