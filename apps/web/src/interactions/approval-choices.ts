// The options of a tool approval in the order and the words a person should meet them: "Allow" (this once)
// first, the way to say no next, and any standing choice ("Allow All Edits", "Always Allow in this session")
// last, apart, with what it allows in words: a standing choice is the risky one, so it must never be the
// easiest. Pure.
import type { FileDiff } from "../conversation/tool-content.js";
import { isApproval, optionLabel, type PermissionOption } from "./answers.js";
import type { Interaction } from "./interaction.js";

export type ApprovalChoice = {
  option: PermissionOption;
  /** `once`: allow this call; `reject`: say no; `standing`: a choice that also covers later calls. */
  role: "once" | "reject" | "standing";
  label: string;
  /** For a standing choice: what else it allows or refuses, in words. */
  scope?: string;
};

const ORDER = { once: 0, reject: 1, standing: 2 } as const;

export function approvalChoices(interaction: Interaction): ApprovalChoice[] {
  return interaction.request.options
    .map((option): ApprovalChoice => {
      const standing = typeof option.kind === "string" && option.kind.endsWith("_always");
      if (!standing)
        return { option, role: isApproval(option) ? "once" : "reject", label: optionLabel(option) };
      return { option, role: "standing", ...standingWords(interaction, isApproval(option), option) };
    })
    .sort((a, b) => ORDER[a.role] - ORDER[b.role]);
}

function standingWords(
  interaction: Interaction,
  allow: boolean,
  option: PermissionOption,
): { label: string; scope: string } {
  if (!allow) {
    return { label: optionLabel(option), scope: "Also refuses later requests like this one without asking." };
  }
  // What the agent means by its standing choice: edits and commands are allowed for the rest of the session.
  switch (interaction.kind) {
    case "edit":
      return {
        label: "Allow all edits",
        scope: "Allows this and every later edit in this session without asking again.",
      };
    case "command":
      return {
        label: "Allow all commands",
        scope: "Allows this and every later command in this session without asking again.",
      };
    default:
      return {
        label: optionLabel(option),
        scope: "Allows this and later requests like it without asking again.",
      };
  }
}

/** An edit that writes back what the file already holds. */
export function changesNothing(diff: FileDiff): boolean {
  return diff.oldText !== null && diff.oldText === diff.newText;
}
