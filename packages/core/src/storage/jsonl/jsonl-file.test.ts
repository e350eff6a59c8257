import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forEachLine, forEachLineReverse, readJsonlFile, readJsonlTail } from "./jsonl-file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "jsonl-test-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Visit = [line: string, terminated: boolean];

/** What a line reader must report for `content`: split on "\n", the last piece unterminated unless empty. */
function expectedVisits(content: string): Visit[] {
  if (content === "") return [];
  const pieces = content.split("\n");
  const last = pieces.pop()!;
  const visits: Visit[] = pieces.map((line) => [line, true]);
  if (last !== "") visits.push([last, false]);
  return visits;
}

async function collect(read: (visit: (l: string, t: boolean) => undefined) => Promise<void>) {
  const visits: Visit[] = [];
  await read((line, terminated) => {
    visits.push([line, terminated]);
    return undefined;
  });
  return visits;
}

describe("line readers", () => {
  it("split any content like String.split, forwards and backwards, at any chunk size", async () => {
    const path = join(dir, "f.jsonl");
    const content = fc
      .array(fc.oneof(fc.constantFrom("\n", "\n\n", "é", "✓", "日本", "{", "}", " "), fc.string()), {
        maxLength: 30,
      })
      .map((pieces) => pieces.join(""));
    await fc.assert(
      fc.asyncProperty(content, fc.integer({ min: 1, max: 9 }), async (text, chunk) => {
        writeFileSync(path, text);
        const expected = expectedVisits(text);
        expect(await collect((v) => forEachLine(path, v, chunk))).toEqual(expected);
        expect(await collect((v) => forEachLineReverse(path, v, chunk))).toEqual(expected.reverse());
      }),
      { numRuns: 300 },
    );
  });

  it("stop when the visitor returns false", async () => {
    const path = join(dir, "f.jsonl");
    writeFileSync(path, "a\nb\nc\n");
    const seen: string[] = [];
    await forEachLine(path, (line) => seen.push(line) < 2);
    await forEachLineReverse(path, (line) => seen.push(line) < 3);
    expect(seen).toEqual(["a", "b", "c"]);
  });
});

describe("readJsonlFile / readJsonlTail", () => {
  const decode = (v: unknown) =>
    typeof v === "object" && v !== null && "n" in v ? (v as { n: number }) : undefined;

  it("skips blank lines, counts corrupt ones and reports a torn tail", async () => {
    const path = join(dir, "f.jsonl");
    writeFileSync(path, '{"n":1}\n\n  \r\nnot json\n{"x":1}\n{"n":2}\n{"n":3,"cut');
    const result = await readJsonlFile(path, decode);
    expect(result).toEqual({ items: [{ n: 1 }, { n: 2 }], corruptLines: 2, tornTail: true });
    const tail = await readJsonlTail(path, 1, decode);
    expect(tail).toEqual({ items: [{ n: 2 }], corruptLines: 0, tornTail: true });
  });

  it("accepts a complete last record that only lacks its newline", async () => {
    const path = join(dir, "f.jsonl");
    writeFileSync(path, '{"n":1}\n{"n":2}');
    expect(await readJsonlFile(path, decode)).toEqual({
      items: [{ n: 1 }, { n: 2 }],
      corruptLines: 0,
      tornTail: false,
    });
  });

  it("counts an unparseable middle line as corrupt, not torn", async () => {
    const path = join(dir, "f.jsonl");
    writeFileSync(path, '{"n":1}\n{"n":2,"cut\n{"n":3}\n');
    expect(await readJsonlFile(path, decode)).toEqual({
      items: [{ n: 1 }, { n: 3 }],
      corruptLines: 1,
      tornTail: false,
    });
  });

  it("tail returns the last n valid items in file order", async () => {
    const path = join(dir, "f.jsonl");
    writeFileSync(path, `${Array.from({ length: 50 }, (_, n) => JSON.stringify({ n })).join("\nbad\n")}\n`);
    const tail = await readJsonlTail(path, 3, decode);
    expect(tail.items).toEqual([{ n: 47 }, { n: 48 }, { n: 49 }]);
    expect(tail.corruptLines).toBe(2);
    expect((await readJsonlTail(path, 0, decode)).items).toEqual([]);
    expect((await readJsonlTail(path, 500, decode)).items).toHaveLength(50);
  });
});
