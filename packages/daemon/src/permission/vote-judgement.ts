// How a vote on a waiting request is judged, as a pure decision (the mediator applies it): a cancel always
// passes (reason `user`, every policy bypassed); otherwise the option must have been offered (400) and the
// request's policy must allow this voter (403); a consensus vote that does not reach the quorum is only counted.
import type { ForbiddenReason } from "@qwen-daemon/core/protocol";
import type { PendingEntry } from "./pending-request.js";
import { policyRefusal } from "./policies.js";
import type { PermissionDecision, PermissionVote } from "./vote.js";

export type VoteJudgement =
  | { refused: "invalid_option"; optionId: string }
  | { refused: "forbidden"; reason: ForbiddenReason }
  | { refused?: undefined; partial: boolean; decision: PermissionDecision };

export function judgeVote(entry: PendingEntry, v: PermissionVote): VoteJudgement {
  const voter = {
    ...(v.clientId !== undefined ? { voterClientId: v.clientId } : {}),
    ...(v.device !== undefined ? { voterDevice: v.device } : {}),
  };
  // A link answer passes the policy even to cancel: "Decline" from a notification is an answer like any other.
  if (v.link !== undefined) {
    const forbidden = policyRefusal(entry, v);
    if (forbidden !== undefined) return { refused: "forbidden", reason: forbidden };
  }
  if (v.outcome.outcome === "cancelled") {
    return { partial: false, decision: { outcome: { outcome: "cancelled" }, reason: "user", ...voter } };
  }
  const { optionId } = v.outcome;
  if (!entry.optionIds.has(optionId)) return { refused: "invalid_option", optionId };
  const forbidden = policyRefusal(entry, v);
  if (forbidden !== undefined) return { refused: "forbidden", reason: forbidden };
  return {
    // A consensus vote that does not reach the quorum is only counted; `decision` is what it settles if it does.
    // A link answer the policy lets in decides alone (it is nobody in a consensus electorate).
    partial:
      v.link === undefined &&
      entry.tally !== undefined &&
      !entry.tally.wouldDecide(v.clientId as string, optionId),
    // Under consensus the answers of the vote that reached the quorum are the ones used.
    decision: {
      outcome: { outcome: "selected", optionId },
      ...(v.answers !== undefined ? { answers: v.answers } : {}),
      ...voter,
    },
  };
}
