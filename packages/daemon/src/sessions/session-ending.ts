// How sessions end: closed by a client, reaped when idle, closed at shutdown, discarded when a load
// fails, or ended because their child died. Each way resolves the session's permission requests and
// fails its prompts before the session's event bus closes.

import { DaemonEventType } from "@qwen-daemon/core/protocol";
import type { ChildConnection, ChildDeath } from "../bridge/child-connection.js";
import type { SessionEventBus } from "../events/event-bus.js";
import { isMethodNotFound } from "./child-errors.js";
import type { LiveSession } from "./live-session.js";
import { isIdle } from "./restore-admission.js";
import type { SessionContext } from "./session-context.js";
import { requireSession } from "./session-lookup.js";

export type SessionCloseReason = "client" | "idle_timeout" | "shutdown";

/** DELETE /session/:id, idle reaping and shutdown: ends the session and tells the child. */
export async function closeSession(
  ctx: SessionContext,
  sessionId: string,
  reason: SessionCloseReason,
): Promise<void> {
  const { log } = ctx.options;
  const session = requireSession(ctx.registry, sessionId);
  const wasActive = session.queue.promptActive;
  endSession(ctx, session, closedEvent(reason), "session_closed", "Session closed");
  if (!session.child.alive) return;
  // session/close alone: a close is not a user's cancel. Sent as session/cancel first, the child would
  // record a waiting question as cancelled and it could never be asked again; closed, it stays on disk,
  // unanswered, for a later load to re-ask.
  try {
    await session.child.closeSession(sessionId);
  } catch (error) {
    if (!isMethodNotFound(error)) {
      log(`qwen serve: session/close for ${sessionId} failed: ${String(error)}`);
      return;
    }
    // An agent without session/close: stop its running turn at least; the daemon has forgotten it anyway.
    if (wasActive) {
      await session.child.cancel(sessionId).catch((cancelError: unknown) => {
        log(`qwen serve: session/cancel for closing ${sessionId} failed: ${String(cancelError)}`);
      });
    }
  }
}

/** Ends every session (shutdown): pending permissions resolve as session_closed. */
export function closeAllSessions(ctx: SessionContext): void {
  for (const session of ctx.registry.all()) {
    endSession(ctx, session, closedEvent("shutdown"), "session_closed", "Daemon shutting down");
  }
  ctx.mediator.dispose();
}

/** Ends the sessions that lived on a child that died. */
export function endSessionsOfDeadChild(ctx: SessionContext, child: ChildConnection, death: ChildDeath): void {
  for (const session of ctx.registry.all()) {
    if (session.child !== child) continue;
    endSession(
      ctx,
      session,
      (bus, sessionId) =>
        bus.emit(DaemonEventType.sessionDied, {
          sessionId,
          reason: death.reason,
          exitCode: death.code,
          signal: death.signal,
        }),
      "session_died",
      `The agent process ended (${death.reason})`,
    );
  }
}

/** A session whose load failed: forgotten without a closing event (no client ever saw it live). */
export function discardSession(ctx: SessionContext, session: LiveSession): void {
  ctx.mediator.cancelSession(session.sessionId, "session_closed");
  ctx.registry.remove(session);
  session.queue.failAll("session_closed", "Session load failed");
  session.bus.close();
}

/** Closes live sessions nobody has touched for `idleMs` (no subscribers, no work, no pending asks). */
export function reapIdleSessions(ctx: SessionContext, idleMs: number): string[] {
  const { clock, log } = ctx.options;
  const now = clock.now();
  const reaped: string[] = [];
  for (const session of ctx.registry.live()) {
    if (session.bus.subscriberCount > 0 || !isIdle(session.activity)) continue;
    if (ctx.mediator.hasPending(session.sessionId)) continue;
    if (now - session.lastActivityAt < idleMs) continue;
    reaped.push(session.sessionId);
    log(`qwen serve: closing idle session ${session.sessionId}`);
    closeSession(ctx, session.sessionId, "idle_timeout").catch((error: unknown) => {
      log(`qwen serve: closing idle session ${session.sessionId} failed: ${String(error)}`);
    });
  }
  return reaped;
}

/**
 * Common end of a session: terminal events for its prompts, its permission requests resolved as
 * session_closed, the closing event, then the bus closed (subscribers drain and end).
 */
function endSession(
  ctx: SessionContext,
  session: LiveSession,
  announce: (bus: SessionEventBus, sessionId: string) => void,
  turnCode: string,
  turnMessage: string,
): void {
  if (session.phase === "ended") return;
  const wasLive = session.phase === "live";
  // Permissions first: ending the turns would otherwise release them as agent_cancelled. And before the
  // registry forgets the session, because the mediator finds the session's event bus through it: removed
  // first, clients would never see permission_resolved for the question that went away.
  ctx.mediator.cancelSession(session.sessionId, "session_closed");
  ctx.registry.remove(session);
  session.queue.failAll(turnCode, turnMessage);
  if (wasLive) announce(session.bus, session.sessionId);
  session.bus.close();
}

function closedEvent(reason: SessionCloseReason) {
  return (bus: SessionEventBus, sessionId: string) =>
    bus.emit(DaemonEventType.sessionClosed, { sessionId, reason });
}
