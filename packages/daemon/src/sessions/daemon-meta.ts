// `_meta` keys only the daemon may set on child-bound requests (PROTOCOL.md "ACP between daemon and
// child"). Anything a client sends under the `qwen.daemon.` namespace is stripped before it reaches the
// child, so a POST /prompt can never forge a restore prompt, a continue or a prompt id.

export const DAEMON_META_PREFIX = "qwen.daemon.";
export const PROMPT_ID_META_KEY = "qwen.daemon.promptId";
export const RESTORE_ASK_USER_QUESTION_META_KEY = "qwen.daemon.restoreAskUserQuestion";
export const SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY = "qwen.daemon.suppressRestoreAskUserQuestion";
export const PERMISSION_CANCEL_REASON_META_KEY = "qwen.daemon.permissionCancelReason";
export const CONTINUE_LAST_TURN_META_KEY = "qwen.daemon.continueLastTurn";
/** On load/resume requests: answers journaled for the trailing questions (answers-for-load.ts). */
export const JOURNALED_ANSWERS_META_KEY = "qwen.daemon.journaledAnswers";
/** Reference-compatible key asking the child to create a session with a given id. */
export const REQUESTED_SESSION_ID_META_KEY = "qwen-code/sessionId";

export type Meta = Record<string, unknown>;

/** A copy of `meta` without daemon-only keys; undefined when nothing remains or it was not an object. */
export function stripDaemonMeta(meta: unknown): Meta | undefined {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return undefined;
  const kept = Object.entries(meta).filter(([key]) => !key.startsWith(DAEMON_META_PREFIX));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** `block` with daemon-only keys removed from its own `_meta` (content blocks can carry one too). */
export function stripBlockMeta<T extends Record<string, unknown>>(block: T): T {
  if (!("_meta" in block)) return block;
  const { _meta, ...rest } = block;
  const meta = stripDaemonMeta(_meta);
  return (meta === undefined ? rest : { ...rest, _meta: meta }) as T;
}
