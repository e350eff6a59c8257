import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Content, Part } from "../content.js";
import { DEFAULT_QUESTION } from "../testing/index.js";
import { TOOL_STARTED_SUBTYPE, type TranscriptRecord } from "../transcript/records.js";
import {
  findRestorablePendingApprovals,
  historyTailFromRecords,
  pendingApprovalsFromRecords,
  pendingInteractionKindOf,
  pendingInteractionKinds,
  toolStartedResultUnknownText,
  toolStartsFromRecords,
} from "./pending-approval-restore.js";

const question = (id: string, args: unknown = { questions: [{ ...DEFAULT_QUESTION }] }): Part => ({
  functionCall: { id, name: "ask_user_question", args: args as Record<string, unknown> },
});
const call = (id: string | undefined, name: string): Part => ({
  functionCall: { ...(id === undefined ? {} : { id }), name, args: {} },
});
const shell = (id: string) => call(id, "run_shell_command");
const result = (id: string, name = "run_shell_command"): Part => ({
  functionResponse: { id, name, response: { output: "ok" } },
});
const model = (...parts: Part[]): Content => ({ role: "model", parts });
const user = (...parts: Part[]): Content => ({ role: "user", parts });
const none = new Set<string>();
const scan = (tail: Content[], started: Set<string> = none, includeQuestions = false) =>
  findRestorablePendingApprovals(tail, {
    toolStarts: { recorded: true, startedCallIds: started },
    includeQuestions,
  });
const decisions = (tail: Content[], started: Set<string> = none, includeQuestions = false) =>
  scan(tail, started, includeQuestions)?.calls.map((c) => [c.call.id, c.kind, c.decision]);

describe("pendingInteractionKindOf", () => {
  it("classifies by tool name", () => {
    expect(pendingInteractionKindOf("run_shell_command")).toBe("exec");
    expect(pendingInteractionKindOf("edit")).toBe("edit");
    expect(pendingInteractionKindOf("write_file")).toBe("edit");
    expect(pendingInteractionKindOf("mcp__files__write")).toBe("mcp");
    expect(pendingInteractionKindOf("ask_user_question")).toBe("user_question");
  });

  it("knows no kind for read-only tools, unknown names and a bare MCP prefix", () => {
    for (const name of ["read_file", "grep", "glob", "list_directory", "frobnicate", "mcp__", ""]) {
      expect(pendingInteractionKindOf(name)).toBeUndefined();
    }
  });
});

