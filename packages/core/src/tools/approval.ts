// Which calls need the user's yes, by confirmation kind and approval mode. Pure; the turn loop applies it.
import type { ApprovalMode, ConfirmationKind } from "./tool.js";

export type ApprovalDecision = "allow" | "ask" | "deny";

const TABLE: Record<ConfirmationKind, Record<ApprovalMode, ApprovalDecision>> = {
  // Reads never ask, in any mode (plan mode is for reading).
  none: { default: "allow", "auto-edit": "allow", yolo: "allow", plan: "allow" },
  // A question is the user's own input, so it is asked even in yolo, and is how plan mode clarifies.
  user_question: { default: "ask", "auto-edit": "ask", yolo: "ask", plan: "ask" },
  edit: { default: "ask", "auto-edit": "allow", yolo: "allow", plan: "deny" },
  exec: { default: "ask", "auto-edit": "ask", yolo: "allow", plan: "deny" },
};

export function decideConfirmation(kind: ConfirmationKind, mode: ApprovalMode): ApprovalDecision {
  return TABLE[kind][mode];
}

/**
 * The tool result for a call plan mode refuses. Wording follows the reference's plan-mode block for hosts
 * without exit_plan_mode, with our read-only tool names.
 */
export function planModeDenialText(toolName: string): string {
  return (
    `Tool blocked by plan mode: "${toolName}" is not a read-only tool. Only read-only tools (read_file, ` +
    "list_directory, glob, grep, etc.) are allowed in plan mode. Do NOT retry this tool. Pivot to read-only " +
    "alternatives to gather equivalent information, then present your plan directly to the caller."
  );
}
