// The outbox in PostgreSQL (postgres-outbox.ts): an item is held by one owner; another daemon claims it only
// once that owner's claim ran out, and from then on the old owner can neither change nor close it.
import { afterEach, describe, expect, inject, it } from "vitest";
import type { StorageOwner } from "../session-lease.js";
import { type PostgresSessionStorage, postgresSessionStorage } from "./postgres-storage.js";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.js";

const serverUrl = inject("postgresUrl");
const A: StorageOwner = { id: "daemon_a", url: "http://a.example" };
const B: StorageOwner = { id: "daemon_b", url: "http://b.example" };

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
  const outbox = storage.outbox;
  if (outbox === undefined) throw new Error("an owned storage has an outbox");
  return { storage, outbox };
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
});
