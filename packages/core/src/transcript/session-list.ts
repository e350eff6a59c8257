// The sessions persisted for a project, from its storage. Each transcript is read only up to its
// first user message (for the display name), so listing stays cheap however long the sessions are.
import {
  SessionLogNotFoundError,
  type SessionStorage,
  type StoredSession,
} from "../storage/session-storage.js";
import { transcriptLog } from "./reader.js";
import type { TranscriptRecord } from "./records.js";

export interface PersistedSession {
  sessionId: string;
  /** Timestamp of the first valid record; updatedAt when it has none. */
  createdAt: string;
  /** When the transcript was last written (ISO; the file's mtime for JSONL). */
  updatedAt: string;
  /** The first user text, whitespace collapsed, cut to 80 characters. */
  displayName?: string;
  /** A store shared by hosts: the URL of the other daemon whose live lease holds the session. */
  owner?: string;
}

export const DISPLAY_NAME_MAX_CHARS = 80;

/**
 * Sessions with a transcript in the project's storage, most recently updated first. Ledgers, journals and
 * files whose names are not valid session ids are not sessions; an unknown project has none.
 */
export async function listPersistedSessions(
  storage: SessionStorage,
  cwd: string,
): Promise<PersistedSession[]> {
  const sessions: PersistedSession[] = [];
  for (const stored of await storage.listSessions(cwd)) {
    const session = await describeSession(storage, cwd, stored);
    if (session) sessions.push(session);
  }
  return sessions.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
}

/**
 * One session of the project, described as the listing would (undefined when it has no transcript). Only that
 * session's transcript is read: the listing itself reads every transcript's head, which a load or a status call
 * on one session should not pay for every other session of the project.
 */
export async function findPersistedSession(
  storage: SessionStorage,
  cwd: string,
  sessionId: string,
): Promise<PersistedSession | undefined> {
  const stored = (await storage.listSessions(cwd)).find((s) => s.sessionId === sessionId);
  return stored === undefined ? undefined : describeSession(storage, cwd, stored);
}

/** First user text, whitespace collapsed, cut to `max` characters (code points) ending in "…" when cut. */
export function displayNameOf(record: TranscriptRecord, max = DISPLAY_NAME_MAX_CHARS): string | undefined {
  if (record.type !== "user") return undefined;
  const text = record.message.parts
    .map((part) => part.text ?? "")
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return undefined;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

async function describeSession(
  storage: SessionStorage,
  cwd: string,
  { sessionId, updatedAt, owner }: StoredSession,
): Promise<PersistedSession | undefined> {
  let createdAt: string | undefined;
  let displayName: string | undefined;
  try {
    await transcriptLog({ storage, cwd, sessionId }).scan((record) => {
      createdAt ??= record.timestamp;
      displayName = displayNameOf(record);
      return displayName === undefined;
    });
  } catch (error) {
    // Deleted since it was listed: it is simply no longer a session.
    if (error instanceof SessionLogNotFoundError) return undefined;
    throw error;
  }
  return {
    sessionId,
    createdAt: createdAt ?? updatedAt,
    updatedAt,
    ...(displayName ? { displayName } : {}),
    ...(owner !== undefined ? { owner } : {}),
  };
}
