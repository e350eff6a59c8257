// The outbox in PostgreSQL (postgres-outbox.ts): the contract every outbox keeps, and what only a store
// shared by hosts does: an item is held by one owner; another daemon claims it only once that owner's claim
// ran out, and from then on the old owner can neither change nor close it.
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { describeOutboxStorageContract } from "../../testing/outbox-contract.js";
import type { OutboxChange, OutboxStorage } from "../outbox-storage.js";
import type { StorageOwner } from "../session-lease.js";
import { type PostgresSessionStorage, postgresSessionStorage } from "./postgres-storage.js";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.js";

const serverUrl = inject("postgresUrl");
const A: StorageOwner = { id: "daemon_a", url: "http://a.example" };
const B: StorageOwner = { id: "daemon_b", url: "http://b.example" };

describeOutboxStorageContract(
  "PostgreSQL",
  async () => {
    const db = await createTestDatabase(serverUrl);
    let commits = 0;
    const storage = postgresSessionStorage({
      url: db.url,
      owner: A,
      leaseMs: 60_000,
      onDurable: () => commits++,
    });
    return {
      open(decode) {
        if (storage.outbox === undefined) throw new Error("an owned storage has an outbox");
        return storage.outbox(decode);
      },
      syncs: () => commits,
      async damage(how) {
        // What a bad copy of the table would hold: an item cut short, or one that is JSON but no record.
        await db.query(
          "INSERT INTO qwen_outbox_item (key, item, owner_id, expires_at) VALUES ($1, $2, $3, clock_timestamp())",
          [`damaged-${commits}-${Math.random()}`, how === "torn" ? '{"n": 7, "te' : "[]", A.id],
        );
      },
      async dispose() {
        await storage.close();
        await db.drop();
      },
    };
  },
  { describe, it },
);

let db: TestDatabase | undefined;
const opened: PostgresSessionStorage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  await db?.drop();
  db = undefined;
});

async function outboxOf(owner: StorageOwner, leaseMs: number) {
  db ??= await createTestDatabase(serverUrl);
  const storage = postgresSessionStorage({ url: db.url, owner, leaseMs });
  opened.push(storage);
  if (storage.outbox === undefined) throw new Error("an owned storage has an outbox");
  // Items are texts here: what they hold is the daemon's business.
  return {
    storage,
    outbox: oneAtATime(storage.outbox((value) => (typeof value === "string" ? value : undefined))),
  };
}

/** The outbox one change at a time; a claim gives the items held. */
function oneAtATime(outbox: OutboxStorage<string>) {
  const one = async (change: OutboxChange<string>) => (await outbox.write([change]))[0];
  return {
    claim: async () => (await outbox.claim()).items,
    put: async (key: string, item: string) => void (await one({ op: "put", key, item })),
    update: (key: string, item: string) => one({ op: "update", key, item }),
    remove: (key: string) => one({ op: "remove", key }),
    note: async (id: string) => void (await one({ op: "note", id })),
    notes: (limit: number) => outbox.notes(limit),
  };
}

