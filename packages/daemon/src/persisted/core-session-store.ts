// The production SessionStore: core's transcript reader, prompt ledger and session listing, over the session
// storage the children write to (the same openSessionStorage(QWEN_HOME), or one injected).
import {
  findPersistedSession,
  isValidSessionId,
  listPersistedSessions,
  memorySessionStorage,
  PromptLedger,
  readSessionTrailingTurn,
  readSessionTranscript,
  readSessionTranscriptTail,
  type SessionStorage,
  TranscriptNotFoundError,
} from "@qwen-daemon/core";
import type { SessionStore } from "./session-store.js";

export function coreSessionStore(storage: SessionStorage): SessionStore {
  return {
    list: (cwd) => listPersistedSessions(storage, cwd),
    // Reads that session's transcript head only (a load, a status call on a session that is not live), not
    // every session's of the project as the listing does.
    async get(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return undefined;
      return findPersistedSession(storage, cwd, sessionId);
    },
    async readRecords(cwd, sessionId, limit) {
      if (!isValidSessionId(sessionId)) return undefined;
      const location = { storage, cwd, sessionId };
      try {
        const result =
          limit === undefined
            ? await readSessionTranscript(location)
            : await readSessionTranscriptTail(location, limit);
        return result.records;
      } catch (error) {
        if (error instanceof TranscriptNotFoundError) return undefined;
        throw error;
      }
    },
    async readTrailingTurn(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return undefined;
      try {
        return await readSessionTrailingTurn({ storage, cwd, sessionId });
      } catch (error) {
        if (error instanceof TranscriptNotFoundError) return undefined;
        throw error;
      }
    },
    async readPromptLedger(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return [];
      // Read-only: the ledger's log stores nothing until its first append, which never happens here.
      return PromptLedger.forSession({ storage, cwd, sessionId }).read();
    },
  };
}

/** A store with nothing in it: the same store over an empty storage in memory (a daemon that reads no sessions). */
export function emptySessionStore(): SessionStore {
  return coreSessionStore(memorySessionStorage());
}
