import { describe, expect, it } from "vitest";
import { approvalChoices, changesNothing } from "./approval-choices.js";
import { interactionOf } from "./interaction.js";

const options = [
  { optionId: "proceed_always", name: "Allow All Edits", kind: "allow_always" as const },
  { optionId: "proceed_once", name: "Allow", kind: "allow_once" as const },
  { optionId: "cancel", name: "Reject", kind: "reject_once" as const },
];

describe("approvalChoices", () => {
  it("puts Allow (once) first, Reject next and the standing choice last, with its scope in words", () => {
    const edit = interactionOf(
      {
        requestId: "r",
        toolCall: {
          toolCallId: "t",
          title: "Write a.md",
          content: [{ type: "diff", path: "a.md", oldText: "a", newText: "b" }],
        },
        options,
      },
      "/ws",
    );
    expect(approvalChoices(edit).map((c) => [c.role, c.label, c.scope])).toEqual([
      ["once", "Allow", undefined],
      ["reject", "Reject", undefined],
      [
        "standing",
        "Allow all edits",
        "Allows this and every later edit in this session without asking again.",
      ],
    ]);
  });

  it("tells an edit that changes nothing", () => {
    expect(changesNothing({ path: "a", oldText: "x\n", newText: "x\n" })).toBe(true);
    expect(changesNothing({ path: "a", oldText: null, newText: "" })).toBe(false);
    expect(changesNothing({ path: "a", oldText: "x", newText: "y" })).toBe(false);
  });
});