describe("findRestorablePendingApprovals", () => {
  it("re-asks a trailing approval that never started", () => {
    const tail = [model({ text: "Running." }, shell("c1"))];
    const found = scan(tail);
    expect(found?.calls.map((c) => [c.call.id, c.kind, c.decision])).toEqual([["c1", "exec", "re_ask"]]);
    expect(found?.reAsk[0]).toBe(tail[0]!.parts[1]!.functionCall);
    expect(found?.closedAsStarted).toEqual([]);
    expect(found?.answeredCallIds).toEqual([]);
  });

  it("closes a call with a start record as started, never re-asks it", () => {
    const found = scan([model(shell("c1"))], new Set(["c1"]));
    expect(found?.calls.map((c) => c.decision)).toEqual(["closed_as_started"]);
    expect(found?.reAsk).toEqual([]);
    expect(found?.closedAsStarted.map((c) => c.id)).toEqual(["c1"]);
  });

  it("classifies edit and MCP calls, and ignores start records of other calls", () => {
    const tail = [model(call("e", "edit"), call("w", "write_file"), call("m", "mcp__srv__tool"))];
    expect(decisions(tail, new Set(["w", "elsewhere"]))).toEqual([
      ["e", "edit", "re_ask"],
      ["w", "edit", "closed_as_started"],
      ["m", "mcp", "re_ask"],
    ]);
  });

  it("skips the calls a partly written batch already answered", () => {
    const tail = [model(shell("a"), shell("b"), shell("c")), user(result("a"))];
    const found = scan(tail, new Set(["a", "b"]));
    expect(found?.calls.map((c) => [c.call.id, c.decision])).toEqual([
      ["b", "closed_as_started"],
      ["c", "re_ask"],
    ]);
    expect(found?.answeredCallIds).toEqual(["a"]);
  });

  it("restores questions and approvals together only with the question switch", () => {
    const tail = [model(question("q1"), shell("s1"), question("q2"))];
    expect(scan(tail)).toBeUndefined();
    expect(decisions(tail, none, true)).toEqual([
      ["q1", "user_question", "re_ask"],
      ["s1", "exec", "re_ask"],
      ["q2", "user_question", "re_ask"],
    ]);
    expect(pendingInteractionKinds(scan(tail, none, true)!)).toEqual([
      "user_question",
      "exec",
      "user_question",
    ]);
  });

  it("an answered question does not need the question switch", () => {
    expect(decisions([model(question("q"), shell("s")), user(result("q", "ask_user_question"))])).toEqual([
      ["s", "exec", "re_ask"],
    ]);
  });

  it("leaves a batch of questions only to the question restore", () => {
    expect(scan([model(question("q1"), question("q2"))], none, true)).toBeUndefined();
    expect(scan([model(question("q"), shell("s")), user(result("s"))], none, true)).toBeUndefined();
  });

  it("ignores text, thought and id-less parts", () => {
    const tail = [
      model({ text: "t" }, { thought: true, text: "x" }, call(undefined, "read_file"), shell("c")),
    ];
    expect(decisions(tail)).toEqual([["c", "exec", "re_ask"]]);
  });

  describe("fails closed", () => {
    const cases: [string, Content[], Set<string>?][] = [
      ["no history", []],
      ["a user prompt last", [user({ text: "hi" })]],
      ["a model text only", [model({ text: "done" })]],
      ["a read-only tool left dangling", [model(call("r", "read_file"), shell("s"))]],
      ["an unknown tool", [model(call("x", "frobnicate"), shell("s"))]],
      ["a question with invalid arguments", [model(question("q", { questions: [] }), shell("s"))]],
      ["a question with a start record", [model(question("q"), shell("s"))], new Set(["q"])],
      ["a reused call id", [model(shell("a"), call("a", "edit"))]],
      ["every call answered", [model(shell("a")), user(result("a"))]],
      ["a result for a call the batch does not hold", [model(shell("a"), shell("b")), user(result("z"))]],
      ["the same result twice", [model(shell("a"), shell("b")), user(result("a"), result("a"))]],
      ["the user wrote after the results", [model(shell("a"), shell("b")), user(result("a"), { text: "?" })]],
      ["an empty user entry", [model(shell("a")), user()]],
      ["a user entry with no model entry before it", [user(result("a"))]],
    ];
    for (const [name, tail, started] of cases) {
      it(name, () => expect(scan(tail, started ?? none, true)).toBeUndefined());
    }

    it("malformed entries", () => {
      expect(scan([{ role: "model" } as unknown as Content])).toBeUndefined();
      expect(scan([{ role: "model", parts: [null] } as unknown as Content])).toBeUndefined();
    });
  });

  it("asks nothing again for a reply not marked as recording tool starts", () => {
    const tail = [model(shell("a"), shell("b"))];
    const unrecorded = { recorded: false, startedCallIds: new Set(["a"]) };
    expect(
      findRestorablePendingApprovals(tail, { toolStarts: unrecorded, includeQuestions: true }),
    ).toBeUndefined();
  });

  it("reads only the last two entries", () => {
    const earlier = model(call("r", "read_file"));
    expect(decisions([earlier, user(result("r", "read_file")), model(shell("s"))])).toEqual([
      ["s", "exec", "re_ask"],
    ]);
  });
});

