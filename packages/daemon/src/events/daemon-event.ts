// Events as the bus stores and streams them. The envelope is the wire contract's (protocol/events.ts); here it
// is typed loosely (any type, any data), as the bus itself is: producers build events through the contract's
// definitions (`SessionEventBus.emit`), which the bus can check.
import { EVENT_SCHEMA_VERSION, type EventEnvelope, type EventExtra } from "@qwen-daemon/core/protocol";

/** What a producer hands the bus: the bus adds `id`, `v` and `_meta`. */
export type DaemonEventLike = {
  type: string;
  data: Record<string, unknown>;
  promptId?: string;
  originatorClientId?: string;
};

/** Envelope fields a producer may attach to an event besides its data. */
export type DaemonEventExtra = EventExtra;

/** A session event as stored in the ring and sent on SSE with an `id:` line. */
export type DaemonEvent = EventEnvelope & { id: number };

/**
 * A frame without an id: stream control (`replay_complete`, `state_resync_required`,
 * `client_evicted`) and the pending-permission snapshot given to a subscriber without a cursor.
 * Having no id keeps a client's Last-Event-ID pointing at real ring events only.
 */
export type ControlFrame = EventEnvelope & { id?: undefined };

export type DaemonFrame = DaemonEvent | ControlFrame;

/** Builds an id-less frame with the same field order as a {@link DaemonEvent}. */
export function controlFrame(like: DaemonEventLike, serverTimestamp: number): ControlFrame {
  return {
    v: EVENT_SCHEMA_VERSION,
    type: like.type,
    data: like.data,
    ...(like.promptId !== undefined ? { promptId: like.promptId } : {}),
    ...(like.originatorClientId !== undefined ? { originatorClientId: like.originatorClientId } : {}),
    _meta: { serverTimestamp },
  };
}
