import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TranscriptWriter } from "./writer.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "writer-test-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const linesOf = (path: string) => readFileSync(path, "utf8").split("\n");

describe("TranscriptWriter", () => {
  it("creates nothing until the first append", async () => {
    const writer = new TranscriptWriter(join(dir, "a", "s.jsonl"));
    await writer.close();
    expect(existsSync(join(dir, "a"))).toBe(false);
  });

  it("has a durable record in the file, as one complete line, when append resolves", async () => {
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path);
    await writer.append({ type: "assistant", n: 1 }, { durable: true });
    expect(readFileSync(path, "utf8")).toBe('{"type":"assistant","n":1}\n');
    await writer.append({ type: "system", n: 2 });
    expect(linesOf(path)).toEqual(['{"type":"assistant","n":1}', '{"type":"system","n":2}', ""]);
    await writer.close();
  });

  it("creates the file 0600 and missing directories 0700", async () => {
    const path = join(dir, "projects", "-w", "chats", "s.jsonl");
    const writer = new TranscriptWriter(path);
    await writer.append({ a: 1 }, { durable: true });
    await writer.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "projects")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "projects", "-w", "chats")).mode & 0o777).toBe(0o700);
  });

  it("keeps concurrent appends whole and in call order", async () => {
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path);
    const big = "x".repeat(300_000);
    const appends = Array.from({ length: 200 }, (_, i) =>
      writer.append({ i, text: i % 50 === 7 ? big : `line ${i} é ✓` }, { durable: i % 3 === 0 }),
    );
    await Promise.all(appends);
    await writer.close();
    const lines = linesOf(path);
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line).i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(JSON.parse(lines[7]!).text).toBe(big);
  });

  it("writes the record as it was when append was called", async () => {
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path);
    const record = { v: 1 };
    const pending = writer.append(record);
    record.v = 2;
    await pending;
    await writer.close();
    expect(linesOf(path)[0]).toBe('{"v":1}');
  });

  it("keeps its file descriptor open between appends", async () => {
    const path = join(dir, "s.jsonl");
    const moved = join(dir, "moved.jsonl");
    const writer = new TranscriptWriter(path);
    await writer.append({ n: 1 });
    renameSync(path, moved);
    await writer.append({ n: 2 });
    await writer.close();
    expect(existsSync(path)).toBe(false);
    expect(linesOf(moved)).toEqual(['{"n":1}', '{"n":2}', ""]);
  });

  it("starts on a fresh line when continuing a file whose last line is torn", async () => {
    const path = join(dir, "s.jsonl");
    writeFileSync(path, '{"n":1}\n{"n":2,"te');
    const writer = new TranscriptWriter(path);
    await writer.append({ n: 3 });
    await writer.close();
    expect(linesOf(path)).toEqual(['{"n":1}', '{"n":2,"te', '{"n":3}', ""]);
  });

  it("appends directly to an existing file that ends in a newline", async () => {
    const path = join(dir, "s.jsonl");
    writeFileSync(path, '{"n":1}\n');
    const writer = new TranscriptWriter(path);
    await writer.append({ n: 2 });
    await writer.close();
    expect(readFileSync(path, "utf8")).toBe('{"n":1}\n{"n":2}\n');
  });

  it("rejects a record that is not JSON without blocking later appends", async () => {
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path);
    const bad = writer.append({ n: 1n });
    const notJson = writer.append(undefined);
    const good = writer.append({ n: 2 });
    await expect(bad).rejects.toThrow(TypeError);
    await expect(notJson).rejects.toThrow(/must be JSON/);
    await good;
    await writer.close();
    expect(readFileSync(path, "utf8")).toBe('{"n":2}\n');
  });

  it("propagates I/O errors to the caller of each append", async () => {
    writeFileSync(join(dir, "file"), "");
    const writer = new TranscriptWriter(join(dir, "file", "s.jsonl"));
    // mkdir reports EEXIST on Linux for a file in the way; other systems say ENOTDIR.
    const fsError = { code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/) };
    await expect(writer.append({ n: 1 }, { durable: true })).rejects.toMatchObject(fsError);
    await expect(writer.append({ n: 2 })).rejects.toMatchObject(fsError);
    await writer.close();
  });

  it("closes once, after pending appends, and refuses appends afterwards", async () => {
    const path = join(dir, "s.jsonl");
    const writer = new TranscriptWriter(path);
    const pending = [writer.append({ n: 1 }), writer.append({ n: 2 }, { durable: true })];
    const first = writer.close();
    const second = writer.close();
    expect(second).toBe(first);
    await Promise.all([...pending, first]);
    expect(linesOf(path)).toEqual(['{"n":1}', '{"n":2}', ""]);
    await expect(writer.append({ n: 3 })).rejects.toThrow(/closed/);
    await writer.close();
  });
});
