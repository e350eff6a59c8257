// The mediator's decision, as the ACP response to the child's session/request_permission.
// Answers ride top-level beside `outcome` (docs/protocol.md "The agent process"); a cancel the user did not choose carries its
// reason so the child can tell "declined" from "nobody was there" (timeout, session closed, aborted).
import { cancelledPermissionResponse, type PermissionResponse } from "@qwen-daemon/core/protocol";
import type { PermissionDecision } from "../permission/vote.js";

export function toAcpPermissionResponse(decision: PermissionDecision): PermissionResponse {
  if (decision.outcome.outcome === "selected") {
    return {
      outcome: { outcome: "selected", optionId: decision.outcome.optionId },
      ...(decision.answers !== undefined ? { answers: decision.answers } : {}),
    };
  }
  const reason = "reason" in decision ? decision.reason : "user";
  // A user's cancel vote is a decline: no reason key, so the child persists it.
  return cancelledPermissionResponse(reason === "user" ? undefined : reason);
}

/** What the daemon answers when it cannot even register the request (session unknown or loading). */
export const CANCELLED_SESSION_CLOSED: PermissionResponse = cancelledPermissionResponse("session_closed");
