// The answer journal is the session's `answers` log in core's SessionStorage (for JSONL:
// `$QWEN_HOME/projects/<project>/chats/<sessionId>.answers.jsonl`, beside the transcript the child writes).
// Appends are durable (fsynced before they resolve) because the vote route acknowledges an answer only once
// it is on disk; reads never fail on a torn last line.
import { isValidSessionId, SessionLogNotFoundError, type SessionStorage } from "@qwen-daemon/core";
import { JournalEntry, type JournalRead } from "./answer-record.js";
import { KeyedSerializer } from "./keyed-serializer.js";

export interface AnswerJournal {
  /**
   * Appends one entry for the session in workspace `cwd`; resolves only once it is durable. Rejects when
   * it cannot be made durable (or the entry or its session id is invalid): the caller must not acknowledge.
   */
  append(cwd: string, entry: JournalEntry): Promise<void>;
  /** The session's entries in file order (none when there is no journal or the session id is not valid). */
  read(cwd: string, sessionId: string): Promise<JournalRead>;
}

export function storedAnswerJournal(storage: SessionStorage): AnswerJournal {
  // One writer per log at a time (TranscriptWriter's rule for JSONL).
  const perLog = new KeyedSerializer();
  const logOf = (cwd: string, sessionId: string) =>
    storage.log({ cwd, sessionId }, "answers", decodeJournalEntry); // throws on an invalid id
  return {
    async append(cwd, entry) {
      const checked = JournalEntry.parse(entry);
      const log = logOf(cwd, checked.sessionId);
      await perLog.run(log.where, async () => {
        // A log handle per append: votes are rare, and nothing stays open per answered session.
        try {
          await log.append(checked, { durable: true });
        } finally {
          await log.close();
        }
      });
    },
    async read(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return emptyRead();
      try {
        const { items, corruptLines, tornTail } = await logOf(cwd, sessionId).read();
        return { entries: items, corruptLines, tornTail };
      } catch (error) {
        if (error instanceof SessionLogNotFoundError) return emptyRead();
        throw error;
      }
    },
  };
}

/** The entry when `value` is one (unknown keys dropped, as parseAnswerJournal does), else undefined. */
function decodeJournalEntry(value: unknown): JournalEntry | undefined {
  const parsed = JournalEntry.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A journal in memory (tests, or a daemon without a storage root): durable only as long as the process. */
export function memoryAnswerJournal(): AnswerJournal & { readonly entries: JournalEntry[] } {
  const entries: JournalEntry[] = [];
  return {
    entries,
    async append(_cwd, entry) {
      entries.push(JournalEntry.parse(entry));
    },
    async read(_cwd, sessionId) {
      return { ...emptyRead(), entries: entries.filter((e) => e.sessionId === sessionId) };
    },
  };
}

function emptyRead(): JournalRead {
  return { entries: [], corruptLines: 0, tornTail: false };
}
