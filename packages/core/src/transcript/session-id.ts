// Session ids become file names under QWEN_HOME, so they are validated before any path is built:
// a conservative alphabet (no separators, no NUL, no leading dot) and no ".." anywhere. An id ending in
// ".ledger", ".answers" or ".prompts" is refused too: its transcript file would be taken for the prompt
// ledger or one of the daemon's journals (answers, prompts) of another session.

const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Name endings of the files kept beside a transcript (`<id>.ledger.jsonl`, `.answers.jsonl`, `.prompts.jsonl`). */
const RESERVED_ENDINGS = [".ledger", ".answers", ".prompts"];

/** True when `id` is safe as a transcript file name: 1-128 chars of [A-Za-z0-9._-], no "..", no reserved ending. */
export function isValidSessionId(id: unknown): id is string {
  return (
    typeof id === "string" &&
    SESSION_ID_PATTERN.test(id) &&
    !id.includes("..") &&
    !RESERVED_ENDINGS.some((ending) => id.toLowerCase().endsWith(ending))
  );
}

/** Thrown when a session id could escape the chats directory or is otherwise not a valid file name. */
export class InvalidSessionIdError extends Error {
  override readonly name = "InvalidSessionIdError";
  constructor(readonly sessionId: unknown) {
    super(
      `Invalid session id ${describe(sessionId)}: expected 1-128 characters of [A-Za-z0-9._-], starting with a letter or digit, without "..", not ending in ".ledger", ".answers" or ".prompts"`,
    );
  }
}

export function assertValidSessionId(id: unknown): asserts id is string {
  if (!isValidSessionId(id)) throw new InvalidSessionIdError(id);
}

function describe(id: unknown): string {
  if (typeof id !== "string") return `(${typeof id})`;
  // JSON.stringify makes NUL and other control characters visible; long ids are cut for the message only.
  const shown = id.length > 40 ? `${id.slice(0, 40)}...` : id;
  return `${JSON.stringify(shown)} (length ${id.length})`;
}
