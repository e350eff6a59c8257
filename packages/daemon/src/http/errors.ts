// Every error response the daemon sends, by name. Texts and codes follow docs/protocol.md and the reference
// daemon (qwen serve 0.24) so existing clients can match on them.
import { randomUUID } from "node:crypto";
import { clipEcho } from "./echo.js";
import { HttpError } from "./http-error.js";

/** Seconds a client should wait before retrying a 503/429 admission refusal. */
export const RETRY_AFTER_SECONDS = "5";
const retryAfter = { "Retry-After": RETRY_AFTER_SECONDS };

export const unauthorized = () => new HttpError(401, { error: "Unauthorized" });
export const invalidHost = () => new HttpError(403, { error: "Invalid Host header" });
export const originDenied = () => new HttpError(403, { error: "Request denied by CORS policy" });
export const invalidJson = () => new HttpError(400, { error: "Invalid JSON in request body" });
export const bodyTooLarge = () => new HttpError(413, { error: "Request body too large (max 10 MB)" });
/** The body stopped before its end (client gone); the answer most likely reaches nobody. */
export const requestAborted = () =>
  new HttpError(400, { error: "Request body was not received completely", code: "request_aborted" });
export const notFound = () => new HttpError(404, { error: "Not found" });
export const internalError = () => new HttpError(500, { error: "Internal server error" });

// A valid session id is at most 128 characters, so clipping at 200 changes only ids that cannot exist.
export const sessionNotFound = (sessionId: string) =>
  new HttpError(404, {
    error: `No session with id "${clipEcho(sessionId, 200)}"`,
    code: "session_not_found",
    sessionId: clipEcho(sessionId, 200),
  });

/** `sessionId` is echoed (cut to 200 characters) only when it is a string: a JSON body may hold anything there. */
export const invalidSessionId = (sessionId: unknown) =>
  new HttpError(400, {
    error: "Invalid session id: expected 1-128 characters of [A-Za-z0-9._-]",
    code: "invalid_session_id",
    ...(typeof sessionId === "string" ? { sessionId: clipEcho(sessionId, 200) } : {}),
  });

export const malformedClientId = () =>
  new HttpError(400, {
    error: "`X-Qwen-Client-Id` must be a non-empty token of 128 characters or fewer",
    code: "invalid_client_id",
  });

export const unregisteredClientId = (sessionId: string, clientId: string) =>
  new HttpError(400, {
    error: `Client id "${clientId}" is not registered for session ${sessionId}`,
    code: "invalid_client_id",
    sessionId,
    clientId,
  });

export const invalidBody = (message: string, code?: string) =>
  new HttpError(400, { error: message, ...(code !== undefined ? { code } : {}) });

export const cwdNotAbsolute = () => invalidBody("`cwd` must be an absolute path when provided");

export const workspaceMismatch = (boundWorkspace: string, requestedWorkspace: string) =>
  new HttpError(400, {
    error: `Workspace mismatch: daemon is bound to "${boundWorkspace}"`,
    code: "workspace_mismatch",
    boundWorkspace,
    requestedWorkspace: clipEcho(requestedWorkspace, 4096),
  });

export const invalidSessionScope = (scope: unknown) =>
  invalidBody(
    `Invalid sessionScope: ${clipEcho(JSON.stringify(scope) ?? String(typeof scope))}. Expected 'single' or 'thread'.`,
    "invalid_session_scope",
  );

export const sessionIdConflict = (sessionId: string) =>
  new HttpError(409, {
    error: `Session "${sessionId}" already exists or is being created.`,
    code: "session_id_conflict",
    sessionId,
  });

export const sessionLimitExceeded = (limit: number) =>
  new HttpError(
    503,
    { error: `Session limit reached (${limit})`, code: "session_limit_exceeded", limit, scope: "workspace" },
    retryAfter,
  );

export const promptQueueFull = (sessionId: string, limit: number, pendingCount: number) =>
  new HttpError(
    503,
    {
      error: `Prompt queue full for session "${sessionId}" (${pendingCount}/${limit} pending)`,
      code: "prompt_queue_full",
      sessionId,
      limit,
      pendingCount,
    },
    retryAfter,
  );

export const invalidDeadline = () =>
  invalidBody("`deadlineMs` must be a positive integer (milliseconds)", "invalid_deadline_ms");

export const invalidMaxQueued = (message: string) => invalidBody(message, "invalid_max_queued");

export const subscriberLimitExceeded = (message: string, limit: number) =>
  new HttpError(429, { error: message, code: "subscriber_limit_exceeded", limit }, retryAfter);

export const streamLimitExceeded = (limit: number) =>
  new HttpError(
    503,
    {
      error: `Too many event streams open on this daemon (limit ${limit})`,
      code: "stream_limit_exceeded",
      limit,
    },
    retryAfter,
  );

export const invalidTranscriptLimit = (max: number) =>
  invalidBody(`\`limit\` must be an integer between 1 and ${max}`, "invalid_transcript_limit");

export const invalidPageQuery = (message: string) => invalidBody(message, "invalid_pagination");

/** The agent process could not be started or died while serving this request. */
export const agentUnavailable = (detail: string) =>
  new HttpError(
    503,
    { error: `Agent process unavailable: ${detail}`, code: "agent_unavailable" },
    retryAfter,
  );

/**
 * The agent answered a request with an error we do not map more precisely. Its text is the agent's internals
 * (paths, stack lines): it goes to the daemon log under an error id, and the client gets the id.
 */
export const agentError = (detail: string) => {
  const errorId = randomUUID();
  return new HttpError(
    502,
    {
      error: `The agent could not complete the request (see the daemon log for error ${errorId})`,
      code: "agent_error",
      errorId,
    },
    {},
    detail,
  );
};

/**
 * The answer to a question could not be made durable (docs/restore.md "The guarantees"), so it was not applied and
 * the question is still waiting: the client may retry the vote. `cause` is an errno code at most (no paths).
 */
export const promptNotSaved = (sessionId: string, cause: string | undefined) =>
  new HttpError(500, {
    error: `The prompt could not be saved durably, so it was not queued. Send it again.${cause !== undefined ? ` (${cause})` : ""}`,
    code: "prompt_journal_failed",
    sessionId,
  });

export const answerNotSaved = (sessionId: string, requestId: string, cause: string | undefined) =>
  new HttpError(500, {
    error: `The answer could not be saved durably, so it was not applied; the question is still waiting. Retry the vote.${cause !== undefined ? ` (${cause})` : ""}`,
    code: "answer_journal_failed",
    sessionId,
    requestId,
  });
