// A session's live events over fetch + ReadableStream (EventSource cannot send our headers). Keeps the
// cursor (last `id:`) and the id sequence's epoch, reconnects with `Last-Event-ID` +
// `X-Qwen-Event-Epoch` after a drop, and hands back to the caller whatever a reconnect cannot fix:
// the session is gone (404), ids restarted (resync), the token is wrong (401).
import { SseParser } from "./sse-parser.js";

/**
 * A daemon event as carried in an SSE `data:` line.
 * @typedef {{ id?: number, v?: number, type: string, data?: any, promptId?: string, originatorClientId?: string }} DaemonEvent
 */

/**
 * Why a stream stopped for good (an explicit `close()` reports nothing).
 * - `gone`: 404, the daemon has no live session by that id (it restarted, or the session was closed).
 * - `resync`: the cursor is useless (`state_resync_required`, or the epoch changed): reload the session.
 * - `closed`: the daemon sent `session_closed`.
 * - `unauthorized`: 401. `refused`: another 4xx, not worth retrying.
 * @typedef {{ kind: "gone" | "resync" | "closed" | "unauthorized" | "refused", reason?: string, status?: number }} StreamEnd
 */

/** @typedef {"connecting" | "live" | "reconnecting"} StreamState */

/**
 * @typedef {object} EventStreamOptions
 * @property {string} url
 * @property {typeof fetch} fetch
 * @property {() => Record<string, string>} headers  auth and client id, read at every (re)connect
 * @property {number} [lastEventId]  cursor to resume after (the load response's `lastEventId`)
 * @property {string} [epoch]  id sequence the cursor belongs to
 * @property {(event: DaemonEvent) => void} onEvent
 * @property {(end: StreamEnd) => void} onEnd
 * @property {(state: StreamState, detail?: string) => void} [onState]
 * @property {(ms: number, signal: AbortSignal) => Promise<void>} [sleep]
 * @property {number} [maxDelayMs]
 */

export const DEFAULT_RETRY_MS = 3000;

/**
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
function abortableSleep(ms, signal) {
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

/**
 * Delay before reconnect attempt `attempt` (0-based): the server's `retry:` doubled per failure, capped.
 * @param {number} baseMs
 * @param {number} attempt
 * @param {number} maxMs
 */
export function reconnectDelay(baseMs, attempt, maxMs) {
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 10));
}

/**
 * @param {EventStreamOptions} options
 */
export function openEventStream(options) {
  const controller = new AbortController();
  const sleep = options.sleep ?? abortableSleep;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  let lastEventId = options.lastEventId;
  let epoch = options.epoch;
  let retryMs = DEFAULT_RETRY_MS;
  let ended = false;
  /** @type {ReadableStreamDefaultReader<Uint8Array> | undefined} */
  let reader;

  /** Aborts the request and, since not every fetch honours the signal once the body flows, the read. */
  const stop = () => {
    ended = true;
    controller.abort();
    reader?.cancel().catch((error) => console.warn("qwen web: cancelling the event stream failed", error));
  };

  /** @param {StreamEnd} end */
  const finish = (end) => {
    if (ended) return;
    stop();
    options.onEnd(end);
  };

  /**
   * Reads one response to its end. Returns true when events arrived (the connection was useful).
   * @param {Response} res
   */
  const read = async (res) => {
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const current = /** @type {ReadableStream<Uint8Array>} */ (res.body).getReader();
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

  /** @param {import("./sse-parser.js").SseMessage} message */
  const deliver = (message) => {
    /** @type {DaemonEvent} */
    let event;
    try {
      event = JSON.parse(message.data);
    } catch (error) {
      // A frame we cannot read is reported, not fatal: the next ones are still useful.
      console.warn(`qwen web: unreadable ${message.event} frame`, error);
      return;
    }
    if (typeof event !== "object" || event === null) return;
    if (!event.type) event.type = message.event;
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
      /** @type {Record<string, string>} */
      const headers = { accept: "text/event-stream", ...options.headers() };
      if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
      if (epoch !== undefined) headers["x-qwen-event-epoch"] = epoch;
      let retryAfterMs;
      try {
        const res = await options.fetch(options.url, {
          headers,
          signal: controller.signal,
          cache: "no-store",
        });
        if (res.status === 404) return finish({ kind: "gone", status: 404 });
        if (res.status === 401) return finish({ kind: "unauthorized", status: 401 });
        if (res.ok && res.body) {
          const served = res.headers.get("x-qwen-event-epoch") ?? undefined;
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
        options.onState?.("reconnecting", error instanceof Error ? error.message : String(error));
      }
      if (ended) return;
      const delay = retryAfterMs ?? reconnectDelay(retryMs, attempt, maxDelayMs);
      attempt += 1;
      options.onState?.("reconnecting", `retrying in ${Math.round(delay / 1000)} s`);
      await sleep(delay, controller.signal);
    }
  };

  // Start on a microtask: no callback fires before the caller holds the returned handle.
  const done = Promise.resolve()
    .then(run)
    .catch((error) => {
      if (!ended) finish({ kind: "refused", reason: error instanceof Error ? error.message : String(error) });
    });

  return {
    /** Stops for good without reporting an end. */
    close() {
      stop();
    },
    get lastEventId() {
      return lastEventId;
    },
    get epoch() {
      return epoch;
    },
    /** Settles once the reader has stopped (for tests). */
    done,
  };
}
