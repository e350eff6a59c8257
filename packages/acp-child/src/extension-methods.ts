// Qwen's ACP extension methods served by this child, with their params schemas (the SDK needs a parser to
// register a custom method; a request that fails it is answered -32602 before any handler runs).
import { z } from "zod";

export const ExtensionMethod = {
  /** Read-only replay of a session's history as session/update payloads; never changes state. */
  loadUpdates: "qwen/session/loadUpdates",
  /** Pre-check for continuing an interrupted last turn (continueLastTurn). */
  sessionContinue: "qwen/control/session/continue",
} as const;

/**
 * The same methods under the names the ACP spec reserves for extensions (a leading `_`), which a client
 * library that follows the spec sends. Both spellings are served: the reference daemon sends the others.
 */
export const SpecExtensionMethod = {
  loadUpdates: `_${ExtensionMethod.loadUpdates}`,
  sessionContinue: `_${ExtensionMethod.sessionContinue}`,
} as const;

export const LoadUpdatesParams = z.looseObject({
  sessionId: z.string().min(1),
  /** The session's workspace; defaults to the child's working directory. */
  cwd: z.string().min(1).optional(),
});
export type LoadUpdatesParams = z.infer<typeof LoadUpdatesParams>;

export const SessionContinueParams = z.looseObject({ sessionId: z.string().min(1) });
export type SessionContinueParams = z.infer<typeof SessionContinueParams>;
