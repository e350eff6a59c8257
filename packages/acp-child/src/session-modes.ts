// Approval modes as ACP session modes. Which calls ask in which mode is core's decision (the turn loop
// reads the session Config's approval mode); this file only names the modes for clients.
import type { SessionModeState } from "@agentclientprotocol/sdk";
import { APPROVAL_MODES, type ApprovalMode } from "@qwen-daemon/core";

const MODE_INFO: Record<ApprovalMode, { name: string; description: string }> = {
  plan: { name: "Plan", description: "Analyze only, do not modify files or execute commands" },
  default: { name: "Default", description: "Require approval for file edits or shell commands" },
  "auto-edit": { name: "Auto Edit", description: "Automatically approve file edits" },
  yolo: { name: "YOLO", description: "Automatically approve all tools" },
};

export function modeInfo(mode: ApprovalMode): { name: string; description: string } {
  return MODE_INFO[mode];
}

export function isApprovalMode(value: unknown): value is ApprovalMode {
  return typeof value === "string" && (APPROVAL_MODES as readonly string[]).includes(value);
}

export function modeState(current: ApprovalMode): SessionModeState {
  return {
    currentModeId: current,
    availableModes: APPROVAL_MODES.map((id) => ({ id, ...MODE_INFO[id] })),
  };
}
