// The clients attached to one session. Ids are minted by the daemon; a client that re-attaches with an
// id already registered here keeps it (one more reference), any other supplied id is replaced.
// The registry stays bounded: past `maxClients` the client seen least recently is dropped, and `expire`
// drops clients not seen for a while (the idle reaper calls it). A client counts as seen when it attaches,
// heartbeats or is named on any request, and is never dropped while it listens on an event stream.

import { randomUUID } from "node:crypto";

/** A fresh client id (`client_<uuid>`); the header syntax it must fit is the contract's (protocol/ids.ts). */
export function mintClientId(): string {
  return `client_${randomUUID()}`;
}

type ClientEntry = { refs: number; lastSeenAt: number; streams: number };

export type ClientRegistryOptions = {
  mint?: () => string;
  /** 0 = no cap. */
  maxClients?: number;
  now?: () => number;
};

export const DEFAULT_MAX_CLIENTS_PER_SESSION = 1024;

export class ClientRegistry {
  // Map order is kept as "least recently seen first": a client seen again is moved to the end.
  readonly #clients = new Map<string, ClientEntry>();
  readonly #mint: () => string;
  readonly #maxClients: number;
  readonly #now: () => number;

  constructor(options: ClientRegistryOptions = {}) {
    this.#mint = options.mint ?? mintClientId;
    this.#maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS_PER_SESSION;
    this.#now = options.now ?? Date.now;
  }

  /** Registers a client: reuses `requested` only if it is already registered, else mints one. */
  attach(requested: string | undefined, now: number): string {
    const existing = requested === undefined ? undefined : this.#clients.get(requested);
    if (requested !== undefined && existing !== undefined) {
      existing.refs += 1;
      this.#see(requested, existing, now);
      return requested;
    }
    if (this.#maxClients > 0 && this.#clients.size >= this.#maxClients) this.#dropLeastRecent();
    const id = this.#mint();
    this.#clients.set(id, { refs: 1, lastSeenAt: now, streams: 0 });
    return id;
  }

  /** Drops one reference; the client is gone when none remain. False if it was not registered. */
  detach(clientId: string): boolean {
    const entry = this.#clients.get(clientId);
    if (entry === undefined) return false;
    entry.refs -= 1;
    if (entry.refs <= 0) this.#clients.delete(clientId);
    return true;
  }

  has(clientId: string): boolean {
    return this.#clients.has(clientId);
  }

  /** Like `has`, and records that the client was seen now (a request named it). */
  seen(clientId: string): boolean {
    const entry = this.#clients.get(clientId);
    if (entry === undefined) return false;
    this.#see(clientId, entry, this.#now());
    return true;
  }

  /** Records a heartbeat; false if the client is not registered. */
  touch(clientId: string, now: number): boolean {
    const entry = this.#clients.get(clientId);
    if (entry === undefined) return false;
    this.#see(clientId, entry, now);
    return true;
  }

  /** The client listens on an event stream until the returned release is called (idempotent). */
  streamOpened(clientId: string): () => void {
    const entry = this.#clients.get(clientId);
    if (entry === undefined) return () => {};
    entry.streams += 1;
    this.#see(clientId, entry, this.#now());
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.streams -= 1;
      // Seen until the stream ended: its expiry counts from then.
      if (this.#clients.get(clientId) === entry) this.#see(clientId, entry, this.#now());
    };
  }

  /** Drops the clients not seen for `idleMs` and not listening on a stream; returns their ids. */
  expire(now: number, idleMs: number): string[] {
    const expired: string[] = [];
    for (const [id, entry] of this.#clients) {
      if (entry.streams === 0 && now - entry.lastSeenAt >= idleMs) expired.push(id);
    }
    for (const id of expired) this.#clients.delete(id);
    return expired;
  }

  ids(): string[] {
    return [...this.#clients.keys()];
  }

  get size(): number {
    return this.#clients.size;
  }

  /** Most recent heartbeat or attach of any client, or undefined with no clients. */
  lastSeenAt(): number | undefined {
    let latest: number | undefined;
    for (const entry of this.#clients.values()) latest = Math.max(latest ?? 0, entry.lastSeenAt);
    return latest;
  }

  #see(id: string, entry: ClientEntry, now: number): void {
    entry.lastSeenAt = Math.max(entry.lastSeenAt, now);
    this.#clients.delete(id);
    this.#clients.set(id, entry);
  }

  #dropLeastRecent(): void {
    for (const [id, entry] of this.#clients) {
      if (entry.streams > 0) continue;
      this.#clients.delete(id);
      return;
    }
  }
}
