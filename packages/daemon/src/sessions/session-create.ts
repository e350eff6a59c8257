// POST /session: a new session on the workspace's child. The default ("single") scope shares one session
// among clients, so concurrent default creates wait for the one in progress instead of making two.

import {
  type AttachResponse,
  REQUESTED_SESSION_ID_META_KEY,
  type SessionScope,
} from "@qwen-daemon/core/protocol";
import { sessionIdConflict } from "../errors/domain-errors.js";
import { configOptionsOf, errorFromChild } from "./child-errors.js";
import type { LiveSession } from "./live-session.js";
import type { Sessions } from "./sessions.js";

/** A create the route has checked: the workspace resolved, the scope defaulted, the id well formed. */
export type CreateRequest = { cwd: string; scope: SessionScope; sessionId?: string | undefined };

export async function createSession(
  sessions: Sessions,
  request: CreateRequest,
  requestedClientId: string | undefined,
): Promise<AttachResponse> {
  const { registry } = sessions;
  const { cwd, scope, sessionId: requestedId } = request;
  if (requestedId !== undefined) {
    if (registry.isTaken(requestedId) || (await sessions.store.get(cwd, requestedId)) !== undefined) {
      throw sessionIdConflict(requestedId);
    }
    return (await startSession(sessions, cwd, requestedId, false)).attach(requestedClientId, true);
  }
  if (scope === "thread")
    return (await startSession(sessions, cwd, undefined, false)).attach(requestedClientId, true);
  const existing =
    registry.defaultSessionId === undefined ? undefined : registry.get(registry.defaultSessionId);
  if (existing !== undefined) return existing.attach(requestedClientId, false);
  const creating = registry.defaultCreation;
  if (creating !== undefined) return (await creating).attach(requestedClientId, false);
  const created = startSession(sessions, cwd, undefined, true);
  registry.defaultCreation = created;
  try {
    return (await created).attach(requestedClientId, true);
  } finally {
    registry.defaultCreation = undefined;
  }
}

async function startSession(
  sessions: Sessions,
  cwd: string,
  requestedId: string | undefined,
  makeDefault: boolean,
): Promise<LiveSession> {
  const release = sessions.registry.reserve();
  try {
    const child = await sessions.children.ensure();
    let response: { sessionId: string; configOptions?: unknown };
    try {
      response = await child.newSession(
        cwd,
        requestedId !== undefined ? { [REQUESTED_SESSION_ID_META_KEY]: requestedId } : undefined,
      );
    } catch (error) {
      throw errorFromChild(error);
    }
    if (requestedId !== undefined && response.sessionId !== requestedId) {
      sessions.options.log(
        `qwen serve: agent ignored the requested session id ${requestedId} and created ${response.sessionId}`,
      );
    }
    if (sessions.registry.isTaken(response.sessionId)) {
      throw sessionIdConflict(response.sessionId);
    }
    // Shared storage: the new session is this daemon's from the start, before anything is written to it,
    // so a load elsewhere in between is refused (409) instead of claiming it.
    const taken = await sessions.options.leases?.acquire({ cwd, sessionId: response.sessionId });
    if (taken !== undefined && !taken.acquired) throw sessionIdConflict(response.sessionId);
    const session = sessions.newSession(response.sessionId, cwd, child);
    session.configOptions = configOptionsOf(response);
    session.opened();
    sessions.registry.promote(session);
    if (makeDefault) sessions.registry.defaultSessionId = session.sessionId;
    return session;
  } finally {
    release();
  }
}
