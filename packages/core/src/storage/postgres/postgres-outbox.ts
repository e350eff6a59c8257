// The PostgreSQL backend of a daemon's outbox (outbox-storage.ts; docs/storage.md "The notification outbox"):
// items a daemon still has to deliver, each a JSON text under a unique key. Every item is held by one
// owner at a time, with an expiry its owner's lease renewal extends (PostgresLeases.renew). A daemon that
// opens the outbox claims its own items and every item whose holder stopped renewing (a host that died), so a
// notification due on a dead host is delivered by the next daemon that opens the outbox, and only by it: the
// item moves, it is never copied. Writes are fenced by ownership: an owner that lost an item (it was frozen
// past its expiry and another daemon claimed it) cannot change or close it any more.
import { logItemText } from "../log-item-text.js";
import type { OutboxChange, OutboxItem, OutboxStorage } from "../outbox-storage.js";
import type { StorageOwner } from "../session-lease.js";
import type { LogDecoder } from "../session-storage.js";
import { WriteQueue } from "../write-queue.js";
import type { Db } from "./db.js";

const EXPIRY = `clock_timestamp() + $2 * interval '1 millisecond'`;

/** `onDurable`: called once a put has committed, before it resolves (the contract suite's probe). */
export function postgresOutboxStorage<T>(
  db: Db,
  owner: StorageOwner,
  leaseMs: number,
  decode: LogDecoder<T>,
  onDurable?: () => void,
): OutboxStorage<T> {
  // This daemon's writes, one at a time in call order (a retry must not overtake the put it updates).
  const writes = new WriteQueue();
  return {
    where: "postgres:qwen_outbox_item",
    claim: () =>
      writes.run(async () => {
        const { rows } = await db.query(
          `UPDATE qwen_outbox_item SET owner_id = $1, expires_at = ${EXPIRY}
           WHERE owner_id = $1 OR expires_at <= clock_timestamp()
           RETURNING key, item, seq`,
          [owner.id, leaseMs],
        );
        const items: OutboxItem<T>[] = [];
        let corrupt = 0;
        for (const row of rows.sort((a, b) => Number(a.seq) - Number(b.seq))) {
          const item = decodeText(row.item as string, decode);
          if (item === undefined) corrupt += 1;
          else items.push({ key: row.key as string, item });
        }
        return { items, corrupt };
      }),
    write(changes) {
      let statements: Statement[];
      try {
        statements = changes.map((change) => statementOf(change, owner, leaseMs));
      } catch (error) {
        return Promise.reject(error);
      }
      if (statements.length === 0) return Promise.resolve([]);
      return writes.run(async () => {
        // One transaction (committed with synchronous_commit on, db.ts): all of it lands, durably, or none.
        const done = await db.transaction(async (client) => {
          const out: boolean[] = [];
          for (const { text, values, heldOnly } of statements) {
            const { rows } = await client.query(text, values as unknown[]);
            out.push(heldOnly !== true || rows.length > 0);
          }
          return out;
        });
        if (changes.some((change) => change.op === "put")) onDurable?.();
        return done;
      });
    },
    notes: (limit) =>
      writes.run(async () => {
        const { rows } = await db.query(
          "SELECT id FROM (SELECT id, noted_at FROM qwen_outbox_note ORDER BY noted_at DESC LIMIT $1) n ORDER BY noted_at",
          [limit],
        );
        return rows.map((row) => row.id as string);
      }),
  };
}

/** One change as SQL; `heldOnly`: it changed nothing unless a row comes back (the item was not held). */
interface Statement {
  text: string;
  values: readonly unknown[];
  heldOnly?: true;
}

/** An item's text is taken here, when it is passed in: a later change to the object is not stored. */
function statementOf<T>(change: OutboxChange<T>, owner: StorageOwner, leaseMs: number): Statement {
  switch (change.op) {
    case "put":
      return {
        text: `INSERT INTO qwen_outbox_item (key, item, owner_id, expires_at) VALUES ($3, $4, $1, ${EXPIRY})`,
        values: [owner.id, leaseMs, change.key, logItemText(change.item)],
      };
    case "update":
      return {
        text: "UPDATE qwen_outbox_item SET item = $3 WHERE key = $2 AND owner_id = $1 RETURNING key",
        values: [owner.id, change.key, logItemText(change.item)],
        heldOnly: true,
      };
    case "remove":
      // The reason is for a person reading a file; a row removed has nothing to show it to.
      return {
        text: "DELETE FROM qwen_outbox_item WHERE key = $2 AND owner_id = $1 RETURNING key",
        values: [owner.id, change.key],
        heldOnly: true,
      };
    case "note":
      return {
        text: `INSERT INTO qwen_outbox_note (id) VALUES ($1)
               ON CONFLICT (id) DO UPDATE SET noted_at = clock_timestamp()`,
        values: [change.id],
      };
  }
}

/** A stored item, or undefined when it is not JSON or does not decode (damaged: skipped and counted). */
function decodeText<T>(text: string, decode: LogDecoder<T>): T | undefined {
  try {
    return decode(JSON.parse(text));
  } catch {
    return undefined;
  }
}
