import type { VoteOutcome } from "@qwen-daemon/core/protocol";
import type { CancelReason } from "./vote.js";

export type ResolvedRequest = {
  sessionId: string;
  requestId: string;
  outcome: VoteOutcome;
  reason?: CancelReason;
  promptId?: string;
};

export const DEFAULT_RESOLVED_CAPACITY = 512;

/**
 * Recently resolved requests, so a late vote can be told "already resolved" (404 plus a
 * `permission_already_resolved` event) instead of a bare "unknown". Bounded FIFO: the oldest
 * ids are forgotten first and then answer like unknown ids.
 */
export class ResolvedRequests {
  readonly capacity: number;
  // A Map iterates in insertion order, which makes it the FIFO.
  readonly #byKey = new Map<string, ResolvedRequest>();

  constructor(capacity = DEFAULT_RESOLVED_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`resolved capacity must be a non-negative integer, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  get size(): number {
    return this.#byKey.size;
  }

  remember(record: ResolvedRequest): void {
    if (this.capacity === 0) return;
    const key = keyOf(record.sessionId, record.requestId);
    this.#byKey.delete(key);
    this.#byKey.set(key, record);
    while (this.#byKey.size > this.capacity) {
      const oldest = this.#byKey.keys().next().value as string;
      this.#byKey.delete(oldest);
    }
  }

  get(sessionId: string, requestId: string): ResolvedRequest | undefined {
    return this.#byKey.get(keyOf(sessionId, requestId));
  }

  /** For the legacy route, which names no session: the most recent record with this id. */
  findByRequestId(requestId: string): ResolvedRequest | undefined {
    let found: ResolvedRequest | undefined;
    for (const record of this.#byKey.values()) if (record.requestId === requestId) found = record;
    return found;
  }

  forget(sessionId: string, requestId: string): void {
    this.#byKey.delete(keyOf(sessionId, requestId));
  }
}

function keyOf(sessionId: string, requestId: string): string {
  // JSON of a pair cannot collide the way plain concatenation could ("a:b" + "c" vs "a" + "b:c").
  return JSON.stringify([sessionId, requestId]);
}
