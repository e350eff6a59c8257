// Loading a transcript: ignore a torn last record, count and skip corrupt ones, never fail on content. Only a
// missing transcript is an error (TranscriptNotFoundError); other I/O errors propagate unchanged. Read from
// a SessionStorage (readSessionTranscript), or straight from a JSONL file (readTranscript, for tools and
// tests that look at the files).
import { forEachLine, JsonlAccumulator, readJsonlTail } from "../storage/jsonl/jsonl-file.js";
import {
  type LogRead,
  type SessionLocation,
  type SessionLog,
  SessionLogNotFoundError,
} from "../storage/session-storage.js";
import { TranscriptRecord } from "./records.js";

export interface TranscriptReadResult {
  records: TranscriptRecord[];
  /** Complete lines skipped because they were not JSON or not a valid record. */
  corruptLines: number;
  /** The last line was cut short by a crash mid-write and was ignored. */
  tornTail: boolean;
}

export class TranscriptNotFoundError extends Error {
  override readonly name = "TranscriptNotFoundError";
  constructor(
    readonly path: string,
    options?: ErrorOptions,
  ) {
    super(`Transcript not found: ${path}`, options);
  }
}

/** The record when `value` matches its zod schema (unknown keys are kept, as written), else undefined. */
export function decodeTranscriptRecord(value: unknown): TranscriptRecord | undefined {
  return TranscriptRecord.safeParse(value).success ? (value as TranscriptRecord) : undefined;
}

/** The session's transcript log in its storage (the session id is validated first). */
export function transcriptLog(location: SessionLocation): SessionLog<TranscriptRecord> {
  return location.storage.log(location, "transcript", decodeTranscriptRecord);
}

/** Every record of a session's transcript, in order. */
export function readSessionTranscript(location: SessionLocation): Promise<TranscriptReadResult> {
  const log = transcriptLog(location);
  return logNotFoundAsTyped(() => log.read());
}

/** The last `n` valid records of a session's transcript, in order (see readTranscriptTail). */
export function readSessionTranscriptTail(
  location: SessionLocation,
  n: number,
): Promise<TranscriptReadResult> {
  const log = transcriptLog(location);
  return logNotFoundAsTyped(() => log.readTail(n));
}

async function logNotFoundAsTyped(
  read: () => Promise<LogRead<TranscriptRecord>>,
): Promise<TranscriptReadResult> {
  try {
    const { items, corruptLines, tornTail } = await read();
    return { records: items, corruptLines, tornTail };
  } catch (error) {
    if (error instanceof SessionLogNotFoundError)
      throw new TranscriptNotFoundError(error.where, { cause: error });
    throw error;
  }
}

/** Reads every record of a transcript file in file order. */
export async function readTranscript(path: string): Promise<TranscriptReadResult> {
  const acc = new JsonlAccumulator(decodeTranscriptRecord);
  await notFoundAsTyped(path, () =>
    forEachLine(path, (line, terminated) => {
      acc.add(line, terminated);
      return undefined;
    }),
  );
  return { records: acc.items, corruptLines: acc.corruptLines, tornTail: acc.tornTail };
}

/**
 * Reads only the last `n` valid records (in file order), scanning the file backwards: the cheap way to find
 * the record a new one chains onto, or the last history entry. Counts cover only the lines scanned.
 */
export async function readTranscriptTail(path: string, n: number): Promise<TranscriptReadResult> {
  const result = await notFoundAsTyped(path, () => readJsonlTail(path, n, decodeTranscriptRecord));
  return { records: result.items, corruptLines: result.corruptLines, tornTail: result.tornTail };
}

async function notFoundAsTyped<T>(path: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    // A directory (or a path through a file) where the transcript should be is no transcript either: the
    // caller answers "no such session" instead of failing on an I/O error.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR")
      throw new TranscriptNotFoundError(path, { cause: error });
    throw error;
  }
}
