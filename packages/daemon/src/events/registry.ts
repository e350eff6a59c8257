/**
 * Every SSE event type the daemon emits (PROTOCOL.md "Events"), as data: routes, the bridge
 * and the mediator name events through this map so a typo is a compile error, not a silent
 * frame no client understands.
 */
export const DaemonEventType = {
  sessionUpdate: "session_update",
  permissionRequest: "permission_request",
  permissionResolved: "permission_resolved",
  permissionAlreadyResolved: "permission_already_resolved",
  permissionPartialVote: "permission_partial_vote",
  permissionForbidden: "permission_forbidden",
  turnComplete: "turn_complete",
  turnError: "turn_error",
  promptCancelled: "prompt_cancelled",
  pendingPromptAdded: "pending_prompt_added",
  pendingPromptStarted: "pending_prompt_started",
  pendingPromptCompleted: "pending_prompt_completed",
  sessionClosed: "session_closed",
  sessionDied: "session_died",
  replayComplete: "replay_complete",
  stateResyncRequired: "state_resync_required",
  /** Reference-compatible terminal frame sent to a subscriber evicted for being too slow. */
  clientEvicted: "client_evicted",
} as const;

export type DaemonEventType = (typeof DaemonEventType)[keyof typeof DaemonEventType];

const ALL_TYPES: ReadonlySet<string> = new Set(Object.values(DaemonEventType));

export function isDaemonEventType(value: string): value is DaemonEventType {
  return ALL_TYPES.has(value);
}

/**
 * Frames that describe the stream itself rather than the session. They carry no `id` (so an
 * SSE client's Last-Event-ID never points at them) and are never stored in the ring.
 */
export const STREAM_CONTROL_EVENT_TYPES: ReadonlySet<DaemonEventType> = new Set([
  DaemonEventType.replayComplete,
  DaemonEventType.stateResyncRequired,
  DaemonEventType.clientEvicted,
]);
