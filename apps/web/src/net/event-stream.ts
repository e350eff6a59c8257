// A session's live events over fetch + ReadableStream (EventSource cannot send our headers). Keeps the
// cursor (last `id:`) and the id sequence's epoch, reconnects with `Last-Event-ID` +
// `X-Qwen-Event-Epoch` after a drop, and hands back to the caller whatever a reconnect cannot fix:
// the session is gone (404), ids restarted (resync), the token is wrong (401).
import { EVENT_EPOCH_HEADER, LAST_EVENT_ID_HEADER } from "@qwen-daemon/core/protocol";
import type { DaemonEvent } from "./daemon-event.js";
import { type SseMessage, SseParser } from "./sse-parser.js";

/**
 * Why a stream stopped for good (an explicit `close()` reports nothing).
 * - `gone`: 404, the daemon has no live session by that id (it restarted, or the session was closed).
 * - `resync`: the cursor is useless (`state_resync_required`, or the epoch changed): reload the session.
 * - `closed`: the daemon sent `session_closed`.
 * - `unauthorized`: 401. `refused`: another 4xx, not worth retrying.
 */
export type StreamEnd = {
  kind: "gone" | "resync" | "closed" | "unauthorized" | "refused";
  reason?: string;
  status?: number;
};

/**
 * - `unreachable`: the last attempt never reached the daemon (it is down, or the network is): the caller
 *   may watch for it to come back and `wake()` the stream;
 * - `reconnecting`: the daemon answered but not with events (5xx, 429), or a live stream ended.
 */
export type StreamState = "connecting" | "live" | "reconnecting" | "unreachable";

export type EventStreamOptions = {
  url: string;
  fetch: typeof fetch;
  /** Auth and client id, read at every (re)connect. */
  headers: () => Record<string, string>;
  /** Cursor to resume after (the load response's `lastEventId`). */
  lastEventId?: number;
  /** Id sequence the cursor belongs to. */
  epoch?: string;
  onEvent: (event: DaemonEvent) => void;
  onEnd: (end: StreamEnd) => void;
  onState?: (state: StreamState, detail?: string) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  maxDelayMs?: number;
};

export type EventStream = {
  /** Stops for good without reporting an end. */
  close(): void;
  /** Cuts a reconnect delay short (the daemon is known to be back). */
  wake(): void;
  readonly lastEventId: number | undefined;
  readonly epoch: string | undefined;
  /** Settles once the reader has stopped (for tests). */
  readonly done: Promise<void>;
};

export type OpenEventStream = (options: EventStreamOptions) => EventStream;

export const DEFAULT_RETRY_MS = 3000;

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Delay before reconnect attempt `attempt` (0-based): the server's `retry:` doubled per failure, capped. */
export function reconnectDelay(baseMs: number, attempt: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 10));
}

