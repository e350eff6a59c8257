// The outbox over storage shared by hosts (shared-outbox.ts), against an in-memory SharedOutbox that holds
// items per owner the way the PostgreSQL one does (core's postgres-outbox.test.ts checks the real one).
import type { SharedOutbox } from "@qwen-daemon/core";
import { describe, expect, it } from "vitest";
import { sampleNotifyEvent } from "../testing/notify-event.js";
import type { OutboxEntry } from "./notify-plan.js";
import { sharedOutbox } from "./shared-outbox.js";

const entry = (key: string): OutboxEntry => ({
  key,
  sender: "webhook",
  event: sampleNotifyEvent({ id: `s1:${key}` }),
  dueAt: 1000,
  attempts: 0,
});

/** Items of one table; `owner` writes as one daemon, `steal` hands an item to another one. */
function memoryShared(owner: string, items = new Map<string, { item: string; owner: string }>()) {
  const notes: string[] = [];
  const outbox: SharedOutbox = {
    async claim() {
      for (const held of items.values()) if (held.owner === "dead") held.owner = owner;
      return [...items].filter(([, h]) => h.owner === owner).map(([key, h]) => ({ key, item: h.item }));
    },
    async put(key, item) {
      items.set(key, { item, owner });
    },
    async update(key, item) {
      const held = items.get(key);
      if (held?.owner !== owner) return false;
      held.item = item;
      return true;
    },
    async remove(key) {
      if (items.get(key)?.owner !== owner) return false;
      return items.delete(key);
    },
    async note(id) {
      notes.push(id);
    },
    async notes(limit) {
      return notes.slice(-limit);
    },
  };
  return { outbox, items, steal: (key: string) => Object.assign(items.get(key) ?? {}, { owner: "other" }) };
}

describe("the shared outbox", () => {
  it("claims a dead daemon's entries, skips damaged ones, and gives each entry once per process", async () => {
    const items = new Map([
      ["k1", { item: JSON.stringify(entry("k1")), owner: "dead" }],
      ["k2", { item: '{"key":"k2"', owner: "dead" }],
      ["k3", { item: JSON.stringify(entry("k3")), owner: "other" }],
    ]);
    const log: string[] = [];
    const outbox = sharedOutbox(memoryShared("me", items).outbox, (line) => log.push(line));
    expect(await outbox.load()).toEqual({ entries: [entry("k1")], corrupt: 1, told: [] });
    await outbox.write([{ op: "told", id: "s1:k1" }]);
    expect(await outbox.load()).toEqual({ entries: [], corrupt: 1, told: ["s1:k1"] });
  });

  it("stores retries whole, and leaves an entry another daemon took to it", async () => {
    const shared = memoryShared("me");
    const log: string[] = [];
    const outbox = sharedOutbox(shared.outbox, (line) => log.push(line));
    await outbox.write([
      { op: "add", entry: entry("k1") },
      { op: "add", entry: entry("k2") },
    ]);
    await outbox.write([{ op: "retry", key: "k1", attempts: 1, dueAt: 5000 }]);
    expect(JSON.parse(shared.items.get("k1")?.item ?? "")).toEqual({
      ...entry("k1"),
      attempts: 1,
      dueAt: 5000,
    });
    shared.steal("k2");
    await outbox.write([{ op: "close", key: "k2", outcome: "delivered" }]);
    expect(shared.items.get("k2")?.owner).toBe("other");
    expect(log).toEqual(["qwen serve: notify outbox: k2 is held by another daemon now; left to it"]);
  });
});
