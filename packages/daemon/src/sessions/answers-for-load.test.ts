import { describe, expect, it } from "vitest";
import { memoryAnswerJournal } from "../answers/answer-journal.js";
import type { AnswerEntry } from "../answers/answer-record.js";
import { questionsKeyOf } from "../answers/journaled-answer.js";
import { coreSessionStore, emptySessionStore } from "../persisted/core-session-store.js";
import type { SessionStore } from "../persisted/session-store.js";
import { QUESTIONS } from "../testing/question.js";
import { StoredSessions, type TranscriptStep } from "../testing/stored-sessions.js";
import { journaledAnswersMeta } from "./answers-for-load.js";

const KEY = "qwen.daemon.journaledAnswers";
// The transcript's records start at 00:00:05: the call is asked then.
const ASKED_AT = "2025-01-01T00:00:05.000Z";
const asked = (calls: { id: string; name: string }[]): TranscriptStep => ({
  model: calls.map((c) => ({
    functionCall: { ...c, args: c.name === "ask_user_question" ? { questions: QUESTIONS } : {} },
  })),
});
const MIXED = [
  { id: "call_l", name: "list_directory" },
  { id: "call_q", name: "ask_user_question" },
];
const answer = (overrides: Partial<AnswerEntry> = {}): AnswerEntry => ({
  v: 1,
  type: "answer",
  sessionId: "s1",
  toolCallId: "call_q",
  questionsKey: questionsKeyOf({ rawInput: { questions: QUESTIONS } }),
  outcome: { outcome: "selected", optionId: "proceed_once" },
  answers: { "0": "Blue" },
  requestId: "r1",
  at: "2025-01-01T00:00:06.000Z",
  ...overrides,
});

async function metaFor(entries: AnswerEntry[], steps: TranscriptStep[] | undefined, store?: SessionStore) {
  const journal = memoryAnswerJournal();
  for (const entry of entries) await journal.append("/w", entry);
  const logs: string[] = [];
  const stored = new StoredSessions();
  if (steps !== undefined)
    await stored.transcript({ sessionId: "s1", cwd: "/w", createdAt: ASKED_AT, steps });
  const deps = {
    journal,
    store: store ?? coreSessionStore(stored.storage),
    log: (l: string) => logs.push(l),
  };
  return { meta: await journaledAnswersMeta(deps, "/w", "s1"), logs };
}

describe("journaledAnswersMeta", () => {
  it("hands the child the acknowledged answer to a question of a mixed trailing batch, as a permission response", async () => {
    const { meta } = await metaFor([answer()], [asked(MIXED)]);
    expect(meta).toEqual({
      [KEY]: {
        call_q: { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { "0": "Blue" } },
      },
    });
  });

  it("a user's cancel is sent as the plain decline", async () => {
    const { meta } = await metaFor(
      [answer({ outcome: { outcome: "cancelled" }, answers: undefined })],
      [asked(MIXED)],
    );
    expect(meta).toEqual({ [KEY]: { call_q: { outcome: { outcome: "cancelled" } } } });
  });

  it("sends nothing for answers that do not apply: older than the call, withdrawn, other questions, none", async () => {
    const records = [asked(MIXED)];
    expect((await metaFor([answer({ at: "2025-01-01T00:00:01.000Z" })], records)).meta).toBeUndefined();
    expect((await metaFor([answer({ questionsKey: "other" })], records)).meta).toBeUndefined();
    expect((await metaFor([answer({ toolCallId: "call_l" })], records)).meta).toBeUndefined();
    expect((await metaFor([], records)).meta).toBeUndefined();
    const withdrawn = {
      v: 1,
      type: "withdrawn",
      sessionId: "s1",
      toolCallId: "call_q",
      requestId: "r1",
      at: "x",
    };
    expect((await metaFor([answer(), withdrawn as unknown as AnswerEntry], records)).meta).toBeUndefined();
  });

  it("sends nothing when the transcript does not end with the question or cannot be read (logged)", async () => {
    const answered: TranscriptStep = {
      toolResult: [
        { functionResponse: { id: "call_q", name: "ask_user_question", response: { output: "x" } } },
      ],
    };
    expect((await metaFor([answer()], [asked(MIXED), answered])).meta).toBeUndefined();
    expect((await metaFor([answer()], undefined)).meta).toBeUndefined();
    const broken: SessionStore = {
      ...emptySessionStore(),
      readRecords: async () => {
        throw new Error("EIO");
      },
    };
    const { meta, logs } = await metaFor([answer()], [], broken);
    expect(meta).toBeUndefined();
    expect(logs.some((l) => l.includes("EIO"))).toBe(true);
  });
});
