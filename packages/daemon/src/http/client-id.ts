// X-Qwen-Client-Id: which attached client is speaking. The daemon mints ids (`client_<uuid>`); a header
// value is only a claim, checked against the session's registered clients by the caller. The syntax is the
// contract's (protocol/ids.ts).
import { isWellFormedClientId } from "@qwen-daemon/core/protocol";
import { malformedClientId } from "./errors.js";

/** The header's value, undefined when absent or empty; throws 400 `invalid_client_id` when malformed. */
export function parseClientIdHeader(raw: string | undefined | null): string | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (!isWellFormedClientId(raw)) throw malformedClientId();
  return raw;
}
