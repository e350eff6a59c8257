// Answers from a notification (docs/notifications.md): the actions a `question_waiting` / `approval_waiting`
// notification carries, and the capability each action URL holds. The capability crosses process boundaries
// (a phone, a push service, the daemon after a restart), so its payload is a wire shape like any other.
import { z } from "zod";
import { PermissionVoteBody } from "./permission.js";

/** The path prefix of action URLs (`<public-url>/a/<capability>`). */
export const LINK_PATH_PREFIX = "/a/";

/** Longest capability the daemon reads; anything longer is refused before it is decoded. */
export const MAX_CAPABILITY_LENGTH = 4096;

/**
 * What a capability lets its holder do: answer one question (session + tool call id, stable across restarts)
 * with one decision, or, for `page`, open the answer page that lets them compose the answer.
 */
export const LinkDecision = z.discriminatedUnion("kind", [
  /** One tap: this vote, exactly. */
  z.object({ kind: z.literal("vote"), vote: PermissionVoteBody }),
  /** The answer page of a question that needs more than one tap (several parts, multi-select, free text). */
  z.object({ kind: z.literal("page") }),
]);
export type LinkDecision = z.infer<typeof LinkDecision>;

/** The signed payload of a capability (`v1.<payload>.<signature>`, both base64url; the payload is this as JSON). */
export const LinkCapability = z.object({
  v: z.literal(1),
  /** Session id. */
  s: z.string().min(1).max(200),
  /** The question's tool call id (not the request id, which a restart changes). */
  t: z.string().min(1).max(500),
  /** The action's label; the voter is `link:<label>`. */
  l: z.string().min(1).max(200),
  d: LinkDecision,
  /** Expiry, seconds since the epoch. */
  e: z.number().int().positive(),
  /** Random, so two capabilities for the same decision differ. */
  n: z.string().min(8).max(64),
});
export type LinkCapability = z.infer<typeof LinkCapability>;

/**
 * One action of a waiting notification. `POST` answers at once (no body, no Authorization needed); `GET`
 * opens the answer page. A `GET` on a `POST` action's URL shows a confirm page and changes nothing.
 */
export const NotifyAction = z.object({
  label: z.string(),
  url: z.string(),
  method: z.enum(["POST", "GET"]),
  /** The vote this action casts (absent on the answer page's action). */
  answer: PermissionVoteBody.optional(),
});
export type NotifyAction = z.infer<typeof NotifyAction>;
