// The sessions persisted for a project, from its chats directory. Each transcript is read only up to its
// first user message (for the display name), so listing stays cheap however long the sessions are.
import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { forEachLine, JsonlAccumulator } from "./jsonl-file.js";
import { ANSWERS_SUFFIX, chatsDir, LEDGER_SUFFIX, PROMPTS_SUFFIX, TRANSCRIPT_SUFFIX } from "./paths.js";
import { decodeTranscriptRecord } from "./reader.js";
import type { TranscriptRecord } from "./records.js";
import { isValidSessionId } from "./session-id.js";

export interface PersistedSession {
  sessionId: string;
  /** Timestamp of the first valid record; the file's mtime when it has none. */
  createdAt: string;
  /** The transcript file's mtime (ISO). */
  updatedAt: string;
  /** The first user text, whitespace collapsed, cut to 80 characters. */
  displayName?: string;
}

export const DISPLAY_NAME_MAX_CHARS = 80;

/**
 * Sessions with a transcript in the project's chats directory, most recently updated first. Ledger files, answer journals and
 * files whose names are not valid session ids are ignored; a missing directory means no sessions.
 */
export async function listPersistedSessions(qwenHome: string, cwd: string): Promise<PersistedSession[]> {
  const dir = chatsDir(qwenHome, cwd);
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const sessions: PersistedSession[] = [];
  for (const entry of entries) {
    const sessionId = sessionIdOfFileName(entry.name);
    if (sessionId === undefined || !entry.isFile()) continue;
    const session = await describeSession(join(dir, entry.name), sessionId);
    if (session) sessions.push(session);
  }
  return sessions.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
}

/** The session id a transcript file name stands for, or undefined for ledgers, journals and foreign files. */
export function sessionIdOfFileName(name: string): string | undefined {
  if (
    !name.endsWith(TRANSCRIPT_SUFFIX) ||
    [LEDGER_SUFFIX, ANSWERS_SUFFIX, PROMPTS_SUFFIX].some((x) => name.endsWith(x))
  ) {
    return undefined;
  }
  const id = name.slice(0, -TRANSCRIPT_SUFFIX.length);
  return isValidSessionId(id) ? id : undefined;
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

async function describeSession(path: string, sessionId: string): Promise<PersistedSession | undefined> {
  let createdAt: string | undefined;
  let displayName: string | undefined;
  const acc = new JsonlAccumulator(decodeTranscriptRecord);
  try {
    const { mtime } = await stat(path);
    await forEachLine(
      path,
      (line, terminated) => {
        const record = acc.add(line, terminated);
        if (!record) return undefined;
        createdAt ??= record.timestamp;
        displayName = displayNameOf(record);
        return displayName === undefined;
      },
      64 * 1024,
    );
    const updatedAt = mtime.toISOString();
    return {
      sessionId,
      createdAt: createdAt ?? updatedAt,
      updatedAt,
      ...(displayName ? { displayName } : {}),
    };
  } catch (error) {
    // Deleted between readdir and now: it is simply no longer a session.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
