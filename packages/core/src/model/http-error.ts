// HTTP failure → typed ModelError. Pure: takes the status, the body text and the headers already read.
import { ModelError, type ModelErrorKind } from "./provider.js";

/** The one thing read from response headers (a fetch `Headers` qualifies). */
export interface HeaderReader {
  get(name: string): string | null;
}

export function errorKindForStatus(status: number): ModelErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  // 408 (request timeout) and 409 (conflict, used by some gateways for "busy") are worth a retry.
  if (status >= 500 || status === 408 || status === 409) return "server";
  return "bad_request";
}

/**
 * Retry-After in milliseconds: OpenAI's `retry-after-ms`, else `retry-after` as seconds or an HTTP date.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(headers: HeaderReader, now: number): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The most useful line of an error body: `error.message` of the usual JSON envelope, else the text. */
export function errorBodyMessage(body: string): string {
  const trimmed = body.trim();
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed && typeof parsed === "object") {
      const error = "error" in parsed ? parsed.error : parsed;
      if (typeof error === "string") return error;
      if (error && typeof error === "object" && "message" in error && typeof error.message === "string") {
        return error.message;
      }
    }
  } catch {
    // Not JSON (an HTML error page from a proxy, plain text): the raw text, shortened below, is the message.
  }
  return trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed;
}

const KIND_HINT: Record<ModelErrorKind, string> = {
  auth: "check OPENAI_API_KEY",
  rate_limit: "rate limited",
  server: "server error",
  network: "network error",
  bad_request: "request rejected; check OPENAI_MODEL and OPENAI_BASE_URL",
  aborted: "aborted",
  protocol: "protocol error",
};

export function modelErrorFromHttp(
  status: number,
  statusText: string,
  body: string,
  headers: HeaderReader,
  now: number,
) {
  const kind = errorKindForStatus(status);
  const detail = errorBodyMessage(body);
  const head = `Model API returned HTTP ${status}${statusText ? ` ${statusText}` : ""} (${KIND_HINT[kind]})`;
  return new ModelError(kind, detail ? `${head}: ${detail}` : head, {
    status,
    retryAfterMs: parseRetryAfterMs(headers, now),
  });
}
