// One memory budget for what the daemon buffers across all its sessions (`--buffer-budget-mb`). Two kinds of
// bytes share it:
// - replay data: the events each session's ring keeps for `Last-Event-ID` replay. Each ring has its own caps
//   too, but many sessions' rings together must not grow past the daemon's budget, so replay data is
//   evictable: when the total is over, the oldest replay data of the whole daemon goes first, whichever
//   session holds it (a client whose cursor pointed there gets `state_resync_required`, as after any ring
//   eviction);
// - held bytes: request bodies being received and handled, prompt bodies accepted (202) and waiting or running
//   in a session's queue, and the history a /load replayed that a live session keeps for the clients that load
//   it after. They cannot be dropped, so taking them evicts replay data to make room (a request body's own wait
//   rule is ByteBudget's; the queues' bound is `--max-pending-prompts-per-session`).
// Pure: no I/O, no timers. Every operation is O(1) but eviction, which is O(entries evicted).

/** What holds replay data in the budget (a session's event ring). */
export interface ReplayHolder {
  /**
   * Drop your oldest replay entry: the budget is over and it is the oldest of the daemon. The holder gives it
   * back with `release` as it would any entry it drops itself.
   */
  evictOldest(): void;
}

/** One piece of replay data in the budget, oldest-first across every holder. */
export class ReplayEntry {
  prev: ReplayEntry | undefined = undefined;
  next: ReplayEntry | undefined = undefined;
  linked = true;
  constructor(
    readonly holder: ReplayHolder,
    readonly bytes: number,
  ) {}
}

export type BufferBudgetSnapshot = {
  capacity: number;
  /** Replay data held, in bytes. */
  replayBytes: number;
  /** Bytes held that cannot be evicted (bodies). */
  heldBytes: number;
  /** Replay entries evicted to keep within the budget, since start. */
  evictedEntries: number;
};

export class BufferBudget {
  readonly capacity: number;
  #head: ReplayEntry | undefined = undefined;
  #tail: ReplayEntry | undefined = undefined;
  #replayBytes = 0;
  #heldBytes = 0;
  #evicted = 0;

  constructor(capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity <= 0) {
      throw new RangeError(`buffer budget must be a positive integer of bytes, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Every byte counted against the budget. */
  get usedBytes(): number {
    return this.#replayBytes + this.#heldBytes;
  }

  snapshot(): BufferBudgetSnapshot {
    return {
      capacity: this.capacity,
      replayBytes: this.#replayBytes,
      heldBytes: this.#heldBytes,
      evictedEntries: this.#evicted,
    };
  }

  /**
   * Counts `bytes` of replay data that `holder` just stored, as the newest of the daemon, then evicts the
   * oldest replay data (of any holder) until the total fits. The new entry itself is never evicted here: a
   * ring always keeps its newest event, so one event larger than the budget is kept until the next one.
   */
  addReplay(holder: ReplayHolder, bytes: number): ReplayEntry {
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw new RangeError(`replay entry size must be a non-negative integer, got ${bytes}`);
    }
    const entry = new ReplayEntry(holder, bytes);
    entry.prev = this.#tail;
    if (this.#tail === undefined) this.#head = entry;
    else this.#tail.next = entry;
    this.#tail = entry;
    this.#replayBytes += bytes;
    this.#evictUntilFits(entry);
    return entry;
  }

  /** The holder dropped `entry` (its own cap, cleared, closed, or on `evictOldest`). Idempotent. */
  release(entry: ReplayEntry): void {
    if (!entry.linked) return;
    entry.linked = false;
    if (entry.prev === undefined) this.#head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next === undefined) this.#tail = entry.prev;
    else entry.next.prev = entry.prev;
    entry.prev = undefined;
    entry.next = undefined;
    this.#replayBytes -= entry.bytes;
  }

  /**
   * Counts `bytes` that cannot be evicted (a request body, a queued prompt, a load's replay), evicting replay
   * data to make room; returns the function that gives them back (idempotent). Each hold counts at most the
   * capacity; the callers bound how many they hold at once (ByteBudget, the prompt queues' caps, the session cap).
   */
  hold(bytes: number): () => void {
    const held = Math.max(0, Math.min(bytes, this.capacity));
    this.#heldBytes += held;
    this.#evictUntilFits(undefined);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#heldBytes -= held;
    };
  }

  #evictUntilFits(keep: ReplayEntry | undefined): void {
    while (this.usedBytes > this.capacity) {
      const oldest = this.#head;
      if (oldest === undefined || oldest === keep) return;
      oldest.holder.evictOldest();
      // A holder that did not give the entry back must not stall the loop: it is out of the budget anyway.
      this.release(oldest);
      this.#evicted += 1;
    }
  }
}
