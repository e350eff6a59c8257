// The JSONL outbox (jsonl-outbox.ts): the contract, the file every earlier version wrote, and what a power
// cut leaves at each step.
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { describeOutboxStorageContract } from "../../testing/outbox-contract.js";
import { afterPowerLoss, type DiskState } from "../../testing/power-loss-model.js";
import { DurableFs } from "../durable-fs.js";
import type { FsOp } from "../fs-op-log.js";
import type { OutboxStorage } from "../outbox-storage.js";
import { COMPACT_AFTER_RECORDS } from "../record-outbox.js";
import { jsonlOutboxStorage } from "./jsonl-outbox.js";
import { outboxPath } from "./paths.js";

/** A QWEN_HOME of its own, removed when the test ends. */
function home(): string {
  const h = mkdtempSync(join(tmpdir(), "qwen-outbox-"));
  onTestFinished(() => rmSync(h, { recursive: true, force: true }));
  return h;
}
const anything = (value: unknown) => value;
const put = (outbox: OutboxStorage<unknown>, key: string, item: unknown) =>
  outbox.write([{ op: "put", key, item }]);
const update = (outbox: OutboxStorage<unknown>, key: string, item: unknown) =>
  outbox.write([{ op: "update", key, item }]);
const remove = (outbox: OutboxStorage<unknown>, key: string, reason?: string) =>
  outbox.write([{ op: "remove", key, ...(reason === undefined ? {} : { reason }) }]);
const lines = (h: string) => readFileSync(outboxPath(h), "utf8").trim().split("\n");

describeOutboxStorageContract(
  "JSONL",
  async () => {
    const h = home();
    let syncs = 0;
    const fs = new DurableFs({ record: (op) => void (op.op === "fsync" && syncs++) });
    return {
      open: (decode) => jsonlOutboxStorage(h, decode, { fs }),
      syncs: () => syncs,
      async damage(how) {
        mkdirSync(dirname(outboxPath(h)), { recursive: true });
        appendFileSync(
          outboxPath(h),
          how === "torn" ? '{"op":"add","key":"c","ent' : '{"op":"frobnicate"}\n',
        );
      },
      dispose: async () => {},
    };
  },
  { describe, it },
);

