import { describe, expect, it } from "vitest";
import { type AnswerEntry, parseAnswerJournal } from "./answer-record.js";

const answer: AnswerEntry = {
  v: 1,
  type: "answer",
  sessionId: "s1",
  toolCallId: "call-q1",
  outcome: { outcome: "selected", optionId: "proceed_once" },
  answers: { "0": "Blue" },
  requestId: "r1",
  at: "2025-01-01T00:00:01.000Z",
};

describe("parseAnswerJournal", () => {
  it("reads entries in file order", () => {
    const withdrawn = {
      v: 1,
      type: "withdrawn",
      sessionId: "s1",
      toolCallId: "call-q1",
      requestId: "r1",
      at: "x",
    };
    const text = `${JSON.stringify(answer)}\n${JSON.stringify(withdrawn)}\n`;
    expect(parseAnswerJournal(text)).toEqual({
      entries: [answer, withdrawn],
      corruptLines: 0,
      tornTail: false,
    });
  });

  it("skips a torn last line, blank lines and corrupt or foreign lines, and counts the corrupt ones", () => {
    const second = { ...answer, requestId: "r2" };
    const text = [
      JSON.stringify(answer),
      "",
      "not json",
      JSON.stringify({ v: 1, type: "answer", sessionId: "s1" }), // missing fields
      JSON.stringify({ ...answer, outcome: { outcome: "approved" } }), // not a vote outcome
      JSON.stringify({ ...answer, v: 2 }), // a future format is not guessed at
      JSON.stringify(second),
      '{"v":1,"type":"answer","sessionId":"s1","toolC', // torn by a crash mid-write
    ].join("\n");
    expect(parseAnswerJournal(text)).toEqual({ entries: [answer, second], corruptLines: 4, tornTail: true });
  });

  it("a corrupt line that ends in a newline is damage, not a torn tail", () => {
    expect(parseAnswerJournal(`${JSON.stringify(answer)}\nnot json\n`)).toEqual({
      entries: [answer],
      corruptLines: 1,
      tornTail: false,
    });
  });

  it("an empty file has no entries", () => {
    expect(parseAnswerJournal("")).toEqual({ entries: [], corruptLines: 0, tornTail: false });
  });
});
