import type { Clock, TimerHandle } from "./clock.js";
import { systemClock } from "./clock.js";
import type { DaemonEventLike } from "./daemon-event.js";
import type { SessionEventBus } from "./event-bus.js";
import {
  DEFAULT_HEARTBEAT_MS,
  formatSseEvent,
  SSE_HEARTBEAT_FRAME,
  SSE_RETRY_PREAMBLE,
} from "./sse-frame.js";
import type { SubscriptionCloseReason } from "./subscription.js";

export {
  DEFAULT_HEARTBEAT_MS,
  formatSseEvent,
  SSE_HEARTBEAT_FRAME,
  SSE_RETRY_PREAMBLE,
} from "./sse-frame.js";

/** Why an SSE stream ended: the client went away (abort/cancel) or its subscription ended. */
export type SseStreamCloseReason = "aborted" | "cancelled" | SubscriptionCloseReason;

export type StreamEventsOptions = {
  bus: SessionEventBus;
  lastEventId?: number;
  epoch?: string;
  maxQueued?: number;
  initial?: readonly DaemonEventLike[];
  /** The request's abort signal (client disconnect / daemon shutdown). */
  signal?: AbortSignal;
  /** 0 disables heartbeats. */
  heartbeatMs?: number;
  clock?: Clock;
  /** Runs exactly once when the stream ends for any reason. */
  onClose?: (reason: SseStreamCloseReason) => void;
};

const encoder = new TextEncoder();
// Bounds one chunk when a long replay is buffered, so a write never balloons to megabytes.
const MAX_FRAMES_PER_CHUNK = 256;

/**
 * The body of `GET /session/:id/events` as a web stream (for Hono's `c.body(stream)`).
 * Subscribes synchronously, so SubscriberLimitExceededError / RangeError are thrown here,
 * before any response is committed. Starts with `retry: 3000`, then replay / snapshot frames,
 * then live events, with `: heartbeat` comments every `heartbeatMs`. Cleanup (unsubscribe,
 * heartbeat timer, abort listener, `onClose`) runs exactly once, whether the client aborts,
 * the reader cancels, or the subscription ends (bus closed, slow client evicted).
 */
export function streamEvents(options: StreamEventsOptions): ReadableStream<Uint8Array> {
  const { bus, signal, onClose } = options;
  const clock = options.clock ?? systemClock;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const subscription = bus.subscribe({
    ...(options.lastEventId !== undefined ? { lastEventId: options.lastEventId } : {}),
    ...(options.epoch !== undefined ? { epoch: options.epoch } : {}),
    ...(options.maxQueued !== undefined ? { maxQueued: options.maxQueued } : {}),
    ...(options.initial !== undefined ? { initial: options.initial } : {}),
  });

  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let finished = false;
  let heartbeat: TimerHandle | undefined;

  // `closeStream` is false when the reader cancelled: the stream is already closed then and
  // touching its controller would throw.
  const finish = (reason: SseStreamCloseReason, closeStream: boolean): void => {
    if (finished) return;
    finished = true;
    if (heartbeat !== undefined) clock.clearTimeout(heartbeat);
    signal?.removeEventListener("abort", onAbort);
    subscription.close();
    if (closeStream) controller.close();
    onClose?.(reason);
  };
  const onAbort = (): void => finish("aborted", true);
  const armHeartbeat = (): void => {
    if (heartbeatMs <= 0) return;
    heartbeat = clock.setTimeout(() => {
      if (finished) return;
      controller.enqueue(encoder.encode(SSE_HEARTBEAT_FRAME));
      armHeartbeat();
    }, heartbeatMs);
  };

  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(SSE_RETRY_PREAMBLE));
      if (signal?.aborted) {
        finish("aborted", true);
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      armHeartbeat();
    },
    async pull(c) {
      const result = await subscription.next();
      if (finished) return;
      if (result.done) {
        finish(subscription.closeReason ?? "unsubscribed", true);
        return;
      }
      try {
        // Send everything already buffered in one chunk: fewer writes under bursts.
        let text = formatSseEvent(result.value);
        for (let n = 1; n < MAX_FRAMES_PER_CHUNK; n += 1) {
          const frame = subscription.tryNext();
          if (frame === undefined) break;
          text += formatSseEvent(frame);
        }
        c.enqueue(encoder.encode(text));
      } catch (error) {
        // Only an unserialisable snapshot frame can get here (ring events are checked on publish).
        finish("subscriber_error", false);
        c.error(error);
      }
    },
    cancel() {
      finish("cancelled", false);
    },
  });
}
