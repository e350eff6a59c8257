import { describe, expect, it } from "vitest";
import type { OpenAIChatMessage } from "../model/openai-wire.js";
import { checkToolCallPairing } from "./chat-request-rules.js";

const call = (id: string) => ({ id, type: "function" as const, function: { name: "t", arguments: "{}" } });
const assistant = (...ids: string[]): OpenAIChatMessage => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map(call),
});
const tool = (id: string): OpenAIChatMessage => ({ role: "tool", tool_call_id: id, content: "r" });
const user: OpenAIChatMessage = { role: "user", content: "hi" };

describe("checkToolCallPairing", () => {
  it("accepts calls answered in any order before the next message", () => {
    expect(checkToolCallPairing([user, assistant("a", "b"), tool("b"), tool("a"), user])).toBeUndefined();
  });

  it("rejects a user message after an unanswered call (the missing-repair case)", () => {
    expect(checkToolCallPairing([user, assistant("a", "b"), tool("a"), user])).toMatch(
      /did not have response messages: b/,
    );
  });

  it("rejects a trailing unanswered call and a tool message with no matching call", () => {
    expect(checkToolCallPairing([user, assistant("a")])).toMatch(
      /tool_call_ids did not have response messages: a/,
    );
    expect(checkToolCallPairing([user, tool("zz")])).toMatch(/must be a response to a preceeding message/);
    expect(checkToolCallPairing([user, assistant("a"), tool("a"), tool("a")])).toMatch(/preceeding/);
  });
});