describe("the PostgreSQL outbox", () => {
  it("leaves a live owner's items alone and gives each owner back its own, in the order they were put", async () => {
    const a = await outboxOf(A, 60_000);
    const b = await outboxOf(B, 60_000);
    await a.outbox.put("k1", '{"n":1}');
    await a.outbox.put("k2", '{"n":2}');
    expect(await b.outbox.claim()).toEqual([]);
    expect(await a.outbox.claim()).toEqual([
      { key: "k1", item: '{"n":1}' },
      { key: "k2", item: '{"n":2}' },
    ]);
    expect(await a.outbox.update("k1", '{"n":1,"retry":1}')).toBe(true);
    expect(await a.outbox.remove("k2")).toBe(true);
    expect(await a.outbox.claim()).toEqual([{ key: "k1", item: '{"n":1,"retry":1}' }]);
  });

  it("moves a dead owner's items to the next daemon that opens it: claimed once, never copied", async () => {
    const a = await outboxOf(A, 0); // A's claims run out at once: as if A died long ago
    await a.outbox.put("k1", '{"n":1}');
    const b = await outboxOf(B, 60_000);
    const c = await outboxOf({ id: "daemon_c", url: "http://c.example" }, 60_000);
    expect(await b.outbox.claim()).toEqual([{ key: "k1", item: '{"n":1}' }]);
    expect(await c.outbox.claim()).toEqual([]);
    // A comes back: the item is B's now.
    expect(await a.outbox.update("k1", '{"n":1,"by":"a"}')).toBe(false);
    expect(await a.outbox.remove("k1")).toBe(false);
    expect(await b.outbox.remove("k1")).toBe(true);
    expect(await b.outbox.claim()).toEqual([]);
  });

  it("keeps an owner's claims alive while its leases are renewed", async () => {
    const a = await outboxOf(A, 60_000);
    await a.outbox.put("k1", "{}");
    await a.storage.leases?.renew();
    const b = await outboxOf(B, 60_000);
    expect(await b.outbox.claim()).toEqual([]);
  });

  it("shares what was noted between owners, newest kept", async () => {
    const a = await outboxOf(A, 60_000);
    const b = await outboxOf(B, 60_000);
    await a.outbox.note("q1");
    await b.outbox.note("q2");
    await a.outbox.note("q3");
    expect(await b.outbox.notes(2)).toEqual(["q2", "q3"]);
    expect(await a.outbox.notes(10)).toEqual(["q1", "q2", "q3"]);
  });

  it("stores none of a write's changes when one of them fails (one transaction)", async () => {
    db ??= await createTestDatabase(serverUrl);
    const storage = postgresSessionStorage({ url: db.url, owner: A, leaseMs: 60_000 });
    opened.push(storage);
    const outbox = storage.outbox?.((value) => (typeof value === "string" ? value : undefined));
    await outbox?.write([
      { op: "put", key: "k1", item: "one" },
      { op: "put", key: "k2", item: "two" },
    ]);
    // A put under a key already stored fails in the database, after the removal and the note before it ran.
    await expect(
      outbox?.write([
        { op: "remove", key: "k1" },
        { op: "note", id: "q1" },
        { op: "put", key: "k2", item: "again" },
      ]),
    ).rejects.toThrow(/duplicate key/);
    expect((await outbox?.claim())?.items).toEqual([
      { key: "k1", item: "one" },
      { key: "k2", item: "two" },
    ]);
    expect(await outbox?.notes(10)).toEqual([]);
  });
});

describe("the PostgreSQL outbox's row locks", () => {
  // Each case stores "b" before "a" (so a scan meets "b" first), holds "b" from another connection, starts the
  // statement, waits until it waits for "b", and asks whether "a" is locked already: it is when the statement
  // takes its locks in key order, so it can never hold "b" while it waits for "a" (the other half of a cycle).
  async function heldBeforeWaiting(start: (a: Awaited<ReturnType<typeof outboxOf>>) => Promise<unknown>) {
    const a = await outboxOf(A, 60_000);
    await a.outbox.put("b", "two");
    await a.outbox.put("a", "one");
    const url = db?.url ?? "";
    const blocker = new pg.Client({ connectionString: url });
    const probe = new pg.Client({ connectionString: url });
    await blocker.connect();
    await probe.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT key FROM qwen_outbox_item WHERE key = 'b' FOR UPDATE");
      const running = start(a);
      await expect
        .poll(async () => {
          const rows = await db?.select(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          );
          return rows?.[0]?.n;
        })
        .toBe(1);
      await probe.query("BEGIN");
      const aLocked = await probe
        .query("SELECT key FROM qwen_outbox_item WHERE key = 'a' FOR UPDATE NOWAIT")
        .then(
          () => false,
          (error: { code?: string }) => error.code === "55P03",
        );
      await probe.query("ROLLBACK");
      await blocker.query("COMMIT");
      return { aLocked, result: await running };
    } finally {
      await blocker.end();
      await probe.end();
    }
  }

  it("a write takes the locks of the items it changes in key order", async () => {
    const { aLocked, result } = await heldBeforeWaiting(
      ({ storage }) =>
        storage
          .outbox?.((value) => (typeof value === "string" ? value : undefined))
          ?.write([
            { op: "remove", key: "b" },
            { op: "remove", key: "a" },
          ]) ?? Promise.reject(new Error("no outbox")),
    );
    expect(aLocked).toBe(true);
    expect(result).toEqual([true, true]);
  });

  it("a claim takes its locks in key order", async () => {
    const { aLocked, result } = await heldBeforeWaiting(({ outbox }) => outbox.claim());
    expect(aLocked).toBe(true);
    expect(result).toEqual([
      { key: "b", item: "two" },
      { key: "a", item: "one" },
    ]);
  });

  it("the lease renewal takes its locks in key order", async () => {
    const { aLocked } = await heldBeforeWaiting(
      ({ storage }) => storage.leases?.renew() ?? Promise.resolve(),
    );
    expect(aLocked).toBe(true);
  });
});
