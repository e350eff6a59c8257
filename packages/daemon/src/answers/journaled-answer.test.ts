import type { TranscriptRecord } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { questionRequest } from "../testing/question.js";
import type { AnswerEntry, JournalEntry } from "./answer-record.js";
import {
  answerEntryFor,
  answerKeyOf,
  decisionOf,
  findJournaledAnswer,
  isUserQuestion,
  questionCallId,
  questionsKeyOf,
  withdrawalOf,
} from "./journaled-answer.js";

const toolCall = (questionRequest("s1", "call-q1") as { toolCall: Record<string, unknown> }).toolCall;
const KEY = questionsKeyOf(toolCall);
const submit = { outcome: "selected" as const, optionId: "proceed_once" };

function answer(overrides: Partial<AnswerEntry> = {}): AnswerEntry {
  return {
    v: 1,
    type: "answer",
    sessionId: "s1",
    toolCallId: "call-q1",
    ...(KEY !== undefined ? { questionsKey: KEY } : {}),
    outcome: submit,
    answers: { "0": "Blue" },
    requestId: "r1",
    at: "2025-01-01T00:00:10.000Z",
    ...overrides,
  };
}

const base = { parentUuid: null, sessionId: "s1", cwd: "/w", version: "1" };
const user = (uuid: string, timestamp: string, text: string): TranscriptRecord => ({
  ...base,
  uuid,
  timestamp,
  type: "user",
  message: { role: "user", parts: [{ text }] },
});
const ask = (uuid: string, timestamp: string, id = "call-q1"): TranscriptRecord => ({
  ...base,
  uuid,
  timestamp,
  type: "assistant",
  message: { role: "model", parts: [{ functionCall: { id, name: "ask_user_question", args: {} } }] },
});
const result = (uuid: string, timestamp: string, id = "call-q1"): TranscriptRecord => ({
  ...base,
  uuid,
  timestamp,
  type: "tool_result",
  message: {
    role: "user",
    parts: [{ functionResponse: { id, name: "ask_user_question", response: { output: "ok" } } }],
  },
});
const system = (uuid: string, timestamp: string): TranscriptRecord => ({
  ...base,
  uuid,
  timestamp,
  type: "system",
  subtype: "turn_result",
});

const query = (transcript: TranscriptRecord[] | undefined, questionsKey = KEY) => ({
  sessionId: "s1",
  toolCallId: "call-q1",
  questionsKey,
  transcript,
});

describe("which votes are journaled", () => {
  it("recognises questions by their interaction kind or tool name", () => {
    expect(isUserQuestion(toolCall)).toBe(true);
    expect(isUserQuestion({ toolCallId: "x", _meta: { toolName: "ask_user_question" } })).toBe(true);
    expect(isUserQuestion({ toolCallId: "x", _meta: { toolName: "write_file" } })).toBe(false);
    expect(isUserQuestion({ toolCallId: "x" })).toBe(false);
    expect(questionCallId(toolCall)).toBe("call-q1");
    expect(questionCallId({ ...toolCall, toolCallId: "" })).toBeUndefined();
  });

  it("a selected answer or a user's cancel of a question makes an entry", () => {
    const request = { sessionId: "s1", requestId: "r1", toolCall };
    const at = "2025-01-01T00:00:10.000Z";
    expect(
      answerEntryFor(request, { outcome: submit, answers: { "0": "Blue" }, voterClientId: "client_a" }, at),
    ).toEqual({ ...answer(), voterClientId: "client_a" });
    const { answers: _none, ...cancelled } = answer({ outcome: { outcome: "cancelled" } });
    expect(answerEntryFor(request, { outcome: { outcome: "cancelled" }, reason: "user" }, at)).toStrictEqual(
      cancelled,
    );
  });

  it("tool approvals, questions without an id and cancels nobody chose make none", () => {
    const at = "2025-01-01T00:00:10.000Z";
    const edit = { toolCallId: "call-e1", _meta: { toolName: "write_file" } };
    expect(
      answerEntryFor({ sessionId: "s1", requestId: "r1", toolCall: edit }, { outcome: submit }, at),
    ).toBe(undefined);
    const noId = { ...toolCall, toolCallId: undefined };
    expect(
      answerEntryFor({ sessionId: "s1", requestId: "r1", toolCall: noId }, { outcome: submit }, at),
    ).toBe(undefined);
    for (const reason of ["timeout", "session_closed", "agent_cancelled"] as const) {
      expect(
        answerEntryFor(
          { sessionId: "s1", requestId: "r1", toolCall },
          { outcome: { outcome: "cancelled" }, reason },
          at,
        ),
      ).toBeUndefined();
    }
  });

  it("with the approvals switch, a tool approval is journaled under its call id, keyed by its input", () => {
    const at = "2025-01-01T00:00:10.000Z";
    const shell = {
      toolCallId: "call-s1",
      title: "echo x >> counter",
      rawInput: { command: "echo x >> counter" },
      _meta: { toolName: "run_shell_command" },
    };
    const request = { sessionId: "s1", requestId: "r1", toolCall: shell };
    const allow = { outcome: "selected" as const, optionId: "allow_once" };
    expect(answerEntryFor(request, { outcome: allow }, at, { approvals: false })).toBeUndefined();
    const entry = answerEntryFor(request, { outcome: allow, voterClientId: "client_a" }, at, {
      approvals: true,
    });
    expect(entry).toEqual({
      v: 1,
      type: "answer",
      sessionId: "s1",
      toolCallId: "call-s1",
      questionsKey: answerKeyOf(shell),
      outcome: allow,
      requestId: "r1",
      voterClientId: "client_a",
      at,
    });
    // A refusal is a user's answer too; an unattended end is not.
    const reject = { outcome: "selected" as const, optionId: "reject_once" };
    expect(answerEntryFor(request, { outcome: reject }, at, { approvals: true })?.outcome).toEqual(reject);
    expect(
      answerEntryFor(request, { outcome: { outcome: "cancelled" }, reason: "timeout" }, at, {
        approvals: true,
      }),
    ).toBeUndefined();
    // Asked again with the same input (another title or diff), the key is the same; other input, another key.
    expect(answerKeyOf({ ...shell, title: "other" })).toBe(answerKeyOf(shell));
    expect(answerKeyOf({ ...shell, rawInput: { command: "rm -rf /" } })).not.toBe(answerKeyOf(shell));
    // Questions keep their own key.
    expect(answerKeyOf(toolCall)).toBe(KEY);
  });

  it("a journaled answer replays as the same decision (without the old voter)", () => {
    expect(decisionOf({ ...answer(), voterClientId: "client_old" })).toEqual({
      outcome: submit,
      answers: { "0": "Blue" },
    });
    const { answers: _none, ...cancelled } = answer({ outcome: { outcome: "cancelled" } });
    expect(decisionOf(cancelled)).toEqual({
      outcome: { outcome: "cancelled" },
      reason: "user",
    });
  });
});

