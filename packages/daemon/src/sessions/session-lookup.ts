// The checks a session request starts with before any lookup: a well-formed session id, and a workspace that
// is the daemon's own. (The session itself: Sessions.require; its client id: LiveSession.assertClient.)
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isValidSessionId } from "@qwen-daemon/core";
import { cwdNotAbsolute, invalidSessionId, workspaceMismatch } from "../errors/domain-errors.js";

/** Validates the id's syntax (before any lookup touches disk); throws 400 `invalid_session_id`. */
export function assertSessionId(sessionId: string): void {
  if (!isValidSessionId(sessionId)) throw invalidSessionId(sessionId);
}

/** The workspace a request names (absolute `cwd`, default the daemon's); 400 when it is another one. */
export function resolveWorkspace(workspace: string, cwd: unknown): string {
  if (cwd === undefined) return workspace;
  if (typeof cwd !== "string" || !isAbsolute(cwd)) throw cwdNotAbsolute();
  const requested = resolve(cwd);
  if (requested === workspace) return workspace;
  // The same folder reached through a symlink is the same workspace.
  if (canonicalPath(requested) === canonicalPath(workspace)) return workspace;
  throw workspaceMismatch(workspace, requested);
}

function canonicalPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path; // does not exist (yet): compare as written
  }
}
