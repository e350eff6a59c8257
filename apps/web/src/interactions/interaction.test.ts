import { describe, expect, it } from "vitest";
import { interactionKey, interactionOf, waitingText } from "./interaction.js";

const options = [
  { optionId: "proceed_once", name: "Submit", kind: "allow_once" },
  { optionId: "cancel", name: "Cancel", kind: "reject_once" },
];
const question = (requestId: string, toolCallId = "call_1") => ({
  requestId,
  options,
  toolCall: {
    toolCallId,
    title: "Ask user 1 question",
    kind: "think",
    _meta: {
      toolName: "ask_user_question",
      qwenInteractionKind: "user_question",
      qwenQuestions: [
        { question: "Which colour?", header: "Colour", options: [{ label: "Red" }, { label: "Blue" }] },
      ],
    },
  },
});

describe("interactions", () => {
  it("a re-asked question (new request id) has the same key; another call or question does not", () => {
    expect(interactionKey(question("r1"))).toBe(interactionKey(question("r2")));
    expect(interactionKey(question("r1"))).not.toBe(interactionKey(question("r1", "call_2")));
    const reworded = question("r1");
    reworded.toolCall._meta.qwenQuestions[0]!.question = "Which shade?";
    expect(interactionKey(reworded)).not.toBe(interactionKey(question("r1")));
  });

  it("classifies questions, edits, commands and other tools", () => {
    expect(interactionOf(question("r"), "/ws")).toMatchObject({ kind: "question", toolCallId: "call_1" });
    const edit = interactionOf(
      {
        requestId: "e",
        options,
        toolCall: {
          toolCallId: "w",
          title: "Write notes.md",
          kind: "edit",
          content: [{ type: "diff", path: "/ws/notes.md", oldText: null, newText: "hi" }],
          locations: [{ path: "/ws/notes.md" }],
        },
      },
      "/ws",
    );
    expect(edit).toMatchObject({ kind: "edit", title: "Write notes.md", locations: ["/ws/notes.md"] });
    expect(waitingText(edit)).toBe("Edit notes.md");
    const command = interactionOf(
      {
        requestId: "c",
        options,
        toolCall: { toolCallId: "x", title: "npm test", kind: "execute", rawInput: { command: "npm test" } },
      },
      "/ws",
    );
    expect(command).toMatchObject({ kind: "command", command: { command: "npm test", cwd: "/ws" } });
    expect(waitingText(command)).toBe("Run: npm test");
    const other = interactionOf({ requestId: "o", options, toolCall: { title: "Fetch a page" } }, "/ws");
    expect(other).toMatchObject({ kind: "tool", title: "Fetch a page", restored: false });
    expect(waitingText(interactionOf(question("r"), "/ws"))).toBe("Which colour?");
  });
});
