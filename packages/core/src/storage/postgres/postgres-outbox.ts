// The PostgreSQL backend of a daemon's outbox (outbox-storage.ts; docs/storage.md "The notification outbox"):
// items a daemon still has to deliver, each a JSON text under a unique key. Every item is held by one
// owner at a time, with an expiry its owner's lease renewal extends (PostgresLeases.renew). A daemon that
// opens the outbox claims its own items and every item whose holder stopped renewing (a host that died), so a
// notification due on a dead host is delivered by the next daemon that opens the outbox, and only by it: the
// item moves, it is never copied. Writes are fenced by ownership: an owner that lost an item (it was frozen
// past its expiry and another daemon claimed it) cannot change or close it any more.
//
// Every statement that locks more than one item row (a write's updates and removals, a claim, the lease
// renewal in postgres-leases.ts) takes the row locks in key order first, so two of them never wait on each
// other in a cycle: a close of two entries and a renewal running at once would otherwise deadlock, and
// PostgreSQL would abort one of them (a lost close is a duplicate delivery after a restart).
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
          updateInKeyOrder(
            "owner_id = $1 OR expires_at <= clock_timestamp()",
            `owner_id = $1, expires_at = ${EXPIRY}`,
            " RETURNING i.key, i.item, i.seq",
          ),
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
          const held = changes.flatMap((change) =>
            change.op === "update" || change.op === "remove" ? [change.key] : [],
          );
          if (held.length > 0) await client.query(LOCK_IN_KEY_ORDER, [held]);
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

/** Locks the stored items under the keys given (`$1`, a text array), in key order. */
const LOCK_IN_KEY_ORDER =
  "SELECT key FROM qwen_outbox_item WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE";

/**
 * An UPDATE of the items matching `where` that locks them in key order before changing any (the sort happens
 * before the locks are taken; MATERIALIZED keeps the locking query from being folded into the UPDATE's scan).
 */
export function updateInKeyOrder(where: string, set: string, returning?: ` RETURNING ${string}`): string {
  return `WITH locked AS MATERIALIZED (SELECT key FROM qwen_outbox_item WHERE ${where} ORDER BY key FOR UPDATE)
    UPDATE qwen_outbox_item AS i SET ${set} FROM locked WHERE i.key = locked.key${returning ?? ""}`;
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
