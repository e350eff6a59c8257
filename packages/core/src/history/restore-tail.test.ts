import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Part } from "../content.js";
import type { RestoreKindSwitches } from "../protocol/restore-kinds.js";
import { DEFAULT_QUESTION } from "../testing/index.js";
import {
  TOOL_STARTED_SUBTYPE,
  type ToolCallResult,
  type ToolStartApproval,
  type TranscriptRecord,
  TURN_RESULT_SUBTYPE,
} from "../transcript/records.js";
import { classifyRestoreTail, restoreActsOn } from "./restore-tail.js";

let n = 0;
const base = () => ({
  uuid: `u${++n}`,
  parentUuid: null,
  sessionId: "s1",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/w",
  version: "1",
});
const userText = (text: string): TranscriptRecord => ({
  ...base(),
  type: "user",
  message: { role: "user", parts: [{ text }] },
});
const question = (id: string, args: unknown = { questions: [DEFAULT_QUESTION] }): Part => ({
  functionCall: { id, name: "ask_user_question", args: args as Record<string, unknown> },
});
const tool = (id: string, name: string): Part => ({ functionCall: { id, name, args: {} } });
const shell = (id: string) => tool(id, "run_shell_command");
const reply = (parts: Part[], recorded = true): TranscriptRecord => ({
  ...base(),
  type: "assistant",
  message: { role: "model", parts: [{ text: "Working." }, ...parts] },
  ...(recorded ? { toolStarts: "recorded" as const } : {}),
});
const result = (
  id: string,
  name: string,
  status: ToolCallResult["status"] = "success",
): TranscriptRecord => ({
  ...base(),
  type: "tool_result",
  message: {
    role: "user",
    parts: [
      {
        functionResponse: {
          id,
          name,
          response: status === "success" ? { output: "done" } : { error: "no" },
        },
      },
    ],
  },
  toolCallResult: { callId: id, status },
});
const started = (callId: string, name: string, approval: ToolStartApproval = "user"): TranscriptRecord => ({
  ...base(),
  type: "system",
  subtype: TOOL_STARTED_SUBTYPE,
  data: { callId, name, approval },
});
const turnResult = (): TranscriptRecord => ({
  ...base(),
  type: "system",
  subtype: TURN_RESULT_SUBTYPE,
  data: { stopReason: "end_turn" },
});
const ON: RestoreKindSwitches = { question: true, approvals: true };
const OFF: RestoreKindSwitches = { question: false, approvals: false };
const Q_ONLY: RestoreKindSwitches = { question: true, approvals: false };
const A_ONLY: RestoreKindSwitches = { question: false, approvals: true };
const prompt = userText("go");
const kindOf = (records: TranscriptRecord[], switches = ON) => classifyRestoreTail(records, switches).kind;

describe("classifyRestoreTail: nothing cut short", () => {
  it("is idle for an empty transcript, a text reply, and a turn that wrote its end", () => {
    expect(kindOf([])).toBe("idle");
    expect(kindOf([prompt, reply([])])).toBe("idle");
    expect(kindOf([prompt, reply([]), turnResult()])).toBe("idle");
    const ended = [prompt, reply([question("q1")]), result("q1", "ask_user_question"), turnResult()];
    expect(kindOf(ended)).toBe("idle");
  });
});

describe("classifyRestoreTail: asked again", () => {
  it("a trailing unanswered question is the question restore's with its switch, else interrupted", () => {
    const records = [prompt, reply([question("q1"), question("q2")])];
    const tail = classifyRestoreTail(records, Q_ONLY);
    expect(tail).toEqual({
      kind: "restorable_question",
      calls: [question("q1").functionCall, question("q2").functionCall],
    });
    expect(kindOf(records, A_ONLY)).toBe("interrupted");
    expect(kindOf(records, OFF)).toBe("interrupted");
  });

  it("a question with bad arguments is never asked again", () => {
    expect(kindOf([prompt, reply([question("q1", { questions: [] })])])).toBe("interrupted");
  });

  it("an approval that never started is the approvals restore's with its switch", () => {
    const records = [prompt, reply([shell("c1")])];
    const tail = classifyRestoreTail(records, A_ONLY);
    expect(tail.kind).toBe("restorable_approvals");
    expect(tail.kind === "restorable_approvals" && tail.found.reAsk.map((c) => c.id)).toEqual(["c1"]);
    expect(kindOf(records, Q_ONLY)).toBe("interrupted");
  });

  it("a batch half answered (one result written, one approval open) asks the open one again", () => {
    const records = [prompt, reply([question("q1"), shell("c1")]), result("q1", "ask_user_question")];
    expect(kindOf(records, ON)).toBe("restorable_approvals");
    expect(kindOf(records, Q_ONLY)).toBe("interrupted");
  });

  it("a started approval without a result is never asked again (it is closed as started)", () => {
    const records = [prompt, reply([shell("c1")]), started("c1", "run_shell_command")];
    expect(kindOf(records)).toBe("interrupted");
  });

  it("a writer that did not record starts proves nothing: interrupted", () => {
    expect(kindOf([prompt, reply([shell("c1")], false)])).toBe("interrupted");
  });
});

