import { describe, expect, it } from "vitest";
import type { Content, Part } from "../content.js";
import { DEFAULT_QUESTION } from "../testing/index.js";
import type { TranscriptRecord } from "../transcript/records.js";
import {
  findRestorableAskUserQuestion,
  lastHistoryContentFromRecords,
  restorableAskUserQuestionCallIds,
} from "./ask-user-question-restore.js";

const validArgs = () => ({ questions: [{ ...DEFAULT_QUESTION }] });
const auq = (id: string | undefined, args: unknown = validArgs()): Part => ({
  functionCall: {
    ...(id === undefined ? {} : { id }),
    name: "ask_user_question",
    args: args as Record<string, unknown>,
  },
});
const call = (id: string | undefined, name: string): Part => ({
  functionCall: { ...(id === undefined ? {} : { id }), name, args: {} },
});
const model = (...parts: Part[]): Content => ({ role: "model", parts });

describe("findRestorableAskUserQuestion", () => {
  it("finds a single trailing AUQ", () => {
    const last = model({ text: "Let me ask." }, auq("c1"));
    const found = findRestorableAskUserQuestion(last);
    expect(found).toEqual({ functionCalls: [last.parts[1]!.functionCall] });
    // the very call objects, not copies
    expect(found!.functionCalls[0]).toBe(last.parts[1]!.functionCall);
  });

  it("finds a batch of several AUQ calls, in order", () => {
    const last = model(auq("c1"), auq("c2"), auq("c3"));
    expect(findRestorableAskUserQuestion(last)?.functionCalls.map((c) => c.id)).toEqual(["c1", "c2", "c3"]);
  });

  it("ignores text, thought and id-less parts", () => {
    const last = model(
      { text: "t" },
      { text: "thinking", thought: true },
      call(undefined, "edit"),
      auq("c1"),
    );
    expect(findRestorableAskUserQuestion(last)?.functionCalls.map((c) => c.id)).toEqual(["c1"]);
  });

  it("treats an empty id like no id", () => {
    expect(
      findRestorableAskUserQuestion(model(call("", "edit"), auq("c1")))?.functionCalls.map((c) => c.id),
    ).toEqual(["c1"]);
  });

  it.each<[string, Content | undefined]>([
    ["undefined", undefined],
    ["a user entry, even holding an AUQ call", { role: "user", parts: [auq("c1")] }],
    ["a model entry without parts", model()],
    ["a model entry with text only", model({ text: "done" })],
    ["a model entry whose only AUQ has no id", model(auq(undefined))],
    ["an AUQ batch with one other tool", model(auq("c1"), call("c2", "run_shell_command"))],
    ["another tool before the AUQ", model(call("c0", "read_file"), auq("c1"))],
    [
      "a differently cased name",
      model({ functionCall: { id: "c1", name: "Ask_User_Question", args: validArgs() } }),
    ],
    ["an AUQ without args", model({ functionCall: { id: "c1", name: "ask_user_question" } })],
    [
      "an AUQ with one option",
      model(auq("c1", { questions: [{ ...validArgs().questions[0], options: [] }] })),
    ],
    [
      "an AUQ with blank header",
      model(auq("c1", { questions: [{ ...validArgs().questions[0], header: " " }] })),
    ],
    ["an AUQ with five questions", model(auq("c1", { questions: Array(5).fill(validArgs().questions[0]) }))],
    ["an AUQ with array args", model(auq("c1", [validArgs()]))],
    ["a batch where one AUQ is invalid", model(auq("c1"), auq("c2", { questions: [] }))],
  ])("is undefined for %s", (_name, last) => {
    expect(findRestorableAskUserQuestion(last)).toBeUndefined();
    expect(restorableAskUserQuestionCallIds(last)).toBeUndefined();
  });

  it("does not read past the parts it was given (fail-closed on odd input)", () => {
    const noParts = { role: "model" } as unknown as Content;
    expect(findRestorableAskUserQuestion(noParts)).toBeUndefined();
    const nullPart = { role: "model", parts: [null, auq("c1")] } as unknown as Content;
    expect(findRestorableAskUserQuestion(nullPart)?.functionCalls.map((c) => c.id)).toEqual(["c1"]);
  });

  it("never touches anything but the entry it is given", () => {
    const last = Object.freeze(model(Object.freeze(auq("c1"))));
    expect(() => findRestorableAskUserQuestion(last)).not.toThrow();
  });
});

describe("restorableAskUserQuestionCallIds", () => {
  it("is the set of the batch's ids", () => {
    expect(restorableAskUserQuestionCallIds(model(auq("a"), { text: "x" }, auq("b")))).toEqual(
      new Set(["a", "b"]),
    );
  });
  it("collapses a repeated id", () => {
    expect(restorableAskUserQuestionCallIds(model(auq("a"), auq("a")))).toEqual(new Set(["a"]));
  });
});

describe("lastHistoryContentFromRecords", () => {
  const base = { parentUuid: null, sessionId: "s", timestamp: "t", cwd: "/w", version: "1" };
  const user = (uuid: string, text: string): TranscriptRecord => ({
    ...base,
    uuid,
    type: "user",
    message: { role: "user", parts: [{ text }] },
  });
  const assistant = (uuid: string, parts: Part[]): TranscriptRecord => ({
    ...base,
    uuid,
    type: "assistant",
    message: { role: "model", parts },
  });
  const toolResult = (uuid: string): TranscriptRecord => ({
    ...base,
    uuid,
    type: "tool_result",
    message: {
      role: "user",
      parts: [{ functionResponse: { id: "c0", name: "read_file", response: { output: "x" } } }],
    },
  });
  const system = (uuid: string): TranscriptRecord => ({
    ...base,
    uuid,
    type: "system",
    subtype: "turn_result",
  });

  it("returns the last record's message", () => {
    const records = [user("1", "hi"), assistant("2", [auq("c1")])];
    expect(lastHistoryContentFromRecords(records)).toBe((records[1] as { message: Content }).message);
  });
  it("skips trailing system records", () => {
    const records = [user("1", "hi"), assistant("2", [auq("c1")]), system("3"), system("4")];
    expect(lastHistoryContentFromRecords(records)).toEqual({ role: "model", parts: [auq("c1")] });
  });
  it("returns a tool result when it is the last", () => {
    const records = [assistant("1", [call("c0", "read_file")]), toolResult("2"), system("3")];
    expect(lastHistoryContentFromRecords(records)?.role).toBe("user");
  });
  it("skips a record without a message", () => {
    const broken = { ...base, uuid: "3", type: "assistant" } as unknown as TranscriptRecord;
    expect(lastHistoryContentFromRecords([user("1", "hi"), broken])).toEqual({
      role: "user",
      parts: [{ text: "hi" }],
    });
  });
  it("is undefined for no records or only system records", () => {
    expect(lastHistoryContentFromRecords([])).toBeUndefined();
    expect(lastHistoryContentFromRecords([system("1"), system("2")])).toBeUndefined();
  });
  it("feeds the scan for a cold replay", () => {
    const records = [user("1", "hi"), assistant("2", [auq("c1")]), system("3")];
    expect(restorableAskUserQuestionCallIds(lastHistoryContentFromRecords(records))).toEqual(new Set(["c1"]));
  });
});
