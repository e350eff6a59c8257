// The contract every SessionStorage backend keeps (storage/session-storage.ts), as one test suite to run
// against each: `describeSessionStorageContract("jsonl", makeJsonlStorage, { describe, it })`. The test
// functions are passed in (and node:assert used) so this entry never imports a test runner: bench scripts
// load `@qwen-daemon/core/testing` in plain node.
import assert from "node:assert/strict";
import { InvalidSessionIdError } from "../storage/session-id.js";
import type {
  LogDecoder,
  SessionKey,
  SessionLog,
  SessionLogKind,
  SessionStorage,
} from "../storage/session-storage.js";
import { SessionLogNotFoundError } from "../storage/session-storage.js";

/** One backend, fresh and empty, with what the suite needs to look inside it. */
export interface StorageUnderTest {
  storage: SessionStorage;
  /** How many durable points (fsync, commit) the backend has reached so far: the suite's probe. */
  syncs(): number;
  /**
   * Damages a log the way a crash or a bad disk would, after what it holds: `torn` leaves a last item cut
   * short mid-write, `corrupt` a whole item that is not one. For JSONL: a line without its newline, a line
   * that is not JSON.
   */
  damage(key: SessionKey, kind: SessionLogKind, how: "torn" | "corrupt"): Promise<void>;
  dispose(): Promise<void>;
}

/** The parts of a test runner the suite uses (vitest's describe and it fit). */
export interface ContractTestApi {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>): void;
}

type Item = { n: number; text?: string; bad?: true };
const decodeItem: LogDecoder<Item> = (value) => {
  const v = value as Item | null;
  return v !== null && typeof v === "object" && typeof v.n === "number" && v.bad !== true ? v : undefined;
};
const KINDS: readonly SessionLogKind[] = ["transcript", "ledger", "answers", "prompts", "names"];
const CWD = "/work/contract-project";
const key = (sessionId = "s-1"): SessionKey => ({ cwd: CWD, sessionId });

