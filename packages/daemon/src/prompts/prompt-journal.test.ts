import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { jsonlSessionStorage, promptsPath } from "@qwen-daemon/core";
import { afterAll, describe, expect, it } from "vitest";
import { openFds } from "../testing/open-fds.js";
import { memoryPromptJournal, storedPromptJournal } from "./prompt-journal.js";
import type { PromptJournalEntry } from "./prompt-record.js";

const cwd = "/work/project";
const homes: string[] = [];
const home = () => {
  const root = mkdtempSync(join(tmpdir(), "qwen-prompts-"));
  homes.push(root);
  return root;
};
afterAll(() => {
  for (const root of homes) rmSync(root, { recursive: true, force: true });
});

const accepted = (promptId: string): PromptJournalEntry => ({
  v: 1,
  type: "accepted",
  sessionId: "s-1",
  promptId,
  text: `prompt ${promptId}`,
  queuedAt: "2025-01-01T00:00:00.000Z",
  originatorClientId: "client_a",
});
const settled = (promptId: string): PromptJournalEntry => ({
  v: 1,
  type: "settled",
  sessionId: "s-1",
  promptId,
  at: "2025-01-01T00:00:01.000Z",
});

describe("storedPromptJournal", () => {
  it("fsyncs what is appended durably (an accepted prompt, before its 202) and a compaction, not a closing", async () => {
    const root = home();
    let syncs = 0;
    const journal = storedPromptJournal(jsonlSessionStorage(root, { onSync: () => syncs++ }));
    await journal.append(cwd, accepted("p1"), { durable: true });
    expect(syncs).toBe(1);
    await journal.append(cwd, settled("p1"));
    expect(syncs).toBe(1);
    await journal.append(cwd, accepted("p2"), { durable: true });
    await journal.rewrite(cwd, "s-1", (entries) => entries.filter((e) => e.promptId === "p2"));
    expect(syncs).toBe(3);
    expect((await journal.read(cwd, "s-1")).entries).toEqual([accepted("p2")]);
  });

  it("keeps one writer open across appends and a compaction, onto the new file, until released", async () => {
    const root = home();
    const journal = storedPromptJournal(jsonlSessionStorage(root));
    const path = promptsPath(root, cwd, "s-1");
    journal.hold(cwd, "s-1");
    await journal.append(cwd, accepted("p1"), { durable: true });
    await journal.append(cwd, accepted("p2"), { durable: true });
    expect(openFds(path)).toBe(1);
    await journal.rewrite(cwd, "s-1", (entries) => entries.filter((e) => e.promptId === "p2"));
    await journal.append(cwd, settled("p2"));
    expect(openFds(path)).toBe(1); // the replacement's file, not the one renamed over
    expect((await journal.read(cwd, "s-1")).entries).toEqual([accepted("p2"), settled("p2")]);
    await journal.release(cwd, "s-1");
    expect(openFds(path)).toBe(0);
  });

  it("appends beside the transcript, private (0600), and reads back in order", async () => {
    const root = home();
    const journal = storedPromptJournal(jsonlSessionStorage(root));
    await journal.append(cwd, accepted("p1"), { durable: true });
    await journal.append(cwd, settled("p1"));
    const path = promptsPath(root, cwd, "s-1");
    expect(path).toBe(join(root, "projects", "-work-project", "chats", "s-1.prompts.jsonl"));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await journal.read(cwd, "s-1")).toEqual({
      entries: [accepted("p1"), settled("p1")],
      corruptLines: 0,
    });
  });

  it("reads none for a missing journal or an invalid id, skips a torn tail and counts corrupt lines", async () => {
    const root = home();
    const journal = storedPromptJournal(jsonlSessionStorage(root));
    expect(await journal.read(cwd, "s-1")).toEqual({ entries: [], corruptLines: 0 });
    expect(await journal.read(cwd, "../escape")).toEqual({ entries: [], corruptLines: 0 });
    const path = promptsPath(root, cwd, "s-1");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(accepted("p1"))}\nnot json\n{"v":1,"type":"acc`);
    expect(await journal.read(cwd, "s-1")).toEqual({ entries: [accepted("p1")], corruptLines: 1 });
    // The next append starts on a line of its own.
    await journal.append(cwd, accepted("p2"));
    expect((await journal.read(cwd, "s-1")).entries.map((e) => e.promptId)).toEqual(["p1", "p2"]);
  });

  it("refuses invalid entries and session ids before touching disk", async () => {
    const journal = storedPromptJournal(jsonlSessionStorage(home()));
    await expect(journal.append(cwd, { ...accepted("p1"), sessionId: "../x" })).rejects.toThrow(
      /Invalid session id/,
    );
    await expect(journal.append(cwd, { ...accepted("p1"), promptId: "" })).rejects.toThrow();
  });

  it("rewrites atomically, removes the file when nothing is kept, and never loses a concurrent append", async () => {
    const root = home();
    const journal = storedPromptJournal(jsonlSessionStorage(root));
    for (const id of ["p1", "p2", "p3"]) await journal.append(cwd, accepted(id));
    await journal.append(cwd, settled("p1"));
    await Promise.all([
      journal.rewrite(cwd, "s-1", (entries) => entries.filter((e) => e.promptId !== "p1")),
      journal.append(cwd, accepted("p4")),
    ]);
    expect((await journal.read(cwd, "s-1")).entries.map((e) => e.promptId)).toEqual(["p2", "p3", "p4"]);
    const path = promptsPath(root, cwd, "s-1");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dirname(path))).toEqual(["s-1.prompts.jsonl"]);
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
    await journal.rewrite(cwd, "s-1", () => []);
    expect(readdirSync(dirname(path))).toEqual([]);
  });
});

describe("memoryPromptJournal", () => {
  it("keeps sessions apart and rewrites one of them", async () => {
    const journal = memoryPromptJournal();
    await journal.append(cwd, accepted("p1"));
    await journal.append(cwd, { ...accepted("p9"), sessionId: "s-2" });
    await journal.rewrite(cwd, "s-1", () => []);
    expect((await journal.read(cwd, "s-1")).entries).toEqual([]);
    expect((await journal.read(cwd, "s-2")).entries).toHaveLength(1);
  });
});
