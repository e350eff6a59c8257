// The one table from the domain's error codes to HTTP: each code's status, and whether a client should come
// back later (`Retry-After`). The domain (sessions, permission, bridge) raises DaemonErrors and never names
// a status; a code missing here does not compile.
import { type DaemonError, type DaemonErrorCode, isDaemonError } from "../errors/daemon-error.js";
import { HttpError } from "./http-error.js";

/** Seconds a client should wait before retrying a 503/429 admission refusal. */
export const RETRY_AFTER_SECONDS = "5";

type WireStatus = { status: 400 | 403 | 404 | 409 | 500 | 501 | 502 | 503; retryAfter?: true };

export const ERROR_STATUSES: Readonly<Record<DaemonErrorCode, WireStatus>> = {
  session_not_found: { status: 404 },
  invalid_session_id: { status: 400 },
  invalid_client_id: { status: 400 },
  invalid_request: { status: 400 },
  workspace_mismatch: { status: 400 },
  session_id_conflict: { status: 409 },
  session_owned_elsewhere: { status: 409 },
  session_limit_exceeded: { status: 503, retryAfter: true },
  prompt_queue_full: { status: 503, retryAfter: true },
  prompt_running: { status: 409 },
  prompt_not_queued: { status: 404 },
  prompt_journal_failed: { status: 500 },
  answer_journal_failed: { status: 500 },
  permission_not_pending: { status: 404 },
  invalid_option_id: { status: 400 },
  permission_forbidden: { status: 403 },
  agent_unavailable: { status: 503, retryAfter: true },
  agent_error: { status: 502 },
  agent_unsupported: { status: 501 },
};

/** The HTTP status a domain error is answered with. */
export function statusOf(error: DaemonError): WireStatus["status"] {
  return ERROR_STATUSES[error.code].status;
}

/** A domain error as the HTTP error the edge answers with (its body exactly as the domain wrote it). */
export function toHttpError(error: DaemonError): HttpError {
  const { status, retryAfter } = ERROR_STATUSES[error.code];
  return new HttpError(
    status,
    error.body,
    retryAfter ? { "Retry-After": RETRY_AFTER_SECONDS } : {},
    error.logDetail,
  );
}

/** Any thrown value the edge knows how to answer, as an HttpError; undefined for a daemon bug. */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (isDaemonError(error)) return toHttpError(error);
  return undefined;
}
