import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../transcript/records.js";
import { callInTranscript, trailingQuestionCalls } from "./transcript-calls.js";

const base = {
  parentUuid: null,
  sessionId: "s1",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/w",
  version: "1",
};
const ask = (id: string) => ({ functionCall: { id, name: "ask_user_question", args: { questions: [] } } });
const model = (uuid: string, parts: Record<string, unknown>[]): TranscriptRecord =>
  ({ ...base, uuid, type: "assistant", message: { role: "model", parts } }) as TranscriptRecord;
const system: TranscriptRecord = { ...base, uuid: "sys", type: "system", subtype: "turn_result" };
const user: TranscriptRecord = {
  ...base,
  uuid: "u",
  type: "user",
  message: { role: "user", parts: [{ text: "hi" }] },
};

describe("trailingQuestionCalls", () => {
  it("names the question calls of the last model entry, past system records", () => {
    const records = [
      user,
      model("m1", [
        { text: "Let me ask." },
        ask("q1"),
        { functionCall: { id: "l1", name: "list_directory", args: {} } },
        ask("q2"),
        { functionCall: { name: "ask_user_question", args: {} } },
      ]),
      system,
    ];
    expect(trailingQuestionCalls(records).map((c) => c.id)).toEqual(["q1", "q2"]);
  });

  it("is empty when the history does not end with the model", () => {
    expect(trailingQuestionCalls([model("m1", [ask("q1")]), user])).toEqual([]);
    expect(trailingQuestionCalls([])).toEqual([]);
  });

  it("leaves out the calls a partly written batch already answers, and nothing once a prompt follows", () => {
    const result: TranscriptRecord = {
      ...base,
      uuid: "t1",
      type: "tool_result",
      message: {
        role: "user",
        parts: [{ functionResponse: { id: "q1", name: "ask_user_question", response: { output: "x" } } }],
      },
    };
    const batch = model("m1", [ask("q1"), ask("q2")]);
    expect(trailingQuestionCalls([batch, result, system]).map((c) => c.id)).toEqual(["q2"]);
    expect(trailingQuestionCalls([batch, result, user])).toEqual([]);
  });
});

describe("callInTranscript", () => {
  const at = (record: TranscriptRecord, timestamp: string) => ({ ...record, timestamp }) as TranscriptRecord;
  const resultFor = (id: string, uuid: string): TranscriptRecord => ({
    ...base,
    uuid,
    type: "tool_result",
    message: {
      role: "user",
      parts: [{ functionResponse: { id, name: "ask_user_question", response: { output: "x" } } }],
    },
  });

  it("finds the call's last occurrence and whether a result follows it", () => {
    const first = at(model("m1", [ask("q1")]), "2025-01-01T00:00:01.000Z");
    const again = at(model("m2", [ask("q1")]), "2025-01-01T00:00:05.000Z");
    expect(callInTranscript([user, first], "q1")).toEqual({
      askedAt: "2025-01-01T00:00:01.000Z",
      answered: false,
    });
    // An id reused later: the earlier call's result does not answer the later one.
    expect(callInTranscript([first, resultFor("q1", "t1"), again, system], "q1")).toEqual({
      askedAt: "2025-01-01T00:00:05.000Z",
      answered: false,
    });
    expect(callInTranscript([again, resultFor("q1", "t2")], "q1")?.answered).toBe(true);
    expect(callInTranscript([first, resultFor("q2", "t3")], "q1")?.answered).toBe(false);
  });

  it("is undefined when the records do not hold the call", () => {
    expect(callInTranscript([user, model("m1", [ask("q2")]), system], "q1")).toBeUndefined();
    expect(callInTranscript([], "q1")).toBeUndefined();
  });
});
