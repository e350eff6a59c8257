// The one error type the daemon's domain (sessions, permission mediator, bridge) raises. It carries a code
// and the body a client is told, never a status: which status a code is on the wire is the HTTP edge's
// decision (http/error-statuses.ts), so the domain can be driven from anything that is not HTTP.

/** Every error body: a sentence, a stable `code` where a client may act on it, and the ids it concerns. */
export type ErrorBody = { error: string; code?: string } & Record<string, unknown>;

/**
 * The domain's error codes. Most are also the body's wire `code`; `invalid_request` and
 * `permission_not_pending` name refusals whose wire body has no code (the reference daemon sends none).
 */
export const DAEMON_ERROR_CODES = [
  "session_not_found",
  "invalid_session_id",
  "invalid_client_id",
  "invalid_request",
  "workspace_mismatch",
  "session_id_conflict",
  "session_owned_elsewhere",
  "session_limit_exceeded",
  "prompt_queue_full",
  "prompt_running",
  "prompt_not_queued",
  "prompt_journal_failed",
  "answer_journal_failed",
  "permission_not_pending",
  "invalid_option_id",
  "permission_forbidden",
  "agent_unavailable",
  "agent_error",
  "agent_unsupported",
] as const;
export type DaemonErrorCode = (typeof DAEMON_ERROR_CODES)[number];

export class DaemonError extends Error {
  override readonly name = "DaemonError";
  readonly code: DaemonErrorCode;
  /** What a client is told, exactly. */
  readonly body: ErrorBody;
  /** What the operator should know and the client must not see (logged at the edge, never sent). */
  readonly logDetail: string | undefined;

  constructor(code: DaemonErrorCode, body: ErrorBody, logDetail?: string) {
    super(body.error);
    this.code = code;
    this.body = body;
    this.logDetail = logDetail;
  }
}

export function isDaemonError(value: unknown): value is DaemonError {
  return value instanceof DaemonError;
}
