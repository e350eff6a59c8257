import { describe, expect, it } from "vitest";
import {
  CACHE_EXTENSION,
  cacheKey,
  decodeCacheFile,
  encodeCacheFile,
  isStaleCacheFile,
  type Runtime,
  tempFileName,
} from "./cache-file.js";

const runtime: Runtime = { version: "v20.20.2", arch: "x64", v8Flags: [] };
const source = Buffer.from('"use strict";exports.a=1;');
const sameLength = Buffer.from('"use strict";exports.b=1;');
const data = Buffer.from("cached data from V8, as opaque bytes");

describe("the cache's key", () => {
  it("differs for other bundle bytes of the same length (V8 itself only compares the length)", () => {
    expect(sameLength.length).toBe(source.length);
    const a = cacheKey("acp.cjs", source, runtime);
    const b = cacheKey("acp.cjs", sameLength, runtime);
    expect(a.fileName).not.toBe(b.fileName);
    expect(a.contentPrefix).not.toBe(b.contentPrefix);
    expect(a.fileName.startsWith(a.contentPrefix)).toBe(true);
    expect(a.fileName.startsWith("acp.cjs.")).toBe(true);
    expect(a.fileName.endsWith(CACHE_EXTENSION)).toBe(true);
  });

  it("differs for another Node version or architecture (other content prefix) and other V8 flags (same prefix)", () => {
    const base = cacheKey("acp.cjs", source, runtime);
    const version = cacheKey("acp.cjs", source, { ...runtime, version: "v20.20.3" });
    const arch = cacheKey("acp.cjs", source, { ...runtime, arch: "arm64" });
    const flags = cacheKey("acp.cjs", source, { ...runtime, v8Flags: ["--max-semi-space-size=1"] });
    expect(version.contentPrefix).not.toBe(base.contentPrefix);
    expect(arch.contentPrefix).not.toBe(base.contentPrefix);
    expect(flags.contentPrefix).toBe(base.contentPrefix);
    expect(new Set([base, version, arch, flags].map((k) => k.fileName)).size).toBe(4);
    expect(cacheKey("acp.cjs", Buffer.from(source), runtime).fileName).toBe(base.fileName);
  });
});

describe("the cache file", () => {
  const key = cacheKey("acp.cjs", source, runtime);
  const file = encodeCacheFile(key, data);

  it("gives back V8's data when intact and for this bundle", () => {
    expect(decodeCacheFile(key, file)?.equals(data)).toBe(true);
  });

  it("is refused when truncated anywhere, including right after its header", () => {
    for (let length = 0; length < file.length; length++) {
      expect(decodeCacheFile(key, file.subarray(0, length)), `length ${length}`).toBeUndefined();
    }
  });

  it("is refused with any one byte changed (header or data)", () => {
    for (let at = 0; at < file.length; at++) {
      const damaged = Buffer.from(file);
      damaged[at] = (damaged[at] as number) ^ 0x01;
      expect(decodeCacheFile(key, damaged), `byte ${at}`).toBeUndefined();
    }
  });

  it("is refused for other bundle bytes, even of the same length and under this key's name", () => {
    const other = cacheKey("acp.cjs", sameLength, runtime);
    expect(decodeCacheFile(key, encodeCacheFile(other, data))).toBeUndefined();
  });
});

describe("stale cache files", () => {
  const key = cacheKey("acp.cjs", source, runtime);
  const ages = { young: () => 1_000, old: () => 120_000 };
  const { young, old } = { young: "young", old: "old" } as const;
  const otherContent = cacheKey("acp.cjs", sameLength, runtime).fileName;
  const otherNode = cacheKey("acp.cjs", source, { ...runtime, version: "v20.19.0" }).fileName;
  const otherFlags = cacheKey("acp.cjs", source, { ...runtime, v8Flags: ["--x"] }).fileName;
  const otherBundle = cacheKey("daemon-parts.cjs", sameLength, runtime).fileName;

  it.each([
    [otherContent, young, true],
    [otherNode, young, true],
    [tempFileName(cacheKey("acp.cjs", sameLength, runtime), 7, "ab"), young, true],
    [tempFileName(key, 7, "ab"), old, true], // abandoned by a writer that died
    [tempFileName(key, 7, "ab"), young, false], // another writer is writing it now
    [key.fileName, old, false],
    [otherFlags, old, false], // another kind of process (other V8 flags) uses it
    [otherBundle, old, false], // the other bundle's writer decides about its files
    ["acp.cjs", old, false],
    ["acp.cjs.map", old, false],
    ["acp.cjs.notes.tmp", old, false],
  ])("%s (%s) stale: %s", (name, age, stale) => {
    expect(isStaleCacheFile(name, key, ages[age])).toBe(stale);
  });
});
