import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Content, Part } from "../content.js";
import { danglingCallIds, ORPHAN_TOOL_RESULT_TEXT } from "../history/orphan-repair.js";
import { Chat } from "./chat.js";

const auq = (id: string): Content => ({
  role: "model",
  parts: [
    { text: "Let me ask." },
    { functionCall: { id, name: "ask_user_question", args: { questions: [] } } },
  ],
});
const userText = (text: string): Content => ({ role: "user", parts: [{ text }] });
const response = (id: string, output: string): Content => ({
  role: "user",
  parts: [{ functionResponse: { id, name: "ask_user_question", response: { output } } }],
});

/** True when some model entry with calls is followed by a user entry that answers none of them. */
function hasCallThenPlainUser(contents: readonly Content[]): boolean {
  return contents.some((entry, i) => {
    const next = contents[i + 1];
    return (
      entry.role === "model" &&
      entry.parts.some((p) => p.functionCall?.id) &&
      next?.role === "user" &&
      !next.parts.some((p) => p.functionResponse)
    );
  });
}

describe("Chat.start", () => {
  it("repairs a dangling call that is not preserved", () => {
    const chat = Chat.start([userText("hi"), auq("c1")]);
    expect(chat.getHistory()).toHaveLength(3);
    expect(chat.peekLastHistoryEntry()).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "c1",
            name: "ask_user_question",
            response: { error: ORPHAN_TOOL_RESULT_TEXT },
          },
        },
      ],
    });
  });

  it("keeps a preserved call dangling and returns the very entry from peekLastHistoryEntry", () => {
    const last = auq("c1");
    const chat = Chat.start([userText("hi"), last], { preserveCallIds: new Set(["c1"]) });
    expect(chat.getHistory()).toHaveLength(2);
    expect(chat.peekLastHistoryEntry()).toBe(last);
  });

  it("does not mutate the caller's array", () => {
    const input = [userText("hi"), auq("c1")];
    const chat = Chat.start(input);
    chat.append(userText("more"));
    expect(input).toHaveLength(2);
  });
});

describe("Chat.contentsForSend (inline repair)", () => {
  it("never sends model[functionCall] -> user[text], even for a preserved call", () => {
    const chat = Chat.start([userText("hi"), auq("c1")], { preserveCallIds: new Set(["c1"]) });
    chat.append(userText("never mind, do something else"));
    const sent = chat.contentsForSend();
    expect(hasCallThenPlainUser(sent)).toBe(false);
    expect(sent.at(-1)).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "c1",
            name: "ask_user_question",
            response: { error: ORPHAN_TOOL_RESULT_TEXT },
          },
        },
        { text: "never mind, do something else" },
      ],
    });
    // The history now holds what the model saw, so the question no longer counts as pending.
    expect(chat.getHistory()).toEqual(sent);
  });

  it("changes nothing when the preserved call gets its real response (the restore path)", () => {
    const chat = Chat.start([userText("hi"), auq("c1")], { preserveCallIds: new Set(["c1"]) });
    chat.append(response("c1", "User has provided the following answers:\n\n**Color**: Blue"));
    const before = [...chat.getHistory()];
    expect(chat.contentsForSend()).toEqual(before);
  });

  it("returns a copy of the history array", () => {
    const chat = Chat.start([userText("hi")]);
    const sent = chat.contentsForSend();
    sent.push(userText("extra"));
    expect(chat.getHistory()).toHaveLength(1);
  });

  it("property: after contentsForSend no call is left unanswered, whatever was preserved", () => {
    const ids = ["a", "b", "c"];
    const part: fc.Arbitrary<Part> = fc.oneof(
      fc.string().map((text) => ({ text })),
      fc.constantFrom(...ids).map((id) => ({ functionCall: { id, name: "t", args: {} } })),
      fc
        .constantFrom(...ids)
        .map((id) => ({ functionResponse: { id, name: "t", response: { output: "ok" } } })),
    );
    const entry: fc.Arbitrary<Content> = fc.record({
      role: fc.constantFrom("user" as const, "model" as const),
      parts: fc.array(part, { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 8 }),
        fc.subarray(ids),
        fc.array(entry, { maxLength: 3 }),
        (history, preserved, later) => {
          const chat = Chat.start(history, { preserveCallIds: new Set(preserved) });
          for (const e of later) chat.append(e);
          expect(danglingCallIds(chat.contentsForSend())).toEqual([]);
        },
      ),
    );
  });
});
