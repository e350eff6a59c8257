// The `_meta` keys this child reads and writes (PROTOCOL.md "ACP between daemon and child"). The daemon
// sets and strips them; a client can never forge them through the HTTP API.

/** child -> daemon on load/resume responses (a restorable question trails); daemon -> child on the restore prompt. */
export const RESTORE_ASK_USER_QUESTION_META_KEY = "qwen.daemon.restoreAskUserQuestion";
/** daemon -> child on load/resume requests: the daemon will refuse the restore, so neither hint nor skip. */
export const SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY = "qwen.daemon.suppressRestoreAskUserQuestion";
/** daemon -> child on cancelled permission responses: `timeout` | `agent_cancelled` | `session_closed`. */
export const PERMISSION_CANCEL_REASON_META_KEY = "qwen.daemon.permissionCancelReason";
/** daemon -> child on session/prompt: the daemon's promptId, used for the prompt ledger. */
export const PROMPT_ID_META_KEY = "qwen.daemon.promptId";
/** daemon -> child on session/prompt: continue the interrupted last turn instead of sending a user message. */
export const CONTINUE_LAST_TURN_META_KEY = "qwen.daemon.continueLastTurn";

/**
 * daemon -> child on load/resume: `{ [toolCallId]: <permission response> }`, answers the daemon acknowledged for
 * questions of the trailing batch before a crash; a batch that will not be re-asked is closed with them.
 */
export const JOURNALED_ANSWERS_META_KEY = "qwen.daemon.journaledAnswers";

/** reference daemon -> child on session/prompt: `{version, sessionId, promptId, originatorClientId}`. */
export const INVOCATION_META_KEY = "qwen-code/invocation";
/** daemon -> child on session/new: create the session under this id (reference-compatible key). */
export const REQUESTED_SESSION_ID_META_KEY = "qwen-code/sessionId";

export type Meta = { [key: string]: unknown } | null | undefined;

/** True only for a literal `true`: a truthy string or number never turns a switch on. */
export function metaFlag(meta: Meta, key: string): boolean {
  return meta?.[key] === true;
}

/** A non-empty string value, else undefined. */
export function metaString(meta: Meta, key: string): string | undefined {
  const value = meta?.[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * The daemon's id for this prompt: ours sends PROMPT_ID_META_KEY, the reference daemon the `promptId` of
 * its invocation record. Its guard checks the id, so the child must use the daemon's, not invent one.
 */
export function daemonPromptId(meta: Meta): string | undefined {
  const invocation = meta?.[INVOCATION_META_KEY];
  const fromInvocation =
    typeof invocation === "object" && invocation !== null && !Array.isArray(invocation)
      ? metaString(invocation as Record<string, unknown>, "promptId")
      : undefined;
  return metaString(meta, PROMPT_ID_META_KEY) ?? fromInvocation;
}
