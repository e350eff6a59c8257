import { describe, expect, it } from "vitest";
import type { Content, Part } from "../content.js";
import { classifySessionTail } from "./session-recovery.js";

const call = (id: string | undefined, name = "read_file"): Part => ({
  functionCall: { ...(id === undefined ? {} : { id }), name, args: { p: id } },
});
const resp = (id: string): Part => ({
  functionResponse: { id, name: "read_file", response: { output: "x" } },
});
const model = (...parts: Part[]): Content => ({ role: "model", parts });
const user = (...parts: Part[]): Content => ({ role: "user", parts });
const text = (t: string): Part => ({ text: t });
const ORPHAN =
  "Tool execution result was not recorded — likely interrupted by network failure, abort, or process exit. Treat as failure and retry if needed.";

describe("classifySessionTail", () => {
  it("is clean for an empty history", () => {
    expect(classifySessionTail([])).toEqual({ kind: "clean" });
  });

  it("is clean when the model had the last word", () => {
    expect(classifySessionTail([user(text("hi")), model(text("hello"))])).toEqual({ kind: "clean" });
    expect(classifySessionTail([user(text("hi")), model({ text: "hm", thought: true })])).toEqual({
      kind: "clean",
    });
    expect(classifySessionTail([user(text("hi")), model()])).toEqual({ kind: "clean" });
  });

  it("is interrupted_prompt when user text got no reply", () => {
    const h = [user(text("hi")), model(text("hello")), user(text("do it"))];
    expect(classifySessionTail(h)).toEqual({
      kind: "interrupted_prompt",
      parts: [text("do it")],
      retryFrom: 2,
    });
  });

  it("gathers the whole trailing user run, function responses first", () => {
    const h = [model(call("a")), user(text("note"), resp("a")), user(text("more"))];
    expect(classifySessionTail(h)).toEqual({
      kind: "interrupted_prompt",
      parts: [resp("a"), text("note"), text("more")],
      retryFrom: 1,
    });
  });

  it("treats tool results the model never answered as an interrupted prompt (the retry re-sends them)", () => {
    const h = [user(text("hi")), model(call("a")), user(resp("a"))];
    expect(classifySessionTail(h)).toEqual({ kind: "interrupted_prompt", parts: [resp("a")], retryFrom: 2 });
  });

  it("is clean when the trailing user entries are empty", () => {
    expect(classifySessionTail([model(text("x")), user()])).toEqual({ kind: "clean" });
  });

  it("is interrupted_turn with synthetic responses for trailing calls", () => {
    const h = [user(text("hi")), model(text("reading"), call("a"), call("b", "edit"))];
    expect(classifySessionTail(h)).toEqual({
      kind: "interrupted_turn",
      danglingCalls: [
        { id: "a", name: "read_file", args: { p: "a" } },
        { id: "b", name: "edit", args: { p: "b" } },
      ],
      syntheticResponses: {
        role: "user",
        parts: [
          { functionResponse: { id: "a", name: "read_file", response: { error: ORPHAN } } },
          { functionResponse: { id: "b", name: "edit", response: { error: ORPHAN } } },
        ],
      },
    });
  });

  it("lists a repeated call id once", () => {
    const tail = classifySessionTail([model(call("a"), call("a"))]);
    expect(tail.kind === "interrupted_turn" && tail.danglingCalls.map((c) => c.id)).toEqual(["a"]);
  });

  it("ignores dangling calls earlier in the history (orphan repair's job)", () => {
    expect(classifySessionTail([model(call("a")), user(text("p")), model(text("ok"))])).toEqual({
      kind: "clean",
    });
  });

  it.each<[string, Content[], string]>([
    ["a trailing call without an id", [model(call("a"), call(undefined))], "call_without_id"],
    ["a response in the trailing model entry", [model(call("a"), resp("a"))], "response_in_model_turn"],
    ["an unknown role", [{ role: "system", parts: [] } as unknown as Content], "unknown_role"],
  ])("is degraded_history for %s", (_name, h, reason) => {
    expect(classifySessionTail(h)).toEqual({ kind: "degraded_history", reason });
  });

  it("is degraded_history when the transcript had gaps, whatever the tail", () => {
    expect(classifySessionTail([model(text("x"))], { historyGaps: 2 })).toEqual({
      kind: "degraded_history",
      reason: "history_gaps",
    });
    expect(classifySessionTail([model(text("x"))], { historyGaps: 0 })).toEqual({ kind: "clean" });
  });

  it("does not mutate the history", () => {
    const h = Object.freeze([Object.freeze(model(Object.freeze(call("a"))))]);
    expect(classifySessionTail(h).kind).toBe("interrupted_turn");
  });
});
