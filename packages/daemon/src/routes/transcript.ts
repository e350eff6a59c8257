// GET /session/:id/transcript?limit=N: the persisted history as session_update events.
import { Hono } from "hono";
import { invalidTranscriptLimit, sessionNotFound } from "../http/errors.js";
import type { SessionService } from "../sessions/session-service.js";
import { transcriptEvents } from "../status/transcript-events.js";
import { sessionIdOf } from "./request.js";

export const MAX_TRANSCRIPT_LIMIT = 500;

export function transcriptRoutes(service: SessionService): Hono {
  return new Hono().get("/session/:id/transcript", async (c) => {
    const sessionId = sessionIdOf(c);
    service.assertSessionId(sessionId);
    const limit = parseLimit(c.req.query("limit"));
    // `limit` counts events (a record can make several or none), so the whole transcript is read.
    const records = await service.store.readRecords(service.workspace, sessionId);
    if (records === undefined && service.registry.get(sessionId) === undefined)
      throw sessionNotFound(sessionId);
    const events = transcriptEvents(sessionId, records ?? []);
    return c.json({ v: 1, sessionId, events: limit === undefined ? events : events.slice(-limit) });
  });
}

function parseLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const limit = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_TRANSCRIPT_LIMIT)) throw invalidTranscriptLimit(MAX_TRANSCRIPT_LIMIT);
  return limit;
}
