// The checks every session request starts with: a well-formed session id, a live session, a client id
// registered on it, and a workspace that is the daemon's own.
import { realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isValidSessionId } from "@qwen-daemon/core";
import {
  cwdNotAbsolute,
  invalidSessionId,
  sessionNotFound,
  unregisteredClientId,
  workspaceMismatch,
} from "../http/errors.js";
import type { LiveSession } from "./live-session.js";
import type { SessionRegistry } from "./session-registry.js";

/** Validates the id's syntax (before any lookup touches disk); throws 400 `invalid_session_id`. */
export function assertSessionId(sessionId: string): void {
  if (!isValidSessionId(sessionId)) throw invalidSessionId(sessionId);
}

/** The live session or 404 `session_not_found`. */
export function requireSession(registry: SessionRegistry, sessionId: string): LiveSession {
  const session = registry.get(sessionId);
  if (session === undefined) throw sessionNotFound(sessionId);
  return session;
}

/**
 * Throws 400 `invalid_client_id` when a supplied client id is not registered on the session; a registered
 * one counts as seen (it keeps the client from expiring).
 */
export function assertClient(session: LiveSession, clientId: string | undefined): void {
  if (clientId !== undefined && !session.clients.seen(clientId)) {
    throw unregisteredClientId(session.sessionId, clientId);
  }
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
