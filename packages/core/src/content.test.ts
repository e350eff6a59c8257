import { describe, expect, it } from "vitest";
import { Content, functionCallsOf, functionResponsesOf } from "./content.js";

describe("content", () => {
  it("parses a model turn with text and a function call", () => {
    const c = Content.parse({
      role: "model",
      parts: [{ text: "hi" }, { functionCall: { id: "c1", name: "ask_user_question", args: { a: 1 } } }],
    });
    expect(functionCallsOf(c).map((f) => f.id)).toEqual(["c1"]);
    expect(functionResponsesOf(c)).toEqual([]);
  });
  it("rejects an unknown role", () => {
    expect(Content.safeParse({ role: "system", parts: [] }).success).toBe(false);
  });
});
