import { describe, expect, it } from "vitest";
import {
  ChatChunkAssembler,
  completionEvents,
  mapFinishReason,
  parseToolArguments,
} from "./openai-stream-assembler.js";
import { ModelError } from "./provider.js";

const ids = () => {
  let n = 0;
  return () => `gen_${n++}`;
};
const delta = (d: Record<string, unknown>, finish_reason: string | null = null) => ({
  choices: [{ index: 0, delta: d, finish_reason }],
});

describe("ChatChunkAssembler", () => {
  it("passes text and reasoning through and assembles interleaved tool calls by index", () => {
    const a = new ChatChunkAssembler({ newCallId: ids() });
    const events = [
      ...a.push(delta({ reasoning_content: "think" })),
      ...a.push(delta({ content: "Hi" })),
      ...a.push(
        delta({
          tool_calls: [{ index: 0, id: "c0", type: "function", function: { name: "a", arguments: '{"x"' } }],
        }),
      ),
      ...a.push(delta({ tool_calls: [{ index: 1, id: "c1", function: { name: "b", arguments: "" } }] })),
      ...a.push(delta({ tool_calls: [{ index: 0, function: { arguments: ":1}" } }] })),
      ...a.push(delta({ tool_calls: [{ index: 1, function: { arguments: '{"y":2}' } }] }, "tool_calls")),
      ...a.push({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
    ];
    expect(events).toEqual([
      { type: "thought", text: "think" },
      { type: "text", text: "Hi" },
    ]);
    expect(a.finished).toBe(true);
    expect(a.finish()).toEqual([
      { type: "tool_call", call: { id: "c0", name: "a", args: { x: 1 } } },
      { type: "tool_call", call: { id: "c1", name: "b", args: { y: 2 } } },
      {
        type: "finish",
        reason: "tool_calls",
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      },
    ]);
  });

  it("handles fragments without index and calls without id", () => {
    const a = new ChatChunkAssembler({ newCallId: ids() });
    a.push(delta({ tool_calls: [{ function: { name: "a", arguments: "{}" } }] }));
    a.push(delta({ tool_calls: [{ id: "k", function: { name: "b", arguments: '{"q"' } }] }));
    a.push(delta({ tool_calls: [{ function: { arguments: ":true}" } }] }, "stop"));
    expect(a.finish()).toEqual([
      { type: "tool_call", call: { id: "gen_0", name: "a", args: {} } },
      { type: "tool_call", call: { id: "k", name: "b", args: { q: true } } },
      { type: "finish", reason: "tool_calls" },
    ]);
  });

  it("ignores other choices and reports a mid-stream error as a server error", () => {
    const a = new ChatChunkAssembler({ newCallId: ids() });
    expect(a.push({ choices: [{ index: 1, delta: { content: "other" } }] })).toEqual([]);
    expect(() => a.push({ error: { message: "overloaded" } })).toThrowError(ModelError);
    expect(a.finished).toBe(false);
  });

  it("rejects a call that never got a name", () => {
    const a = new ChatChunkAssembler({ newCallId: ids() });
    a.push(delta({ tool_calls: [{ index: 0, id: "z", function: { arguments: "{}" } }] }, "tool_calls"));
    expect(() => a.finish()).toThrowError(/without a name/);
  });
});

describe("helpers", () => {
  it("parses arguments, reporting non-objects raw", () => {
    expect(parseToolArguments("")).toEqual({ args: {} });
    expect(parseToolArguments('{"a":1}')).toEqual({ args: { a: 1 } });
    expect(parseToolArguments("[1]")).toEqual({ args: {}, invalidArguments: "[1]" });
    expect(parseToolArguments("{oops")).toEqual({ args: {}, invalidArguments: "{oops" });
  });

  it("maps finish reasons", () => {
    expect(mapFinishReason("length")).toBe("length");
    expect(mapFinishReason("function_call")).toBe("tool_calls");
    expect(mapFinishReason("eos")).toBe("other");
  });

  it("turns a whole completion into the same events", () => {
    const events = completionEvents(
      {
        choices: [
          {
            message: {
              content: "hi",
              tool_calls: [{ id: "t", type: "function", function: { name: "n", arguments: "{}" } }],
            },
            finish_reason: "tool_calls",
          },
        ],
      },
      ids(),
    );
    expect(events).toEqual([
      { type: "text", text: "hi" },
      { type: "tool_call", call: { id: "t", name: "n", args: {} } },
      { type: "finish", reason: "tool_calls" },
    ]);
  });
});
