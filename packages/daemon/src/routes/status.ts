// Session status and the workspace session list: live state merged with sessions known only from disk.
// Status is a live-session route, as in the reference daemon: a session that is not held here (never loaded,
// closed by DELETE, reaped, or died with its child) answers 404 session_not_found, like every other session
// route, so "404 = load or resume it" holds everywhere. Sessions on disk are found through the list.
import { isAbsolute, resolve } from "node:path";
import { HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { cwdNotAbsolute, workspaceMismatch } from "../errors/domain-errors.js";
import { invalidPageQuery } from "../http/errors.js";
import { assertSessionId } from "../sessions/session-lookup.js";
import type { Sessions } from "../sessions/sessions.js";
import { summarizeLiveSession } from "../status/live-summary.js";
import { markPendingOnDisk, type PendingOnDiskDeps } from "../status/pending-on-disk.js";
import { persistedSessionSummary } from "../status/session-summary.js";
import {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  MAX_PAGE_SIZE,
  mergeSessionSummaries,
  paginate,
} from "../status/workspace-listing.js";
import { mount } from "./mount.js";
import { sessionIdOf } from "./request.js";

export function statusRoutes(sessions: Sessions): Hono {
  const app = new Hono();
  mount(app, HttpRoutes.status, async (c) => {
    const sessionId = sessionIdOf(c);
    assertSessionId(sessionId);
    const summary = summarizeLiveSession(sessions.require(sessionId), sessions.mediator);
    return (await withNames(sessions, [summary]))[0] as typeof summary;
  });
  mount(app, HttpRoutes.workspaceSessions, async (c) => {
    const cwd = c.req.param("cwd") ?? "";
    if (!isAbsolute(cwd)) throw cwdNotAbsolute();
    if (resolve(cwd) !== sessions.workspace) throw workspaceMismatch(sessions.workspace, resolve(cwd));
    const size = parseSize(c.req.query("size"));
    const cursor = c.req.query("cursor");
    const offset = cursor === undefined || cursor === "" ? 0 : decodeCursor(cursor);
    if (offset === undefined) throw invalidPageQuery("`cursor` is not a cursor returned by this daemon");
    const live = sessions.registry.live().map((s) => summarizeLiveSession(s, sessions.mediator));
    const persisted = (await sessions.store.list(sessions.workspace)).map((p) =>
      persistedSessionSummary(p, sessions.workspace),
    );
    const page = paginate(mergeSessionSummaries(live, persisted), size, offset);
    const named = { ...page, sessions: await withNames(sessions, page.sessions) };
    return markPendingOnDisk(named, sessions.workspace, pendingOnDiskDeps(sessions));
  });
  return app;
}

/** The name a person gave a session wins over its first prompt (read only for the entries answered). */
async function withNames<S extends { sessionId: string; displayName?: string | undefined }>(
  sessions: Sessions,
  summaries: S[],
): Promise<S[]> {
  return Promise.all(
    summaries.map(async (s) => {
      const name = await sessions.names.get(sessions.workspace, s.sessionId);
      return name === undefined ? s : { ...s, displayName: name };
    }),
  );
}

function pendingOnDiskDeps(sessions: Sessions): PendingOnDiskDeps {
  return {
    store: sessions.store,
    journal: sessions.options.answerJournal,
    switches: sessions.switches,
    log: sessions.options.log,
  };
}

function parseSize(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_PAGE_SIZE;
  const size = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(size >= 1 && size <= MAX_PAGE_SIZE)) {
    throw invalidPageQuery(`\`size\` must be an integer between 1 and ${MAX_PAGE_SIZE}`);
  }
  return size;
}
