import { describe, expect, it } from "vitest";
import type { Content } from "../content.js";
import {
  buildOpenAIChatRequest,
  functionResponseText,
  toOpenAIMessages,
  toOpenAITools,
} from "./openai-messages.js";

const auqArgs = { questions: [{ question: "Q?", header: "H", options: [] }] };

describe("toOpenAIMessages", () => {
  it("maps system, user text, model text + calls, and one tool message per response", () => {
    const history: Content[] = [
      { role: "user", parts: [{ text: "please help" }] },
      {
        role: "model",
        parts: [
          { text: "Let me ask", thought: true },
          { text: "Sure. " },
          { text: "One question." },
          { functionCall: { id: "c1", name: "ask_user_question", args: auqArgs } },
          { functionCall: { id: "c2", name: "list_directory", args: { path: "." } } },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "c1",
              name: "ask_user_question",
              response: { output: "User has provided" },
            },
          },
          { functionResponse: { id: "c2", name: "list_directory", response: { error: "denied" } } },
        ],
      },
    ];
    expect(toOpenAIMessages(history, "sys")).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "please help" },
      {
        role: "assistant",
        content: "Sure. One question.",
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "ask_user_question", arguments: JSON.stringify(auqArgs) },
          },
          { id: "c2", type: "function", function: { name: "list_directory", arguments: '{"path":"."}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "User has provided" },
      { role: "tool", tool_call_id: "c2", content: "denied" },
    ]);
  });

  it("sends a call-only model turn with null content and drops thought-only turns", () => {
    const history: Content[] = [
      { role: "model", parts: [{ text: "hmm", thought: true }] },
      { role: "model", parts: [{ functionCall: { id: "x", name: "read_file" } }] },
    ];
    expect(toOpenAIMessages(history)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "x", type: "function", function: { name: "read_file", arguments: "{}" } }],
      },
    ]);
  });

  it("puts tool messages before the text of the same user entry", () => {
    const history: Content[] = [
      { role: "model", parts: [{ functionCall: { id: "a", name: "t" } }] },
      {
        role: "user",
        parts: [{ text: "next" }, { functionResponse: { id: "a", name: "t", response: { output: "r" } } }],
      },
    ];
    expect(toOpenAIMessages(history).map((m) => m.role)).toEqual(["assistant", "tool", "user"]);
  });

  it("invents ids for calls without one and pairs id-less responses by name", () => {
    const history: Content[] = [
      { role: "model", parts: [{ functionCall: { name: "a" } }, { functionCall: { name: "b" } }] },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "b", response: { output: "B" } } },
          { functionResponse: { name: "a", response: { output: "A" } } },
        ],
      },
    ];
    const messages = toOpenAIMessages(history);
    const calls = messages[0]?.role === "assistant" ? messages[0].tool_calls : undefined;
    expect(calls?.map((c) => c.id)).toEqual(["call_0_0", "call_0_1"]);
    expect(messages.slice(1)).toEqual([
      { role: "tool", tool_call_id: "call_0_1", content: "B" },
      { role: "tool", tool_call_id: "call_0_0", content: "A" },
    ]);
  });
});

describe("functionResponseText", () => {
  it("prefers output, then error, then JSON", () => {
    expect(functionResponseText({ output: "o", error: "e" })).toBe("o");
    expect(functionResponseText({ error: "e" })).toBe("e");
    expect(functionResponseText({ output: { n: 1 } })).toBe('{"n":1}');
    expect(functionResponseText({ result: 2 })).toBe('{"result":2}');
  });
});

describe("request body", () => {
  it("declares tools as JSON Schema functions and omits an empty tools array", () => {
    const decl = { name: "grep", description: "Search", parameters: { type: "object", properties: {} } };
    expect(toOpenAITools([decl])).toEqual([
      { type: "function", function: { name: "grep", description: "Search", parameters: decl.parameters } },
    ]);
    const withTools = buildOpenAIChatRequest({ model: "m", contents: [], tools: [decl] });
    expect(withTools.tools).toHaveLength(1);
    const bare = buildOpenAIChatRequest({
      model: "m",
      contents: [],
      tools: [],
      includeUsage: false,
      extraBody: { temperature: 0 },
    });
    expect(bare).toEqual({ temperature: 0, model: "m", messages: [], stream: true });
  });
});
