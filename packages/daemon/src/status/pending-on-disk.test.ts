import type { Part } from "@qwen-daemon/core";
import { RED_BLUE_QUESTION } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { memoryAnswerJournal } from "../answers/answer-journal.js";
import { coreSessionStore, emptySessionStore } from "../persisted/core-session-store.js";
import { StoredSessions, type TranscriptStep } from "../testing/stored-sessions.js";
import { createTestDaemon, TEST_WORKSPACE } from "../testing/test-daemon.js";
import { markPendingOnDisk } from "./pending-on-disk.js";
import { liveSessionSummary, persistedSessionSummary } from "./session-summary.js";

const encoded = encodeURIComponent(TEST_WORKSPACE);
const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
const disk = (sessionId: string, n: number) => ({ sessionId, createdAt: at(0), updatedAt: at(n) });

function chain(...messages: (Part[] | "prompt" | "result")[]): TranscriptStep[] {
  return messages.map((m) => {
    if (m === "prompt") return { user: [{ text: "hi" }] };
    if (m === "result")
      return { toolResult: [{ functionResponse: { id: "q1", name: "ask_user_question", response: {} } }] };
    return { model: m };
  });
}
const question: Part = {
  functionCall: { id: "q1", name: "ask_user_question", args: { questions: [RED_BLUE_QUESTION] } },
};
const shell: Part = { functionCall: { id: "x1", name: "run_shell_command", args: { command: "ls" } } };

/** `approvals`: whether the agent that wrote the approval's call recorded its tool starts. */
async function storedSessions(approvals?: "recorded") {
  const sessions: Array<[string, number, TranscriptStep[]]> = [
    ["waiting", 5, chain("prompt", [{ text: "let me ask" }, question])],
    ["answered", 4, chain("prompt", [question], "result")],
    ["prompted", 3, chain("prompt", [question], "result", "prompt")],
    ["approval", 2, [{ user: [{ text: "hi" }] }, { model: [shell], toolStarts: approvals }]],
  ];
  const stored = new StoredSessions();
  for (const [sessionId, n, steps] of sessions)
    await stored.transcript({ sessionId, cwd: TEST_WORKSPACE, steps, updatedAt: at(n) });
  return stored.storage;
}

async function list(d: ReturnType<typeof createTestDaemon>) {
  const res = await d.request("GET", `/workspace/${encoded}/sessions`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sessions: { sessionId: string; pendingOnDisk?: string[] }[] };
  return Object.fromEntries(body.sessions.map((s) => [s.sessionId, s.pendingOnDisk]));
}

describe("pendingOnDisk in GET /workspace/:cwd/sessions", () => {
  it("marks a session on disk that ends in a question the restore would ask again, and no other", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: true, storage: await storedSessions() });
    expect(await list(d)).toEqual({
      waiting: ["user_question"],
      answered: [],
      prompted: [],
      // This daemon does not restore tool approvals (its switch is off), so none is promised.
      approval: [],
    });
  });

  it("marks an approval never given only with --restore-pending-approvals", async () => {
    const on = createTestDaemon({ restorePendingApprovals: true, storage: await storedSessions("recorded") });
    expect(await list(on)).toMatchObject({ approval: ["exec"], waiting: [] });
    const off = createTestDaemon({
      restorePendingApprovals: false,
      storage: await storedSessions("recorded"),
    });
    expect((await list(off)).approval).toBeUndefined();
  });

  it("marks nothing when the question restore is off: a load would not ask it again", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: false, storage: await storedSessions() });
    expect((await list(d)).waiting).toBeUndefined();
  });

  it("leaves out a question whose answer was acknowledged and journaled before the crash", async () => {
    const journal = memoryAnswerJournal();
    await journal.append(TEST_WORKSPACE, {
      v: 1,
      type: "answer",
      sessionId: "waiting",
      toolCallId: "q1",
      outcome: { outcome: "selected", optionId: "proceed_once" },
      answers: { "0": "Red" },
      requestId: "r1",
      at: at(30),
    });
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      storage: await storedSessions(),
      answerJournal: journal,
    });
    expect((await list(d)).waiting).toEqual([]);
  });

  it("leaves the field out when the end of the transcript cannot be trusted", async () => {
    const store = coreSessionStore(await storedSessions());
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      store: {
        ...store,
        readTrailingTurn: async (cwd, id) => {
          const tail = await store.readTrailingTurn(cwd, id);
          return tail && { ...tail, certain: false };
        },
      },
    });
    expect((await list(d)).waiting).toBeUndefined();
  });

  it("a tail that cannot be read is logged and lists without the field; the list still answers", async () => {
    const d = createTestDaemon({
      restoreAskUserQuestion: true,
      store: {
        ...coreSessionStore(await storedSessions()),
        readTrailingTurn: async () => {
          throw new Error("EACCES: transcript");
        },
      },
    });
    expect((await list(d)).waiting).toBeUndefined();
    expect(d.logs.some((l) => l.includes("waiting") && l.includes("EACCES"))).toBe(true);
  });

  it("never reads the tail of a live session (its pending interactions say what waits)", async () => {
    const read: string[] = [];
    const live = liveSessionSummary({
      sessionId: "live",
      workspaceCwd: TEST_WORKSPACE,
      createdAt: at(0),
      clientCount: 1,
      hasActivePrompt: false,
      pendingPromptCount: 0,
      interactions: [],
    });
    const onDisk = persistedSessionSummary(disk("waiting", 5), TEST_WORKSPACE);
    const store = coreSessionStore(await storedSessions());
    const page = await markPendingOnDisk({ sessions: [live, onDisk] }, TEST_WORKSPACE, {
      store: {
        ...store,
        readTrailingTurn: (cwd, id) => {
          read.push(id);
          return store.readTrailingTurn(cwd, id);
        },
      },
      journal: memoryAnswerJournal(),
      switches: { question: true, approvals: false },
      log: () => {},
    });
    expect(read).toEqual(["waiting"]);
    expect(page.sessions.map((s) => s.pendingOnDisk)).toEqual([undefined, ["user_question"]]);
  });

  it("reads nothing at all when no restore switch is on", async () => {
    const page = { sessions: [persistedSessionSummary(disk("waiting", 5), TEST_WORKSPACE)] };
    const marked = await markPendingOnDisk(page, TEST_WORKSPACE, {
      store: {
        ...emptySessionStore(),
        readTrailingTurn: () => Promise.reject(new Error("must not be read")),
      },
      journal: memoryAnswerJournal(),
      switches: { question: false, approvals: false },
      log: (line) => {
        throw new Error(line);
      },
    });
    expect(marked).toBe(page);
  });
});
