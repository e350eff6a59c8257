// Read-only view of the sessions in storage (transcripts and ledgers, core's SessionStorage): coreSessionStore
// is the one implementation; tests run it over a storage in memory. The daemon never writes transcripts: its
// children do.
import type { LedgerEntry, PersistedSession, TrailingTurn, TranscriptRecord } from "@qwen-daemon/core";

export type { PersistedSession } from "@qwen-daemon/core";

export interface SessionStore {
  /** Sessions persisted for `cwd`, most recently updated first. */
  list(cwd: string): Promise<PersistedSession[]>;
  /** One persisted session, or undefined when there is no transcript for it. */
  get(cwd: string, sessionId: string): Promise<PersistedSession | undefined>;
  /** The session's records in file order (the last `limit` when given), or undefined when absent. */
  readRecords(cwd: string, sessionId: string, limit?: number): Promise<TranscriptRecord[] | undefined>;
  /**
   * The end of the transcript that decides what waits (its last model entry and after), read backwards so the
   * cost does not grow with the transcript; undefined when absent.
   */
  readTrailingTurn(cwd: string, sessionId: string): Promise<TrailingTurn | undefined>;
  /** The session's prompt ledger entries in file order (the child writes it); [] when there is none. */
  readPromptLedger(cwd: string, sessionId: string): Promise<LedgerEntry[]>;
}
