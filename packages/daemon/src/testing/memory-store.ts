// An in-memory SessionStore for route tests.
import type { LedgerEntry, TranscriptRecord } from "@qwen-daemon/core";
import type { PersistedSession, SessionStore } from "../persisted/session-store.js";

export function memoryStore(
  sessions: PersistedSession[],
  records: Record<string, TranscriptRecord[]> = {},
  ledgers: Record<string, LedgerEntry[]> = {},
): SessionStore {
  return {
    list: async () => [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)),
    get: async (_cwd, id) => sessions.find((s) => s.sessionId === id),
    readRecords: async (_cwd, id, limit) => {
      const all = records[id];
      if (all === undefined) return undefined;
      return limit === undefined ? all : all.slice(-limit);
    },
    readPromptLedger: async (_cwd, id) => [...(ledgers[id] ?? [])],
  };
}
