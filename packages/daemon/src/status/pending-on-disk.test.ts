import type { Part, TranscriptRecord } from "@qwen-daemon/core";
import { RED_BLUE_QUESTION } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { memoryAnswerJournal } from "../answers/answer-journal.js";
import { emptySessionStore } from "../persisted/session-store.js";
import { memoryStore } from "../testing/memory-store.js";
import { createTestDaemon, TEST_WORKSPACE } from "../testing/test-daemon.js";
import { markPendingOnDisk } from "./pending-on-disk.js";
import { liveSessionSummary, persistedSessionSummary } from "./session-summary.js";

const encoded = encodeURIComponent(TEST_WORKSPACE);
const at = (n: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
const disk = (sessionId: string, n: number) => ({ sessionId, createdAt: at(0), updatedAt: at(n) });

function chain(sessionId: string, ...messages: (Part[] | "prompt" | "result")[]): TranscriptRecord[] {
  return messages.map((m, n) => {
    const base = {
      uuid: `${sessionId}-${n}`,
      parentUuid: n === 0 ? null : `${sessionId}-${n - 1}`,
      sessionId,
      timestamp: at(n),
      cwd: TEST_WORKSPACE,
      version: "1",
    };
    if (m === "prompt") return { ...base, type: "user", message: { role: "user", parts: [{ text: "hi" }] } };
    if (m === "result")
      return {
        ...base,
        type: "tool_result",
        message: {
          role: "user",
          parts: [{ functionResponse: { id: "q1", name: "ask_user_question", response: {} } }],
        },
      };
    return { ...base, type: "assistant", message: { role: "model", parts: m } };
  });
}
const question: Part = {
  functionCall: { id: "q1", name: "ask_user_question", args: { questions: [RED_BLUE_QUESTION] } },
};
const shell: Part = { functionCall: { id: "x1", name: "run_shell_command", args: { command: "ls" } } };

const sessions = [disk("waiting", 5), disk("answered", 4), disk("prompted", 3), disk("approval", 2)];
const records = {
  waiting: chain("waiting", "prompt", [{ text: "let me ask" }, question]),
  answered: chain("answered", "prompt", [question], "result"),
  prompted: chain("prompted", "prompt", [question], "result", "prompt"),
  approval: chain("approval", "prompt", [shell]),
};

async function list(d: ReturnType<typeof createTestDaemon>) {
  const res = await d.request("GET", `/workspace/${encoded}/sessions`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { sessions: { sessionId: string; pendingOnDisk?: string[] }[] };
  return Object.fromEntries(body.sessions.map((s) => [s.sessionId, s.pendingOnDisk]));
}

describe("pendingOnDisk in GET /workspace/:cwd/sessions", () => {
  it("marks a session on disk that ends in a question the restore would ask again, and no other", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: true, store: memoryStore(sessions, records) });
    expect(await list(d)).toEqual({
      waiting: ["user_question"],
      answered: [],
      prompted: [],
      // This daemon does not restore tool approvals (its switch is off), so none is promised.
      approval: [],
    });
  });

  it("marks an approval never given only with --restore-pending-approvals", async () => {
    const marked = {
      ...records,
      approval: records.approval.map((r) =>
        r.type === "assistant" ? { ...r, toolStarts: "recorded" as const } : r,
      ),
    };
    const on = createTestDaemon({ restorePendingApprovals: true, store: memoryStore(sessions, marked) });
    expect(await list(on)).toMatchObject({ approval: ["exec"], waiting: [] });
    const off = createTestDaemon({ restorePendingApprovals: false, store: memoryStore(sessions, marked) });
    expect((await list(off)).approval).toBeUndefined();
  });

  it("marks nothing when the question restore is off: a load would not ask it again", async () => {
    const d = createTestDaemon({ restoreAskUserQuestion: false, store: memoryStore(sessions, records) });
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
      store: memoryStore(sessions, records),
      answerJournal: journal,
    });
    expect((await list(d)).waiting).toEqual([]);
  });

  it("leaves the field out when the end of the transcript cannot be trusted", async () => {
    const store = memoryStore(sessions, records);
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
        ...memoryStore(sessions, records),
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
    const store = memoryStore(sessions, records);
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
