import { describe, expect, it } from "vitest";
import { decideConfirmation, planModeDenialText } from "./approval.js";
import type { ApprovalMode, ConfirmationKind } from "./tool.js";

const modes: ApprovalMode[] = ["default", "auto-edit", "yolo", "plan"];

describe("decideConfirmation", () => {
  it("matches the whole table", () => {
    const expected: Record<ConfirmationKind, string[]> = {
      none: ["allow", "allow", "allow", "allow"],
      user_question: ["ask", "ask", "ask", "ask"],
      edit: ["ask", "allow", "allow", "deny"],
      exec: ["ask", "ask", "allow", "deny"],
    };
    for (const [kind, decisions] of Object.entries(expected) as [ConfirmationKind, string[]][]) {
      expect(modes.map((mode) => decideConfirmation(kind, mode))).toEqual(decisions);
    }
  });

  it("has the plan-mode denial text", () => {
    expect(planModeDenialText("write_file")).toBe(
      'Tool blocked by plan mode: "write_file" is not a read-only tool. Only read-only tools (read_file, ' +
        "list_directory, glob, grep, etc.) are allowed in plan mode. Do NOT retry this tool. Pivot to read-only " +
        "alternatives to gather equivalent information, then present your plan directly to the caller.",
    );
  });
});
