import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { chatsDir, sessionIdOfFileName } from "../storage/jsonl/paths.js";
import { PromptLedger } from "./ledger.js";
import type { TranscriptRecord } from "./records.js";
import { displayNameOf, findPersistedSession, listPersistedSessions } from "./session-list.js";
import { SessionTranscript } from "./session-transcript.js";

let qwenHome: string;
beforeEach(async () => {
  qwenHome = await mkdtemp(join(tmpdir(), "session-list-test-"));
});
afterEach(async () => {
  await rm(qwenHome, { recursive: true, force: true });
});

const cwd = "/work/project";

async function session(sessionId: string, start: number, write: (t: SessionTranscript) => Promise<unknown>) {
  let t = start;
  const transcript = await SessionTranscript.open({
    storage: jsonlSessionStorage(qwenHome),
    cwd,
    sessionId,
    now: () => {
      t += 1000;
      return new Date(t);
    },
  });
  await write(transcript);
  await transcript.close();
  return transcript.path;
}

describe("listPersistedSessions", () => {
  it("is empty when the project has no chats directory", async () => {
    expect(await listPersistedSessions(jsonlSessionStorage(qwenHome), cwd)).toEqual([]);
  });

  it("lists valid transcripts, most recently updated first, with creation time and display name", async () => {
    const day = Date.UTC(2025, 0, 1);
    const older = await session("older", day, async (t) => {
      await t.appendSystem("session_meta");
      await t.appendAssistant({ role: "model", parts: [{ text: "not a user" }] });
      await t.appendToolResult({ role: "user", parts: [{ functionResponse: { name: "x", response: {} } }] });
      await t.appendUser({ role: "user", parts: [{ text: "  fix\n\tthe   bug  " }, { text: "please" }] });
    });
    const long = "word ".repeat(40);
    const newer = await session("newer", day + 86_400_000, (t) =>
      t.appendUser({ role: "user", parts: [{ text: long }] }),
    );
    const silent = await session("silent", day, (t) => t.appendSystem("session_meta"));
    const ledger = PromptLedger.forSession({
      storage: jsonlSessionStorage(qwenHome),
      cwd,
      sessionId: "newer",
    });
    await ledger.begin("p1");
    await ledger.close();
    const dir = chatsDir(qwenHome, cwd);
    for (const name of [".hidden.jsonl", "a..b.jsonl", "notes.txt", "x.ledger.jsonl.bak"]) {
      writeFileSync(join(dir, name), "{}\n");
    }
    mkdirSync(join(dir, "folder.jsonl"));
    writeFileSync(join(dir, "empty.jsonl"), "");
    utimesSync(older, new Date("2025-02-01T00:00:00Z"), new Date("2025-02-01T00:00:00Z"));
    utimesSync(newer, new Date("2025-03-01T00:00:00Z"), new Date("2025-03-01T00:00:00Z"));
    utimesSync(silent, new Date("2025-01-15T00:00:00Z"), new Date("2025-01-15T00:00:00Z"));
    utimesSync(join(dir, "empty.jsonl"), new Date("2025-01-10T00:00:00Z"), new Date("2025-01-10T00:00:00Z"));

    expect(await listPersistedSessions(jsonlSessionStorage(qwenHome), cwd)).toEqual([
      {
        sessionId: "newer",
        createdAt: "2025-01-02T00:00:01.000Z",
        updatedAt: "2025-03-01T00:00:00.000Z",
        displayName: `${long.slice(0, 79)}…`,
      },
      {
        sessionId: "older",
        createdAt: "2025-01-01T00:00:01.000Z",
        updatedAt: "2025-02-01T00:00:00.000Z",
        displayName: "fix the bug please",
      },
      { sessionId: "silent", createdAt: "2025-01-01T00:00:01.000Z", updatedAt: "2025-01-15T00:00:00.000Z" },
      { sessionId: "empty", createdAt: "2025-01-10T00:00:00.000Z", updatedAt: "2025-01-10T00:00:00.000Z" },
    ]);
  });

  it("skips corrupt leading lines to find the first record", async () => {
    const dir = chatsDir(qwenHome, cwd);
    mkdirSync(dir, { recursive: true });
    const record: TranscriptRecord = {
      uuid: "u",
      parentUuid: null,
      sessionId: "s",
      timestamp: "2025-05-05T00:00:00.000Z",
      cwd,
      version: "1",
      type: "user",
      message: { role: "user", parts: [{ text: "hello" }] },
    };
    writeFileSync(join(dir, "s.jsonl"), `not json\n${JSON.stringify(record)}\n{"torn`);
    const [listed] = await listPersistedSessions(jsonlSessionStorage(qwenHome), cwd);
    expect(listed).toMatchObject({
      sessionId: "s",
      createdAt: "2025-05-05T00:00:00.000Z",
      displayName: "hello",
    });
  });
});

describe("sessionIdOfFileName", () => {
  it("maps transcripts to ids and ignores ledgers and foreign names", () => {
    expect(sessionIdOfFileName("abc.jsonl")).toBe("abc");
    expect(sessionIdOfFileName("abc.ledger.jsonl")).toBeUndefined();
    expect(sessionIdOfFileName("abc.answers.jsonl")).toBeUndefined();
    expect(sessionIdOfFileName("abc.prompts.jsonl")).toBeUndefined();
    expect(sessionIdOfFileName("abc.json")).toBeUndefined();
    expect(sessionIdOfFileName(".jsonl")).toBeUndefined();
    expect(sessionIdOfFileName("..jsonl")).toBeUndefined();
    expect(sessionIdOfFileName(`${"a".repeat(129)}.jsonl`)).toBeUndefined();
  });
});

describe("displayNameOf", () => {
  const user = (text: string): TranscriptRecord => ({
    uuid: "u",
    parentUuid: null,
    sessionId: "s",
    timestamp: "t",
    cwd,
    version: "1",
    type: "user",
    message: { role: "user", parts: [{ text }] },
  });
  it("cuts at 80 characters counting code points", () => {
    expect(displayNameOf(user("😀".repeat(100)))).toBe(`${"😀".repeat(79)}…`);
    expect(displayNameOf(user("x".repeat(80)))).toBe("x".repeat(80));
    expect(displayNameOf(user("   "))).toBeUndefined();
  });
});

describe("findPersistedSession", () => {
  it("describes one session as the listing does, reading only that session's logs", async () => {
    const day = Date.UTC(2025, 0, 1);
    for (const [id, text] of [
      ["one", "first"],
      ["two", "second"],
      ["three", "third"],
    ] as const) {
      await session(id, day, (t) => t.appendUser({ role: "user", parts: [{ text }] }));
    }
    const storage = jsonlSessionStorage(qwenHome);
    const opened: string[] = [];
    const counting: typeof storage = {
      ...storage,
      log: (key, kind, decode) => {
        opened.push(key.sessionId);
        return storage.log(key, kind, decode);
      },
    };
    const listed = await listPersistedSessions(storage, cwd);
    expect(await findPersistedSession(counting, cwd, "two")).toEqual(
      listed.find((s) => s.sessionId === "two"),
    );
    expect(await findPersistedSession(counting, cwd, "two")).toMatchObject({ displayName: "second" });
    expect(new Set(opened)).toEqual(new Set(["two"]));
    expect(await findPersistedSession(counting, cwd, "four")).toBeUndefined();
    expect(await findPersistedSession(storage, "/work/unknown", "two")).toBeUndefined();
  });
});
