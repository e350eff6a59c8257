// Session status and the workspace session list: live state merged with sessions known only from disk.
// Status is a live-session route, as in the reference daemon: a session that is not held here (never loaded,
// closed by DELETE, reaped, or died with its child) answers 404 session_not_found, like every other session
// route, so "404 = load or resume it" holds everywhere. Sessions on disk are found through the list.
import { isAbsolute, resolve } from "node:path";
import { HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { cwdNotAbsolute, invalidPageQuery, workspaceMismatch } from "../http/errors.js";
import type { SessionService } from "../sessions/session-service.js";
import { summarizeLiveSession } from "../status/live-summary.js";
import { persistedSessionSummary } from "../status/session-summary.js";
import {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  MAX_PAGE_SIZE,
  mergeSessionSummaries,
  paginate,
} from "../status/workspace-listing.js";
import { sessionIdOf } from "./request.js";

export function statusRoutes(service: SessionService): Hono {
  return new Hono()
    .get(HttpRoutes.status.path, (c) => {
      const sessionId = sessionIdOf(c);
      service.assertSessionId(sessionId);
      return c.json(summarizeLiveSession(service.require(sessionId), service.mediator));
    })
    .get(HttpRoutes.workspaceSessions.path, async (c) => {
      const cwd = c.req.param("cwd");
      if (!isAbsolute(cwd)) throw cwdNotAbsolute();
      if (resolve(cwd) !== service.workspace) throw workspaceMismatch(service.workspace, resolve(cwd));
      const size = parseSize(c.req.query("size"));
      const cursor = c.req.query("cursor");
      const offset = cursor === undefined || cursor === "" ? 0 : decodeCursor(cursor);
      if (offset === undefined) throw invalidPageQuery("`cursor` is not a cursor returned by this daemon");
      const live = service.registry.live().map((s) => summarizeLiveSession(s, service.mediator));
      const persisted = (await service.store.list(service.workspace)).map((p) =>
        persistedSessionSummary(p, service.workspace),
      );
      return c.json(paginate(mergeSessionSummaries(live, persisted), size, offset));
    });
}

function parseSize(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_PAGE_SIZE;
  const size = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(size >= 1 && size <= MAX_PAGE_SIZE)) {
    throw invalidPageQuery(`\`size\` must be an integer between 1 and ${MAX_PAGE_SIZE}`);
  }
  return size;
}
