// The errors the HTTP edge itself answers with (authentication, Host and Origin, bodies, queries), by name;
// the domain's own are in errors/domain-errors.ts, their statuses in http/error-statuses.ts. Texts and codes
// follow docs/protocol.md and the reference daemon (qwen serve 0.24) so existing clients can match on them.
import { clipEcho } from "../errors/echo.js";
import { RETRY_AFTER_SECONDS } from "./error-statuses.js";
import { HttpError } from "./http-error.js";

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

export const malformedClientId = () =>
  new HttpError(400, {
    error: "`X-Qwen-Client-Id` must be a non-empty token of 128 characters or fewer",
    code: "invalid_client_id",
  });

export const invalidBody = (message: string, code?: string) =>
  new HttpError(400, { error: message, ...(code !== undefined ? { code } : {}) });

export const invalidSessionScope = (scope: unknown) =>
  invalidBody(
    `Invalid sessionScope: ${clipEcho(JSON.stringify(scope) ?? String(typeof scope))}. Expected 'single' or 'thread'.`,
    "invalid_session_scope",
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
