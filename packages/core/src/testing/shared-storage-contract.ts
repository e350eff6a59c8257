// What a SessionStorage shared by several hosts keeps beyond the single-host contract (storage-contract.ts):
// appends from several processes to one log land whole and in each writer's order, and one writer per session
// is enforced by leases and fencing (storage/session-lease.ts): a takeover refuses every later write of the
// old owner. Run against each shared backend: `describeSharedStorageContract("postgres", make, { describe, it })`.
import assert from "node:assert/strict";
import type {
  SessionFencedError as FencedErrorType,
  SessionLeases,
  StorageOwner,
} from "../storage/session-lease.js";
import { SessionFencedError } from "../storage/session-lease.js";
import type { LogDecoder, SessionKey, SessionStorage } from "../storage/session-storage.js";
import type { ContractTestApi } from "./storage-contract.js";

/** One host's view of the shared store. */
export interface SharedStorageHost extends SessionStorage {
  readonly leases: SessionLeases | undefined;
  close(): Promise<void>;
}

/** A fresh, empty shared store. */
export interface SharedStorageUnderTest {
  /** Opens the store as one more host; with an owner its writes are fenced and it has leases. */
  open(owner?: StorageOwner, leaseMs?: number): SharedStorageHost;
  /** Appends {tag, n: 0..count-1} to `key`'s transcript from another process, unfenced, in order. */
  appendFromProcess(key: SessionKey, tag: string, count: number): Promise<void>;
  dispose(): Promise<void>;
}

type Item = { tag: string; n: number };
const decode: LogDecoder<Item> = (v) => {
  const x = v as Item | null;
  return x !== null && typeof x === "object" && typeof x.n === "number" ? x : undefined;
};
const key: SessionKey = { cwd: "/work/contract-hosts", sessionId: "s-shared" };
const A: StorageOwner = { id: "owner-a", url: "http://host-a.test:4170" };
const B: StorageOwner = { id: "owner-b", url: "http://host-b.test:4170" };

const isFencedBy = (url: string) => (error: unknown) => {
  assert.ok(error instanceof SessionFencedError, `expected SessionFencedError, got ${String(error)}`);
  assert.equal((error as FencedErrorType).owner?.url, url);
  assert.equal((error as FencedErrorType).code, "session_owned_elsewhere");
  return true;
};