describe("questionsKeyOf", () => {
  it("does not depend on key order, and tells different questions apart", () => {
    const questions = [{ question: "Q?", header: "H", options: [{ label: "a", description: "b" }] }];
    const reordered = [{ options: [{ description: "b", label: "a" }], header: "H", question: "Q?" }];
    const key = questionsKeyOf({ _meta: { qwenQuestions: questions } });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(questionsKeyOf({ rawInput: { questions: reordered } })).toBe(key);
    expect(questionsKeyOf({ _meta: { qwenQuestions: [{ ...questions[0], header: "Other" }] } })).not.toBe(
      key,
    );
    expect(questionsKeyOf({ toolCallId: "x" })).toBeUndefined();
  });
});

describe("findJournaledAnswer", () => {
  const t = (s: number) => `2025-01-01T00:00:${String(s).padStart(2, "0")}.000Z`;

  it("without a readable transcript, the newest answer for that call and those questions applies", () => {
    const entries: JournalEntry[] = [
      answer({ requestId: "r1", answers: { "0": "Red" } }),
      answer({ requestId: "r2", toolCallId: "other" }),
      answer({ requestId: "r3", answers: { "0": "Blue" } }),
      answer({ requestId: "r4", sessionId: "s2" }),
    ];
    expect(findJournaledAnswer(entries, query(undefined)).answer?.requestId).toBe("r3");
    expect(findJournaledAnswer([], query(undefined))).toEqual({ reason: "none" });
  });

  it("ignores answers to other questions that reused the call id, and withdrawn answers", () => {
    expect(findJournaledAnswer([answer({ questionsKey: "other" })], query(undefined))).toEqual({
      reason: "none",
    });
    const withdrawn = withdrawalOf(answer({ requestId: "r2" }), t(12));
    expect(
      findJournaledAnswer(
        [answer({ requestId: "r1" }), answer({ requestId: "r2" }), withdrawn],
        query(undefined),
      ).answer?.requestId,
    ).toBe("r1");
    expect(findJournaledAnswer([answer({ requestId: "r2" }), withdrawn], query(undefined))).toEqual({
      reason: "none",
    });
  });

  it("applies an answer given after the call's last occurrence in the transcript", () => {
    const transcript = [user("u1", t(1), "pick"), ask("a1", t(2)), system("x1", t(3))];
    const lookup = findJournaledAnswer([answer({ at: t(5) })], query(transcript));
    expect(lookup.answer?.requestId).toBe("r1");
    // The same millisecond counts as after: the record is written before the question is shown.
    expect(findJournaledAnswer([answer({ at: t(2) })], query(transcript)).answer).toBeDefined();
  });

  it("an answer older than the call's last occurrence belongs to an earlier call with the same id", () => {
    const transcript = [
      user("u1", t(1), "pick"),
      ask("a1", t(2)),
      result("r1", t(4)),
      user("u2", t(6), "again"),
      ask("a2", t(8)), // the model reused the id
    ];
    expect(findJournaledAnswer([answer({ at: t(3) })], query(transcript))).toEqual({ reason: "obsolete" });
    const newer = answer({ requestId: "r9", at: t(9), answers: { "0": "Red" } });
    expect(findJournaledAnswer([answer({ at: t(3) }), newer], query(transcript)).answer).toEqual(newer);
  });

  it("an answer the transcript already holds is obsolete", () => {
    const transcript = [ask("a1", t(2)), result("r1", t(4))];
    expect(findJournaledAnswer([answer({ at: t(3) })], query(transcript))).toEqual({
      reason: "already_answered",
    });
  });

  it("fails closed when the transcript does not hold the call or its time is unreadable", () => {
    expect(findJournaledAnswer([answer()], query([user("u1", t(1), "hi")]))).toEqual({
      reason: "call_not_in_transcript",
    });
    expect(findJournaledAnswer([answer()], query([ask("a1", "not a time")]))).toEqual({
      reason: "call_not_in_transcript",
    });
  });
});
