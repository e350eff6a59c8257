// docs/restore.md "The guarantees" through the HTTP routes, against the scripted ACP peer: an answer is journaled
// before its vote is acknowledged, and a question re-hung after a restart is answered from the journal.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answersPath, jsonlSessionStorage, type MemorySessionStorage } from "@qwen-daemon/core";
import { afterAll, describe, expect, it } from "vitest";
import { type AnswerJournal, memoryAnswerJournal, storedAnswerJournal } from "../answers/answer-journal.js";
import type { AnswerEntry, JournalEntry } from "../answers/answer-record.js";
import { questionsKeyOf } from "../answers/journaled-answer.js";
import { ManualClock } from "../events/manual-clock.js";
import { peek } from "../permission/mediator-harness.js";
import { openFds } from "../testing/open-fds.js";
import { editRequest, questionRequest } from "../testing/question.js";
import type { AgentPeer } from "../testing/scripted-agent.js";
import { StoredSessions } from "../testing/stored-sessions.js";
import { createTestDaemon, readSseUntil, TEST_WORKSPACE, waitFor } from "../testing/test-daemon.js";

const HINT = { "qwen.daemon.restoreAskUserQuestion": true };
const SUBMIT = { outcome: "selected", optionId: "proceed_once" } as const;
const homes: string[] = [];
afterAll(() => {
  for (const root of homes) rmSync(root, { recursive: true, force: true });
});
function home(): string {
  const root = mkdtempSync(join(tmpdir(), "qwen-durable-answer-"));
  homes.push(root);
  return root;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A journal whose appends finish writing, then wait for the test to let them return. */
function gatedJournal(inner: AnswerJournal) {
  const gate = deferred();
  const written: JournalEntry[] = [];
  const journal: AnswerJournal = {
    async append(cwd, entry) {
      await inner.append(cwd, entry);
      written.push(entry);
      await gate.promise;
    },
    read: (cwd, sessionId) => inner.read(cwd, sessionId),
    hold: (cwd, sessionId) => inner.hold(cwd, sessionId),
    release: (cwd, sessionId) => inner.release(cwd, sessionId),
    close: () => inner.close(),
  };
  return { journal, written, release: gate.resolve };
}

/** A daemon whose child asks the question (call-q1) on every prompt and records what it was answered. */
async function askingDaemon(options: {
  journal: AnswerJournal;
  clock?: ManualClock;
  timeoutMs?: number;
  request?: (sessionId: string) => Record<string, unknown>;
}) {
  const answers: Array<Record<string, unknown>> = [];
  const d = createTestDaemon({
    answerJournal: options.journal,
    ...(options.clock !== undefined ? { clock: options.clock } : {}),
    ...(options.timeoutMs !== undefined ? { permissionResponseTimeoutMs: options.timeoutMs } : {}),
    agent: {
      prompt: async (params, peer) => {
        const ask = options.request ?? ((id: string) => questionRequest(id));
        answers.push(await peer.requestPermission(ask(String(params.sessionId))));
        return { stopReason: "end_turn" };
      },
    },
  });
  const { sessionId, clientId } = await d.createSession({ sessionId: "s1" });
  await d.request("POST", `/session/${sessionId}/prompt`, {
    body: { prompt: [{ type: "text", text: "pick a color" }] },
    headers: { "X-Qwen-Client-Id": clientId },
  });
  await waitFor(() => d.sessions.mediator.hasPending(sessionId), "question");
  const requestId = d.sessions.mediator.pending(sessionId)[0]?.requestId as string;
  const vote = (body: Record<string, unknown>, client: string | undefined = clientId) =>
    d.request("POST", `/session/${sessionId}/permission/${requestId}`, {
      body,
      headers: { "X-Qwen-Client-Id": client },
    });
  return { d, sessionId, clientId, requestId, answers, vote };
}

describe("a vote on a question is journaled before it is acknowledged", () => {
  it("the line is on disk (0600) while the 200 is still held back and the child has no answer yet", async () => {
    const root = home();
    const gated = gatedJournal(storedAnswerJournal(jsonlSessionStorage(root)));
    const { d, sessionId, requestId, answers, vote } = await askingDaemon({ journal: gated.journal });
    const response = vote({ outcome: SUBMIT, answers: { "0": "Blue" } });
    await waitFor(() => gated.written.length === 1, "journal write");

    const path = answersPath(root, TEST_WORKSPACE, sessionId);
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        v: 1,
        type: "answer",
        sessionId,
        toolCallId: "call-q1",
        questionsKey: questionsKeyOf(questionRequest(sessionId).toolCall as Record<string, unknown>),
        outcome: SUBMIT,
        answers: { "0": "Blue" },
        requestId,
        voterClientId: expect.stringMatching(/^client_/),
        at: expect.any(String),
      },
    ]);
    expect(await peek(response)).toBe("pending");
    expect(d.sessions.mediator.hasPending(sessionId)).toBe(true);
    expect(answers).toEqual([]);

    gated.release();
    const res = await response;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toEqual({ outcome: SUBMIT, answers: { "0": "Blue" } });
  });

  it("the session's journal writer stays open between votes and is closed when the session closes", async () => {
    const root = home();
    const { d, sessionId, clientId, vote } = await askingDaemon({
      journal: storedAnswerJournal(jsonlSessionStorage(root)),
    });
    expect((await vote({ outcome: SUBMIT, answers: { "0": "Blue" } })).status).toBe(200);
    const path = answersPath(root, TEST_WORKSPACE, sessionId);
    expect(openFds(path)).toBe(1);
    const closed = await d.request("DELETE", `/session/${sessionId}`, {
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(closed.status).toBeLessThan(300);
    await waitFor(() => openFds(path) === 0, "the journal's writer closed");
  });

  it("a user's cancel is journaled too; the legacy route journals like the session route", async () => {
    const journal = memoryAnswerJournal();
    const { d, requestId, answers } = await askingDaemon({ journal });
    const res = await d.request("POST", `/permission/${requestId}`, {
      body: { outcome: { outcome: "cancelled" } },
    });
    expect(res.status).toBe(200);
    expect(journal.entries).toEqual([
      expect.objectContaining({
        type: "answer",
        toolCallId: "call-q1",
        outcome: { outcome: "cancelled" },
        requestId,
      }),
    ]);
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toEqual({ outcome: { outcome: "cancelled" } });
  });

  it("a failed journal write is a 500, resolves nothing, and the vote can be retried", async () => {
    const inner = memoryAnswerJournal();
    let failures = 1;
    const journal: AnswerJournal = {
      async append(cwd, entry) {
        if (failures-- > 0)
          throw Object.assign(new Error("no space left on /secret/path"), { code: "ENOSPC" });
        await inner.append(cwd, entry);
      },
      read: inner.read,
      hold: inner.hold,
      release: inner.release,
      close: inner.close,
    };
    const { d, sessionId, requestId, answers, vote } = await askingDaemon({ journal });
    const failed = await vote({ outcome: SUBMIT, answers: { "0": "Red" } });
    expect(failed.status).toBe(500);
    const body = await failed.json();
    expect(body).toEqual({
      error: expect.stringContaining("could not be saved durably"),
      code: "answer_journal_failed",
      sessionId,
      requestId,
    });
    expect(body.error).toContain("ENOSPC");
    expect(body.error).not.toContain("/secret/path");
    expect(d.logs.some((l) => l.includes("journal write failed") && l.includes("/secret/path"))).toBe(true);
    const status = await (await d.request("GET", `/session/${sessionId}/status`)).json();
    expect(status.isWaitingForUserQuestion).toBe(true);
    expect(d.sessions.mediator.audit().some((a) => a.kind === "resolved")).toBe(false);
    expect(answers).toEqual([]);

    const retried = await vote({ outcome: SUBMIT, answers: { "0": "Red" } });
    expect(retried.status).toBe(200);
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toEqual({ outcome: SUBMIT, answers: { "0": "Red" } });
    expect(inner.entries).toHaveLength(1);
  });

  it("votes on a tool approval are not journaled", async () => {
    const journal = memoryAnswerJournal();
    const { answers, vote } = await askingDaemon({ journal, request: editRequest });
    expect((await vote({ outcome: { outcome: "selected", optionId: "proceed_once" } })).status).toBe(200);
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(journal.entries).toEqual([]);
  });

  it("of racing votes exactly one wins, and the journal holds only the winner's answer", async () => {
    const journal = memoryAnswerJournal();
    const { answers, vote } = await askingDaemon({ journal });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => vote({ outcome: SUBMIT, answers: { "0": `answer ${i}` } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(19);
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(journal.entries).toHaveLength(1);
    expect((journal.entries[0] as AnswerEntry).answers).toEqual(answers[0]?.answers);
  });

  it("an answer the request outlived (it timed out during the write) is withdrawn and answered 404", async () => {
    const clock = new ManualClock(Date.parse("2025-01-01T00:00:00.000Z"));
    const inner = memoryAnswerJournal();
    const gated = gatedJournal(inner);
    const { d, sessionId, requestId, answers, vote } = await askingDaemon({
      journal: gated.journal,
      clock,
      timeoutMs: 1000,
    });
    const response = vote({ outcome: SUBMIT, answers: { "0": "Blue" } });
    await waitFor(() => gated.written.length === 1, "journal write");
    clock.advance(1000);
    gated.release();
    const res = await response;
    expect(res.status).toBe(404);
    expect(inner.entries.map((e) => e.type)).toEqual(["answer", "withdrawn"]);
    expect(inner.entries[1]).toMatchObject({
      type: "withdrawn",
      sessionId,
      requestId,
      toolCallId: "call-q1",
    });
    await waitFor(() => answers.length === 1, "answer at the child");
    expect(answers[0]).toMatchObject({ outcome: { outcome: "cancelled" } });
    expect(d.logs.some((l) => l.includes("withdrawing"))).toBe(false);
  });
});

/** A restarted daemon whose child re-hangs call-q1 on the restore prompt and records the answer it got. */
function restartedDaemon(journal: AnswerJournal, storage?: MemorySessionStorage) {
  const answers: Array<Record<string, unknown>> = [];
  const d = createTestDaemon({
    restoreAskUserQuestion: true,
    answerJournal: journal,
    ...(storage !== undefined ? { storage } : {}),
    agent: {
      persisted: {
        s1: [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "pick a color" } }],
      },
      restoreMeta: { s1: HINT },
      prompt: async (params: Record<string, unknown> & { sessionId?: string }, peer: AgentPeer) => {
        const meta = params._meta as Record<string, unknown>;
        if (meta["qwen.daemon.restoreAskUserQuestion"] !== true) return { stopReason: "end_turn" };
        answers.push(await peer.requestPermission(questionRequest(String(params.sessionId), "call-q1")));
        return { stopReason: "end_turn" };
      },
    },
  });
  const load = async () => {
    const res = await d.request("POST", "/session/s1/load", {
      body: {},
      headers: { "X-Qwen-Client-Id": "client_before_restart" },
    });
    expect(res.status).toBe(200);
    return res.json();
  };
  return { d, answers, load };
}

