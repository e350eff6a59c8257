// The clients attached to one session. Ids are minted by the daemon; a client that re-attaches with an
// id already registered here keeps it (one more reference), any other supplied id is replaced.
import { mintClientId } from "../http/client-id.js";

type ClientEntry = { refs: number; lastSeenAt: number };

export class ClientRegistry {
  readonly #clients = new Map<string, ClientEntry>();
  readonly #mint: () => string;

  constructor(mint: () => string = mintClientId) {
    this.#mint = mint;
  }

  /** Registers a client: reuses `requested` only if it is already registered, else mints one. */
  attach(requested: string | undefined, now: number): string {
    const existing = requested === undefined ? undefined : this.#clients.get(requested);
    if (requested !== undefined && existing !== undefined) {
      existing.refs += 1;
      existing.lastSeenAt = now;
      return requested;
    }
    const id = this.#mint();
    this.#clients.set(id, { refs: 1, lastSeenAt: now });
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

  /** Records a heartbeat; false if the client is not registered. */
  touch(clientId: string, now: number): boolean {
    const entry = this.#clients.get(clientId);
    if (entry === undefined) return false;
    entry.lastSeenAt = now;
    return true;
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
}
