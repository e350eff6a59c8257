import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jsonlSessionStorage } from "../storage/jsonl/jsonl-storage.js";
import { transcriptPath } from "../storage/jsonl/paths.js";
import { TranscriptNotFoundError } from "./reader.js";
import type { TranscriptRecord } from "./records.js";
import { readSessionTrailingTurn, type TrailingTurnOptions } from "./trailing-turn.js";

// Real JSONL files, read through the JSONL storage the daemon and the child use.
let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "trailing-turn-test-"));
  path = transcriptPath(dir, "/w", "s1");
  mkdirSync(dirname(path), { recursive: true });
});
const readTrailingTurn = (sessionId = "s1", options?: TrailingTurnOptions) =>
  readSessionTrailingTurn({ storage: jsonlSessionStorage(dir), cwd: "/w", sessionId }, options);
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Records chained one to the next, as the child writes them.
function chain(...makers: ((base: Base) => TranscriptRecord)[]): TranscriptRecord[] {
  return makers.map((make, n) =>
    make({
      uuid: `u${n}`,
      parentUuid: n === 0 ? null : `u${n - 1}`,
      sessionId: "s1",
      timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
      cwd: "/w",
      version: "0.1.0",
    }),
  );
}
type Base = Pick<TranscriptRecord, "uuid" | "parentUuid" | "sessionId" | "timestamp" | "cwd" | "version">;
const created = (b: Base): TranscriptRecord => ({ ...b, type: "system", subtype: "session_created" });
const turnResult = (b: Base): TranscriptRecord => ({ ...b, type: "system", subtype: "turn_result" });
const user =
  (text: string) =>
  (b: Base): TranscriptRecord => ({ ...b, type: "user", message: { role: "user", parts: [{ text }] } });
const text =
  (t: string) =>
  (b: Base): TranscriptRecord => ({
    ...b,
    type: "assistant",
    message: { role: "model", parts: [{ text: t }] },
  });
const calls =
  (...ids: string[]) =>
  (b: Base): TranscriptRecord => ({
    ...b,
    type: "assistant",
    message: {
      role: "model",
      parts: ids.map((id) => ({ functionCall: { id, name: "ask_user_question", args: { n: id } } })),
    },
  });
const result =
  (id: string) =>
  (b: Base): TranscriptRecord => ({
    ...b,
    type: "tool_result",
    message: {
      role: "user",
      parts: [{ functionResponse: { id, name: "ask_user_question", response: { output: "ok" } } }],
    },
    toolCallResult: { callId: id, status: "success" },
  });

const lines = (items: unknown[]) => items.map((l) => (typeof l === "string" ? l : JSON.stringify(l)));
const write = (items: unknown[], end = "\n") => writeFileSync(path, `${lines(items).join("\n")}${end}`);

describe("readTrailingTurn", () => {
  it("returns the last model entry and the records after it, in file order", async () => {
    const records = chain(created, user("hi"), calls("c1"), turnResult);
    write(records);
    expect(await readTrailingTurn()).toEqual({
      records: records.slice(2),
      certain: true,
      corruptLines: 0,
      tornTail: false,
    });
  });

  it("keeps every assistant record of the model turn and the results a crash left half written", async () => {
    const records = chain(
      created,
      user("hi"),
      result("old"),
      text("let me ask"),
      calls("c1", "c2"),
      result("c1"),
    );
    write(records);
    const tail = await readTrailingTurn();
    expect(tail.records).toEqual(records.slice(3));
    expect(tail.certain).toBe(true);
  });

  it("stops at a user prompt that ends the history: nothing behind it can be waiting", async () => {
    const records = chain(created, user("one"), calls("c1"), result("c1"), user("two"), turnResult);
    write(records);
    const tail = await readTrailingTurn();
    expect(tail.records).toEqual(records.slice(4));
    expect(tail.certain).toBe(true);
  });

  it("reads only the end of a long transcript (the damaged head is never reached)", async () => {
    // 2,000 corrupt lines at the head would be counted had the reader gone there.
    const head = Array.from({ length: 2000 }, (_, i) => `{not json ${i}`);
    const body = chain(created, ...Array.from({ length: 5000 }, (_, i) => user(`p${i}`)), calls("c1"));
    write([...head, ...body]);
    const tail = await readTrailingTurn("s1", { firstRead: 4 });
    expect(tail.records).toEqual(body.slice(-1));
    expect(tail).toMatchObject({ certain: true, corruptLines: 0 });
  });

  it("ignores a torn last line", async () => {
    const records = chain(created, user("hi"), calls("c1"));
    write([...records, '{"uuid":"u3","parentUu'], "");
    expect(await readTrailingTurn()).toEqual({
      records: records.slice(2),
      certain: true,
      corruptLines: 0,
      tornTail: true,
    });
  });

  it("reads a last record that lacks its newline", async () => {
    const records = chain(created, user("hi"), calls("c1"));
    write(records, "");
    expect(await readTrailingTurn()).toMatchObject({
      records: records.slice(2),
      certain: true,
      tornTail: false,
    });
  });

  it("stays certain past a fragment a crash left when the records still link", async () => {
    const records = chain(created, user("hi"), calls("c1"), turnResult);
    write([...records.slice(0, 3), '{"torn":', records[3]]);
    expect(await readTrailingTurn()).toMatchObject({
      records: records.slice(2),
      certain: true,
      corruptLines: 1,
    });
  });

  it("is uncertain when a record inside the window was lost", async () => {
    const records = chain(created, user("hi"), text("a"), calls("c1"), turnResult);
    write([...records.slice(0, 3), "{damaged", records[4]]);
    const tail = await readTrailingTurn();
    expect(tail.certain).toBe(false);
    expect(tail.corruptLines).toBe(1);
  });

  it("is uncertain when the last model record branches off an earlier point (a rewind)", async () => {
    const records = chain(created, user("hi"), calls("old"));
    const rewound: TranscriptRecord = { ...calls("new")({ ...records[2]!, uuid: "u9" }), parentUuid: "u0" };
    write([...records, rewound]);
    expect((await readTrailingTurn()).certain).toBe(false);
  });

  it("is uncertain when the window does not link to the entry before it", async () => {
    const records = chain(created, user("hi"), calls("c1"));
    write([records[0], records[1], { ...records[2], parentUuid: "elsewhere" }]);
    expect((await readTrailingTurn()).certain).toBe(false);
  });

  it("is certain for a file that is one model turn, and for an empty file", async () => {
    const records = chain(calls("c1"), turnResult);
    write(records);
    expect(await readTrailingTurn()).toMatchObject({ records, certain: true });
    writeFileSync(path, "");
    expect(await readTrailingTurn()).toEqual({
      records: [],
      certain: true,
      corruptLines: 0,
      tornTail: false,
    });
  });

  it("gives up, uncertain, past its record budget", async () => {
    const records = chain(created, user("hi"), calls("c1"), ...Array.from({ length: 50 }, () => turnResult));
    write(records);
    const tail = await readTrailingTurn("s1", { maxRecords: 20 });
    expect(tail.certain).toBe(false);
    expect((await readTrailingTurn("s1", { maxRecords: 60 })).certain).toBe(true);
  });

  it("says a missing transcript is not found", async () => {
    await expect(readTrailingTurn("none")).rejects.toBeInstanceOf(TranscriptNotFoundError);
    await mkdir(transcriptPath(dir, "/w", "adir"));
    await expect(readTrailingTurn("adir")).rejects.toBeInstanceOf(TranscriptNotFoundError);
  });
});