describe("classifyRestoreTail: answered, the model never saw it", () => {
  it("an answered question goes on with the question switch", () => {
    const records = [prompt, reply([question("q1")]), result("q1", "ask_user_question")];
    expect(classifyRestoreTail(records, Q_ONLY)).toEqual({
      kind: "answered_unseen",
      needs: { question: true, approvals: false },
      covered: true,
      callIds: ["q1"],
    });
    // Without the switch it is still reported (the answer is kept), but not covered.
    expect(classifyRestoreTail(records, A_ONLY)).toMatchObject({ kind: "answered_unseen", covered: false });
  });

  it("a question the tool refused (bad parameters: an error result nobody gave) is no answer: interrupted", () => {
    const records = [prompt, reply([question("q1")]), result("q1", "ask_user_question", "error")];
    expect(kindOf(records, ON)).toBe("interrupted");
  });

  it("a tool a person approved, that ran, goes on with the approvals switch", () => {
    const records = [
      prompt,
      reply([shell("c1")]),
      started("c1", "run_shell_command"),
      result("c1", "run_shell_command"),
    ];
    expect(classifyRestoreTail(records, A_ONLY)).toEqual({
      kind: "answered_unseen",
      needs: { question: false, approvals: true },
      covered: true,
      callIds: ["c1"],
    });
    expect(classifyRestoreTail(records, Q_ONLY)).toMatchObject({ covered: false });
  });

  it("a mixed batch (question and approval) needs both switches", () => {
    const records = [
      prompt,
      reply([question("q1"), shell("c1")]),
      result("q1", "ask_user_question"),
      started("c1", "run_shell_command"),
      result("c1", "run_shell_command"),
    ];
    for (const [switches, covered] of [
      [ON, true],
      [Q_ONLY, false],
      [A_ONLY, false],
      [OFF, false],
    ] as const) {
      expect(classifyRestoreTail(records, switches)).toEqual({
        kind: "answered_unseen",
        needs: { question: true, approvals: true },
        covered,
        callIds: ["q1", "c1"],
      });
    }
  });

  it("a question beside a read-only tool: the read needs no switch", () => {
    const records = [
      prompt,
      reply([tool("r1", "list_directory"), question("q1")]),
      result("r1", "list_directory"),
      result("q1", "ask_user_question"),
    ];
    expect(classifyRestoreTail(records, Q_ONLY)).toMatchObject({
      kind: "answered_unseen",
      needs: { question: true, approvals: false },
      covered: true,
    });
  });

  it("a started tool closed with an unknown result (no other answer) goes on: a person approved it", () => {
    const records = [
      prompt,
      reply([shell("c1")]),
      started("c1", "run_shell_command"),
      result("c1", "run_shell_command", "error"),
    ];
    expect(classifyRestoreTail(records, A_ONLY)).toMatchObject({ kind: "answered_unseen", covered: true });
  });

  it("nobody answered (read-only tools, tools the approval mode let run): interrupted", () => {
    expect(kindOf([prompt, reply([tool("r1", "read_file")]), result("r1", "read_file")])).toBe("interrupted");
    for (const approval of ["approval_mode", "session_rule"] as const) {
      const records = [
        prompt,
        reply([shell("c1")]),
        started("c1", "run_shell_command", approval),
        result("c1", "run_shell_command"),
      ];
      expect(kindOf(records)).toBe("interrupted");
    }
    // An approval kind with no start record ran without one (a writer without the switch).
    expect(kindOf([prompt, reply([shell("c1")], false), result("c1", "run_shell_command")])).toBe(
      "interrupted",
    );
  });

  it("a declined question, a refused approval or a cancel stopped the turn: not continued", () => {
    const declined = [prompt, reply([question("q1")]), result("q1", "ask_user_question", "cancelled")];
    expect(kindOf(declined)).toBe("interrupted");
    const refusedSecond = [
      prompt,
      reply([question("q1"), shell("c1")]),
      result("q1", "ask_user_question"),
      result("c1", "run_shell_command", "cancelled"),
    ];
    expect(kindOf(refusedSecond)).toBe("interrupted");
  });

  it("a turn that wrote its end, or that went on since, is idle", () => {
    const answered = [prompt, reply([question("q1")]), result("q1", "ask_user_question")];
    expect(kindOf([...answered, turnResult()])).toBe("idle");
    expect(kindOf([...answered, reply([])])).toBe("idle");
    expect(kindOf([...answered, reply([]), turnResult(), userText("next")])).toBe("interrupted");
  });

  it("a user's prompt the model never answered is interrupted", () => {
    expect(kindOf([prompt])).toBe("interrupted");
    expect(kindOf([prompt, reply([]), turnResult(), userText("again")])).toBe("interrupted");
  });

  it("system records between the results (a start record, a session record) change nothing", () => {
    const records = [
      prompt,
      reply([question("q1")]),
      started("other", "run_shell_command", "approval_mode"),
      result("q1", "ask_user_question"),
    ];
    expect(kindOf(records)).toBe("answered_unseen");
  });
});

