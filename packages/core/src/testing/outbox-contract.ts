// The contract every notification outbox backend keeps (storage/outbox-storage.ts), as one test suite to run
// against each: `describeOutboxStorageContract("jsonl", makeJsonlOutbox, { describe, it })`. What only a
// store shared by hosts does (claims between owners) is tested with its backend.
import assert from "node:assert/strict";
import type { OutboxStorage } from "../storage/outbox-storage.js";
import type { LogDecoder } from "../storage/session-storage.js";
import type { ContractTestApi } from "./storage-contract.js";

/** One backend's store, fresh and empty, with what the suite needs to look inside it. */
export interface OutboxUnderTest {
  /** Opens the store's outbox; opened again, it is the next daemon's (a restart) as one owner. */
  open<T>(decode: LogDecoder<T>): OutboxStorage<T>;
  /** How many durable points (fsync, commit) the backend has reached so far: the suite's probe. */
  syncs(): number;
  /**
   * Leaves one damaged item after what the store holds, the way a crash or a bad copy would: `torn` cut short
   * mid-write, `foreign` whole but not an item. For JSONL: a line without its newline, a line that is not a
   * record.
   */
  damage(how: "torn" | "foreign"): Promise<void>;
  dispose(): Promise<void>;
}

type Item = { n: number; text?: string };
const decode: LogDecoder<Item> = (value) => {
  const v = value as Item | null;
  return v !== null && typeof v === "object" && typeof v.n === "number" ? v : undefined;
};
const put = async (outbox: OutboxStorage<Item>, key: string, item: Item) => {
  assert.deepEqual(await outbox.write([{ op: "put", key, item }]), [true]);
};
const update = async (outbox: OutboxStorage<Item>, key: string, item: Item) =>
  (await outbox.write([{ op: "update", key, item }]))[0];
const remove = async (outbox: OutboxStorage<Item>, key: string, reason?: string) =>
  (await outbox.write([{ op: "remove", key, ...(reason === undefined ? {} : { reason }) }]))[0];
const note = async (outbox: OutboxStorage<Item>, id: string) => {
  await outbox.write([{ op: "note", id }]);
};
const claimed = async (outbox: OutboxStorage<Item>) => {
  const { items, corrupt } = await outbox.claim();
  return { items: items.map(({ key, item }) => `${key}=${item.n}`), corrupt };
};

