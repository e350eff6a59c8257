// The production SessionStore: core's transcript reader and session listing under $QWEN_HOME.
import {
  isValidSessionId,
  ledgerPath,
  listPersistedSessions,
  PromptLedger,
  readTranscript,
  readTranscriptTail,
  TranscriptNotFoundError,
  transcriptPath,
} from "@qwen-daemon/core";
import type { SessionStore } from "./session-store.js";

export function coreSessionStore(qwenHome: string): SessionStore {
  return {
    list: (cwd) => listPersistedSessions(qwenHome, cwd),
    // Listing reads only each transcript's head, so finding one session this way stays cheap enough
    // for status calls on sessions that are not live.
    async get(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return undefined;
      return (await listPersistedSessions(qwenHome, cwd)).find((s) => s.sessionId === sessionId);
    },
    async readRecords(cwd, sessionId, limit) {
      if (!isValidSessionId(sessionId)) return undefined;
      const path = transcriptPath(qwenHome, cwd, sessionId);
      try {
        const result =
          limit === undefined ? await readTranscript(path) : await readTranscriptTail(path, limit);
        return result.records;
      } catch (error) {
        if (error instanceof TranscriptNotFoundError) return undefined;
        throw error;
      }
    },
    async readPromptLedger(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return [];
      // Read-only: the ledger's writer opens the file only on its first append, which never happens here.
      return new PromptLedger(ledgerPath(qwenHome, cwd, sessionId)).read();
    },
  };
}
