// The prompt journal is the session's `prompts` log in core's SessionStorage (for JSONL:
// `$QWEN_HOME/projects/<project>/chats/<sessionId>.prompts.jsonl`, 0600: it holds the prompts' text), beside
// the transcript the child writes. `accepted` entries are durable before the route answers 202; closing
// entries are plain appends (what they save is a report, never a prompt). The journal is compacted by
// replacing it atomically (for JSONL: temp file, fsync, rename): closed prompts are dropped, so it stays the
// size of what is still open plus a bounded tail of reported never-started prompts. Reads never fail on a
// torn last line.
import { isValidSessionId, SessionLogNotFoundError, type SessionStorage } from "@qwen-daemon/core";
import { KeyedSerializer } from "../answers/keyed-serializer.js";
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
}

export function storedPromptJournal(storage: SessionStorage): PromptJournal {
  // One writer per log at a time (TranscriptWriter's rule for JSONL), and no append lands during a rewrite.
  const perLog = new KeyedSerializer();
  const logOf = (cwd: string, sessionId: string) =>
    storage.log({ cwd, sessionId }, "prompts", decodePromptJournalEntry); // throws on an invalid id
  const readLog = async (log: ReturnType<typeof logOf>): Promise<PromptJournalRead> => {
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
      const log = logOf(cwd, checked.sessionId);
      await perLog.run(log.where, async () => {
        try {
          await log.append(checked, { durable: options.durable === true });
        } finally {
          await log.close();
        }
      });
    },
    async read(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return { entries: [], corruptLines: 0 };
      const log = logOf(cwd, sessionId);
      return perLog.run(log.where, () => readLog(log));
    },
    async rewrite(cwd, sessionId, keep) {
      const log = logOf(cwd, sessionId);
      await perLog.run(log.where, async () => {
        const { entries } = await readLog(log);
        const kept = keep(entries).map((e) => PromptJournalEntry.parse(e));
        if (kept.length === entries.length) return;
        try {
          await log.replace(kept);
        } finally {
          await log.close();
        }
      });
    },
  };
}

/** A journal in memory (tests, or a daemon without a storage root): durable only as long as the process. */
export function memoryPromptJournal(): PromptJournal & { readonly entries: PromptJournalEntry[] } {
  const entries: PromptJournalEntry[] = [];
  return {
    entries,
    async append(_cwd, entry) {
      entries.push(PromptJournalEntry.parse(entry));
    },
    async read(_cwd, sessionId) {
      return { entries: entries.filter((e) => e.sessionId === sessionId), corruptLines: 0 };
    },
    async rewrite(_cwd, sessionId, keep) {
      const kept = keep(entries.filter((e) => e.sessionId === sessionId));
      const others = entries.filter((e) => e.sessionId !== sessionId);
      entries.splice(0, entries.length, ...others, ...kept);
    },
  };
}
