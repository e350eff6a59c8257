// The history a child replays during session/load, turned into the SSE-shaped events of the load
// response's `compactedReplay` (ids 1..n). They are not put in the ring: the first live event after a
// load is n+1.

import {
  type DaemonEventData,
  DaemonEventType,
  EVENT_SCHEMA_VERSION,
  type SessionUpdatePayload,
} from "@qwen-daemon/core/protocol";
import type { DaemonEvent } from "../events/daemon-event.js";

export type ReplayedUpdate = { update: SessionUpdatePayload; at: number };

export function replayEvents(sessionId: string, updates: readonly ReplayedUpdate[]): DaemonEvent[] {
  return updates.map((u, index) => ({
    id: index + 1,
    v: EVENT_SCHEMA_VERSION,
    type: DaemonEventType.sessionUpdate,
    data: { sessionId, update: u.update } satisfies DaemonEventData<typeof DaemonEventType.sessionUpdate>,
    _meta: { serverTimestamp: u.at },
  }));
}
