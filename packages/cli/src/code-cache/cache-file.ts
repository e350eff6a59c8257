// What a V8 code cache of a hot bundle is called and holds (pure; load-bundle.ts does the I/O).
//
// V8 checks a cache against its own version, its flags and the source's *length* only (a payload checksum is
// verified in debug builds of V8, not in Node's), so a cache for other source text of the same length, or
// one damaged on disk, could be run as if it were this bundle's code. Hence the file's name carries a hash
// of the bundle's bytes, Node's version, the architecture and the process's V8 flags, and the file starts
// with a header holding the bundle's full hash and a hash of the cached data, both checked before V8 sees it.

import { createHash } from "node:crypto";

export const CACHE_EXTENSION = ".v8cache";
const MAGIC = Buffer.from("qwenV8c1", "latin1"); // this header's format; a new one makes old files invalid
const HASH_BYTES = 32; // sha256
const HEADER_BYTES = MAGIC.length + 2 * HASH_BYTES;
// A writer's temp file of a key it owns is removed by a later writer once it is this old (its writer died).
const ABANDONED_TEMP_MS = 60_000;

export interface Runtime {
  /** process.version, e.g. "v20.20.2". */
  version: string;
  /** process.arch, e.g. "x64". */
  arch: string;
  /**
   * Everything that sets V8 flags in this process: its execArgv, NODE_OPTIONS and the flags it set at run time
   * (v8.setFlagsFromString). V8 rejects a cache made under other flags, so processes started differently (the
   * daemon, its children, `qwen --acp` started by an editor) each keep their own file instead of replacing
   * each other's on every start.
   */
  v8Flags: readonly string[];
}

export interface CacheKey {
  /** The bundle's file name, e.g. "acp.cjs". */
  bundle: string;
  /** sha256 of the bundle's bytes. */
  sourceHash: Buffer;
  /** How every cache file of these bundle bytes on this Node and architecture begins (any V8 flags). */
  contentPrefix: string;
  /** This process's cache file, in the bundle's folder. */
  fileName: string;
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest();

export function cacheKey(bundle: string, source: Uint8Array, runtime: Runtime): CacheKey {
  const sourceHash = sha256(source);
  const contentPrefix = `${bundle}.${sourceHash.toString("hex").slice(0, 32)}.${runtime.version}-${runtime.arch}.`;
  const flags = sha256(Buffer.from(JSON.stringify(runtime.v8Flags)))
    .toString("hex")
    .slice(0, 12);
  return { bundle, sourceHash, contentPrefix, fileName: `${contentPrefix}${flags}${CACHE_EXTENSION}` };
}

/** The file's bytes: the header (magic, the bundle's hash, the data's hash), then V8's cached data. */
export function encodeCacheFile(key: CacheKey, data: Uint8Array): Buffer {
  return Buffer.concat([MAGIC, key.sourceHash, sha256(data), data]);
}

/** V8's cached data from a file's bytes, or undefined when the file is not an intact cache of this bundle. */
export function decodeCacheFile(key: CacheKey, file: Buffer): Buffer | undefined {
  if (file.length <= HEADER_BYTES) return undefined;
  if (!file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const sourceHash = file.subarray(MAGIC.length, MAGIC.length + HASH_BYTES);
  if (!sourceHash.equals(key.sourceHash)) return undefined;
  const data = file.subarray(HEADER_BYTES);
  if (!sha256(data).equals(file.subarray(MAGIC.length + HASH_BYTES, HEADER_BYTES))) return undefined;
  return data;
}

/** Where a writer puts the file before renaming it into place (unique per writer). */
export function tempFileName(key: CacheKey, pid: number, nonce: string): string {
  return `${key.fileName}.${pid}-${nonce}.tmp`;
}

/**
 * Whether a file in the bundle's folder is a cache (or a writer's temp file) of this bundle that a writer of
 * `key` removes: one of other bundle bytes or another Node or architecture, or a temp file abandoned by its
 * writer. Caches of the same bytes under other V8 flags stay (another kind of process uses them).
 */
export function isStaleCacheFile(name: string, key: CacheKey, ageMs: () => number): boolean {
  if (!name.startsWith(`${key.bundle}.`) || name === key.fileName) return false;
  const isTemp = name.endsWith(".tmp") && name.includes(`${CACHE_EXTENSION}.`);
  if (!isTemp && !name.endsWith(CACHE_EXTENSION)) return false; // the bundle's source map, say
  if (!name.startsWith(key.contentPrefix)) return true;
  return isTemp && ageMs() > ABANDONED_TEMP_MS;
}
