// A vote on a pending permission request and what the vote routes answer to it: the result shapes, and
// the bodies of the refusals (404 not pending, 400 option not offered, 403 forbidden by policy).
import type { ForbiddenReason } from "@qwen-daemon/core/protocol";
import { clipEcho, quoteEcho } from "../http/echo.js";
import type { AuditEntry } from "./audit-log.js";
import type { PendingEntry, PendingPermission } from "./pending-request.js";
import type { PermissionDecision, PermissionVote } from "./vote.js";

export type { PermissionVote } from "./vote.js";

/** What the vote routes answer; `kind` is for the caller, only `status` and `body` go on the wire. */
export type VoteResult =
  | { status: 200; kind: "resolved" | "recorded"; body: Record<string, never> }
  | { status: 404; kind: "not_found" | "already_resolved"; body: NotFoundBody }
  | { status: 400; kind: "invalid_option"; body: InvalidOptionBody }
  | { status: 403; kind: "forbidden"; body: ForbiddenBody };

/** What `checkVote` found: a final refusal, a consensus vote that would only be counted, or the decision it would settle. */
export type VoteCheck =
  | { kind: "refused"; result: VoteResult }
  | { kind: "partial" }
  | { kind: "decides"; request: PendingPermission; decision: PermissionDecision };

type NotFoundBody = { error: string; sessionId?: string; requestId: string };
type InvalidOptionBody = { error: string; code: "invalid_option_id"; requestId: string; optionId: string };
type ForbiddenBody = {
  error: string;
  code: "permission_forbidden";
  reason: ForbiddenReason;
  requestId: string;
  sessionId: string;
};

/** 404 for a vote on a request that is not pending (`alreadyResolved`: it was, and has ended). */
export function notPendingResult(v: PermissionVote, alreadyResolved: boolean): VoteResult {
  // Unknown, resolved and "belongs to another session" look the same on the wire, so a
  // client cannot probe which request ids exist in sessions it is not looking at.
  const kind = alreadyResolved ? "already_resolved" : "not_found";
  if (v.sessionId === undefined) {
    return {
      status: 404,
      kind,
      body: { error: "No pending permission request", requestId: clipEcho(v.requestId) },
    };
  }
  return {
    status: 404,
    kind,
    body: {
      error: "No pending permission request for session",
      sessionId: clipEcho(v.sessionId, 200),
      requestId: clipEcho(v.requestId),
    },
  };
}

/** 400 for a vote that picks an option the agent did not offer (the id is echoed clipped: it is the client's). */
export function invalidOptionResult(entry: PendingEntry, optionId: string): VoteResult {
  return {
    status: 400,
    kind: "invalid_option",
    body: {
      error: `Permission ${entry.requestId}: optionId ${quoteEcho(optionId)} is not in the set of options the agent offered.`,
      code: "invalid_option_id",
      requestId: entry.requestId,
      optionId: clipEcho(optionId),
    },
  };
}

/** 403 for a vote the request's policy does not accept. */
export function forbiddenResult(entry: PendingEntry, reason: ForbiddenReason): VoteResult {
  return {
    status: 403,
    kind: "forbidden",
    body: {
      error: `Permission ${entry.requestId} on session ${entry.sessionId}: vote rejected by policy (${reason}).`,
      code: "permission_forbidden",
      reason,
      requestId: entry.requestId,
      sessionId: entry.sessionId,
    },
  };
}

/** Who voted, for the audit trail. */
export function voterFields(v: PermissionVote): Partial<AuditEntry> {
  return {
    ...(v.clientId !== undefined ? { clientId: v.clientId } : {}),
    ...(v.remoteAddress !== undefined ? { remoteAddress: v.remoteAddress } : {}),
  };
}
