// An outbox with one owner over a list of records (outbox-records.ts): the JSONL file and the memory
// backend differ only in where the records are. The items held are folded from the records on first use and
// kept in memory; every claim reads and compacts the records again (a restart's load), and so does a long
// run of appends, so the list stays about as long as what is held.
import { logItemText } from "./log-item-text.js";
import {
  applyOutboxRecord,
  compactOutboxRecords,
  foldOutboxRecords,
  type OutboxRecord,
  type OutboxState,
} from "./outbox-records.js";
import type { OutboxChange, OutboxClaim, OutboxItem, OutboxStorage } from "./outbox-storage.js";
import type { LogDecoder } from "./session-storage.js";
import { WriteQueue } from "./write-queue.js";

/** Where the records are. */
export interface OutboxRecordList {
  readonly where: string;
  /** Every stored record in order, and how many stored ones could not be read as JSON (torn). */
  read(): Promise<{ values: unknown[]; torn: number }>;
  /** Appends records after the others; with `durable`, resolves once they survive a power loss. */
  append(records: readonly OutboxRecord[], durable: boolean): Promise<void>;
  /** Replaces every record at once, durably (a crash leaves the old list or the new one). */
  replace(records: readonly OutboxRecord[]): Promise<void>;
}

/** Records appended since the last compaction after which the list is compacted again. */
export const COMPACT_AFTER_RECORDS = 2000;

export class RecordOutbox<T> implements OutboxStorage<T> {
  readonly where: string;
  readonly #writes = new WriteQueue();
  #state: OutboxState | undefined;
  #appended = 0;

  constructor(
    private readonly list: OutboxRecordList,
    private readonly decode: LogDecoder<T>,
  ) {
    this.where = list.where;
  }

  claim(): Promise<OutboxClaim<T>> {
    return this.#serial(async () => {
      const { state, corrupt } = await this.#load();
      const items: OutboxItem<T>[] = [];
      let undecoded = 0;
      for (const [key, value] of state.open) {
        const item = this.decode(value);
        if (item === undefined) {
          undecoded += 1;
          state.open.delete(key);
        } else items.push({ key, item });
      }
      if (undecoded > 0) await this.#compact(state);
      return { items, corrupt: corrupt + undecoded };
    });
  }

  write(changes: readonly OutboxChange<T>[]): Promise<boolean[]> {
    let records: OutboxRecord[];
    try {
      records = changes.map(toRecord);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#serial(async () => {
      const state = this.#state ?? (await this.#load()).state;
      // What the write leaves, worked out on a copy: the state changes only once the records are stored.
      const next: OutboxState = { open: new Map(state.open), told: new Set(state.told) };
      const done = records.map((record) => applies(record, next));
      const stored = records.filter((_, i) => done[i]);
      if (stored.length === 0) return done;
      // One append: the records land together; durable when one is a new item (what must survive a crash).
      try {
        await this.list.append(
          stored,
          stored.some((record) => record.op === "add"),
        );
      } catch (error) {
        // A failed append may have left part of a record (a full disk), which the next append would join
        // to its own first line, losing it. The next call reads the list again and compacts it, dropping
        // that part, before it appends.
        this.#state = undefined;
        throw error;
      }
      this.#state = next;
      this.#appended += stored.length;
      if (this.#appended >= COMPACT_AFTER_RECORDS) await this.#compact(next);
      return done;
    });
  }

  notes(limit: number): Promise<string[]> {
    return this.#serial(async () => {
      const state = this.#state ?? (await this.#load()).state;
      return limit <= 0 ? [] : [...state.told].slice(-limit);
    });
  }

  /** Reads and folds every record, then compacts them (which also drops a torn last one before an append). */
  async #load(): Promise<{ state: OutboxState; corrupt: number }> {
    this.#state = undefined;
    const { values, torn } = await this.list.read();
    const state: OutboxState = { open: new Map(), told: new Set() };
    const corrupt = torn + foldOutboxRecords(values, state);
    await this.#compact(state);
    this.#state = state;
    return { state, corrupt };
  }

  async #compact(state: OutboxState): Promise<void> {
    await this.list.replace(compactOutboxRecords(state));
    this.#appended = 0;
  }

  #serial<R>(run: () => Promise<R>): Promise<R> {
    return this.#writes.run(run);
  }
}

/** A change as a record; an item is taken as JSON has it now (a later change to the object is not stored). */
function toRecord<T>(change: OutboxChange<T>): OutboxRecord {
  switch (change.op) {
    case "put":
      return { op: "add", key: change.key, entry: JSON.parse(logItemText(change.item)) };
    case "update":
      return { op: "update", key: change.key, entry: JSON.parse(logItemText(change.item)) };
    case "remove":
      return {
        op: "close",
        key: change.key,
        ...(change.reason === undefined ? {} : { outcome: change.reason }),
      };
    case "note":
      return { op: "told", id: change.id };
  }
}

/** Applies a record to `state` when it changes something there (an update or removal needs its item held). */
function applies(record: OutboxRecord, state: OutboxState): boolean {
  if ((record.op === "update" || record.op === "close") && !state.open.has(record.key)) return false;
  applyOutboxRecord(record, state);
  return true;
}
