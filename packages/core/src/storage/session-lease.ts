// One writer per session, fenced (docs/storage.md "Leases and fencing"). A storage shared by several hosts
// (PostgreSQL) keeps, per session, an owner lease: who owns it (an id per daemon run and the URL clients reach
// it at), a fencing epoch that grows with every takeover, and an expiry the owner keeps renewing. Every append
// and replacement a storage with an owner makes carries the owner's epoch and is refused, by the store itself
// and in the same transaction, once another owner holds the session: a daemon that was frozen or cut off and
// comes back cannot write a single record after a takeover. JSONL under one QWEN_HOME has one host and no leases.
import type { SessionKey } from "./session-storage.js";

/** Who writes: one id per daemon run (never reused) and the URL its clients reach it at. */
export interface StorageOwner {
  id: string;
  url: string;
}

/** The lease a session has. */
export interface SessionLease {
  ownerId: string;
  ownerUrl: string;
  epoch: number;
  /** ISO time the lease runs out unless renewed (the store's clock, one for every host). */
  expiresAt: string;
  /** Whether it had not run out when read. */
  live: boolean;
}

export type LeaseAcquired =
  | {
      acquired: true;
      epoch: number /** Whether another owner held it before (a takeover). */;
      tookOver: boolean;
    }
  | { acquired: false; lease: SessionLease };

/** The leases of one storage, as its owner sees them. */
export interface SessionLeases {
  readonly owner: StorageOwner;
  /**
   * Takes the session's lease: when it has none, when it is already ours (same epoch), or when it ran out
   * (a takeover: the epoch grows, and the old owner's appends are refused from the commit on). A live lease
   * of another owner is not taken: its lease is returned.
   */
  acquire(key: SessionKey): Promise<LeaseAcquired>;
  /**
   * Extends every lease this owner holds; returns the sessions they cover. A session this owner was writing
   * that is missing from the answer was taken over.
   */
  renew(): Promise<SessionKey[]>;
  /** Lets the lease run out now (the session was closed here), so another host can load it at once. */
  release(key: SessionKey): Promise<void>;
  /** The session's lease, or undefined when it never had one. */
  read(key: SessionKey): Promise<SessionLease | undefined>;
}

/** An append or replacement refused: another owner holds the session since a takeover. */
export class SessionFencedError extends Error {
  override readonly name = "SessionFencedError";
  readonly code = "session_owned_elsewhere";
  constructor(
    readonly key: SessionKey,
    /** The owner now, when the store has one. */
    readonly owner: { id: string; url: string } | undefined,
  ) {
    super(
      `Session ${key.sessionId} is owned elsewhere${owner === undefined ? "" : ` (by ${owner.url})`}: this process may no longer write to it`,
    );
  }
}
