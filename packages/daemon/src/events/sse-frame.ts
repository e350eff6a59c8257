import type { DaemonFrame } from "./daemon-event.js";

/** First bytes of every SSE connection: tells EventSource clients to reconnect after 3 s. */
export const SSE_RETRY_PREAMBLE = "retry: 3000\n\n";

/** Comment frame sent every 15 s so proxies and clients can tell an idle stream from a dead one. */
export const SSE_HEARTBEAT_FRAME = ": heartbeat\n\n";

export const DEFAULT_HEARTBEAT_MS = 15_000;

// One event is written to every subscriber of its session; memoising the text per frame object
// turns fan-out to N clients into one JSON.stringify. Weak, so frames dropped from the ring go.
const formatted = new WeakMap<DaemonFrame, string>();

/**
 * `id: N\nevent: <type>\ndata: <json>\n\n`; frames without an id (replay_complete,
 * state_resync_required, client_evicted, the pending-permission snapshot) get no `id:` line.
 * JSON.stringify escapes CR and LF, so the data always stays on its one `data:` line.
 * Throws if the data cannot be serialised (cycles, BigInt): a producer bug, reported loudly.
 */
export function formatSseEvent(frame: DaemonFrame): string {
  const cached = formatted.get(frame);
  if (cached !== undefined) return cached;
  if (/[\r\n]/.test(frame.type))
    throw new TypeError(`event type must be one line: ${JSON.stringify(frame.type)}`);
  const idLine = frame.id === undefined ? "" : `id: ${frame.id}\n`;
  const text = `${idLine}event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`;
  formatted.set(frame, text);
  return text;
}
