// The summary of a live session, read from the service's state (the impure half of session-summary.ts).
import type { SessionSummary } from "@qwen-daemon/core/protocol";
import type { PermissionMediator } from "../permission/mediator.js";
import type { LiveSession } from "../sessions/live-session.js";
import { pendingInteraction } from "./pending-interaction.js";
import { liveSessionSummary } from "./session-summary.js";

export function summarizeLiveSession(session: LiveSession, mediator: PermissionMediator): SessionSummary {
  return liveSessionSummary({
    sessionId: session.sessionId,
    workspaceCwd: session.workspaceCwd,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    displayName: session.displayName,
    clientCount: session.clients.size,
    hasActivePrompt: session.hasActivePrompt,
    pendingPromptCount: session.queue.pendingCount,
    turnError: session.turnError,
    interactions: mediator.pending(session.sessionId).map(pendingInteraction),
  });
}
