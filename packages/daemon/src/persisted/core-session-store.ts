// The production SessionStore: core's transcript reader, prompt ledger and session listing, over the session
// storage the children write to (the same openSessionStorage(QWEN_HOME), or one injected).
import {
  isValidSessionId,
  listPersistedSessions,
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
    // Listing reads only each transcript's head, so finding one session this way stays cheap enough
    // for status calls on sessions that are not live.
    async get(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return undefined;
      return (await listPersistedSessions(storage, cwd)).find((s) => s.sessionId === sessionId);
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
