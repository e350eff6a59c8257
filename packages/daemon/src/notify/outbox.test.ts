// The outbox (outbox.ts) over core's JSONL backend, as a daemon without shared storage keeps it, and over a
// store shared by hosts (an in-memory one that holds items per owner the way PostgreSQL does; core's
// postgres-outbox.test.ts checks the real one).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { jsonlOutboxStorage, type OutboxStorage, outboxPath } from "@qwen-daemon/core";
import { afterEach, describe, expect, it } from "vitest";
import { sampleNotifyEvent } from "../testing/notify-event.js";
import type { OutboxEntry } from "./notify-plan.js";
import { decodeOutboxEntry, notifyOutbox } from "./outbox.js";

const event = sampleNotifyEvent({ requestId: "r1" });
const entry = (key: string, dueAt = 1000): OutboxEntry => ({
  key,
  sender: "webhook",
  event,
  dueAt,
  attempts: 0,
});

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});
function home(): string {
  const h = mkdtempSync(join(tmpdir(), "qwen-outbox-"));
  homes.push(h);
  return h;
}
/** The outbox a daemon with JSONL storage under `qwenHome` opens (started again: opened again). */
const fileOutbox = (qwenHome: string) =>
  notifyOutbox(jsonlOutboxStorage(qwenHome, decodeOutboxEntry), () => {});

