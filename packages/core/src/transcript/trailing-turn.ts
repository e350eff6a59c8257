// The end of a transcript that decides what waits for a person: the last model entry (its function calls) and
// every record after it (results a crash cut short, write-ahead start records, turn results). Read from the
// end of the log and stopped as soon as that window is known, so the cost depends on the size of the last turn,
// never on the length of the transcript: the log's `readTail` is asked for a few records, then four times more
// while the window is still open (the JSONL backend reads the file backwards in fixed-size blocks for it), so
// the records read are at most about 4/3 of the window's twice. This is what the session list reads for each
// session that is only on disk, so it must stay cheap and never fail on content: a torn last line, corrupt
// lines and a missing final newline are skipped or counted, as in every read.
import { type SessionLocation, SessionLogNotFoundError } from "../storage/session-storage.js";
import { TranscriptNotFoundError, transcriptLog } from "./reader.js";
import type { TranscriptRecord } from "./records.js";

export interface TrailingTurn {
  /**
   * In file order: the records of the last model entry (consecutive assistant records, which the history
   * merges into one turn) and every record after it. When the history ends in a user turn instead (a prompt
   * with no answer yet, or tool results followed by user text), only up to that turn's last record: nothing
   * can wait behind it. [] for a transcript with no valid record.
   */
  records: TranscriptRecord[];
  /**
   * True when the window was read to its start (the record before it, or the start of the file) within the
   * budget, and its records link one to the next (each `parentUuid` is the uuid of the record before it). A
   * false value means the window cannot be trusted to be what the history ends with (a rewind branching just
   * there, a lost record, a budget hit): callers fail closed and treat nothing as waiting.
   */
  certain: boolean;
  /** Complete lines in the scanned part that were not JSON or not a valid record. */
  corruptLines: number;
  /** The file ended in an unparseable line without its newline (a write cut short by a crash). */
  tornTail: boolean;
}

export interface TrailingTurnOptions {
  /** Records asked for by the first read (default 16). */
  firstRead?: number;
  /**
   * At most this many records are read (default 10,000); a transcript whose last turn is longer than that
   * gives an uncertain answer instead of an unbounded read.
   */
  maxRecords?: number;
}

export const TRAILING_TURN_MAX_RECORDS = 10_000;

/**
 * Decides, record by record from the end of the file, what belongs to the trailing window and when to stop.
 * Pure: the I/O is {@link readTrailingTurn}'s.
 */
export class TrailingTurnCollector {
  /** Newest first while collecting. */
  private readonly reversed: TranscriptRecord[] = [];
  private sawModel = false;
  private done = false;
  private boundary: TranscriptRecord | undefined;

  /** Offers the next record going backwards; returns false once the window is complete. */
  offer(record: TranscriptRecord): boolean {
    if (this.done) return false;
    const hasMessage = record.type !== "system" && record.message.parts.length > 0;
    if (!hasMessage) {
      // System records and empty turns are not history entries; they belong to the window they sit in.
      this.reversed.push(record);
      return true;
    }
    const role = record.message.role;
    if (this.sawModel) {
      if (role === "model") {
        this.reversed.push(record);
        return true;
      }
      // The entry before the model turn: the window is complete without it.
      this.boundary = record;
      this.done = true;
      return false;
    }
    this.reversed.push(record);
    if (role === "model") {
      this.sawModel = true;
      return true;
    }
    // Tool results may be the half-written answers of the batch before them: keep going. Any other user
    // record ends the history in a user turn, and nothing before it can be waiting.
    if (record.type === "tool_result") return true;
    this.done = true;
    return false;
  }

  /** The window so far. `reachedStart`: the whole file was read (no record exists before the window). */
  result(reachedStart: boolean): Pick<TrailingTurn, "records" | "certain"> {
    const records = [...this.reversed].reverse();
    const complete = this.done || reachedStart;
    return { records, certain: complete && this.linked(records) };
  }

  private linked(records: readonly TranscriptRecord[]): boolean {
    for (let i = 1; i < records.length; i++) {
      if (records[i]?.parentUuid !== records[i - 1]?.uuid) return false;
    }
    const first = records[0];
    if (this.boundary && first && first.parentUuid !== this.boundary.uuid) return false;
    return true;
  }
}

/**
 * Reads the trailing turn of a session's transcript (see {@link TrailingTurn}). A missing transcript rejects
 * with TranscriptNotFoundError; other I/O errors propagate unchanged.
 */
export async function readSessionTrailingTurn(
  location: SessionLocation,
  options: TrailingTurnOptions = {},
): Promise<TrailingTurn> {
  const maxRecords = options.maxRecords ?? TRAILING_TURN_MAX_RECORDS;
  const log = transcriptLog(location);
  for (let count = Math.max(1, options.firstRead ?? 16); ; count = Math.min(count * 4, maxRecords)) {
    let read: Awaited<ReturnType<typeof log.readTail>>;
    try {
      read = await log.readTail(count);
    } catch (error) {
      if (error instanceof SessionLogNotFoundError)
        throw new TranscriptNotFoundError(log.where, { cause: error });
      throw error;
    }
    const collector = new TrailingTurnCollector();
    let i = read.items.length - 1;
    while (i >= 0 && collector.offer(read.items[i] as TranscriptRecord)) i--;
    const reachedStart = i < 0 && read.items.length < count;
    // A corrupt line inside the window needs no check of its own: a lost record breaks the links, and a
    // fragment a crash left (the writer then starts a fresh line) breaks nothing.
    if (i >= 0 || reachedStart || count >= maxRecords) {
      return { ...collector.result(reachedStart), corruptLines: read.corruptLines, tornTail: read.tornTail };
    }
  }
}