describe("toolStartedResultUnknownText", () => {
  it("says the tool started, its result is unknown and it was not run again", () => {
    const text = toolStartedResultUnknownText("run_shell_command");
    expect(text).toContain('Tool "run_shell_command" was started');
    expect(text).toContain("unknown");
    expect(text).toContain("not run again");
  });
});

// ---- records: a turn as the turn loop writes it, cut at every point --------------------------------------

let uuid = 0;
const base = () => ({
  uuid: `u${++uuid}`,
  parentUuid: null,
  sessionId: "s",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/w",
  version: "t",
});
const userRecord = (text: string): TranscriptRecord => ({
  ...base(),
  type: "user",
  message: user({ text }),
});
const assistantRecord = (...parts: Part[]): TranscriptRecord => ({
  ...base(),
  type: "assistant",
  message: model(...parts),
  toolStarts: "recorded",
});
const resultRecord = (id: string, name: string): TranscriptRecord => ({
  ...base(),
  type: "tool_result",
  message: user(result(id, name)),
});
const startRecord = (callId: string, name: string, data: unknown = undefined): TranscriptRecord => ({
  ...base(),
  type: "system",
  subtype: TOOL_STARTED_SUBTYPE,
  data: (data ?? { callId, name, approval: "user" }) as Record<string, unknown>,
});
const systemRecord = (subtype: string): TranscriptRecord => ({ ...base(), type: "system", subtype });

describe("toolStartsFromRecords", () => {
  it("collects the last batch's start records, back to its reply, and reads its mark", () => {
    const records = [
      userRecord("first"),
      assistantRecord(shell("old")),
      startRecord("old", "run_shell_command"),
      resultRecord("old", "run_shell_command"),
      userRecord("second"),
      assistantRecord(shell("a"), shell("b")),
      startRecord("a", "run_shell_command"),
      resultRecord("a", "run_shell_command"),
      startRecord("b", "run_shell_command"),
      systemRecord("turn_result"),
    ];
    const starts = toolStartsFromRecords(records);
    expect(starts.recorded).toBe(true);
    expect([...starts.startedCallIds].sort()).toEqual(["a", "b"]);
  });

  it("stops at the last reply with calls: earlier batches of the turn do not count", () => {
    const records = [
      userRecord("go"),
      assistantRecord(shell("a")),
      startRecord("a", "run_shell_command"),
      resultRecord("a", "run_shell_command"),
      assistantRecord(shell("b")),
    ];
    expect(toolStartsFromRecords(records)).toEqual({ recorded: true, startedCallIds: new Set() });
  });

  it("is unrecorded for a reply without the mark, and with no reply at all", () => {
    const unmarked: TranscriptRecord = { ...base(), type: "assistant", message: model(shell("a")) };
    expect(toolStartsFromRecords([userRecord("go"), unmarked]).recorded).toBe(false);
    expect(toolStartsFromRecords([userRecord("go")]).recorded).toBe(false);
    expect(toolStartsFromRecords([]).recorded).toBe(false);
  });

  it("fails closed on a start record whose data does not parse", () => {
    for (const data of [
      { callId: "", name: "x", approval: "user" },
      { callId: "a", approval: "nobody" },
      "junk",
    ]) {
      const records = [assistantRecord(shell("a"), shell("b")), startRecord("a", "x", data)];
      expect(toolStartsFromRecords(records).recorded).toBe(false);
    }
  });
});

describe("pendingApprovalsFromRecords", () => {
  it("decides from the records' tail", () => {
    const records = [
      userRecord("go"),
      assistantRecord(shell("a"), call("e", "edit")),
      startRecord("a", "run_shell_command"),
    ];
    const found = pendingApprovalsFromRecords(records, { includeQuestions: false });
    expect(found?.calls.map((c) => [c.call.id, c.kind, c.decision])).toEqual([
      ["a", "exec", "closed_as_started"],
      ["e", "edit", "re_ask"],
    ]);
  });
});

