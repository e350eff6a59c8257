// Session leases in memory, as a shared store keeps them (docs/storage.md "Leases and fencing"), for route
// tests of what the daemon does with them: several owners (several daemons) share one table, and a test
// decides when a lease runs out instead of waiting for a clock.
import type { LeaseAcquired, SessionKey, SessionLease, SessionLeases, StorageOwner } from "@qwen-daemon/core";

type Row = { ownerId: string; ownerUrl: string; epoch: number; live: boolean };

export class MemoryLeaseTable {
  readonly rows = new Map<string, Row>();

  /** The leases as `owner` sees them. */
  leasesFor(owner: StorageOwner): SessionLeases {
    return new MemoryLeases(this, owner);
  }

  /** The lease runs out (its owner was frozen or died): another owner may take it over. */
  expire(key: SessionKey): void {
    const row = this.rows.get(keyText(key));
    if (row !== undefined) row.live = false;
  }

  get(key: SessionKey): Row | undefined {
    return this.rows.get(keyText(key));
  }
}

class MemoryLeases implements SessionLeases {
  constructor(
    private readonly table: MemoryLeaseTable,
    readonly owner: StorageOwner,
  ) {}

  async acquire(key: SessionKey): Promise<LeaseAcquired> {
    const row = this.table.rows.get(keyText(key));
    if (row === undefined) {
      this.table.rows.set(keyText(key), { ...this.#mine(), epoch: 1, live: true });
      return { acquired: true, epoch: 1, tookOver: false };
    }
    const mine = row.ownerId === this.owner.id;
    if (!mine && row.live) return { acquired: false, lease: toLease(row) };
    const epoch = mine ? row.epoch : row.epoch + 1;
    this.table.rows.set(keyText(key), { ...this.#mine(), epoch, live: true });
    return { acquired: true, epoch, tookOver: !mine };
  }

  async renew(): Promise<SessionKey[]> {
    const held: SessionKey[] = [];
    for (const [text, row] of this.table.rows) {
      if (row.ownerId !== this.owner.id) continue;
      row.live = true;
      const [cwd, sessionId] = text.split("\u0000") as [string, string];
      held.push({ cwd, sessionId });
    }
    return held;
  }

  async release(key: SessionKey): Promise<void> {
    const row = this.table.rows.get(keyText(key));
    if (row?.ownerId === this.owner.id) row.live = false;
  }

  async read(key: SessionKey): Promise<SessionLease | undefined> {
    const row = this.table.rows.get(keyText(key));
    return row === undefined ? undefined : toLease(row);
  }

  #mine() {
    return { ownerId: this.owner.id, ownerUrl: this.owner.url };
  }
}

function toLease(row: Row): SessionLease {
  return { ...row, expiresAt: new Date(0).toISOString() };
}

function keyText(key: SessionKey): string {
  return `${key.cwd}\u0000${key.sessionId}`;
}
