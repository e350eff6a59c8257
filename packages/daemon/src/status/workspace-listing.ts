// GET /workspace/:cwd/sessions: live sessions merged over the ones on disk (live state wins), most
// recently active first, paginated with an opaque cursor.
import type { SessionListPage, SessionSummary } from "@qwen-daemon/core/protocol";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Live entries replace persisted entries of the same id; the result is sorted newest first. */
export function mergeSessionSummaries(
  live: readonly SessionSummary[],
  persisted: readonly SessionSummary[],
): SessionSummary[] {
  const byId = new Map<string, SessionSummary>();
  for (const s of persisted) byId.set(s.sessionId, s);
  for (const s of live) byId.set(s.sessionId, s);
  return [...byId.values()].sort(
    (a, b) => recency(b).localeCompare(recency(a)) || a.sessionId.localeCompare(b.sessionId),
  );
}

function recency(s: SessionSummary): string {
  return s.updatedAt ?? s.createdAt;
}

/** The cursor is the offset of the next page, base64url-encoded so clients treat it as opaque. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`, "utf8").toString("base64url");
}

/** The offset in `cursor`, or undefined when it is not one this daemon produced. */
export function decodeCursor(cursor: string): number | undefined {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^o:(\d{1,9})$/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

export function paginate(all: readonly SessionSummary[], size: number, offset: number): SessionListPage {
  const sessions = all.slice(offset, offset + size);
  const next = offset + sessions.length;
  return next < all.length ? { sessions, nextCursor: encodeCursor(next) } : { sessions };
}
