// GET /session/:id/events: the session's SSE stream. With Last-Event-ID the ring replays after it;
// without one, the currently pending permission requests come first, so a late client never misses a
// question that is waiting. X-Qwen-Client-Id is not checked here (like the reference): reading is harmless.
import { randomUUID } from "node:crypto";
import {
  CLIENT_ID_HEADER,
  EVENT_EPOCH_HEADER,
  HttpRoutes,
  isWellFormedClientId,
  LAST_EVENT_ID_HEADER,
  SSE_STREAM_ID_HEADER,
} from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import type { Clock } from "../events/clock.js";
import { SubscriberLimitExceededError } from "../events/event-bus.js";
import { MAX_MAX_QUEUED, MIN_MAX_QUEUED } from "../events/index.js";
import { streamEvents } from "../events/sse.js";
import type { StreamGate } from "../events/stream-gate.js";
import { invalidMaxQueued, streamLimitExceeded, subscriberLimitExceeded } from "../http/errors.js";
import type { LiveSession } from "../sessions/live-session.js";
import type { Sessions } from "../sessions/sessions.js";
import { mount } from "./mount.js";
import { sessionIdOf } from "./request.js";

export type EventRouteOptions = {
  clock: Clock;
  heartbeatMs: number;
  /** The daemon-wide cap on open streams. */
  streams: StreamGate;
};

export function eventRoutes(sessions: Sessions, options: EventRouteOptions): Hono {
  const app = new Hono();
  mount(app, HttpRoutes.events, (c) => {
    const session = sessions.require(sessionIdOf(c));
    const maxQueued = parseMaxQueued(c.req.query("maxQueued"));
    const lastEventId = parseLastEventId(c.req.header(LAST_EVENT_ID_HEADER));
    const epoch = parseEpoch(c.req.header(EVENT_EPOCH_HEADER));
    // Hono answers HEAD by running this handler and dropping the body it returns; a stream dropped unread
    // is never cancelled, so its subscription would hold one of the session's slots forever.
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: sseHeaders(session) });
    const releaseSlot = options.streams.tryAcquire();
    if (releaseSlot === undefined) throw streamLimitExceeded(options.streams.limit);
    // Reading is open to anyone and the header is not checked (like the reference), but a registered client
    // that listens stays registered.
    const clientId = c.req.header(CLIENT_ID_HEADER);
    const releaseClient =
      clientId !== undefined && isWellFormedClientId(clientId)
        ? session.clients.streamOpened(clientId)
        : () => {};
    const release = () => {
      releaseSlot();
      releaseClient();
    };
    let body: ReadableStream<Uint8Array>;
    try {
      body = streamEvents({
        bus: session.bus,
        ...(lastEventId !== undefined ? { lastEventId } : {}),
        ...(epoch !== undefined ? { epoch } : {}),
        ...(maxQueued !== undefined ? { maxQueued } : {}),
        ...(lastEventId === undefined
          ? { initial: sessions.mediator.pendingRequestEvents(session.sessionId) }
          : {}),
        signal: c.req.raw.signal,
        heartbeatMs: options.heartbeatMs,
        clock: options.clock,
        onClose: () => {
          release();
          session.touch(options.clock.now());
        },
      });
    } catch (error) {
      release();
      if (error instanceof SubscriberLimitExceededError)
        throw subscriberLimitExceeded(error.message, error.limit);
      throw error;
    }
    return new Response(body, { status: 200, headers: sseHeaders(session) });
  });
  return app;
}

function sseHeaders(session: LiveSession): Record<string, string> {
  return {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-cache, no-transform",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
    [EVENT_EPOCH_HEADER]: session.bus.epoch,
    [SSE_STREAM_ID_HEADER]: randomUUID(),
  };
}

export function parseMaxQueued(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw invalidMaxQueued("`maxQueued` must be a decimal integer");
  const n = Number(raw);
  if (n < MIN_MAX_QUEUED || n > MAX_MAX_QUEUED) {
    throw invalidMaxQueued(`\`maxQueued\` must be in [${MIN_MAX_QUEUED}, ${MAX_MAX_QUEUED}]`);
  }
  return n;
}

/** A decimal Last-Event-ID; anything else is ignored (treated as no cursor), like the reference. */
export function parseLastEventId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

function parseEpoch(raw: string | undefined): string | undefined {
  return raw !== undefined && /^[\w-]{1,64}$/.test(raw) ? raw : undefined;
}
