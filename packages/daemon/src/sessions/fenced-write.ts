// A write refused because another daemon took the session over (docs/storage.md "Leases and fencing"): core's
// SessionFencedError, recognised by its code rather than its class so that a copy of core in another bundle
// is recognised too. The daemon then drops the session and answers 409 naming the new owner.
import type { SessionFencedError } from "@qwen-daemon/core";

/** The URL of the daemon that owns the session now, when `error` is a fenced write; else undefined. */
export function fencedOwner(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const fenced = error as Partial<SessionFencedError>;
  if (fenced.code !== "session_owned_elsewhere" || fenced.name !== "SessionFencedError") return undefined;
  return fenced.owner?.url ?? "";
}