describe("outbox", () => {
  it("folds adds, retries and closes into the open entries, skipping torn and foreign lines", async () => {
    const h = home();
    const lines = [
      JSON.stringify({ op: "add", entry: entry("a") }),
      JSON.stringify({ op: "add", entry: entry("b") }),
      JSON.stringify({ op: "retry", key: "b", attempts: 2, dueAt: 9000 }),
      JSON.stringify({ op: "close", key: "a", outcome: "delivered" }),
      JSON.stringify({ op: "frobnicate", key: "b" }),
      '{"op":"add","entry":{"key":"c"', // torn by a crash
      "",
    ];
    // The file as the daemon wrote it before the outbox moved into core's storage: it still loads.
    mkdirSync(dirname(outboxPath(h)), { recursive: true });
    writeFileSync(outboxPath(h), lines.join("\n"));
    expect(await fileOutbox(h).load()).toEqual({
      entries: [{ ...entry("b"), attempts: 2, dueAt: 9000 }],
      corrupt: 2,
      told: [],
    });
  });

  it("keeps what is open across instances (a restart), compacts on load, and stays private", async () => {
    const h = home();
    const first = fileOutbox(h);
    expect(await first.load()).toEqual({ entries: [], corrupt: 0, told: [] });
    await first.write([
      { op: "add", entry: entry("a") },
      { op: "add", entry: entry("b") },
    ]);
    await first.write([{ op: "close", key: "a", outcome: "cancelled" }]);
    expect(readFileSync(outboxPath(h), "utf8").trim().split("\n")).toHaveLength(3);
    expect(statSync(outboxPath(h)).mode & 0o777).toBe(0o600);
    const second = fileOutbox(h);
    expect((await second.load()).entries.map((e) => e.key)).toEqual(["b"]);
    expect(readFileSync(outboxPath(h), "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("survives a torn last line", async () => {
    const h = home();
    const box = fileOutbox(h);
    await box.load();
    await box.write([{ op: "add", entry: entry("a") }]);
    writeFileSync(outboxPath(h), `${readFileSync(outboxPath(h), "utf8")}{"op":"add","ent`);
    expect(await fileOutbox(h).load()).toEqual({ entries: [entry("a")], corrupt: 1, told: [] });
  });

  it("keeps the ids of questions told across a restart and its compaction", async () => {
    const h = home();
    const first = fileOutbox(h);
    await first.load();
    await first.write([{ op: "add", entry: entry("a") }]);
    await first.write([
      { op: "close", key: "a", outcome: "delivered" },
      { op: "told", id: "s1:call_1" },
    ]);
    const second = await fileOutbox(h).load();
    expect(second).toEqual({ entries: [], corrupt: 0, told: ["s1:call_1"] });
    expect(readFileSync(outboxPath(h), "utf8").trim().split("\n")).toEqual([
      JSON.stringify({ op: "told", id: "s1:call_1" }),
    ]);
    expect((await fileOutbox(h).load()).told).toEqual(["s1:call_1"]);
  });
});

const sharedEntry = (key: string): OutboxEntry => ({
  key,
  sender: "webhook",
  event: sampleNotifyEvent({ id: `s1:${key}` }),
  dueAt: 1000,
  attempts: 0,
});

/** Items of one table; `owner` writes as one daemon, `steal` hands an item to another one. */
function memoryShared(owner: string, items = new Map<string, { item: string; owner: string }>()) {
  const notes: string[] = [];
  const outbox: OutboxStorage<OutboxEntry> = {
    where: "memory shared by owners",
    async claim() {
      for (const held of items.values()) if (held.owner === "dead") held.owner = owner;
      const claimed = [...items].filter(([, h]) => h.owner === owner);
      const decoded = claimed.map(([key, h]) => ({ key, item: decodeText(h.item) }));
      return {
        items: decoded.flatMap(({ key, item }) => (item === undefined ? [] : [{ key, item }])),
        corrupt: decoded.filter(({ item }) => item === undefined).length,
      };
    },
    async write(changes) {
      return changes.map((change) => {
        if (change.op === "note") notes.push(change.id);
        else if (change.op === "put") items.set(change.key, { item: JSON.stringify(change.item), owner });
        else {
          const held = items.get(change.key);
          if (held?.owner !== owner) return false;
          if (change.op === "update") held.item = JSON.stringify(change.item);
          else items.delete(change.key);
        }
        return true;
      });
    },
    async notes(limit) {
      return notes.slice(-limit);
    },
  };
  return { outbox, items, steal: (key: string) => Object.assign(items.get(key) ?? {}, { owner: "other" }) };
}
function decodeText(text: string): OutboxEntry | undefined {
  try {
    return decodeOutboxEntry(JSON.parse(text));
  } catch {
    return undefined;
  }
}

describe("the shared outbox", () => {
  it("claims a dead daemon's entries, skips damaged ones, and gives each entry once per process", async () => {
    const items = new Map([
      ["k1", { item: JSON.stringify(sharedEntry("k1")), owner: "dead" }],
      ["k2", { item: '{"key":"k2"', owner: "dead" }],
      ["k3", { item: JSON.stringify(sharedEntry("k3")), owner: "other" }],
    ]);
    const log: string[] = [];
    const outbox = notifyOutbox(memoryShared("me", items).outbox, (line) => log.push(line));
    expect(await outbox.load()).toEqual({ entries: [sharedEntry("k1")], corrupt: 1, told: [] });
    await outbox.write([{ op: "told", id: "s1:k1" }]);
    expect(await outbox.load()).toEqual({ entries: [], corrupt: 1, told: ["s1:k1"] });
  });

  it("stores retries whole, and leaves an entry another daemon took to it", async () => {
    const shared = memoryShared("me");
    const log: string[] = [];
    const outbox = notifyOutbox(shared.outbox, (line) => log.push(line));
    await outbox.write([
      { op: "add", entry: sharedEntry("k1") },
      { op: "add", entry: sharedEntry("k2") },
    ]);
    await outbox.write([{ op: "retry", key: "k1", attempts: 1, dueAt: 5000 }]);
    expect(JSON.parse(shared.items.get("k1")?.item ?? "")).toEqual({
      ...sharedEntry("k1"),
      attempts: 1,
      dueAt: 5000,
    });
    shared.steal("k2");
    await outbox.write([{ op: "close", key: "k2", outcome: "delivered" }]);
    expect(shared.items.get("k2")?.owner).toBe("other");
    expect(log).toEqual(["qwen serve: notify outbox: k2 is held by another daemon now; left to it"]);
  });
});