export function describeSessionStorageContract(
  name: string,
  make: () => Promise<StorageUnderTest>,
  { describe, it }: ContractTestApi,
): void {
  /** Runs `body` on a fresh backend and disposes of it whatever happens. */
  const withStorage =
    (
      body: (
        s: StorageUnderTest,
        log: (kind?: SessionLogKind, k?: SessionKey) => SessionLog<Item>,
      ) => Promise<void>,
    ) =>
    async () => {
      const s = await make();
      const opened: SessionLog<Item>[] = [];
      const log = (kind: SessionLogKind = "transcript", k = key()) => {
        const l = s.storage.log(k, kind, decodeItem);
        opened.push(l);
        return l;
      };
      try {
        await body(s, log);
      } finally {
        await Promise.allSettled(opened.map((l) => l.close()));
        await s.dispose();
      }
    };
  const ns = (read: { items: Item[] }) => read.items.map((i) => i.n);

  describe(`SessionStorage contract: ${name}`, () => {
    it(
      "keeps appended items in order, one log per session and kind",
      withStorage(async (_s, log) => {
        for (const kind of KINDS) {
          const l = log(kind);
          await l.append({ n: 1, text: kind });
          await l.append({ n: 2, text: kind });
        }
        await log("transcript", key("s-2")).append({ n: 9 });
        for (const kind of KINDS) {
          const read = await log(kind).read();
          assert.deepEqual(read, {
            items: [
              { n: 1, text: kind },
              { n: 2, text: kind },
            ],
            corruptLines: 0,
            tornTail: false,
          });
        }
        assert.deepEqual(ns(await log("transcript", key("s-2")).read()), [9]);
      }),
    );

    it(
      "has no log before the first append: reads reject with SessionLogNotFoundError",
      withStorage(async (s, log) => {
        const l = log("ledger");
        assert.equal(await l.exists(), false);
        await assert.rejects(l.read(), SessionLogNotFoundError);
        await assert.rejects(l.readTail(1), SessionLogNotFoundError);
        await assert.rejects(
          l.scan(() => true),
          SessionLogNotFoundError,
        );
        assert.deepEqual(await s.storage.listSessions("/no/such/project"), []);
        await l.append({ n: 1 });
        assert.equal(await l.exists(), true);
        assert.equal(
          await log("transcript").exists(),
          false,
          "another kind of the same session is another log",
        );
      }),
    );

    it(
      "refuses a session id that breaks the wire rule before touching anything",
      withStorage(async (s) => {
        for (const bad of ["../x", "a/b", "..", "", "a\0"]) {
          assert.throws(
            () => s.storage.log({ cwd: CWD, sessionId: bad }, "transcript", decodeItem),
            InvalidSessionIdError,
          );
        }
      }),
    );

    it(
      "reaches a durable point before a durable append resolves, and none for a plain one",
      withStorage(async (s, log) => {
        for (const kind of KINDS) {
          const l = log(kind);
          const plainBefore = s.syncs();
          await l.append({ n: 1 });
          assert.equal(s.syncs(), plainBefore, `${kind}: a plain append is not synced`);
          const pending = l.append({ n: 2 }, { durable: true });
          const before = s.syncs();
          await pending;
          assert.ok(s.syncs() > before, `${kind}: a durable append is synced before it resolves`);
        }
        // What was made durable is there for any other reader of the same storage (another process).
        assert.deepEqual(ns(await s.storage.log(key(), "answers", decodeItem).read()), [1, 2]);
      }),
    );

    it(
      "makes every append durable through a handle opened with everyAppendDurable",
      withStorage(async (s) => {
        for (const kind of KINDS) {
          const l = s.storage.log(key(), kind, decodeItem, { everyAppendDurable: true });
          for (const n of [1, 2]) {
            const pending = l.append({ n });
            const before = s.syncs();
            await pending;
            assert.ok(s.syncs() > before, `${kind}: append ${n} is synced before it resolves`);
          }
          assert.deepEqual(ns(await l.read()), [1, 2], `${kind}: the items, in order`);
          await l.close();
        }
      }),
    );

    it(
      "skips a torn last item and reports it, and keeps appending after it",
      withStorage(async (s, log) => {
        const l = log("transcript");
        await l.append({ n: 1 });
        await l.append({ n: 2 });
        await s.damage(key(), "transcript", "torn");
        assert.deepEqual(await l.read(), { items: [{ n: 1 }, { n: 2 }], corruptLines: 0, tornTail: true });
        assert.deepEqual(ns(await l.readTail(1)), [2]);
        const after = log("transcript");
        await after.append({ n: 3 }, { durable: true });
        const read = await after.read();
        assert.deepEqual(ns(read), [1, 2, 3], "the next item is not glued onto the torn one");
        assert.equal(read.tornTail, false);
      }),
    );

    it(
      "counts and skips a corrupt item and an item that does not decode",
      withStorage(async (s, log) => {
        const l = log("ledger");
        await l.append({ n: 1 });
        await s.damage(key(), "ledger", "corrupt");
        await l.append({ n: 2, bad: true });
        await l.append({ n: 3 });
        assert.deepEqual(await l.read(), { items: [{ n: 1 }, { n: 3 }], corruptLines: 2, tornTail: false });
        const visited: number[] = [];
        await l.scan((item) => {
          visited.push(item.n);
          return undefined;
        });
        assert.deepEqual(visited, [1, 3]);
      }),
    );

    it(
      "lands concurrent appends whole, one at a time, in call order",
      withStorage(async (_s, log) => {
        const l = log("prompts");
        const big = "x".repeat(200_000);
        const item: Item = { n: -1 };
        const pending: Promise<void>[] = [l.append(item)];
        item.n = 999; // taken as it was when appended
        for (let n = 0; n < 120; n++) {
          pending.push(l.append({ n, ...(n % 10 === 0 ? { text: big } : {}) }, { durable: n % 3 === 0 }));
        }
        await Promise.all(pending);
        const read = await l.read();
        assert.deepEqual(ns(read), [-1, ...Array.from({ length: 120 }, (_, n) => n)]);
        assert.equal(read.corruptLines, 0);
        for (const i of read.items) if (i.n % 10 === 0) assert.equal(i.text, big, `item ${i.n} is whole`);
      }),
    );

    it(
      "rejects an item it cannot store without harming the next ones",
      withStorage(async (_s, log) => {
        const l = log("answers");
        await l.append({ n: 1 });
        await assert.rejects(l.append({ n: 2, text: 10n } as unknown as Item));
        await l.append({ n: 3 });
        assert.deepEqual(await l.read(), { items: [{ n: 1 }, { n: 3 }], corruptLines: 0, tornTail: false });
      }),
    );

    it(
      "reads a tail and scans a head without the rest",
      withStorage(async (_s, log) => {
        const l = log("transcript");
        for (let n = 1; n <= 5; n++) await l.append({ n });
        assert.deepEqual(ns(await l.readTail(2)), [4, 5]);
        assert.deepEqual(ns(await l.readTail(9)), [1, 2, 3, 4, 5]);
        const visited: number[] = [];
        await l.scan((item) => {
          visited.push(item.n);
          return item.n < 2;
        });
        assert.deepEqual(visited, [1, 2]);
      }),
    );

    it(
      "replaces a log atomically and durably, orders appends after it, and removes it when emptied",
      withStorage(async (s, log) => {
        const l = log("prompts");
        for (let n = 1; n <= 4; n++) await l.append({ n });
        const before = s.syncs();
        const replaced = l.replace([{ n: 2 }, { n: 4 }]);
        const appended = l.append({ n: 5 });
        await Promise.all([replaced, appended]);
        assert.ok(s.syncs() > before, "a replacement is durable");
        assert.deepEqual(ns(await l.read()), [2, 4, 5]);
        await l.replace([]);
        assert.equal(await l.exists(), false);
        await l.append({ n: 6 });
        assert.deepEqual(ns(await l.read()), [6]);
      }),
    );

    it(
      "lists the sessions that have a transcript, not those with only other logs",
      withStorage(async (s, log) => {
        await log("transcript", key("s-1")).append({ n: 1 });
        await log("transcript", key("s-2")).append({ n: 1 });
        await log("ledger", key("s-3")).append({ n: 1 });
        await log("answers", key("s-1")).append({ n: 1 });
        const listed = await s.storage.listSessions(CWD);
        assert.deepEqual(listed.map((x) => x.sessionId).sort(), ["s-1", "s-2"]);
        for (const x of listed) assert.equal(new Date(x.updatedAt).toISOString(), x.updatedAt);
        assert.deepEqual(await s.storage.listSessions("/work/other-project"), []);
      }),
    );
  });
}