describe("historyTailFromRecords", () => {
  it("merges the model entry's records and the results after it, skipping system records", () => {
    const records = [
      userRecord("go"),
      assistantRecord({ text: "Running two." }),
      assistantRecord(shell("a"), shell("b")),
      startRecord("a", "run_shell_command"),
      resultRecord("a", "run_shell_command"),
      systemRecord("turn_result"),
    ];
    expect(historyTailFromRecords(records)).toEqual([
      model({ text: "Running two." }, shell("a"), shell("b")),
      user(result("a")),
    ]);
  });

  it("ends at a user prompt", () => {
    expect(historyTailFromRecords([assistantRecord(shell("a")), userRecord("next")])).toEqual([
      user({ text: "next" }),
    ]);
    expect(historyTailFromRecords([])).toEqual([]);
  });
});

// ---- property: wherever a crash cuts a recorded turn, re-ask exactly when no start record is on disk -----

type Tool = "run_shell_command" | "edit" | "mcp__srv__run" | "ask_user_question";

/** The records the turn loop writes for one batch, in its order (tool-batch.ts): results held until the last question. */
function recordedTurn(tools: Tool[]): TranscriptRecord[] {
  const calls = tools.map((name, i) => ({ id: `c${i}`, name }));
  const parts = calls.map((c) => (c.name === "ask_user_question" ? question(c.id) : call(c.id, c.name)));
  const records: TranscriptRecord[] = [userRecord("go"), assistantRecord({ text: "On it." }, ...parts)];
  const lastQuestion = tools.lastIndexOf("ask_user_question");
  const held: TranscriptRecord[] = [];
  for (const [i, c] of calls.entries()) {
    if (c.name !== "ask_user_question") records.push(startRecord(c.id, c.name));
    held.push(resultRecord(c.id, c.name));
    if (i >= lastQuestion) records.push(...held.splice(0));
  }
  records.push(systemRecord("turn_result"));
  return records;
}

describe("property: a crash at any point of a recorded turn", () => {
  const tool = fc.constantFrom<Tool>("run_shell_command", "edit", "mcp__srv__run", "ask_user_question");
  const turn = fc.array(tool, { minLength: 1, maxLength: 5 }).chain((tools) => {
    const records = recordedTurn(tools);
    return fc.record({
      tools: fc.constant(tools),
      records: fc.constant(records),
      cut: fc.nat(records.length),
    });
  });

  it("re-asks a call only when no start record exists, and closes it as started otherwise", () => {
    fc.assert(
      fc.property(turn, fc.boolean(), ({ tools, records, cut }, includeQuestions) => {
        const onDisk = records.slice(0, cut);
        const found = pendingApprovalsFromRecords(onDisk, { includeQuestions });
        const answered = new Set(
          onDisk.flatMap((r) =>
            r.type === "tool_result" ? r.message.parts.map((p) => p.functionResponse?.id) : [],
          ),
        );
        const startedOnDisk = new Set(
          onDisk.flatMap((r) =>
            r.type === "system" && r.subtype === TOOL_STARTED_SUBTYPE ? [r.data?.callId] : [],
          ),
        );
        if (found === undefined) {
          // Ineligible only when there is nothing open, the batch is not on disk yet, or only questions are open,
          // or open questions without the question switch.
          const open = tools.flatMap((t, i) => (answered.has(`c${i}`) ? [] : [t]));
          const onlyQuestions = open.every((t) => t === "ask_user_question");
          const questionsOff = !includeQuestions && open.includes("ask_user_question");
          expect(cut < 2 || onlyQuestions || questionsOff).toBe(true);
          return;
        }
        for (const c of found.calls) {
          expect(answered.has(c.call.id)).toBe(false);
          expect(c.decision).toBe(startedOnDisk.has(c.call.id) ? "closed_as_started" : "re_ask");
        }
        // Every call without a result is decided, none twice.
        const open = tools.map((_, i) => `c${i}`).filter((id) => !answered.has(id));
        expect(found.calls.map((c) => c.call.id)).toEqual(open);
      }),
      { numRuns: 500 },
    );
  });
});
