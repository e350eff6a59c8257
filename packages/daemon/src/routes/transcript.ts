// GET /session/:id/transcript?limit=N: the persisted history as session_update events.
import { HttpRoutes, type TranscriptResponse } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { sessionNotFound } from "../errors/domain-errors.js";
import type { DaemonEvent } from "../events/daemon-event.js";
import { invalidTranscriptLimit } from "../http/errors.js";
import { assertSessionId } from "../sessions/session-lookup.js";
import type { Sessions } from "../sessions/sessions.js";
import { transcriptEvents } from "../status/transcript-events.js";
import { mount } from "./mount.js";
import { sessionIdOf } from "./request.js";

export const MAX_TRANSCRIPT_LIMIT = 500;

export function transcriptRoutes(sessions: Sessions): Hono {
  const app = new Hono();
  mount(app, HttpRoutes.transcript, async (c) => {
    const sessionId = sessionIdOf(c);
    assertSessionId(sessionId);
    const limit = parseLimit(c.req.query("limit"));
    const events =
      limit === undefined
        ? await wholeTranscript(sessions, sessionId)
        : await transcriptTail(sessions, sessionId, limit);
    if (events === undefined) throw sessionNotFound(sessionId);
    return { v: 1, sessionId, events } satisfies TranscriptResponse;
  });
  return app;
}

async function wholeTranscript(sessions: Sessions, sessionId: string): Promise<DaemonEvent[] | undefined> {
  const records = await sessions.store.readRecords(sessions.workspace, sessionId);
  if (records === undefined && sessions.registry.get(sessionId) === undefined) return undefined;
  return transcriptEvents(sessionId, records ?? []);
}

/**
 * The last `limit` events, read from the end of the transcript: `limit` counts events and a record makes
 * several or none, so the tail read grows (doubling) until it holds enough events or the whole file.
 * Numbered 1.. within the answer: positions in the whole transcript are not known without reading it all.
 */
async function transcriptTail(
  sessions: Sessions,
  sessionId: string,
  limit: number,
): Promise<DaemonEvent[] | undefined> {
  for (let records = limit; ; records *= 2) {
    const tail = await sessions.store.readRecords(sessions.workspace, sessionId, records);
    if (tail === undefined) return sessions.registry.get(sessionId) === undefined ? undefined : [];
    const events = transcriptEvents(sessionId, tail);
    if (events.length >= limit || tail.length < records) return renumber(events.slice(-limit));
  }
}

function renumber(events: DaemonEvent[]): DaemonEvent[] {
  return events.map((event, index) => ({ ...event, id: index + 1 }));
}

function parseLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const limit = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_TRANSCRIPT_LIMIT)) throw invalidTranscriptLimit(MAX_TRANSCRIPT_LIMIT);
  return limit;
}
