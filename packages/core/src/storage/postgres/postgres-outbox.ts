// A daemon's outbox in PostgreSQL (docs/storage.md "The notification outbox"): items a daemon still has to
// deliver (the daemon decides what an item is: a JSON text under a unique key). Every item is held by one
// owner at a time, with an expiry its owner's lease renewal extends (PostgresLeases.renew). A daemon that
// opens the outbox claims its own items and every item whose holder stopped renewing (a host that died), so a
// notification due on a dead host is delivered by the next daemon that opens the outbox, and only by it: the
// item moves, it is never copied. Writes are fenced by ownership: an owner that lost an item (it was frozen
// past its expiry and another daemon claimed it) cannot change or close it any more.
import type { StorageOwner } from "../session-lease.js";
import type { Db } from "./db.js";

export interface SharedOutbox {
  /**
   * Takes over the items no live owner holds (this owner's own, and those whose claim ran out), renewing
   * them for this owner, and returns every item it holds, in the order they were put.
   */
  claim(): Promise<{ key: string; item: string }[]>;
  /** Stores a new item held by this owner; resolves once committed durably. */
  put(key: string, item: string): Promise<void>;
  /** Replaces an item this owner holds; false when it holds it no longer (claimed elsewhere or removed). */
  update(key: string, item: string): Promise<boolean>;
  /** Removes an item this owner holds; false when it holds it no longer. */
  remove(key: string): Promise<boolean>;
  /** Records an id (shared by every owner: what was told once is not told again by anyone). */
  note(id: string): Promise<void>;
  /** The newest `limit` ids noted, oldest first. */
  notes(limit: number): Promise<string[]>;
}

const EXPIRY = `clock_timestamp() + $2 * interval '1 millisecond'`;

export function postgresOutbox(db: Db, owner: StorageOwner, leaseMs: number): SharedOutbox {
  return {
    async claim() {
      const { rows } = await db.query(
        `UPDATE qwen_outbox_item SET owner_id = $1, expires_at = ${EXPIRY}
         WHERE owner_id = $1 OR expires_at <= clock_timestamp()
         RETURNING key, item, seq`,
        [owner.id, leaseMs],
      );
      return rows
        .sort((a, b) => Number(a.seq) - Number(b.seq))
        .map((row) => ({ key: row.key as string, item: row.item as string }));
    },
    async put(key, item) {
      await db.query(
        `INSERT INTO qwen_outbox_item (key, item, owner_id, expires_at) VALUES ($3, $4, $1, ${EXPIRY})`,
        [owner.id, leaseMs, key, item],
      );
    },
    async update(key, item) {
      const { rows } = await db.query(
        "UPDATE qwen_outbox_item SET item = $3 WHERE key = $2 AND owner_id = $1 RETURNING key",
        [owner.id, key, item],
      );
      return rows.length > 0;
    },
    async remove(key) {
      const { rows } = await db.query(
        "DELETE FROM qwen_outbox_item WHERE key = $2 AND owner_id = $1 RETURNING key",
        [owner.id, key],
      );
      return rows.length > 0;
    },
    async note(id) {
      await db.query(
        `INSERT INTO qwen_outbox_note (id) VALUES ($1)
         ON CONFLICT (id) DO UPDATE SET noted_at = clock_timestamp()`,
        [id],
      );
    },
    async notes(limit) {
      const { rows } = await db.query(
        "SELECT id FROM (SELECT id, noted_at FROM qwen_outbox_note ORDER BY noted_at DESC LIMIT $1) n ORDER BY noted_at",
        [limit],
      );
      return rows.map((row) => row.id as string);
    },
  };
}
