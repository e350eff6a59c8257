// A vote on a pending permission request and what the mediator makes of it: applied (resolved or, under
// consensus, recorded), or refused with a domain error (not pending, option not offered, forbidden by policy)
// whose status the HTTP edge chooses.
import type { ForbiddenReason } from "@qwen-daemon/core/protocol";
import type { DaemonError } from "../errors/daemon-error.js";
import { invalidOptionId, permissionForbidden, permissionNotPending } from "../errors/domain-errors.js";
import type { AuditEntry } from "./audit-log.js";
import type { PendingEntry, PendingPermission } from "./pending-request.js";
import type { PermissionDecision, PermissionVote } from "./vote.js";

export type { PermissionVote } from "./vote.js";

/** What a vote came to; a refusal carries the error the voter is answered with. */
export type VoteResult =
  | { kind: "resolved" | "recorded" }
  | { kind: "not_found" | "already_resolved" | "invalid_option" | "forbidden"; error: DaemonError };

/** What `checkVote` found: a final refusal, a consensus vote that would only be counted, or the decision it would settle. */
export type VoteCheck =
  | { kind: "refused"; result: VoteResult }
  | { kind: "partial" }
  | { kind: "decides"; request: PendingPermission; decision: PermissionDecision };

/** A vote on a request that is not pending (`alreadyResolved`: it was, and has ended). */
export function notPendingResult(v: PermissionVote, alreadyResolved: boolean): VoteResult {
  return {
    kind: alreadyResolved ? "already_resolved" : "not_found",
    error: permissionNotPending(v.requestId, v.sessionId),
  };
}

/** A vote that picks an option the agent did not offer. */
export function invalidOptionResult(entry: PendingEntry, optionId: string): VoteResult {
  return { kind: "invalid_option", error: invalidOptionId(entry.requestId, optionId) };
}

/** A vote the request's policy does not accept. */
export function forbiddenResult(entry: PendingEntry, reason: ForbiddenReason): VoteResult {
  return { kind: "forbidden", error: permissionForbidden(entry.requestId, entry.sessionId, reason) };
}

/** Who voted, for the audit trail. */
export function voterFields(v: PermissionVote): Partial<AuditEntry> {
  return {
    ...(v.clientId !== undefined ? { clientId: v.clientId } : {}),
    ...(v.remoteAddress !== undefined ? { remoteAddress: v.remoteAddress } : {}),
  };
}
