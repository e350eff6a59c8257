// Every error the daemon's domain raises, by name. Texts and wire codes follow docs/protocol.md and the
// reference daemon (qwen serve 0.24) so existing clients can match on them; statuses are the HTTP edge's.
import { randomUUID } from "node:crypto";
import type { ForbiddenReason } from "@qwen-daemon/core/protocol";
import { DaemonError } from "./daemon-error.js";
import { clipEcho, quoteEcho } from "./echo.js";

// A valid session id is at most 128 characters, so clipping at 200 changes only ids that cannot exist.
export const sessionNotFound = (sessionId: string) =>
  new DaemonError("session_not_found", {
    error: `No session with id "${clipEcho(sessionId, 200)}"`,
    code: "session_not_found",
    sessionId: clipEcho(sessionId, 200),
  });

/** `sessionId` is echoed (cut to 200 characters) only when it is a string: a JSON body may hold anything there. */
export const invalidSessionId = (sessionId: unknown) =>
  new DaemonError("invalid_session_id", {
    error: "Invalid session id: expected 1-128 characters of [A-Za-z0-9._-]",
    code: "invalid_session_id",
    ...(typeof sessionId === "string" ? { sessionId: clipEcho(sessionId, 200) } : {}),
  });

export const unregisteredClientId = (sessionId: string, clientId: string) =>
  new DaemonError("invalid_client_id", {
    error: `Client id "${clientId}" is not registered for session ${sessionId}`,
    code: "invalid_client_id",
    sessionId,
    clientId,
  });

/** A request the domain cannot act on, with a wire code only where the protocol gives one. */
export const invalidRequest = (message: string) => new DaemonError("invalid_request", { error: message });

export const cwdNotAbsolute = () => invalidRequest("`cwd` must be an absolute path when provided");

export const workspaceMismatch = (boundWorkspace: string, requestedWorkspace: string) =>
  new DaemonError("workspace_mismatch", {
    error: `Workspace mismatch: daemon is bound to "${boundWorkspace}"`,
    code: "workspace_mismatch",
    boundWorkspace,
    requestedWorkspace: clipEcho(requestedWorkspace, 4096),
  });

export const sessionIdConflict = (sessionId: string) =>
  new DaemonError("session_id_conflict", {
    error: `Session "${sessionId}" already exists or is being created.`,
    code: "session_id_conflict",
    sessionId,
  });

/**
 * Shared storage (docs/storage.md "Leases and fencing"): another daemon holds the session's lease, so this one
 * may not open it or act on it; `owner` is the URL clients reach that daemon at (a load balancer routes there).
 */
export const sessionOwnedElsewhere = (sessionId: string, owner: string) =>
  new DaemonError("session_owned_elsewhere", {
    error: `Session "${sessionId}" is owned by another daemon (${owner})`,
    code: "session_owned_elsewhere",
    sessionId,
    owner,
  });

export const sessionLimitExceeded = (limit: number) =>
  new DaemonError("session_limit_exceeded", {
    error: `Session limit reached (${limit})`,
    code: "session_limit_exceeded",
    limit,
    scope: "workspace",
  });

export const promptQueueFull = (sessionId: string, limit: number, pendingCount: number) =>
  new DaemonError("prompt_queue_full", {
    error: `Prompt queue full for session "${sessionId}" (${pendingCount}/${limit} pending)`,
    code: "prompt_queue_full",
    sessionId,
    limit,
    pendingCount,
  });

/** A withdraw for a prompt that is not waiting: it has started already, or the queue does not hold it. */
export const promptNotQueued = (sessionId: string, promptId: string, running: boolean) =>
  new DaemonError(running ? "prompt_running" : "prompt_not_queued", {
    error: running
      ? `Prompt "${clipEcho(promptId, 128)}" has started; cancel it instead`
      : `No waiting prompt "${clipEcho(promptId, 128)}" in session ${sessionId}`,
    code: running ? "prompt_running" : "prompt_not_queued",
    sessionId,
    promptId: clipEcho(promptId, 128),
  });

/** The agent process could not be started or died while serving this request. */
/** The session's agent has no such ACP method (another agent build): the request cannot be served. */
export const agentLacksMethod = (method: string, capability: string) =>
  new DaemonError("agent_unsupported", {
    error: `The agent does not support ${method} (it does not advertise ${capability})`,
    code: "agent_unsupported",
  });

export const agentUnavailable = (detail: string) =>
  new DaemonError("agent_unavailable", {
    error: `Agent process unavailable: ${detail}`,
    code: "agent_unavailable",
  });

/**
 * The agent answered a request with an error we do not map more precisely. Its text is the agent's internals
 * (paths, stack lines): it goes to the daemon log under an error id, and the client gets the id.
 */
export const agentError = (detail: string) => {
  const errorId = randomUUID();
  return new DaemonError(
    "agent_error",
    {
      error: `The agent could not complete the request (see the daemon log for error ${errorId})`,
      code: "agent_error",
      errorId,
    },
    detail,
  );
};

/**
 * A prompt or an answer could not be made durable (docs/restore.md "The guarantees"), so it was not applied:
 * the client may send it again. `cause` is an errno code at most (no paths).
 */
export const promptNotSaved = (sessionId: string, cause: string | undefined) =>
  new DaemonError("prompt_journal_failed", {
    error: `The prompt could not be saved durably, so it was not queued. Send it again.${cause !== undefined ? ` (${cause})` : ""}`,
    code: "prompt_journal_failed",
    sessionId,
  });

export const answerNotSaved = (sessionId: string, requestId: string, cause: string | undefined) =>
  new DaemonError("answer_journal_failed", {
    error: `The answer could not be saved durably, so it was not applied; the question is still waiting. Retry the vote.${cause !== undefined ? ` (${cause})` : ""}`,
    code: "answer_journal_failed",
    sessionId,
    requestId,
  });

/**
 * A vote on a request that is not pending. Unknown, resolved and "belongs to another session" look the same
 * on the wire, so a client cannot probe which request ids exist in sessions it is not looking at.
 */
export const permissionNotPending = (requestId: string, sessionId: string | undefined) =>
  new DaemonError(
    "permission_not_pending",
    sessionId === undefined
      ? { error: "No pending permission request", requestId: clipEcho(requestId) }
      : {
          error: "No pending permission request for session",
          sessionId: clipEcho(sessionId, 200),
          requestId: clipEcho(requestId),
        },
  );

/** A vote that picks an option the agent did not offer (the id is echoed clipped: it is the client's). */
export const invalidOptionId = (requestId: string, optionId: string) =>
  new DaemonError("invalid_option_id", {
    error: `Permission ${requestId}: optionId ${quoteEcho(optionId)} is not in the set of options the agent offered.`,
    code: "invalid_option_id",
    requestId,
    optionId: clipEcho(optionId),
  });

/** A vote the request's policy does not accept. */
export const permissionForbidden = (requestId: string, sessionId: string, reason: ForbiddenReason) =>
  new DaemonError("permission_forbidden", {
    error: `Permission ${requestId} on session ${sessionId}: vote rejected by policy (${reason}).`,
    code: "permission_forbidden",
    reason,
    requestId,
    sessionId,
  });
