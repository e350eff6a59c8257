// The answer journal is the session's `answers` log in core's SessionStorage (for JSONL:
// `$QWEN_HOME/projects/<project>/chats/<sessionId>.answers.jsonl`, beside the transcript the child writes).
// Appends are durable (fsynced before they resolve) because the vote route acknowledges an answer only once
// it is on disk; reads never fail on a torn last line. The writer stays open while the session is live
// (kept-session-logs.ts) and every append is durable, so a vote waits for one write (O_DSYNC for JSONL).
import {
  isValidSessionId,
  type MemorySessionStorage,
  memorySessionStorage,
  SessionLogNotFoundError,
  type SessionStorage,
} from "@qwen-daemon/core";
import { JournalEntry, type JournalRead } from "./answer-record.js";
import { KeptSessionLogs } from "./kept-session-logs.js";
import { withMemoryEntries } from "./memory-journal-entries.js";

export interface AnswerJournal {
  /**
   * Appends one entry for the session in workspace `cwd`; resolves only once it is durable. Rejects when
   * it cannot be made durable (or the entry or its session id is invalid): the caller must not acknowledge.
   */
  append(cwd: string, entry: JournalEntry): Promise<void>;
  /** The session's entries in file order (none when there is no journal or the session id is not valid). */
  read(cwd: string, sessionId: string): Promise<JournalRead>;
  /** The session is live here: its writer stays open from its next append until `release`. */
  hold(cwd: string, sessionId: string): void;
  /** The session ended here: its writer is closed once its pending appends are done. */
  release(cwd: string, sessionId: string): Promise<void>;
  /** The daemon stops: every writer is closed. */
  close(): Promise<void>;
}

export function storedAnswerJournal(storage: SessionStorage): AnswerJournal {
  // Every line is durable (an answer before its 200, a withdrawal after): for JSONL each is one O_DSYNC write.
  const logs = new KeptSessionLogs(storage, "answers", decodeJournalEntry, { everyAppendDurable: true });
  return {
    async append(cwd, entry) {
      const checked = JournalEntry.parse(entry);
      await logs.run({ cwd, sessionId: checked.sessionId }, (log) => log.append(checked, { durable: true }));
    },
    async read(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return emptyRead();
      try {
        const { items, corruptLines, tornTail } = await logs.handle({ cwd, sessionId }).read();
        return { entries: items, corruptLines, tornTail };
      } catch (error) {
        if (error instanceof SessionLogNotFoundError) return emptyRead();
        throw error;
      }
    },
    hold: (cwd, sessionId) => logs.hold({ cwd, sessionId }),
    release: (cwd, sessionId) => logs.release({ cwd, sessionId }),
    close: () => logs.closeAll(),
  };
}

/** The entry when `value` is one (unknown keys dropped, as parseAnswerJournal does), else undefined. */
function decodeJournalEntry(value: unknown): JournalEntry | undefined {
  const parsed = JournalEntry.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The journal over a storage in memory (tests, or a daemon without a storage root): durable only as long as
 * the process. `entries` shows every session's entries in the order they were written.
 */
export function memoryAnswerJournal(
  storage: MemorySessionStorage = memorySessionStorage(),
): AnswerJournal & { readonly entries: JournalEntry[] } {
  return withMemoryEntries(storedAnswerJournal(storage), storage, "answers", decodeJournalEntry);
}

function emptyRead(): JournalRead {
  return { entries: [], corruptLines: 0, tornTail: false };
}
