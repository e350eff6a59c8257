// Builds a LiveSession on a child: its event bus and its prompt queue, whose turns run on the child
// (turn-host.ts). Used by both create and restore; the caller registers it.
import type { DaemonEventData } from "@qwen-daemon/core/protocol";
import type { ChildConnection } from "../bridge/child-connection.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import { SessionEventBus } from "../events/event-bus.js";
import type { NotifySource } from "../notify/notify-event.js";
import { LiveSession } from "./live-session.js";
import { journalClosed } from "./prompt-journaling.js";
import { PromptQueue } from "./prompt-queue.js";
import type { SessionContext } from "./session-context.js";
import { turnHost } from "./turn-host.js";

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Who an event is about, for the notifier: the session, and whether it comes from a restore prompt. */
function sourceOf(session: LiveSession, event: DaemonEvent): NotifySource {
  const active = session.queue?.active;
  return {
    sessionId: session.sessionId,
    workspace: session.workspaceCwd,
    displayName: session.displayName,
    restored:
      event.promptId !== undefined && active?.promptId === event.promptId && active.kind === "restore",
  };
}

export function newLiveSession(
  ctx: SessionContext,
  sessionId: string,
  cwd: string,
  child: ChildConnection,
): LiveSession {
  const { clock, log, observeEvent } = ctx.options;
  const session = new LiveSession({
    sessionId,
    workspaceCwd: cwd,
    child,
    now: clock.now(),
    bus: new SessionEventBus({
      ringSize: ctx.options.eventRingSize,
      checkEvents: ctx.options.checkEvents === true,
      ...(ctx.options.eventRingMaxBytes !== undefined ? { ringMaxBytes: ctx.options.eventRingMaxBytes } : {}),
      clock,
      reportError: (error, context) =>
        log(`qwen serve: event bus of ${sessionId}: ${context}: ${String(error)}`),
      ...(observeEvent !== undefined
        ? { observe: (event) => observeEvent(sourceOf(session, event), event) }
        : {}),
    }),
    clients: {
      ...(ctx.options.mintClientId !== undefined ? { mint: ctx.options.mintClientId } : {}),
      ...(ctx.options.maxClientsPerSession !== undefined
        ? { maxClients: ctx.options.maxClientsPerSession }
        : {}),
      now: () => clock.now(),
    },
  });
  session.queue = new PromptQueue({
    sessionId,
    maxPending: ctx.options.maxPendingPromptsPerSession,
    clock,
    // The queue built the data from the contract's type for `type` (PromptQueue's #publish).
    publish: (type, data, extra) => session.bus.emit(type, data as DaemonEventData<typeof type>, extra),
    reportError: (error, context) => log(`qwen serve: ${context}: ${describeError(error)}`),
    ...turnHost(session, {
      mediator: ctx.mediator,
      clock,
      log,
      settled: (entry) => journalClosed(ctx, session, entry.promptId, "settled"),
    }),
  });
  return session;
}