export function describeSharedStorageContract(
  name: string,
  make: () => Promise<SharedStorageUnderTest>,
  { describe, it }: ContractTestApi,
): void {
  const withStore =
    (body: (s: SharedStorageUnderTest, hosts: SharedStorageHost[]) => Promise<void>) => async () => {
      const s = await make();
      const hosts: SharedStorageHost[] = [];
      const tracked: SharedStorageUnderTest = {
        ...s,
        open(owner, leaseMs) {
          const host = s.open(owner, leaseMs);
          hosts.push(host);
          return host;
        },
      };
      try {
        await body(tracked, hosts);
      } finally {
        await Promise.allSettled(hosts.map((h) => h.close()));
        await s.dispose();
      }
    };

  describe(`Shared SessionStorage contract: ${name}`, () => {
    it(
      "lands appends from two processes at once whole, each process's in its order",
      withStore(async (s) => {
        const count = 150;
        await Promise.all([s.appendFromProcess(key, "p1", count), s.appendFromProcess(key, "p2", count)]);
        const read = await s.open().log(key, "transcript", decode).read();
        assert.equal(read.corruptLines, 0);
        assert.equal(read.items.length, 2 * count);
        for (const tag of ["p1", "p2"]) {
          const ns = read.items.filter((i) => i.tag === tag).map((i) => i.n);
          assert.deepEqual(
            ns,
            Array.from({ length: count }, (_, n) => n),
            `${tag}'s items, in its order`,
          );
        }
      }),
    );

    it(
      "refuses a fenced append, and a replacement, after a takeover; the new owner writes on",
      withStore(async (s) => {
        // A lease of 0 ms has run out as soon as it is written: B may take over at once.
        const a = s.open(A, 0);
        const b = s.open(B, 60_000);
        const aLog = a.log(key, "transcript", decode);
        await aLog.append({ tag: "a", n: 1 }, { durable: true });
        const taken = await b.leases?.acquire(key);
        assert.deepEqual(taken, { acquired: true, epoch: 2, tookOver: true });
        await assert.rejects(aLog.append({ tag: "a", n: 2 }), isFencedBy(B.url));
        await assert.rejects(aLog.append({ tag: "a", n: 3 }, { durable: true }), isFencedBy(B.url));
        await assert.rejects(aLog.replace([]), isFencedBy(B.url));
        await assert.rejects(a.log(key, "answers", decode).append({ tag: "a", n: 4 }), isFencedBy(B.url));
        await b.log(key, "transcript", decode).append({ tag: "b", n: 5 }, { durable: true });
        const read = await b.log(key, "transcript", decode).read();
        assert.deepEqual(
          read.items.map((i) => `${i.tag}${i.n}`),
          ["a1", "b5"],
        );
        assert.equal(
          await a.log(key, "answers", decode).exists(),
          false,
          "nothing of A's after the takeover",
        );
        assert.deepEqual(await a.leases?.renew(), [], "A's renewal no longer covers the session");
        assert.deepEqual(
          (await b.leases?.renew())?.map((k) => k.sessionId),
          [key.sessionId],
        );
      }),
    );

    it(
      "refuses a handle's write at an old epoch even when its owner has taken the session back since",
      withStore(async (s) => {
        const a = s.open(A, 0);
        const b = s.open(B, 0);
        const stale = a.log(key, "ledger", decode);
        await stale.append({ tag: "a", n: 1 });
        assert.equal((await b.leases?.acquire(key))?.acquired, true);
        assert.deepEqual(await a.leases?.acquire(key), { acquired: true, epoch: 3, tookOver: true });
        await assert.rejects(stale.append({ tag: "a", n: 2 }), SessionFencedError);
        await a.log(key, "ledger", decode).append({ tag: "a", n: 3 });
        assert.deepEqual(
          (await a.log(key, "ledger", decode).read()).items.map((i) => i.n),
          [1, 3],
        );
      }),
    );

    it(
      "does not take a live lease: names its owner, refuses the other host's writes until it is released",
      withStore(async (s) => {
        const a = s.open(A, 60_000);
        const b = s.open(B, 60_000);
        await a.log(key, "transcript", decode).append({ tag: "a", n: 1 });
        const refused = await b.leases?.acquire(key);
        assert.equal(refused?.acquired, false);
        if (refused?.acquired === false) {
          assert.equal(refused.lease.ownerUrl, A.url);
          assert.equal(refused.lease.live, true);
          assert.equal(refused.lease.epoch, 1);
        }
        await assert.rejects(b.log(key, "transcript", decode).append({ tag: "b", n: 2 }), isFencedBy(A.url));
        const listed = await b.listSessions(key.cwd);
        assert.deepEqual(
          listed.map((x) => [x.sessionId, x.owner]),
          [[key.sessionId, A.url]],
        );
        const ownView = await a.listSessions(key.cwd);
        assert.equal(ownView[0]?.owner, undefined, "a host is not told it owns its own sessions");
        assert.deepEqual(await a.leases?.acquire(key), { acquired: true, epoch: 1, tookOver: false });
        await a.leases?.release(key);
        assert.equal((await b.listSessions(key.cwd))[0]?.owner, undefined, "a released lease names no owner");
        assert.deepEqual(await b.leases?.acquire(key), { acquired: true, epoch: 2, tookOver: true });
        await b.log(key, "transcript", decode).append({ tag: "b", n: 3 });
        assert.deepEqual(
          (await a.log(key, "transcript", decode).read()).items.map((i) => i.n),
          [1, 3],
        );
      }),
    );
  });
}