describe("restoreActsOn", () => {
  it("acts on what is asked again and on a covered answered tail only", () => {
    expect(restoreActsOn({ kind: "idle" })).toBe(false);
    expect(restoreActsOn({ kind: "interrupted" })).toBe(false);
    expect(restoreActsOn({ kind: "restorable_question", calls: [] })).toBe(true);
    const answered = { kind: "answered_unseen" as const, needs: ON, callIds: [] as string[] };
    expect(restoreActsOn({ ...answered, covered: true })).toBe(true);
    expect(restoreActsOn({ ...answered, covered: false })).toBe(false);
  });
});

describe("classifyRestoreTail: properties", () => {
  // Any batch of questions, approvals and reads, each call either without a result or with one of each status,
  // started by a person or the approval mode, with or without the turn's end written.
  const callArb = fc.record({
    name: fc.constantFrom("ask_user_question", "run_shell_command", "edit", "read_file"),
    result: fc.constantFrom("none", "success", "error", "cancelled"),
    startedBy: fc.constantFrom("none", "user", "approval_mode"),
  });
  const storyArb = fc.record({
    calls: fc.array(callArb, { minLength: 1, maxLength: 4 }),
    recorded: fc.boolean(),
    ended: fc.boolean(),
    switches: fc.record({ question: fc.boolean(), approvals: fc.boolean() }),
  });

  it("goes on only when every call has a result, none cancelled, the turn never ended, a person answered, and the switches cover it", () => {
    fc.assert(
      fc.property(storyArb, ({ calls, recorded, ended, switches }) => {
        const ids = calls.map((_, i) => `c${i}`);
        const records: TranscriptRecord[] = [
          prompt,
          reply(
            calls.map((c, i) => (c.name === "ask_user_question" ? question(ids[i]!) : tool(ids[i]!, c.name))),
            recorded,
          ),
        ];
        calls.forEach((c, i) => {
          if (c.startedBy !== "none" && c.name !== "ask_user_question" && c.name !== "read_file")
            records.push(started(ids[i]!, c.name, c.startedBy));
          if (c.result !== "none") records.push(result(ids[i]!, c.name, c.result));
        });
        if (ended) records.push(turnResult());
        const tail = classifyRestoreTail(records, switches);
        const complete = calls.every((c) => c.result !== "none");
        const personQ = calls.some((c) => c.name === "ask_user_question" && c.result === "success");
        const personA = calls.some(
          (c) => c.name !== "ask_user_question" && c.name !== "read_file" && c.startedBy === "user",
        );
        const goesOn =
          complete &&
          !ended &&
          !calls.some((c) => c.result === "cancelled") &&
          (personQ || personA) &&
          (!personQ || switches.question) &&
          (!personA || switches.approvals);
        expect(tail.kind === "answered_unseen" && tail.covered).toBe(goesOn);
        // A complete batch is never asked again; an incomplete one is never continued.
        if (complete) expect(["restorable_question", "restorable_approvals"]).not.toContain(tail.kind);
        else expect(tail.kind).not.toBe("answered_unseen");
      }),
      { numRuns: 500 },
    );
  });
});