export function describeOutboxStorageContract(
  name: string,
  make: () => Promise<OutboxUnderTest>,
  { describe, it }: ContractTestApi,
): void {
  const withStore = (body: (s: OutboxUnderTest) => Promise<void>) => async () => {
    const s = await make();
    try {
      await body(s);
    } finally {
      await s.dispose();
    }
  };

  describe(`Outbox contract: ${name}`, () => {
    it(
      "gives back what is held in the order it was put, each as last updated, and again after a reopen",
      withStore(async (s) => {
        const outbox = s.open(decode);
        assert.deepEqual(await claimed(outbox), { items: [], corrupt: 0 });
        await put(outbox, "a", { n: 1 });
        await put(outbox, "b", { n: 2 });
        await put(outbox, "c", { n: 3 });
        assert.equal(await update(outbox, "b", { n: 20 }), true);
        assert.equal(await remove(outbox, "a", "delivered"), true);
        assert.deepEqual(await claimed(outbox), { items: ["b=20", "c=3"], corrupt: 0 });
        assert.deepEqual(await claimed(s.open(decode)), { items: ["b=20", "c=3"], corrupt: 0 });
      }),
    );

    it(
      "lands a write's changes together and in order, saying which ones changed something",
      withStore(async (s) => {
        const outbox = s.open(decode);
        await outbox.claim();
        assert.deepEqual(
          await outbox.write([
            { op: "put", key: "a", item: { n: 1 } },
            { op: "update", key: "a", item: { n: 2 } },
            { op: "update", key: "nothing", item: { n: 3 } },
            { op: "put", key: "b", item: { n: 4 } },
            { op: "remove", key: "b", reason: "delivered" },
            { op: "note", id: "q1" },
          ]),
          [true, true, false, true, true, true],
        );
        assert.deepEqual(await claimed(s.open(decode)), { items: ["a=2"], corrupt: 0 });
        assert.deepEqual(await s.open(decode).notes(10), ["q1"]);
        assert.deepEqual(await outbox.write([]), []);
      }),
    );

    it(
      "lands writes in call order without waiting for each other",
      withStore(async (s) => {
        const outbox = s.open(decode);
        await Promise.all([
          put(outbox, "a", { n: 1 }),
          update(outbox, "a", { n: 2 }),
          put(outbox, "b", { n: 3 }),
          remove(outbox, "a"),
          update(outbox, "b", { n: 4 }),
          note(outbox, "q1"),
        ]);
        assert.deepEqual(await claimed(s.open(decode)), { items: ["b=4"], corrupt: 0 });
        assert.deepEqual(await s.open(decode).notes(10), ["q1"]);
      }),
    );

    it(
      "makes a put durable before it resolves",
      withStore(async (s) => {
        const outbox = s.open(decode);
        await outbox.claim();
        const before = s.syncs();
        await put(outbox, "a", { n: 1 });
        assert.ok(s.syncs() > before, "a put reached a durable point before resolving");
        const both = s.syncs();
        await outbox.write([
          { op: "remove", key: "a" },
          { op: "put", key: "b", item: { n: 2 } },
        ]);
        assert.ok(s.syncs() > both, "a write with a put among its changes too");
      }),
    );

    it(
      "stores nothing for an update or removal of an item not held, and says so",
      withStore(async (s) => {
        const outbox = s.open(decode);
        await outbox.claim();
        assert.equal(await update(outbox, "nothing", { n: 1 }), false);
        assert.equal(await remove(outbox, "nothing"), false);
        await put(outbox, "a", { n: 1 });
        assert.equal(await remove(outbox, "a"), true);
        assert.equal(await remove(outbox, "a"), false);
        assert.equal(await update(outbox, "a", { n: 2 }), false);
        assert.deepEqual(await claimed(s.open(decode)), { items: [], corrupt: 0 });
      }),
    );

    it(
      "takes an item as it was when written: a later change to the object is not stored",
      withStore(async (s) => {
        const outbox = s.open(decode);
        await outbox.claim();
        const item = { n: 1 };
        const written = put(outbox, "a", item);
        item.n = 99;
        await written;
        assert.deepEqual(await claimed(s.open(decode)), { items: ["a=1"], corrupt: 0 });
      }),
    );

    it(
      "keeps the newest noted ids, oldest first; an id noted again becomes the newest",
      withStore(async (s) => {
        const outbox = s.open(decode);
        await outbox.claim();
        for (const id of ["q1", "q2", "q3", "q1"]) await note(outbox, id);
        assert.deepEqual(await outbox.notes(2), ["q3", "q1"]);
        assert.deepEqual(await outbox.notes(10), ["q2", "q3", "q1"]);
        const reopened = s.open(decode);
        await reopened.claim();
        assert.deepEqual(await reopened.notes(10), ["q2", "q3", "q1"]);
      }),
    );

    for (const how of ["torn", "foreign"] as const) {
      it(
        `skips and counts a ${how} item and one that does not decode; writes after it land whole`,
        withStore(async (s) => {
          const outbox = s.open(decode);
          await outbox.claim();
          await put(outbox, "a", { n: 1 });
          await put(outbox, "bad", { text: "no n" } as unknown as Item);
          await assert.rejects(
            outbox.write([
              { op: "put", key: "c", item: { n: 3 } },
              { op: "put", key: "d", item: { n: 4, text: 5n } as unknown as Item },
            ]),
            "an item that is not JSON is refused, and the whole write with it",
          );
          await s.damage(how);
          assert.deepEqual(await claimed(s.open(decode)), { items: ["a=1"], corrupt: 2 });
          // A daemon that writes before it claims, after a crash left a damaged item, still writes whole ones.
          await s.damage(how);
          const next = s.open(decode);
          await put(next, "b", { n: 2 });
          assert.equal(await update(next, "a", { n: 10 }), true);
          assert.deepEqual((await claimed(s.open(decode))).items, ["a=10", "b=2"]);
        }),
      );
    }
  });
}
