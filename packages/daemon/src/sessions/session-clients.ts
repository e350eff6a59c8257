// Clients on a session: attaching (minting or adopting a client id), heartbeats and detaching.
import type { AttachResponse, HeartbeatResponse } from "@qwen-daemon/core/protocol";
import type { Clock } from "../events/clock.js";
import type { LiveSession } from "./live-session.js";

/** What create, load and resume answer about the session and the client (the contract's AttachResponse). */
export type AttachResult = AttachResponse;

/** Registers the client on the session; `created` says the session is new (so the client did not attach). */
export function attachClient(
  session: LiveSession,
  requestedClientId: string | undefined,
  created: boolean,
  clock: Clock,
): AttachResult {
  const now = clock.now();
  const clientId = session.clients.attach(requestedClientId, now);
  session.touch(now);
  return {
    sessionId: session.sessionId,
    workspaceCwd: session.workspaceCwd,
    attached: !created,
    clientId,
    createdAt: session.createdAt,
  };
}

export function heartbeatClient(
  session: LiveSession,
  clientId: string | undefined,
  clock: Clock,
): HeartbeatResponse {
  const now = clock.now();
  if (clientId !== undefined) session.clients.touch(clientId, now);
  session.touch(now);
  return { sessionId: session.sessionId, ...(clientId !== undefined ? { clientId } : {}), lastSeenAt: now };
}

export function detachClient(session: LiveSession, clientId: string | undefined, clock: Clock): void {
  if (clientId !== undefined) session.clients.detach(clientId);
  session.touch(clock.now());
}