export function openEventStream(options: EventStreamOptions): EventStream {
  const controller = new AbortController();
  const sleep = options.sleep ?? abortableSleep;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  let lastEventId = options.lastEventId;
  let epoch = options.epoch;
  let retryMs = DEFAULT_RETRY_MS;
  let ended = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let napping: AbortController | undefined;

  /** Aborts the request and, since not every fetch honours the signal once the body flows, the read. */
  const stop = () => {
    ended = true;
    controller.abort();
    napping?.abort();
    reader?.cancel().catch((error) => console.warn("qwen web: cancelling the event stream failed", error));
  };

  const finish = (end: StreamEnd) => {
    if (ended) return;
    stop();
    options.onEnd(end);
  };

  const read = async (res: Response) => {
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const current = (res.body as ReadableStream<Uint8Array>).getReader();
    reader = current;
    try {
      for (;;) {
        const { value, done } = await current.read();
        if (done) break;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          if (ended) return;
          deliver(message);
        }
        if (parser.retry !== undefined) retryMs = parser.retry;
      }
    } finally {
      reader = undefined;
      current.releaseLock();
    }
  };

  const deliver = (message: SseMessage) => {
    let event: DaemonEvent;
    try {
      event = JSON.parse(message.data);
    } catch (error) {
      // A frame we cannot read is reported, not fatal: the next ones are still useful.
      console.warn(`qwen web: unreadable ${message.event} frame`, error);
      return;
    }
    if (typeof event !== "object" || event === null) return;
    // The frame's own `type` is what the contract has; the SSE `event:` line stands in for a frame without one.
    if (!event.type) (event as { type: string }).type = message.event;
    if (event.type === "state_resync_required") {
      finish({ kind: "resync", reason: String(event.data?.reason ?? "state_resync_required") });
      return;
    }
    try {
      options.onEvent(event);
    } catch (error) {
      // A rendering bug must not tear the stream down (a reconnect would replay the same event forever).
      console.error(`qwen web: handling ${event.type} failed`, error);
    }
    if (message.id !== undefined && /^\d+$/.test(message.id)) lastEventId = Number(message.id);
    if (event.type === "session_closed") finish({ kind: "closed" });
  };

  const run = async () => {
    let attempt = 0;
    while (!ended) {
      options.onState?.(attempt === 0 ? "connecting" : "reconnecting");
      const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers() };
      if (lastEventId !== undefined) headers[LAST_EVENT_ID_HEADER.toLowerCase()] = String(lastEventId);
      if (epoch !== undefined) headers[EVENT_EPOCH_HEADER.toLowerCase()] = epoch;
      let retryAfterMs: number | undefined;
      let unreachable: string | undefined;
      try {
        const res = await options.fetch(options.url, {
          headers,
          signal: controller.signal,
          cache: "no-store",
        });
        if (res.status === 404) return finish({ kind: "gone", status: 404 });
        if (res.status === 401) return finish({ kind: "unauthorized", status: 401 });
        if (res.ok && res.body) {
          const served = res.headers.get(EVENT_EPOCH_HEADER) ?? undefined;
          if (epoch !== undefined && served !== undefined && served !== epoch && lastEventId !== undefined) {
            // Ids restarted (new daemon or re-created session): our cursor means nothing there.
            await res.body.cancel();
            return finish({ kind: "resync", reason: "epoch_changed" });
          }
          epoch = served ?? epoch;
          options.onState?.("live");
          attempt = 0;
          await read(res);
        } else if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
          return finish({ kind: "refused", status: res.status, reason: await res.text() });
        } else {
          const after = Number(res.headers.get("retry-after"));
          if (Number.isFinite(after) && after > 0) retryAfterMs = after * 1000;
          await res.body?.cancel();
        }
      } catch (error) {
        if (ended || controller.signal.aborted) return;
        // Network failure (daemon down, connection reset): fall through to a delayed reconnect.
        unreachable = error instanceof Error ? error.message : String(error);
      }
      if (ended) return;
      const delay = retryAfterMs ?? reconnectDelay(retryMs, attempt, maxDelayMs);
      attempt += 1;
      if (unreachable !== undefined) options.onState?.("unreachable", unreachable);
      else options.onState?.("reconnecting", `retrying in ${Math.round(delay / 1000)} s`);
      napping = new AbortController();
      const wakeUp = () => napping?.abort();
      controller.signal.addEventListener("abort", wakeUp, { once: true });
      await sleep(delay, napping.signal);
      controller.signal.removeEventListener("abort", wakeUp);
      napping = undefined;
    }
  };

  // Start on a microtask: no callback fires before the caller holds the returned handle.
  const done = Promise.resolve()
    .then(run)
    .catch((error) => {
      if (!ended) finish({ kind: "refused", reason: error instanceof Error ? error.message : String(error) });
    });

  return {
    close() {
      stop();
    },
    wake() {
      napping?.abort();
    },
    get lastEventId() {
      return lastEventId;
    },
    get epoch() {
      return epoch;
    },
    done,
  };
}
