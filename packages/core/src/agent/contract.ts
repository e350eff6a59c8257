// What the turn loop reports and asks of its host (the ACP child, or a headless CLI run).
// The host maps AgentEvents to ACP session/update notifications and answers confirmations.
import type { FunctionCall } from "../content.js";
import type { Usage } from "../model/provider.js";
import type { ConfirmationKind, ToolCallDescription, ToolContext } from "../tools/tool.js";

export type ToolCallStatus = "pending" | "in_progress" | "completed" | "failed";

export type AgentEvent =
  /**
   * Streamed text of one model reply. `messageId` names the reply: it is the uuid of the assistant record the
   * reply is written as, so a replay of the transcript names it the same.
   */
  | { type: "model_text"; text: string; messageId: string }
  | { type: "thought"; text: string; messageId: string }
  | {
      type: "tool_call";
      callId: string;
      name: string;
      args: Record<string, unknown>;
      description: ToolCallDescription;
      status: ToolCallStatus;
    }
  | { type: "tool_call_update"; callId: string; status: ToolCallStatus; output?: string; error?: string }
  /** The provider's token counts for one model request, when it sent them. */
  | { type: "usage"; usage: Usage };

/** A request to confirm one call. For `user_question` the host collects answers keyed "0", "1", ... */
export interface ConfirmationRequest {
  call: Required<Pick<FunctionCall, "id" | "name">> & { args: Record<string, unknown> };
  kind: Exclude<ConfirmationKind, "none">;
  description: ToolCallDescription;
}

/**
 * - approved: run the tool (for questions, `answers` carries the user's answers).
 * - approved_always: like approved, and stop asking for this tool kind in this session.
 * - rejected: the user said no; the tool result records the refusal and the turn ends.
 * - unattended: nobody answered (timeout, session closed, prompt aborted). For questions nothing is
 *   persisted for the whole batch, so the call stays dangling and a later load can re-ask it; except an
 *   abort in an ordinary (not restored) batch, which records `Tool call was cancelled before execution.`
 */
export type ConfirmationOutcome =
  | { outcome: "approved"; answers?: Record<string, string> }
  | { outcome: "approved_always" }
  | { outcome: "rejected" }
  | { outcome: "unattended"; reason: "timeout" | "session_closed" | "aborted" };

export type ConfirmationHandler = (
  request: ConfirmationRequest,
  signal: AbortSignal,
) => Promise<ConfirmationOutcome>;

/** ACP stop reasons. */
export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

/** The host's last word on a call that is about to run (after any confirmation). */
export type BeforeExecuteDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * Called right before a tool's execute (never for ask_user_question, which does not execute). A denial, or a
 * hook that throws, becomes the call's error result with the reason as its text; the turn goes on. Used by
 * the ACP child for the reference daemon's external tool guard.
 */
export type BeforeExecuteHook<Ctx extends ToolContext = ToolContext> = (
  call: ConfirmationRequest["call"],
  ctx: Ctx,
) => Promise<BeforeExecuteDecision>;

/** What a session-level hook also learns: the prompt the call belongs to. */
export interface SessionToolContext extends ToolContext {
  promptId: string;
}

/**
 * The abort reason a host gives when nobody is left to answer (its connection ended, or the session was
 * closed), as opposed to a user's cancel. A question waiting at that moment is an unattended end: nothing is
 * persisted for its batch, so the call stays dangling and a later load can ask it again. Without this mark a
 * daemon crash (the child sees its stdin end and closes its sessions) would record the question as cancelled.
 */
export class SessionClosedAbort extends Error {
  override name = "SessionClosedAbort";
  /**
   * Ledger code of the interrupted prompt: `daemon_lost` when the host's connection ended (the daemon
   * died or went away), `session_closed` when the session was closed on purpose.
   */
  readonly code: "session_closed" | "daemon_lost";
  constructor(message: string, code: "session_closed" | "daemon_lost" = "session_closed") {
    super(message);
    this.code = code;
  }
}

/** How an aborted prompt ended for a waiting question: `session_closed` when the host marked it so. */
export function unattendedReasonOf(signal: AbortSignal): "session_closed" | "aborted" {
  return signal.reason instanceof SessionClosedAbort ? "session_closed" : "aborted";
}
