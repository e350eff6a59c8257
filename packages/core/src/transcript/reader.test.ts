import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTranscript, readTranscriptTail, TranscriptNotFoundError } from "./reader.js";
import type { TranscriptRecord } from "./records.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "reader-test-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const base = (n: number) => ({
  uuid: `u${n}`,
  parentUuid: n === 0 ? null : `u${n - 1}`,
  sessionId: "s1",
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  cwd: "/w",
  version: "0.1.0",
});
const user = (n: number, text: string): TranscriptRecord => ({
  ...base(n),
  type: "user",
  message: { role: "user", parts: [{ text }] },
});
const system = (n: number): TranscriptRecord => ({ ...base(n), type: "system", subtype: "turn_result" });
const jsonl = (lines: unknown[]) =>
  lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");

describe("readTranscript", () => {
  it("reads every record in file order", async () => {
    const path = join(dir, "s1.jsonl");
    const records = [
      user(0, "hi"),
      {
        ...base(1),
        type: "assistant",
        model: "m",
        message: {
          role: "model",
          parts: [{ text: "ok" }, { functionCall: { id: "c1", name: "ask_user_question", args: {} } }],
        },
      },
      {
        ...base(2),
        type: "tool_result",
        message: {
          role: "user",
          parts: [{ functionResponse: { id: "c1", name: "ask_user_question", response: { output: "x" } } }],
        },
        toolCallResult: { callId: "c1", status: "success" },
      },
      system(3),
    ];
    writeFileSync(path, `${jsonl(records)}\n`);
    expect(await readTranscript(path)).toEqual({ records, corruptLines: 0, tornTail: false });
  });

  it("ignores and reports a torn last line", async () => {
    const path = join(dir, "s1.jsonl");
    const whole = jsonl([user(0, "a"), user(1, "b")]);
    writeFileSync(path, `${whole}\n${JSON.stringify(user(2, "c")).slice(0, 40)}`);
    const result = await readTranscript(path);
    expect(result.records.map((r) => r.uuid)).toEqual(["u0", "u1"]);
    expect(result).toMatchObject({ corruptLines: 0, tornTail: true });
  });

  it("counts and skips corrupt middle lines: not JSON, or JSON that is not a record", async () => {
    const path = join(dir, "s1.jsonl");
    const lines = [
      user(0, "a"),
      "{garbage",
      { ...base(9), type: "user" },
      { ...base(9), type: "mystery", message: { role: "user", parts: [] } },
      { ...user(9, "x"), message: { role: "system", parts: [] } },
      "[1,2]",
      user(1, "b"),
    ];
    writeFileSync(path, `${jsonl(lines)}\n`);
    const result = await readTranscript(path);
    expect(result.records.map((r) => r.uuid)).toEqual(["u0", "u1"]);
    expect(result).toMatchObject({ corruptLines: 5, tornTail: false });
  });

  it("keeps fields the schema does not name (they were written on purpose)", async () => {
    const path = join(dir, "s1.jsonl");
    const record = {
      ...base(0),
      type: "assistant",
      extra: 1,
      message: { role: "model", parts: [{ text: "t", thoughtSignature: "sig" }] },
    };
    writeFileSync(path, `${JSON.stringify(record)}\n`);
    expect((await readTranscript(path)).records).toEqual([record]);
  });

  it("streams a file larger than its read chunk", async () => {
    const path = join(dir, "s1.jsonl");
    const count = 6000;
    const text = "ü".repeat(150);
    writeFileSync(path, `${jsonl(Array.from({ length: count }, (_, n) => user(n, `${n} ${text}`)))}\n`);
    const { records, corruptLines } = await readTranscript(path);
    expect(corruptLines).toBe(0);
    expect(records).toHaveLength(count);
    expect(records[count - 1]).toEqual(user(count - 1, `${count - 1} ${text}`));
  });

  it("reports a missing file with TranscriptNotFoundError", async () => {
    const path = join(dir, "nope.jsonl");
    await expect(readTranscript(path)).rejects.toBeInstanceOf(TranscriptNotFoundError);
    await expect(readTranscript(path)).rejects.toThrow(`Transcript not found: ${path}`);
    await expect(readTranscriptTail(path, 1)).rejects.toBeInstanceOf(TranscriptNotFoundError);
  });

  it("reports a directory (or a path through a file) where the transcript should be as not found", async () => {
    const path = join(dir, "a-dir.jsonl");
    mkdirSync(path);
    await expect(readTranscript(path)).rejects.toBeInstanceOf(TranscriptNotFoundError);
    await expect(readTranscriptTail(path, 1)).rejects.toBeInstanceOf(TranscriptNotFoundError);
    writeFileSync(join(dir, "plain"), "");
    await expect(readTranscript(join(dir, "plain", "s.jsonl"))).rejects.toBeInstanceOf(
      TranscriptNotFoundError,
    );
  });
});

describe("readTranscriptTail", () => {
  it("returns the last valid records in file order, skipping corrupt and torn lines", async () => {
    const path = join(dir, "s1.jsonl");
    writeFileSync(path, `${jsonl([user(0, "a"), user(1, "b"), "bad", system(2)])}\n{"uuid":`);
    const tail = await readTranscriptTail(path, 2);
    expect(tail.records.map((r) => r.uuid)).toEqual(["u1", "u2"]);
    expect(tail).toMatchObject({ corruptLines: 1, tornTail: true });
  });

  it("returns nothing for an empty file", async () => {
    const path = join(dir, "s1.jsonl");
    writeFileSync(path, "");
    expect(await readTranscriptTail(path, 1)).toEqual({ records: [], corruptLines: 0, tornTail: false });
    expect(await readTranscript(path)).toEqual({ records: [], corruptLines: 0, tornTail: false });
  });
});
