import type { TranscriptRecord } from "@qwen-daemon/core";
import { DEFAULT_QUESTION } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { MISSING_TOOL_RESULT_TEXT, replayUpdates } from "./replay.js";

let n = 0;
function base(parentUuid: string | null) {
  n++;
  return {
    uuid: `u${n}`,
    parentUuid,
    sessionId: "s",
    timestamp: new Date(0).toISOString(),
    cwd: "/w",
    version: "test",
  };
}

/** A linear transcript: each record's parent is the one before. */
type Body<R> = R extends TranscriptRecord ? Omit<R, keyof ReturnType<typeof base>> : never;

function chain(...records: Array<Body<TranscriptRecord>>): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (const r of records) out.push({ ...base(out.at(-1)?.uuid ?? null), ...r } as TranscriptRecord);
  return out;
}

const question = { questions: [DEFAULT_QUESTION] };
const user = (text: string) => ({
  type: "user" as const,
  message: { role: "user" as const, parts: [{ text }] },
});
const call = (id: string | undefined, name: string, args: Record<string, unknown> = {}) => ({
  type: "assistant" as const,
  message: { role: "model" as const, parts: [{ functionCall: { ...(id ? { id } : {}), name, args } }] },
});
const result = (
  id: string | undefined,
  name: string,
  response: Record<string, unknown>,
  status?: "success" | "error",
) => ({
  type: "tool_result" as const,
  message: {
    role: "user" as const,
    parts: [{ functionResponse: { ...(id ? { id } : {}), name, response } }],
  },
  ...(status ? { toolCallResult: { callId: id ?? "", status } } : {}),
});

describe("replayUpdates", () => {
  it("replays user text, model text, thoughts, calls and results in order", () => {
    const records = chain(
      user("hi"),
      {
        type: "assistant",
        message: { role: "model", parts: [{ text: "thinking", thought: true }, { text: "hello" }] },
      },
      call("c1", "read_file", { path: "a" }),
      result("c1", "read_file", { output: "content" }, "success"),
      { type: "system", subtype: "turn_result" },
    );
    const updates = replayUpdates(records, { finalizeDangling: true });
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
    ]);
    expect(updates[3]).toMatchObject({
      toolCallId: "c1",
      status: "in_progress",
      rawInput: { path: "a" },
      _meta: { toolName: "read_file" },
    });
    expect(updates[4]).toMatchObject({
      toolCallId: "c1",
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "content" } }],
    });
  });

  it("finalizes a dangling call as failed with the exact text", () => {
    const updates = replayUpdates(chain(user("q"), call("q1", "ask_user_question", question)), {
      finalizeDangling: true,
    });
    expect(updates.at(-1)).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "q1",
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: MISSING_TOOL_RESULT_TEXT } }],
    });
    expect(MISSING_TOOL_RESULT_TEXT).toBe(
      "Tool result missing from saved history; the previous run likely ended before this tool completed.",
    );
  });

  it("leaves skipped ids in progress and finalizes the others", () => {
    const records = chain(user("q"), {
      type: "assistant",
      message: {
        role: "model",
        parts: [
          { functionCall: { id: "q1", name: "ask_user_question", args: question } },
          { functionCall: { id: "x1", name: "run_shell_command", args: { command: "ls" } } },
        ],
      },
    });
    const updates = replayUpdates(records, { finalizeDangling: true, skipFinalizeCallIds: new Set(["q1"]) });
    const finals = updates.filter((u) => u.sessionUpdate === "tool_call_update");
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatchObject({ toolCallId: "x1", status: "failed" });
  });

  it("does not finalize anything when told a turn is still running", () => {
    const updates = replayUpdates(chain(user("q"), call("q1", "ask_user_question", question)), {
      finalizeDangling: false,
    });
    expect(updates.filter((u) => u.sessionUpdate === "tool_call_update")).toEqual([]);
  });

  it("marks error results failed (by record status, else by the response shape)", () => {
    const records = chain(
      call("a", "edit"),
      result("a", "edit", { error: "boom" }, "error"),
      call("b", "edit"),
      result("b", "edit", { error: "no status" }),
    );
    const finals = replayUpdates(records, { finalizeDangling: true }).filter(
      (u) => u.sessionUpdate === "tool_call_update",
    );
    expect(finals).toMatchObject([
      { toolCallId: "a", status: "failed", content: [{ content: { text: "boom" } }] },
      { toolCallId: "b", status: "failed", content: [{ content: { text: "no status" } }] },
    ]);
  });

  it("pairs id-less calls with id-less results of the same tool", () => {
    const records = chain(call(undefined, "glob"), result(undefined, "glob", { output: "x" }));
    const updates = replayUpdates(records, { finalizeDangling: true });
    expect(updates).toHaveLength(2);
    const started = updates[0] as { toolCallId: string };
    expect(updates[1]).toMatchObject({ toolCallId: started.toolCallId, status: "completed" });
  });

  it("titles questions like the reference and uses the injected describer for others", () => {
    const updates = replayUpdates(
      chain(call("q", "ask_user_question", question), call("r", "read_file", { path: "p" })),
      {
        finalizeDangling: false,
        describe: (name, args) =>
          name === "read_file"
            ? { title: `Read ${String(args.path)}`, uiKind: "read" }
            : { title: "?", uiKind: "other" },
      },
    );
    expect(updates[1]).toMatchObject({ title: "Read p", kind: "read" });
    const fallback = replayUpdates(chain(call("q", "ask_user_question", question)), {
      finalizeDangling: false,
    });
    expect(fallback[0]).toMatchObject({ title: "Ask user 1 question", kind: "think" });
  });

  it("survives a describer that throws", () => {
    const updates = replayUpdates(chain(call("q", "mystery")), {
      finalizeDangling: false,
      describe: () => {
        throw new Error("bad args");
      },
    });
    expect(updates[0]).toMatchObject({ title: "mystery", kind: "other" });
  });

  it("replays only the active branch of a rewound transcript", () => {
    const one = { ...base(null), ...user("one") } as TranscriptRecord;
    const abandoned = { ...base(one.uuid), ...user("abandoned") } as TranscriptRecord;
    const two = { ...base(one.uuid), ...user("two") } as TranscriptRecord;
    const updates = replayUpdates([one, abandoned, two], { finalizeDangling: true });
    expect(updates.map((u) => (u as { content: { text: string } }).content.text)).toEqual(["one", "two"]);
  });
});
