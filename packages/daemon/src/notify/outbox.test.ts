import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sampleNotifyEvent } from "../testing/notify-event.js";
import type { OutboxEntry } from "./notify-plan.js";
import { fileOutbox, foldOutbox, outboxPath } from "./outbox.js";

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

describe("outbox", () => {
  it("folds adds, retries and closes into the open entries, skipping torn and foreign lines", () => {
    const lines = [
      JSON.stringify({ op: "add", entry: entry("a") }),
      JSON.stringify({ op: "add", entry: entry("b") }),
      JSON.stringify({ op: "retry", key: "b", attempts: 2, dueAt: 9000 }),
      JSON.stringify({ op: "close", key: "a", outcome: "delivered" }),
      JSON.stringify({ op: "frobnicate", key: "b" }),
      '{"op":"add","entry":{"key":"c"', // torn by a crash
      "",
    ];
    expect(foldOutbox(lines)).toEqual({
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
