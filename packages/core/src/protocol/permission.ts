// Permission requests and their answers on the wire: the options a child offers, the vote a client posts
// (docs/protocol.md "Permissions and questions"), and the answer the daemon sends back to the child's session/request_permission
// (answers ride top-level beside `outcome`; a cancel nobody chose carries its reason in `_meta`).
import { z } from "zod";
import { PERMISSION_CANCEL_REASON_META_KEY } from "./meta.js";

export const PermissionOptionKind = z.enum(["allow_once", "allow_always", "reject_once", "reject_always"]);
export type PermissionOptionKind = z.infer<typeof PermissionOptionKind>;

/** One choice the agent offers (ACP `PermissionOption`). */
export const PermissionOption = z.object({
  optionId: z.string().min(1),
  name: z.string(),
  kind: PermissionOptionKind,
});
export type PermissionOption = z.infer<typeof PermissionOption>;

/**
 * An option as a child offers it in `session/request_permission`, read loosely at the boundary: the daemon
 * relays options to clients exactly as the child sent them.
 */
export const OfferedPermissionOption = z.looseObject({
  optionId: z.string(),
  name: z.string(),
  kind: z.string(),
});
export type OfferedPermissionOption = z.infer<typeof OfferedPermissionOption>;

/**
 * The tool call of a permission request, as the child sent it (docs/protocol.md "The agent process"):
 * `title`, `kind`, `content`, `locations`, `rawInput` and the `_meta` of meta.ts ride along unchecked.
 */
export const PermissionToolCall = z.looseObject({ toolCallId: z.string() });
export type PermissionToolCall = z.infer<typeof PermissionToolCall>;

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

/** Why a request ended with nobody's choice: the values of `_meta[PERMISSION_CANCEL_REASON_META_KEY]`. */
export const PermissionCancelReason = z.enum(["timeout", "agent_cancelled", "session_closed"]);
export type PermissionCancelReason = z.infer<typeof PermissionCancelReason>;

/** Why a policy refused a vote (the only two values clients of the reference accept). */
export const ForbiddenReason = z.enum(["designated_mismatch", "remote_not_allowed"]);
export type ForbiddenReason = z.infer<typeof ForbiddenReason>;

const MetaField = z.record(z.string(), z.unknown()).nullish();

/**
 * The answer to a child's `session/request_permission`: the ACP shape plus the daemon's top-level `answers`.
 * Loose, as a child reads it: another daemon may add fields, and `answers` values that are not strings are
 * dropped by the reader rather than refusing the whole answer.
 */
export const PermissionResponse = z.looseObject({
  outcome: z.discriminatedUnion("outcome", [
    z.looseObject({ outcome: z.literal("cancelled"), _meta: MetaField }),
    z.looseObject({ outcome: z.literal("selected"), optionId: z.string(), _meta: MetaField }),
  ]),
  answers: z.record(z.string(), z.unknown()).nullish(),
  _meta: MetaField,
});
export type PermissionResponse = z.infer<typeof PermissionResponse>;

/** The reason a cancelled answer gives (on the response or, from older daemons, on its outcome). */
export function cancelReasonOf(response: PermissionResponse): unknown {
  if (response.outcome.outcome !== "cancelled") return undefined;
  return (
    response._meta?.[PERMISSION_CANCEL_REASON_META_KEY] ??
    response.outcome._meta?.[PERMISSION_CANCEL_REASON_META_KEY]
  );
}

/** A cancelled answer that says why nobody chose (no reason: the user declined). */
export function cancelledPermissionResponse(reason?: PermissionCancelReason): PermissionResponse {
  return reason === undefined
    ? { outcome: { outcome: "cancelled" } }
    : { outcome: { outcome: "cancelled" }, _meta: { [PERMISSION_CANCEL_REASON_META_KEY]: reason } };
}
