// The status of one session (GET /session/:id/status, and each entry of the workspace session list).
// Pure projections: of a live session's state, or of a session known only from its transcript on disk.
import type { PendingInteraction, SessionSummary, TurnError } from "@qwen-daemon/core/protocol";
import type { PersistedSession } from "../persisted/session-store.js";

export type LiveSessionView = {
  sessionId: string;
  workspaceCwd: string;
  createdAt: string;
  updatedAt?: string | undefined;
  displayName?: string | undefined;
  clientCount: number;
  hasActivePrompt: boolean;
  pendingPromptCount: number;
  turnError?: TurnError | undefined;
  interactions: PendingInteraction[];
};

export function liveSessionSummary(view: LiveSessionView): SessionSummary {
  const questions = view.interactions.filter((i) => i.kind === "user_question").length;
  const permissions = view.interactions.length - questions;
  return {
    sessionId: view.sessionId,
    workspaceCwd: view.workspaceCwd,
    createdAt: view.createdAt,
    ...(view.updatedAt !== undefined ? { updatedAt: view.updatedAt } : {}),
    ...(view.displayName !== undefined ? { displayName: view.displayName } : {}),
    live: true,
    clientCount: view.clientCount,
    hasActivePrompt: view.hasActivePrompt,
    pendingPromptCount: view.pendingPromptCount,
    activeWorkState: view.hasActivePrompt || view.pendingPromptCount > 0 ? "active" : "idle",
    isWaitingForPermission: permissions > 0,
    isWaitingForUserQuestion: questions > 0,
    pendingInteractionCount: view.interactions.length,
    hasTurnError: view.turnError !== undefined,
    ...(view.turnError !== undefined ? { turnError: view.turnError } : {}),
    pendingInteractions: view.interactions,
  };
}

/** A session that exists only on disk: nothing runs and nobody is attached until it is loaded. */
export function persistedSessionSummary(session: PersistedSession, workspaceCwd: string): SessionSummary {
  return {
    sessionId: session.sessionId,
    workspaceCwd,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    ...(session.displayName !== undefined ? { displayName: session.displayName } : {}),
    live: false,
    clientCount: 0,
    hasActivePrompt: false,
    pendingPromptCount: 0,
    activeWorkState: "idle",
    isWaitingForPermission: false,
    isWaitingForUserQuestion: false,
    pendingInteractionCount: 0,
    hasTurnError: false,
    pendingInteractions: [],
    ...(session.owner !== undefined ? { owner: session.owner } : {}),
  };
}
