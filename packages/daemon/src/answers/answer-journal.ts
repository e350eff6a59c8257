// Where the answer journal lives: `$QWEN_HOME/projects/<project>/chats/<sessionId>.answers.jsonl`, beside
// the transcript the child writes. Appends are durable (fsynced before they resolve) because the vote route
// acknowledges an answer only once it is on disk; reads never fail on a torn last line.
import { readFile } from "node:fs/promises";
import { answersPath, isValidSessionId, TranscriptWriter } from "@qwen-daemon/core";
import { JournalEntry, type JournalRead, parseAnswerJournal } from "./answer-record.js";
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

export function fileAnswerJournal(qwenHome: string): AnswerJournal {
  // TranscriptWriter's rule: one writer per file at a time.
  const perFile = new KeyedSerializer();
  return {
    async append(cwd, entry) {
      const checked = JournalEntry.parse(entry);
      const path = answersPath(qwenHome, cwd, checked.sessionId); // throws on an invalid id
      await perFile.run(path, async () => {
        // A writer per append: votes are rare, and no file handle stays open per answered session.
        const writer = new TranscriptWriter(path, { fileMode: 0o600 });
        try {
          await writer.append(checked, { durable: true });
        } finally {
          await writer.close();
        }
      });
    },
    async read(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return emptyRead();
      let text: string;
      try {
        text = await readFile(answersPath(qwenHome, cwd, sessionId), "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyRead();
        throw error;
      }
      return parseAnswerJournal(text);
    },
  };
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
