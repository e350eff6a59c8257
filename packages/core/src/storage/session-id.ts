// Session ids become file names under QWEN_HOME: the rule is the wire contract's (protocol/ids.ts); this is
// the error a path builder throws for an id that breaks it.
import { isValidSessionId } from "../protocol/ids.js";

export { isValidSessionId };

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
