// The `_meta` keys the daemon and its ACP child exchange (docs/protocol.md "The agent process"), in one
// place for both sides. Keys under `qwen.daemon.` are the daemon's alone: whatever a client sends under that
// prefix is stripped before it reaches a child, so a POST /prompt can never forge a restore prompt, a continue
// or a prompt id. The `qwen-code/` keys are the reference implementation's, spoken for compatibility.

/** Every daemon-only key starts with this. */
export const DAEMON_META_PREFIX = "qwen.daemon.";

/** child -> daemon on load/resume responses (a restorable question trails); daemon -> child on the restore prompt. */
export const RESTORE_ASK_USER_QUESTION_META_KEY = "qwen.daemon.restoreAskUserQuestion";
/** daemon -> child on load/resume requests: the daemon will refuse the restore, so neither hint nor skip. */
export const SUPPRESS_RESTORE_ASK_USER_QUESTION_META_KEY = "qwen.daemon.suppressRestoreAskUserQuestion";
/**
 * child -> daemon on load/resume responses (a batch of tool approvals, with or without questions, waits to be
 * asked again: `--restore-pending-approvals`); daemon -> child on the restore prompt that asks it.
 */
export const RESTORE_PENDING_APPROVALS_META_KEY = "qwen.daemon.restorePendingApprovals";
/** daemon -> child on load/resume requests: the daemon will refuse an approvals restore, so neither hint nor skip. */
export const SUPPRESS_RESTORE_PENDING_APPROVALS_META_KEY = "qwen.daemon.suppressRestorePendingApprovals";
/** daemon -> child on cancelled permission responses: `timeout` | `agent_cancelled` | `session_closed`. */
export const PERMISSION_CANCEL_REASON_META_KEY = "qwen.daemon.permissionCancelReason";
/** daemon -> child on session/prompt: the daemon's promptId, used for the prompt ledger. */
export const PROMPT_ID_META_KEY = "qwen.daemon.promptId";
/**
 * daemon -> child on session/prompt: the message id the prompt's user message is saved under (its transcript
 * record's uuid), so the daemon's echo of the prompt and the replay after a load name it alike.
 */
export const USER_MESSAGE_ID_META_KEY = "qwen.daemon.userMessageId";
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
/** reference daemon -> child on initialize: the token from QWEN_CODE_PRIVATE_ACP_CAPABILITY. */
export const PRIVATE_PARENT_CAPABILITY_META_KEY = "qwen-code/private-parent-capability";
/** child -> reference daemon on the initialize result: the external tool guard is honoured. */
export const EXTERNAL_TOOL_GUARD_READY_META_KEY = "qwen-code/external-tool-guard-ready";
/** The value of EXTERNAL_TOOL_GUARD_READY_META_KEY (and of the env switch the reference daemon sets). */
export const EXTERNAL_TOOL_GUARD_REQUIRED = "required-v1";

/** A `_meta` object as it travels on requests, responses and content blocks. */
export type Meta = Record<string, unknown>;

/** True only for a literal `true`: a truthy string or number never turns a switch on. */
export function metaFlag(meta: Meta | null | undefined, key: string): boolean {
  return meta?.[key] === true;
}

/** A non-empty string value, else undefined. */
export function metaString(meta: Meta | null | undefined, key: string): string | undefined {
  const value = meta?.[key];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/**
 * The daemon's id for a prompt: ours sends PROMPT_ID_META_KEY, the reference daemon the `promptId` of its
 * invocation record. Its guard checks the id, so a child must use the daemon's, not invent one.
 */
export function daemonPromptId(meta: Meta | null | undefined): string | undefined {
  const invocation = meta?.[INVOCATION_META_KEY];
  const fromInvocation =
    typeof invocation === "object" && invocation !== null && !Array.isArray(invocation)
      ? metaString(invocation as Meta, "promptId")
      : undefined;
  return metaString(meta, PROMPT_ID_META_KEY) ?? fromInvocation;
}

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

// The `_meta` of a permission request's `toolCall` (child -> daemon -> clients). A question (ask_user_question)
// carries its kind and its questions, so a client can show a form without knowing the tool's arguments.
/** The tool the call belongs to. */
export const TOOL_NAME_META_KEY = "toolName";
/** `"user_question"` on a question. */
export const INTERACTION_KIND_META_KEY = "qwenInteractionKind";
/** The question's `questions` (the tool's arguments), on a question. */
export const QUESTIONS_META_KEY = "qwenQuestions";
/** The interaction kind of a question, and the `kind` of a question in status `pendingInteractions`. */
export const USER_QUESTION_INTERACTION = "user_question";
/** The tool whose calls are questions. */
export const ASK_USER_QUESTION_TOOL = "ask_user_question";

/** The `_meta` a child puts on a permission request's tool call (a question gets its kind and questions). */
export function toolCallMeta(toolName: string, question?: { questions: unknown }): Meta {
  return {
    [TOOL_NAME_META_KEY]: toolName,
    ...(question !== undefined
      ? { [INTERACTION_KIND_META_KEY]: USER_QUESTION_INTERACTION, [QUESTIONS_META_KEY]: question.questions }
      : {}),
  };
}

const asRecord = (value: unknown): Meta | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Meta) : undefined;

/** A question's tool call (ask_user_question): marked so by its interaction kind or its tool name. */
export function isQuestionToolCall(toolCall: Readonly<Record<string, unknown>>): boolean {
  const meta = asRecord(toolCall._meta);
  return (
    meta !== undefined &&
    (meta[INTERACTION_KIND_META_KEY] === USER_QUESTION_INTERACTION ||
      meta[TOOL_NAME_META_KEY] === ASK_USER_QUESTION_TOOL)
  );
}

/** The questions a tool call carries: its `_meta` questions, else the tool's `questions` argument. */
export function toolCallQuestions(toolCall: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const fromMeta = asRecord(toolCall._meta)?.[QUESTIONS_META_KEY];
  if (Array.isArray(fromMeta)) return fromMeta;
  const fromInput = asRecord(toolCall.rawInput)?.questions;
  return Array.isArray(fromInput) ? fromInput : undefined;
}

/**
 * Client capabilities a qwen-aware ACP client (the daemon) sets in `clientCapabilities._meta` of `initialize`:
 * - questions: it answers a question's permission request (Submit / Cancel) with the top-level `answers`
 *   beside the outcome. Any other client without form elicitation gets each question as permission
 *   requests whose options are the question's own (docs/editors.md).
 * - restore prompt: it sends the restore prompt itself when a load/resume hints a restore. For any other
 *   client the agent asks the restorable question again before the next ordinary prompt.
 */
export const QUESTION_ANSWERS_CAPABILITY_META_KEY = "qwen.daemon.questionAnswers";
export const RESTORE_PROMPT_CAPABILITY_META_KEY = "qwen.daemon.restorePrompt";

/**
 * `_meta` of a `usage_update` (session/update): the provider's token counts added up over the session's model
 * requests (those saved in its transcript, then the live ones), `{inputTokens, outputTokens, totalTokens}`.
 */
export const SESSION_USAGE_META_KEY = "qwen.sessionUsage";

/**
 * `_meta` of a `session/prompt` answer (child -> client): the message id the prompt's user message was saved
 * under, the `messageId` its `user_message_chunk` carries in a load's replay. ACP v1 gives a prompt answer no
 * field for it (v2 answers with `messageId`), so it travels here.
 */
export const USER_MESSAGE_ID_RESPONSE_META_KEY = "qwen.userMessageId";
