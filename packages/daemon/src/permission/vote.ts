import { z } from "zod";

export const PermissionOptionKind = z.enum(["allow_once", "allow_always", "reject_once", "reject_always"]);
export type PermissionOptionKind = z.infer<typeof PermissionOptionKind>;

/** One choice the agent offers (ACP `PermissionOption`). */
export const PermissionOption = z.object({
  optionId: z.string().min(1),
  name: z.string(),
  kind: PermissionOptionKind,
});
export type PermissionOption = z.infer<typeof PermissionOption>;

/** The `outcome` of a vote body: pick an offered option, or cancel. */
export const VoteOutcome = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("selected"), optionId: z.string().min(1) }),
  z.object({ outcome: z.literal("cancelled") }),
]);
export type VoteOutcome = z.infer<typeof VoteOutcome>;

/** Free-text answers to an ask_user_question, keyed by question index ("0", "1", ...). */
export const VoteAnswers = z.record(z.string(), z.string());
export type VoteAnswers = z.infer<typeof VoteAnswers>;

/** Body of `POST /session/:id/permission/:requestId` and `POST /permission/:requestId`. */
export const PermissionVoteBody = z.object({ outcome: VoteOutcome, answers: VoteAnswers.optional() });
export type PermissionVoteBody = z.infer<typeof PermissionVoteBody>;

/** Why a request ended without an option being chosen. */
export type CancelReason = "user" | "timeout" | "session_closed" | "agent_cancelled";

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
    }
  | { outcome: { outcome: "cancelled" }; reason: CancelReason; answers?: never; voterClientId?: string };
