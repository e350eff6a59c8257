// Where the prompt journal lives: `$QWEN_HOME/projects/<project>/chats/<sessionId>.prompts.jsonl` (0600, it holds
// the prompts' text), beside the transcript the child writes. `accepted` lines are fsynced before the route
// answers 202; closing lines are plain appends (what they save is a report, never a prompt). The journal is
// compacted by rewriting it (temp file, fsync, rename): closed prompts are dropped, so it stays the size of what
// is still open plus a bounded tail of reported never-started prompts. Reads never fail on a torn last line.
import { randomUUID } from "node:crypto";
import { constants, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { isValidSessionId, promptsPath, readJsonlFile, TranscriptWriter } from "@qwen-daemon/core";
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

export function filePromptJournal(qwenHome: string): PromptJournal {
  // One writer per file at a time (TranscriptWriter's rule), and no append lands during a rewrite.
  const perFile = new KeyedSerializer();
  const readAt = async (path: string): Promise<PromptJournalRead> => {
    try {
      const { items, corruptLines } = await readJsonlFile(path, decodePromptJournalEntry);
      return { entries: items, corruptLines };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], corruptLines: 0 };
      throw error;
    }
  };
  return {
    async append(cwd, entry, options = {}) {
      const checked = PromptJournalEntry.parse(entry);
      const path = promptsPath(qwenHome, cwd, checked.sessionId); // throws on an invalid id
      await perFile.run(path, async () => {
        const writer = new TranscriptWriter(path, { fileMode: 0o600 });
        try {
          await writer.append(checked, { durable: options.durable === true });
        } finally {
          await writer.close();
        }
      });
    },
    async read(cwd, sessionId) {
      if (!isValidSessionId(sessionId)) return { entries: [], corruptLines: 0 };
      const path = promptsPath(qwenHome, cwd, sessionId);
      return perFile.run(path, () => readAt(path));
    },
    async rewrite(cwd, sessionId, keep) {
      const path = promptsPath(qwenHome, cwd, sessionId);
      await perFile.run(path, async () => {
        const { entries } = await readAt(path);
        const kept = keep(entries).map((e) => PromptJournalEntry.parse(e));
        if (kept.length === entries.length) return;
        if (kept.length === 0) {
          await rm(path, { force: true });
          return;
        }
        await replaceFile(path, kept.map((e) => `${JSON.stringify(e)}\n`).join(""));
      });
    },
  };
}

/** Writes `text` to a temp file beside `path`, fsyncs it, renames it over `path` and fsyncs the folder. */
async function replaceFile(path: string, text: string): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(text, "utf8");
    await handle.datasync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  const dir = await open(dirname(path), constants.O_RDONLY);
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
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
