import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { answersPath, jsonlSessionStorage, listPersistedSessions, transcriptPath } from "@qwen-daemon/core";
import { afterAll, describe, expect, it } from "vitest";
import { openFds } from "../testing/open-fds.js";
import { memoryAnswerJournal, storedAnswerJournal } from "./answer-journal.js";
import type { AnswerEntry } from "./answer-record.js";

const cwd = "/work/project";
const homes: string[] = [];
const home = () => {
  const root = mkdtempSync(join(tmpdir(), "qwen-answers-"));
  homes.push(root);
  return root;
};
afterAll(() => {
  for (const root of homes) rmSync(root, { recursive: true, force: true });
});

function answer(overrides: Partial<AnswerEntry> = {}): AnswerEntry {
  return {
    v: 1,
    type: "answer",
    sessionId: "s-1",
    toolCallId: "call-q1",
    outcome: { outcome: "selected", optionId: "proceed_once" },
    answers: { "0": "Blue" },
    requestId: "r1",
    at: "2025-01-01T00:00:01.000Z",
    ...overrides,
  };
}

describe("storedAnswerJournal", () => {
  it("has each answer fsynced before append resolves (the vote's 200 waits for it)", async () => {
    const root = home();
    const synced: string[] = [];
    const journal = storedAnswerJournal(jsonlSessionStorage(root, { onSync: (path) => synced.push(path) }));
    const pending = journal.append(cwd, answer());
    expect(synced).toEqual([]);
    await pending;
    expect(synced).toEqual([answersPath(root, cwd, "s-1")]);
    await journal.append(cwd, answer({ requestId: "r2" }));
    expect(synced).toHaveLength(2);
  });

  it("keeps a live session's writer open between votes, until its release or the daemon's close", async () => {
    const root = home();
    const journal = storedAnswerJournal(jsonlSessionStorage(root));
    const s1 = answersPath(root, cwd, "s-1");
    const s2 = answersPath(root, cwd, "s-2");
    await journal.append(cwd, answer({ requestId: "r0" }));
    expect(openFds(s1)).toBe(0); // not live here: nothing kept
    journal.hold(cwd, "s-1");
    journal.hold(cwd, "s-2");
    await journal.append(cwd, answer());
    expect(openFds(s1)).toBe(1);
    await journal.append(cwd, answer({ requestId: "r2" }));
    expect(openFds(s1)).toBe(1); // the same writer: no open per vote
    await journal.release(cwd, "s-1");
    expect(openFds(s1)).toBe(0);
    await journal.append(cwd, answer({ requestId: "r3" })); // a late write after the end keeps nothing
    expect(openFds(s1)).toBe(0);
    await journal.append(cwd, answer({ sessionId: "s-2" }));
    expect(openFds(s2)).toBe(1);
    await journal.close();
    expect(openFds(s2)).toBe(0);
    const ids = (await journal.read(cwd, "s-1")).entries.map((e) => e.requestId);
    expect(ids).toEqual(["r0", "r1", "r2", "r3"]);
  });

  it("appends one line per entry beside the transcript, private (0600), and reads them back", async () => {
    const root = home();
    const journal = storedAnswerJournal(jsonlSessionStorage(root));
    await journal.append(cwd, answer());
    await journal.append(
      cwd,
      answer({ requestId: "r2", outcome: { outcome: "cancelled" }, answers: undefined }),
    );
    const path = answersPath(root, cwd, "s-1");
    expect(path).toBe(join(root, "projects", "-work-project", "chats", "s-1.answers.jsonl"));
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(3); // two lines + the final newline
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await journal.read(cwd, "s-1")).entries).toEqual([
      answer(),
      answer({ requestId: "r2", outcome: { outcome: "cancelled" }, answers: undefined }),
    ]);
  });

  it("reads no journal as empty, and keeps sessions apart", async () => {
    const root = home();
    const journal = storedAnswerJournal(jsonlSessionStorage(root));
    expect((await journal.read(cwd, "s-1")).entries).toEqual([]);
    await journal.append(cwd, answer({ sessionId: "s-2" }));
    expect((await journal.read(cwd, "s-1")).entries).toEqual([]);
    expect((await journal.read(cwd, "s-2")).entries).toHaveLength(1);
  });

  it("tolerates a torn last line and writes the next entry on a line of its own", async () => {
    const root = home();
    const path = answersPath(root, cwd, "s-1");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(answer())}\n{"v":1,"type":"answ`);
    const journal = storedAnswerJournal(jsonlSessionStorage(root));
    expect(await journal.read(cwd, "s-1")).toEqual({ entries: [answer()], corruptLines: 0, tornTail: true });
    await journal.append(cwd, answer({ requestId: "r2" }));
    expect((await journal.read(cwd, "s-1")).entries).toEqual([answer(), answer({ requestId: "r2" })]);
  });

  it("concurrent appends to one file each land on a whole line", async () => {
    const root = home();
    const journal = storedAnswerJournal(jsonlSessionStorage(root));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => journal.append(cwd, answer({ requestId: `r${i}` }))),
    );
    const ids = (await journal.read(cwd, "s-1")).entries.map((e) => e.requestId);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
  });

  it("refuses invalid session ids and entries before touching disk; reads them as empty", async () => {
    const root = home();
    const journal = storedAnswerJournal(jsonlSessionStorage(root));
    for (const sessionId of ["../escape", "a/b", "..", "x.ledger", "x.answers"]) {
      await expect(journal.append(cwd, answer({ sessionId }))).rejects.toThrow(/Invalid session id/);
      expect((await journal.read(cwd, sessionId)).entries).toEqual([]);
    }
    await expect(journal.append(cwd, { ...answer(), toolCallId: "" })).rejects.toThrow();
    await expect(journal.append("relative/cwd", answer())).rejects.toThrow(/absolute/);
  });

  it("rejects when the entry cannot be written (the caller must not acknowledge)", async () => {
    // A file where the chats folder should be: no one, root included, can create the journal under it.
    const root = home();
    const chats = dirname(answersPath(root, cwd, "s-1"));
    mkdirSync(dirname(chats), { recursive: true });
    writeFileSync(chats, "not a directory");
    await expect(storedAnswerJournal(jsonlSessionStorage(root)).append(cwd, answer())).rejects.toThrow(
      /ENOTDIR|EEXIST/,
    );
  });

  it("is not mistaken for a session by the workspace listing", async () => {
    const root = home();
    const transcript = transcriptPath(root, cwd, "s-1");
    mkdirSync(dirname(transcript), { recursive: true });
    writeFileSync(
      transcript,
      `${JSON.stringify({
        uuid: "u1",
        parentUuid: null,
        sessionId: "s-1",
        timestamp: "2025-01-01T00:00:00.000Z",
        cwd,
        version: "1",
        type: "user",
        message: { role: "user", parts: [{ text: "hello" }] },
      })}\n`,
    );
    await storedAnswerJournal(jsonlSessionStorage(root)).append(cwd, answer());
    expect((await listPersistedSessions(jsonlSessionStorage(root), cwd)).map((s) => s.sessionId)).toEqual([
      "s-1",
    ]);
  });
});

describe("memoryAnswerJournal", () => {
  it("validates entries and reads per session", async () => {
    const journal = memoryAnswerJournal();
    await journal.append(cwd, answer());
    await expect(journal.append(cwd, { ...answer(), requestId: "" })).rejects.toThrow();
    expect((await journal.read(cwd, "s-1")).entries).toEqual([answer()]);
    expect((await journal.read(cwd, "other")).entries).toEqual([]);
  });
});
