// The storage interface of a daemon's notification outbox: the notifications it has not delivered yet (so
// one due when the daemon died goes out from the next daemon) and the ids of what it already told. The
// daemon decides what an item is; storage keeps it as JSON under a unique key. Backends: JSONL under
// QWEN_HOME (jsonl/jsonl-outbox.ts), PostgreSQL shared by hosts (postgres/postgres-outbox.ts), memory
// (memory/memory-outbox.ts); open-storage.ts chooses one where it chooses the session storage, and
// `describeOutboxStorageContract` from `@qwen-daemon/core/testing` checks each.
//
// What every backend guarantees (the contract suite checks each one):
// - writes land one at a time, in call order, each in one step (a crash of the process does not split one: a delivery's
//   removal and the note that it was told land together); a write with a put resolves only once it survives
//   a power loss, the others may be lost to one (a lost removal delivers again: delivery is at least once);
// - `claim` gives back the items held, in the order they were put, each as last put or updated, and keeps
//   them across a reopen (a restart);
// - a stored item that is damaged (cut short by a crash, foreign, or not what `decode` accepts) is skipped
//   and counted, never fatal;
// - an update or removal of an item not held stores nothing and says so.
// With PostgreSQL an item is held by one owner at a time and `claim` also takes over those of a daemon that
// died (docs/storage.md "The notification outbox"); a JSONL or memory outbox has one owner, its daemon.
import type { LogDecoder } from "./session-storage.js";

export interface OutboxItem<T> {
  key: string;
  item: T;
}

export interface OutboxClaim<T> {
  /** The items held, in the order they were put. */
  items: OutboxItem<T>[];
  /** Stored items skipped as damaged or not decoding. */
  corrupt: number;
}

/** One change of a write: a new item, a whole item replaced, an item removed, an id noted. */
export type OutboxChange<T> =
  | { op: "put"; key: string; item: T }
  | { op: "update"; key: string; item: T }
  | { op: "remove"; key: string; reason?: string }
  | { op: "note"; id: string };

export interface OutboxStorage<T> {
  /** Where the outbox is, for messages (a file path for JSONL). */
  readonly where: string;
  /** Takes the items no live owner holds (in a store with one owner: all of them) and returns every item held. */
  claim(): Promise<OutboxClaim<T>>;
  /**
   * Stores `changes` in order, in one step; with a put among them, resolves once they survive a power loss.
   * Says for each change whether it was stored: false for an update or removal of an item not held (removed,
   * or claimed by another owner). Rejects, storing nothing, when an item is not JSON. A put's key is new.
   * A removal's `reason` is kept for a person reading a JSONL file.
   */
  write(changes: readonly OutboxChange<T>[]): Promise<boolean[]>;
  /** The newest `limit` ids noted (at most OUTBOX_NOTES_KEPT), oldest first; noting an id again makes it newest. */
  notes(limit: number): Promise<string[]>;
}

/** Opens the outbox of a storage, its items decoded by `decode` (`undefined`: damaged). */
export type OpenOutbox = <T>(decode: LogDecoder<T>) => OutboxStorage<T>;

/** Noted ids a backend keeps at least (a JSONL file is compacted to these). */
export const OUTBOX_NOTES_KEPT = 1000;
