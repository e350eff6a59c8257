// The names people give sessions (`POST /session/:id/name`), kept beside the transcript in the session's
// "names" log (`<sessionId>.names.jsonl`): one line per rename, appended durably, the last one holds. The
// agent writes the transcript; this is the daemon's own, like the answer journal.
import { memorySessionStorage, type SessionStorage } from "@qwen-daemon/core";
import { KeyedSerializer } from "../answers/keyed-serializer.js";

type NameEntry = { v: 1; name: string; at: string };

function decodeName(value: unknown): NameEntry | undefined {
  const v = value as Partial<NameEntry> | null;
  return v !== null && typeof v === "object" && typeof v.name === "string" && v.name !== ""
    ? (v as NameEntry)
    : undefined;
}

export interface SessionNames {
  /** Stores a session's name; resolves once it survives a power cut. */
  set(cwd: string, sessionId: string, name: string, now: number): Promise<void>;
  /** The name last given, or undefined when none was (or its log cannot be read). */
  get(cwd: string, sessionId: string): Promise<string | undefined>;
}

export function storedSessionNames(storage: SessionStorage): SessionNames {
  // One writer per log at a time (the JSONL rule).
  const perLog = new KeyedSerializer();
  const logOf = (cwd: string, sessionId: string) => storage.log({ cwd, sessionId }, "names", decodeName);
  return {
    async set(cwd, sessionId, name, now) {
      const log = logOf(cwd, sessionId);
      await perLog.run(log.where, async () => {
        try {
          await log.append({ v: 1, name, at: new Date(now).toISOString() }, { durable: true });
        } finally {
          await log.close();
        }
      });
    },
    async get(cwd, sessionId) {
      const log = logOf(cwd, sessionId);
      try {
        if (!(await log.exists())) return undefined;
        return (await log.readTail(1)).items.at(-1)?.name;
      } catch {
        // A name that cannot be read is no name: the session shows its first prompt instead.
        return undefined;
      } finally {
        await log.close();
      }
    },
  };
}

/** Names over a storage in memory (tests, or a daemon without a storage root). */
export function memorySessionNames(storage: SessionStorage = memorySessionStorage()): SessionNames {
  return storedSessionNames(storage);
}
