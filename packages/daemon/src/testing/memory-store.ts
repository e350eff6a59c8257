// An in-memory SessionStore for route tests.
import { type LedgerEntry, TrailingTurnCollector, type TranscriptRecord } from "@qwen-daemon/core";
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
    readTrailingTurn: async (_cwd, id) => {
      const all = records[id];
      if (all === undefined) return undefined;
      const collector = new TrailingTurnCollector();
      let i = all.length - 1;
      for (; i >= 0; i--) if (!collector.offer(all[i] as TranscriptRecord)) break;
      return { ...collector.result(i < 0), corruptLines: 0, tornTail: false };
    },
    readPromptLedger: async (_cwd, id) => [...(ledgers[id] ?? [])],
  };
}
