// The prompt journal is the session's `prompts` log in core's SessionStorage (for JSONL:
// `$QWEN_HOME/projects/<project>/chats/<sessionId>.prompts.jsonl`, 0600: it holds the prompts' text), beside
// the transcript the child writes. `accepted` entries are durable before the route answers 202; closing
// entries are plain appends (what they save is a report, never a prompt). The journal is compacted by
// replacing it atomically (for JSONL: temp file, fsync, rename): closed prompts are dropped, so it stays the
// size of what is still open plus a bounded tail of reported never-started prompts. Reads never fail on a
// torn last line. The writer stays open while the session is live (answers/kept-session-logs.ts).
import {
  isValidSessionId,
  type MemorySessionStorage,
  memorySessionStorage,
  type SessionLog,
  SessionLogNotFoundError,
  type SessionStorage,
} from "@qwen-daemon/core";
import { KeptSessionLogs } from "../answers/kept-session-logs.js";
import { withMemoryEntries } from "../answers/memory-journal-entries.js";
import { decodePromptJournalEntry, PromptJournalEntry } from "./prompt-record.js";

export type PromptJournalRead = { entries: PromptJournalEntry[]; corruptLines: number };

export interface PromptJournal {
  /**
   * Appends one entry for the session in workspace `cwd`; with `durable`, resolves only once it is fsynced.
   * Rejects when it cannot be written (or the entry or its session id is invalid).
   */
  append(cwd: string, entry: PromptJournalEntry, options?: { durable?: boolean }): Promise<void>;
  /** The session's entries in file order (none when there is no journal or the session id is not valid). */
  read(cwd: string, sessionId: string): Promise<PromptJournalRead>;
  /** Replaces the session's entries with `keep(entries)`, atomically (nothing at all removes the file). */
  rewrite(
    cwd: string,
    sessionId: string,
    keep: (entries: readonly PromptJournalEntry[]) => PromptJournalEntry[],
  ): Promise<void>;
  /** The session is live here: its writer stays open from its next append until `release`. */
  hold(cwd: string, sessionId: string): void;
  /** The session ended here: its writer is closed once its pending writes are done. */
  release(cwd: string, sessionId: string): Promise<void>;
  /** The daemon stops: every writer is closed. */
  close(): Promise<void>;
}

export function storedPromptJournal(storage: SessionStorage): PromptJournal {
  // One writer per log at a time (TranscriptWriter's rule for JSONL), and no append lands during a rewrite.
  const logs = new KeptSessionLogs(storage, "prompts", decodePromptJournalEntry);
  const readLog = async (log: SessionLog<PromptJournalEntry>): Promise<PromptJournalRead> => {
    try {
      const { items, corruptLines } = await log.read();
      return { entries: items, corruptLines };
    } catch (error) {
      if (error instanceof SessionLogNotFoundError) return { entries: [], corruptLines: 0 };
      throw error;
    }
  };
  return {
    async append(cwd, entry, options = {}) {
      const checked = PromptJournalEntry.parse(entry);
      const key = { cwd, sessionId: checked.sessionId };
      await logs.run(key, (log) => log.append(checked, { durable: options.durable === true }));
    },
    async read(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return { entries: [], corruptLines: 0 };
      return logs.read({ cwd, sessionId }, readLog);
    },
    async rewrite(cwd, sessionId, keep) {
      await logs.run({ cwd, sessionId }, async (log) => {
        const { entries } = await readLog(log);
        const kept = keep(entries).map((e) => PromptJournalEntry.parse(e));
        // The kept handle's replace swaps its writer onto the new file once that is in place.
        if (kept.length !== entries.length) await log.replace(kept);
      });
    },
    hold: (cwd, sessionId) => logs.hold({ cwd, sessionId }),
    release: (cwd, sessionId) => logs.release({ cwd, sessionId }),
    close: () => logs.closeAll(),
  };
}

/**
 * The journal over a storage in memory (tests, or a daemon without a storage root): durable only as long as
 * the process. `entries` shows every session's entries in the order they were written.
 */
export function memoryPromptJournal(
  storage: MemorySessionStorage = memorySessionStorage(),
): PromptJournal & { readonly entries: PromptJournalEntry[] } {
  return withMemoryEntries(storedPromptJournal(storage), storage, "prompts", decodePromptJournalEntry);
}
