import { describe, expect, it } from "vitest";
import type { Part } from "../content.js";
import type { RestoreKindSwitches } from "../protocol/restore-kinds.js";
import { DEFAULT_QUESTION } from "../testing/index.js";
import type { TranscriptRecord } from "../transcript/records.js";
import { pendingOnDiskCalls, type TrailingWindow } from "./pending-on-disk.js";

const pendingOnDiskKinds = (tail: TrailingWindow, switches: RestoreKindSwitches) =>
  pendingOnDiskCalls(tail, switches).map((c) => c.kind);

const base = (n: number) => ({
  uuid: `u${n}`,
  parentUuid: n === 0 ? null : `u${n - 1}`,
  sessionId: "s1",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/w",
  version: "0.1.0",
});
const question = (id: string, args: unknown = { questions: [{ ...DEFAULT_QUESTION }] }): Part => ({
  functionCall: { id, name: "ask_user_question", args: args as Record<string, unknown> },
});
const tool = (id: string, name: string): Part => ({ functionCall: { id, name, args: { command: "ls" } } });
const model = (n: number, ...parts: Part[]): TranscriptRecord => ({
  ...base(n),
  type: "assistant",
  message: { role: "model", parts },
});
const answer = (n: number, id: string): TranscriptRecord => ({
  ...base(n),
  type: "tool_result",
  message: { role: "user", parts: [{ functionResponse: { id, name: "ask_user_question", response: {} } }] },
});
const prompt = (n: number): TranscriptRecord => ({
  ...base(n),
  type: "user",
  message: { role: "user", parts: [{ text: "go on" }] },
});
const turnResult = (n: number): TranscriptRecord => ({ ...base(n), type: "system", subtype: "turn_result" });

const QUESTIONS: RestoreKindSwitches = { question: true, approvals: false };
const window = (...records: TranscriptRecord[]) => ({ records, certain: true });

describe("pendingOnDiskKinds", () => {
  it("reports one user_question per question call a load would ask again, in order", () => {
    expect(pendingOnDiskKinds(window(model(1, question("c1"))), QUESTIONS)).toEqual(["user_question"]);
    expect(
      pendingOnDiskKinds(window(model(1, { text: "two things" }, question("c1"), question("c2"))), QUESTIONS),
    ).toEqual(["user_question", "user_question"]);
  });

  it("gives the very calls with their ids", () => {
    const record = model(1, question("c1"));
    const [found] = pendingOnDiskCalls(window(record), QUESTIONS);
    expect(found?.call).toBe(record.type === "assistant" ? record.message.parts[0]?.functionCall : undefined);
    expect(found?.call.id).toBe("c1");
  });

  it("merges the model records of one turn, as a load does", () => {
    expect(
      pendingOnDiskKinds(
        window(model(1, question("c1")), turnResult(2), model(3, question("c2"))),
        QUESTIONS,
      ),
    ).toEqual(["user_question", "user_question"]);
    expect(
      pendingOnDiskKinds(
        window(model(1, question("c1")), model(2, tool("c2", "run_shell_command"))),
        QUESTIONS,
      ),
    ).toEqual([]);
  });

  it("reports nothing for a question that was answered, or a turn that went on", () => {
    expect(pendingOnDiskKinds(window(model(1, question("c1")), answer(2, "c1")), QUESTIONS)).toEqual([]);
    expect(pendingOnDiskKinds(window(prompt(1)), QUESTIONS)).toEqual([]);
    expect(pendingOnDiskKinds(window(), QUESTIONS)).toEqual([]);
  });

  it("fails closed like the question restore: bad arguments, another tool in the batch", () => {
    expect(pendingOnDiskKinds(window(model(1, question("c1", { questions: [] }))), QUESTIONS)).toEqual([]);
    expect(
      pendingOnDiskKinds(window(model(1, question("c1"), tool("c2", "run_shell_command"))), QUESTIONS),
    ).toEqual([]);
  });

  it("reports nothing for an uncertain window", () => {
    expect(pendingOnDiskKinds({ records: [model(1, question("c1"))], certain: false }, QUESTIONS)).toEqual(
      [],
    );
  });

  it("reports a question only when the question restore is on", () => {
    const tail = window(model(1, question("c1")));
    expect(pendingOnDiskKinds(tail, { question: false, approvals: false })).toEqual([]);
    expect(pendingOnDiskKinds(tail, { question: false, approvals: true })).toEqual([]);
    expect(pendingOnDiskKinds(tail, { question: true, approvals: true })).toEqual(["user_question"]);
  });
});

describe("pendingOnDiskCalls with the approval restore", () => {
  const BOTH: RestoreKindSwitches = { question: true, approvals: true };
  const APPROVALS: RestoreKindSwitches = { question: false, approvals: true };
  // A reply from a writer that records tool starts (without the mark nothing is asked again).
  const recorded = (n: number, ...parts: Part[]): TranscriptRecord => ({
    ...base(n),
    type: "assistant",
    message: { role: "model", parts },
    toolStarts: "recorded",
  });
  const started = (n: number, callId: string, name: string): TranscriptRecord => ({
    ...base(n),
    type: "system",
    subtype: "tool_started",
    data: { callId, name, approval: "user" },
  });

  it("reports the approvals a load would ask again, by kind, in the model's order", () => {
    const batch = recorded(
      1,
      tool("x1", "run_shell_command"),
      tool("e1", "edit"),
      tool("w1", "write_file"),
      tool("m1", "mcp__server__tool"),
    );
    expect(pendingOnDiskKinds(window(batch), APPROVALS)).toEqual(["exec", "edit", "edit", "mcp"]);
  });

  it("leaves out a call that had started (it is closed, nobody is asked) and one already answered", () => {
    const batch = recorded(1, tool("x1", "run_shell_command"), tool("x2", "run_shell_command"));
    expect(pendingOnDiskKinds(window(batch, started(2, "x1", "run_shell_command")), APPROVALS)).toEqual([
      "exec",
    ]);
    const all = window(batch, started(2, "x1", "run_shell_command"), started(3, "x2", "run_shell_command"));
    expect(pendingOnDiskKinds(all, APPROVALS)).toEqual([]);
  });

  it("asks nothing of a reply without the tool-starts mark, or with approvals off", () => {
    expect(pendingOnDiskKinds(window(model(1, tool("x1", "run_shell_command"))), APPROVALS)).toEqual([]);
    expect(pendingOnDiskKinds(window(recorded(1, tool("x1", "run_shell_command"))), QUESTIONS)).toEqual([]);
  });

  it("reports a mixed batch of questions and approvals only when both switches are on", () => {
    const mixed = window(recorded(1, question("q1"), tool("x1", "run_shell_command")));
    expect(pendingOnDiskKinds(mixed, BOTH)).toEqual(["user_question", "exec"]);
    expect(pendingOnDiskKinds(mixed, APPROVALS)).toEqual([]);
    expect(pendingOnDiskKinds(mixed, QUESTIONS)).toEqual([]);
  });
});
