// session/list: the workspace's persisted sessions plus live ones not on disk yet; and the cwd rule every
// request that names a workspace follows.

import { isAbsolute } from "node:path";
import { RequestError, type SessionInfo } from "@agentclientprotocol/sdk";
import type { AgentRuntime } from "./runtime.js";
import type { AcpSession } from "./session.js";

export function requireAbsolute(cwd: string): void {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, "cwd must be an absolute path");
}

/**
 * Persisted sessions of the workspace, most recently written first (ties by id, so pages are stable), after
 * the live ones that have nothing on disk yet.
 */
export async function listSessions(
  runtime: AgentRuntime,
  live: ReadonlyMap<string, AcpSession>,
  cwd: string,
): Promise<SessionInfo[]> {
  const persisted = await runtime.listSessions(cwd);
  const known = new Set(persisted.map((s) => s.sessionId));
  const fresh: SessionInfo[] = [];
  for (const session of live.values()) {
    if (session.cwd === cwd && !known.has(session.sessionId))
      fresh.push({ sessionId: session.sessionId, cwd });
  }
  const newestFirst = [...persisted].sort(
    (a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? "") || a.sessionId.localeCompare(b.sessionId),
  );
  return [...fresh, ...newestFirst];
}
