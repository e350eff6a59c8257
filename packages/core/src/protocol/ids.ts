// Identifiers and headers on the wire. Session ids become file names under QWEN_HOME, so they are validated
// before any path is built: a conservative alphabet (no separators, no NUL, no leading dot) and no ".."
// anywhere. An id ending in ".ledger", ".answers", ".prompts" or ".names" is refused too: its transcript file would be
// taken for the prompt ledger or one of the daemon's logs (answers, prompts, names) of another session.

const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Name endings of the files kept beside a transcript (`<id>.ledger.jsonl`, `.answers.jsonl`, `.prompts.jsonl`, `.names.jsonl`). */
const RESERVED_ENDINGS = [".ledger", ".answers", ".prompts", ".names"];

/** True when `id` is safe as a transcript file name: 1-128 chars of [A-Za-z0-9._-], no "..", no reserved ending. */
export function isValidSessionId(id: unknown): id is string {
  return (
    typeof id === "string" &&
    SESSION_ID_PATTERN.test(id) &&
    !id.includes("..") &&
    !RESERVED_ENDINGS.some((ending) => id.toLowerCase().endsWith(ending))
  );
}

/** Which attached client is speaking. The daemon mints ids (`client_<uuid>`); a value is a claim it checks. */
export const CLIENT_ID_HEADER = "X-Qwen-Client-Id";
/**
 * Ours: an id the client keeps for the device it runs on (a browser profile), same form as a client id. A vote
 * that carries it is resolved with `voterDevice`, so a client can tell its own answer given on another device
 * (a laptop, then a phone) from another client's.
 */
export const CLIENT_DEVICE_HEADER = "X-Qwen-Client-Device";
/** Identity of a session's event id sequence; a client's cursor from another epoch must resync. */
export const EVENT_EPOCH_HEADER = "X-Qwen-Event-Epoch";
/** A fresh id per SSE stream (diagnostics). */
export const SSE_STREAM_ID_HEADER = "X-Qwen-SSE-Stream-Id";
/** The SSE cursor: the id of the last event the client has. */
export const LAST_EVENT_ID_HEADER = "Last-Event-ID";

export const MAX_CLIENT_ID_LENGTH = 128;
const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

/** True for a syntactically valid client id. */
export function isWellFormedClientId(value: string): boolean {
  return value.length > 0 && value.length <= MAX_CLIENT_ID_LENGTH && CLIENT_ID_PATTERN.test(value);
}
