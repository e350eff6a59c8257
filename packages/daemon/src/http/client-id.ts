// X-Qwen-Client-Id: which attached client is speaking. The daemon mints ids (`client_<uuid>`); a header
// value is only a claim, checked against the session's registered clients by the caller.
import { randomUUID } from "node:crypto";
import { malformedClientId } from "./errors.js";

export const CLIENT_ID_HEADER = "X-Qwen-Client-Id";
export const MAX_CLIENT_ID_LENGTH = 128;
const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

/** True for a syntactically valid client id. */
export function isWellFormedClientId(value: string): boolean {
  return value.length > 0 && value.length <= MAX_CLIENT_ID_LENGTH && CLIENT_ID_PATTERN.test(value);
}

/** The header's value, undefined when absent or empty; throws 400 `invalid_client_id` when malformed. */
export function parseClientIdHeader(raw: string | undefined | null): string | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (!isWellFormedClientId(raw)) throw malformedClientId();
  return raw;
}

export function mintClientId(): string {
  return `client_${randomUUID()}`;
}
