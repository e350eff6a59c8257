// Session leases in PostgreSQL (storage/session-lease.ts says what they promise). Expiry is the database's
// clock (clock_timestamp()), one clock for every host, so hosts whose clocks disagree still agree on when a
// lease ran out. A takeover updates the lease row, which every fenced append share-locks until its commit.
import type { PoolClient } from "pg";
import type { LeaseAcquired, SessionLease, SessionLeases, StorageOwner } from "../session-lease.js";
import type { SessionKey } from "../session-storage.js";
import type { Db } from "./db.js";
import { updateInKeyOrder } from "./postgres-outbox.js";

const LEASE_COLUMNS = `owner_id, owner_url, epoch, expires_at, expires_at > clock_timestamp() AS live`;
const EXPIRY = `clock_timestamp() + $LEASE * interval '1 millisecond'`;

export class PostgresLeases implements SessionLeases {
  constructor(
    private readonly db: Db,
    readonly owner: StorageOwner,
    private readonly leaseMs: number,
  ) {}

  acquire(key: SessionKey): Promise<LeaseAcquired> {
    return this.db.transaction(async (client) => {
      const inserted = await this.#insert(client, key);
      if (inserted !== undefined) return { acquired: true, epoch: inserted.epoch, tookOver: false };
      const { rows } = await client.query(
        `SELECT ${LEASE_COLUMNS} FROM qwen_session_lease WHERE cwd = $1 AND session_id = $2 FOR UPDATE`,
        [key.cwd, key.sessionId],
      );
      const lease = toLease(rows[0]);
      const mine = lease.ownerId === this.owner.id;
      if (!mine && lease.live) return { acquired: false, lease };
      const epoch = mine ? lease.epoch : lease.epoch + 1;
      await client.query(
        `UPDATE qwen_session_lease SET owner_id = $3, owner_url = $4, epoch = $5,
         expires_at = ${EXPIRY.replace("$LEASE", "$6")} WHERE cwd = $1 AND session_id = $2`,
        [key.cwd, key.sessionId, this.owner.id, this.owner.url, epoch, this.leaseMs],
      );
      return { acquired: true, epoch, tookOver: !mine };
    });
  }

  /**
   * What a fenced write starts from: the session's lease, claimed for this owner when it has none (a new
   * session's first write). Never takes over a lease of another owner, live or not: that is acquire's
   * (a load restores the session first).
   */
  claimOrRead(key: SessionKey): Promise<SessionLease> {
    return this.db.transaction(async (client) => {
      const inserted = await this.#insert(client, key);
      if (inserted !== undefined) return inserted;
      const { rows } = await client.query(
        `SELECT ${LEASE_COLUMNS} FROM qwen_session_lease WHERE cwd = $1 AND session_id = $2`,
        [key.cwd, key.sessionId],
      );
      return toLease(rows[0]);
    });
  }

  async renew(): Promise<SessionKey[]> {
    // The owner's outbox items (postgres-outbox.ts) live as long as its leases: one renewal keeps both.
    await this.db.query(updateInKeyOrder("owner_id = $1", `expires_at = ${EXPIRY.replace("$LEASE", "$2")}`), [
      this.owner.id,
      this.leaseMs,
    ]);
    const { rows } = await this.db.query(
      `UPDATE qwen_session_lease SET expires_at = ${EXPIRY.replace("$LEASE", "$2")}, owner_url = $3
       WHERE owner_id = $1 RETURNING cwd, session_id`,
      [this.owner.id, this.leaseMs, this.owner.url],
    );
    return rows.map((row) => ({ cwd: row.cwd as string, sessionId: row.session_id as string }));
  }

  async release(key: SessionKey): Promise<void> {
    await this.db.query(
      `UPDATE qwen_session_lease SET expires_at = clock_timestamp()
       WHERE cwd = $1 AND session_id = $2 AND owner_id = $3`,
      [key.cwd, key.sessionId, this.owner.id],
    );
  }

  async read(key: SessionKey): Promise<SessionLease | undefined> {
    const { rows } = await this.db.query(
      `SELECT ${LEASE_COLUMNS} FROM qwen_session_lease WHERE cwd = $1 AND session_id = $2`,
      [key.cwd, key.sessionId],
    );
    return rows[0] === undefined ? undefined : toLease(rows[0]);
  }

  async #insert(client: PoolClient, key: SessionKey): Promise<SessionLease | undefined> {
    const { rows } = await client.query(
      `INSERT INTO qwen_session_lease (cwd, session_id, owner_id, owner_url, epoch, expires_at)
       VALUES ($1, $2, $3, $4, 1, ${EXPIRY.replace("$LEASE", "$5")})
       ON CONFLICT (cwd, session_id) DO NOTHING RETURNING ${LEASE_COLUMNS}`,
      [key.cwd, key.sessionId, this.owner.id, this.owner.url, this.leaseMs],
    );
    return rows[0] === undefined ? undefined : toLease(rows[0]);
  }
}

function toLease(row: Record<string, unknown> | undefined): SessionLease {
  if (row === undefined) throw new Error("qwen_session_lease: the row vanished inside its transaction");
  return {
    ownerId: row.owner_id as string,
    ownerUrl: row.owner_url as string,
    epoch: Number(row.epoch),
    expiresAt: (row.expires_at as Date).toISOString(),
    live: row.live === true,
  };
}