describe("a re-hung question answered before the restart", () => {
  it("is resolved from the journal with the same answers before any client sees it", async () => {
    const root = home();
    // Before the crash: the vote was journaled and acknowledged (the child never got to write the answer).
    const before = await askingDaemon({ journal: storedAnswerJournal(jsonlSessionStorage(root)) });
    expect((await before.vote({ outcome: SUBMIT, answers: { "0": "Blue" } })).status).toBe(200);

    const { d, answers, load } = restartedDaemon(storedAnswerJournal(jsonlSessionStorage(root)));
    // Whatever looks at the session while the restore runs never finds the question waiting.
    const seenPending: unknown[] = [];
    const poll = setInterval(() => seenPending.push(...d.sessions.mediator.pending("s1")), 0);
    const loaded = await load();
    expect(loaded.hasActivePrompt).toBe(true);
    await waitFor(() => answers.length === 1, "journaled answer at the child");
    clearInterval(poll);
    expect(answers[0]).toEqual({ outcome: SUBMIT, answers: { "0": "Blue" } });
    expect(seenPending).toEqual([]);

    const events = await d.request("GET", "/session/s1/events", {
      headers: { "Last-Event-ID": String(loaded.lastEventId) },
    });
    const frames = await readSseUntil(events, (f) => f.some((x) => x.event === "turn_complete"));
    // Never shown: no permission_request in the ring; its resolution says the journal answered it.
    expect(frames.filter((f) => f.event === "permission_request")).toEqual([]);
    const resolved = frames.find((f) => f.event === "permission_resolved")?.data?.data as Record<
      string,
      unknown
    >;
    expect(resolved).toEqual({
      requestId: expect.any(String),
      sessionId: "s1",
      outcome: SUBMIT,
      answers: { "0": "Blue" },
      source: "answer_journal",
    });
    expect(resolved.requestId).not.toBe(before.requestId);
    const status = await (await d.request("GET", "/session/s1/status")).json();
    expect(status.isWaitingForUserQuestion).toBe(false);
    expect(d.logs.some((l) => l.includes("answered from the answer journal"))).toBe(true);
  });

  it("a journaled cancel is replayed as the user's cancel", async () => {
    const journal = memoryAnswerJournal();
    const before = await askingDaemon({ journal });
    expect((await before.vote({ outcome: { outcome: "cancelled" } })).status).toBe(200);
    const { answers, load } = restartedDaemon(journal);
    await load();
    await waitFor(() => answers.length === 1, "journaled cancel at the child");
    expect(answers[0]).toEqual({ outcome: { outcome: "cancelled" } });
  });

  /** The child's transcript of s1: the question's call, written at `timestamp`. */
  const persisted = async (timestamp: string) =>
    (
      await new StoredSessions().transcript({
        sessionId: "s1",
        cwd: TEST_WORKSPACE,
        createdAt: timestamp,
        steps: [{ model: [{ functionCall: { id: "call-q1", name: "ask_user_question", args: {} } }] }],
      })
    ).storage;

  it("applies when the answer came after the call's last occurrence in the transcript", async () => {
    const journal = memoryAnswerJournal();
    const before = await askingDaemon({ journal });
    expect((await before.vote({ outcome: SUBMIT, answers: { "0": "Red" } })).status).toBe(200);
    const { answers, load } = restartedDaemon(journal, await persisted("2000-01-01T00:00:00.000Z"));
    await load();
    await waitFor(() => answers.length === 1, "journaled answer at the child");
    expect(answers[0]).toEqual({ outcome: SUBMIT, answers: { "0": "Red" } });
  });

  it("waits for a human when the journaled answer predates the call (an earlier call reused the id)", async () => {
    const journal = memoryAnswerJournal();
    const before = await askingDaemon({ journal });
    expect((await before.vote({ outcome: SUBMIT, answers: { "0": "Red" } })).status).toBe(200);
    const { d, answers, load } = restartedDaemon(journal, await persisted("2999-01-01T00:00:00.000Z"));
    const loaded = await load();
    await waitFor(() => d.sessions.mediator.hasPending("s1"), "re-hung question");
    await waitFor(() => d.logs.some((l) => l.includes("not applied (obsolete)")), "journal verdict");
    expect(d.sessions.mediator.hasPending("s1")).toBe(true);
    expect(answers).toEqual([]);
    const [pending] = d.sessions.mediator.pending("s1");
    const res = await d.request("POST", `/session/s1/permission/${pending?.requestId}`, {
      body: { outcome: SUBMIT, answers: { "0": "Blue" } },
      headers: { "X-Qwen-Client-Id": loaded.clientId },
    });
    expect(res.status).toBe(200);
    await waitFor(() => answers.length === 1, "human answer at the child");
    expect(answers[0]).toEqual({ outcome: SUBMIT, answers: { "0": "Blue" } });
  });

  it("a question asked in an ordinary prompt never consults the journal", async () => {
    const inner = memoryAnswerJournal();
    let reads = 0;
    const journal: AnswerJournal = {
      append: (cwd, entry) => inner.append(cwd, entry),
      read: (cwd, sessionId) => {
        reads += 1;
        return inner.read(cwd, sessionId);
      },
      hold: inner.hold,
      release: inner.release,
      close: inner.close,
    };
    const first = await askingDaemon({ journal });
    expect((await first.vote({ outcome: SUBMIT, answers: { "0": "Red" } })).status).toBe(200);
    await waitFor(() => first.answers.length === 1, "first answer");
    // Same session, a new prompt asking a question with the same call id: a human must answer it.
    await first.d.request("POST", "/session/s1/prompt", {
      body: { prompt: [{ type: "text", text: "again" }] },
      headers: { "X-Qwen-Client-Id": first.clientId },
    });
    await waitFor(() => first.d.sessions.mediator.hasPending("s1"), "second question");
    // A lookup would have started in the same tick the request was registered.
    expect(reads).toBe(0);
    expect(first.answers).toHaveLength(1);
  });
});