describe("the JSONL outbox", () => {
  it("loads a file in the format the daemon wrote before the outbox moved into storage", async () => {
    const h = home();
    const event = { v: 1, id: "s1:call_1", type: "question_waiting", sessionId: "s1" };
    const entry = (key: string) => ({ key, sender: "webhook", event, dueAt: 1000, attempts: 0 });
    mkdirSync(dirname(outboxPath(h)), { recursive: true });
    writeFileSync(
      outboxPath(h),
      [
        JSON.stringify({ op: "told", id: "s0:call_9" }),
        JSON.stringify({ op: "add", entry: entry("a") }),
        JSON.stringify({ op: "add", entry: entry("b") }),
        JSON.stringify({ op: "retry", key: "b", attempts: 2, dueAt: 9000 }),
        JSON.stringify({ op: "close", key: "a", outcome: "delivered" }),
        JSON.stringify({ op: "told", id: "s1:call_1" }),
        JSON.stringify({ op: "frobnicate", key: "b" }),
        '{"op":"add","entry":{"key":"c"', // torn by a crash
        "",
      ].join("\n"),
    );
    const outbox = jsonlOutboxStorage(h, anything);
    expect(await outbox.claim()).toEqual({
      items: [{ key: "b", item: { ...entry("b"), attempts: 2, dueAt: 9000 } }],
      corrupt: 2,
    });
    expect(await outbox.notes(10)).toEqual(["s0:call_9", "s1:call_1"]);
    // Compacted to what is held, in the current format; the next load gives the same.
    expect(lines(h).map((line) => JSON.parse(line).op)).toEqual(["told", "told", "add"]);
    expect(await jsonlOutboxStorage(h, anything).claim()).toEqual({
      items: [{ key: "b", item: { ...entry("b"), attempts: 2, dueAt: 9000 } }],
      corrupt: 0,
    });
  });

  it("keeps the file private, one line per write, and compacts it on a claim and after many writes", async () => {
    const h = home();
    const outbox = jsonlOutboxStorage(h, anything);
    await outbox.claim();
    await put(outbox, "a", { n: 1 });
    await put(outbox, "b", { n: 2 });
    await remove(outbox, "a", "cancelled");
    expect(lines(h)).toEqual([
      '{"op":"add","key":"a","entry":{"n":1}}',
      '{"op":"add","key":"b","entry":{"n":2}}',
      '{"op":"close","key":"a","outcome":"cancelled"}',
    ]);
    expect(statSync(outboxPath(h)).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(outboxPath(h))).mode & 0o777).toBe(0o700);
    const reopened = jsonlOutboxStorage(h, anything);
    await reopened.claim();
    expect(lines(h)).toEqual(['{"op":"add","key":"b","entry":{"n":2}}']);
    for (let n = 0; n < COMPACT_AFTER_RECORDS; n += 1) await update(reopened, "b", { n });
    expect(lines(h)).toEqual([`{"op":"add","key":"b","entry":{"n":${COMPACT_AFTER_RECORDS - 1}}}`]);
  });

  it("writes whole records after an append that failed half-way (a full disk)", async () => {
    const h = home();
    // The first append of a note lands half its bytes, then fails.
    class HalfFull extends DurableFs {
      failed = false;
      override async appendText(path: string, text: string, options: Parameters<DurableFs["appendText"]>[2]) {
        if (this.failed || !text.includes('"told"')) return super.appendText(path, text, options);
        this.failed = true;
        await super.appendText(path, text.slice(0, 10), options);
        throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      }
    }
    const outbox = jsonlOutboxStorage(h, anything, { fs: new HalfFull() });
    await outbox.claim();
    await expect(outbox.write([{ op: "note", id: "q1" }])).rejects.toThrow(/no space/);
    await put(outbox, "a", { n: 1 });
    expect(await jsonlOutboxStorage(h, anything).claim()).toEqual({
      items: [{ key: "a", item: { n: 1 } }],
      corrupt: 0,
    });
  });

  describe("on power loss", () => {
    const recorded = () => {
      const ops: FsOp[] = [];
      return { ops, fs: new DurableFs({ record: (op) => ops.push(op) }) };
    };
    const text = (state: DiskState) => {
      const bytes = state.files.get("notify/outbox.jsonl");
      return bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
    };

    it("keeps a put once it resolved, with the notify folder and the file's name; a removal may be lost", async () => {
      const h = home();
      const { ops, fs } = recorded();
      const outbox = jsonlOutboxStorage(h, anything, { fs });
      await put(outbox, "a", { n: 1 });
      await remove(outbox, "a");
      const after = afterPowerLoss(ops, h);
      expect(after.dirs).toEqual(["notify"]);
      expect(text(after)).toBe('{"op":"add","key":"a","entry":{"n":1}}\n');
    });

    it("writes a write's records in one append, so a killed daemon leaves all of them or none", async () => {
      const h = home();
      const { ops, fs } = recorded();
      const outbox = jsonlOutboxStorage(h, anything, { fs });
      await put(outbox, "a", { n: 1 });
      const before = ops.length;
      await outbox.write([
        { op: "remove", key: "a", reason: "delivered" },
        { op: "note", id: "q1" },
      ]);
      expect(ops.slice(before).filter((op) => op.op === "append")).toHaveLength(1);
      expect(lines(h).slice(-2)).toEqual([
        '{"op":"close","key":"a","outcome":"delivered"}',
        '{"op":"told","id":"q1"}',
      ]);
    });

    it("leaves the old file or the compacted one at every step of a claim, never a mix", async () => {
      const h = home();
      const { ops, fs } = recorded();
      const first = jsonlOutboxStorage(h, anything, { fs });
      await put(first, "a", { n: 1 });
      await put(first, "b", { n: 2 });
      await remove(first, "a");
      await update(first, "b", { n: 3 });
      const before = ops.length;
      const durableBefore = text(afterPowerLoss(ops, h));
      await jsonlOutboxStorage(h, anything, { fs }).claim();
      const compacted = '{"op":"add","key":"b","entry":{"n":3}}\n';
      for (let cut = before; cut < ops.length; cut += 1) {
        expect([durableBefore, compacted]).toContain(text(afterPowerLoss(ops, h, cut)));
      }
      expect(text(afterPowerLoss(ops, h))).toBe(compacted);
    });
  });
});
