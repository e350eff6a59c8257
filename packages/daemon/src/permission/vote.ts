// What a pending permission request ends with. The wire shapes of votes and options are the contract's
// (@qwen-daemon/core/protocol); the decision below is the mediator's own.
import type { PermissionCancelReason, VoteOutcome } from "@qwen-daemon/core/protocol";

/** Why a request ended without an option being chosen: a user's cancel vote, or nobody's choice. */
export type CancelReason = "user" | PermissionCancelReason;

/**
 * What the agent's pending `session/request_permission` is answered with. TypeScript does not
 * narrow on the nested `outcome.outcome`, so each side declares the other's keys as `never`:
 * `decision.answers` and `decision.reason` can be read on the union without casts.
 */
export type PermissionDecision =
  | {
      outcome: { outcome: "selected"; optionId: string };
      answers?: Record<string, string>;
      reason?: never;
      voterClientId?: string;
      voterDevice?: string;
    }
  | {
      outcome: { outcome: "cancelled" };
      reason: CancelReason;
      answers?: never;
      voterClientId?: string;
      voterDevice?: string;
    };

/** One vote on a pending request, as the routes hand it to the mediator. */
export type PermissionVote = {
  /** Undefined for the legacy `POST /permission/:requestId` route. */
  sessionId?: string;
  requestId: string;
  clientId?: string;
  /** The device the voter named (`X-Qwen-Client-Device`): shown to clients, never judged. */
  device?: string;
  /** The socket's remote address, never a header (judged under `local-only`). */
  remoteAddress?: string;
  outcome: VoteOutcome;
  answers?: Record<string, string>;
  /** A link answer (`clientId` is then `link:<label>`, registered nowhere); see PolicyVoter. */
  link?: { allowed: boolean };
};
