// Loads a hot CommonJS bundle (dist/hot/*.cjs, src/build/hot-bundles.ts) through `vm.Script` with V8's
// cached code, kept in a file next to the bundle: a start then deserializes compiled code instead of
// parsing and compiling the bundle (Node 20 has no `module.enableCompileCache()`, and an ES module cannot
// take cached data). Node builtins only: this runs before anything heavy is loaded.
//
// The cache is made by the process that uses it, because V8 rejects one made under other V8 flags (the
// daemon sets some at run time; its children are started with others). When there is none, or V8 rejected
// it, one is written once the process has done its first work (so the functions that start-up ran, which V8
// compiled lazily, are in it): on an unref'd timer, or at exit if that comes first. Writing is best effort
// and silent: a read-only install just runs without a cache, and concurrent writers each rename a complete
// file into place.

import { randomBytes } from "node:crypto";
import { accessSync, constants, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import {
  type CacheKey,
  cacheKey,
  decodeCacheFile,
  encodeCacheFile,
  isStaleCacheFile,
  tempFileName,
} from "./cache-file.js";

/** What became of the cache file at load: used, rejected by V8, missing, or not an intact cache of this bundle. */
export type CacheOutcome = "accepted" | "rejected" | "absent" | "invalid";

export interface LoadOptions {
  /** V8 flags this process set at run time (v8.setFlagsFromString) before loading: part of the cache's key. */
  runtimeV8Flags?: readonly string[];
  /** How long after the bundle ran a missing or rejected cache is written (or at exit, if that is sooner). */
  writeAfterMs?: number;
}

export interface LoadedBundle<T> {
  exports: T;
  cache: CacheOutcome;
  /** This process's cache file. */
  cacheFile: string;
  /** Settles once a cache was written (true), or was not needed or could not be written (false). */
  written: Promise<boolean>;
}

// Long enough for start-up (a daemon's listen and first load, a child's initialize and first session), short
// enough that a daemon started once and left running has a cache before its next start.
const DEFAULT_WRITE_AFTER_MS = 2_000;

// The CommonJS wrapper on its own line (lineOffset -1), so positions in the bundle's first line stay right.
const WRAPPER_HEAD = "(function (exports, require, module, __filename, __dirname) {\n";
const WRAPPER_TAIL = "\n})";

/**
 * Runs the CommonJS bundle at `file` and returns its exports, or undefined when there is no such file (the
 * caller then imports the ES module instead). The bundle must not use import(): Node 20 drops a script's
 * import() callback when the script comes from cached data, so none is given, and an import() fails the
 * same way with or without a cache (the hot bundles are built with none, src/build/hot-bundles.ts).
 *
 * The files are read asynchronously and the event loop gets one more turn before the bundle runs (its
 * module code runs for ~100 ms in one go), as an ES module import gives it: `qwen serve` answers `/health`
 * from its early server meanwhile, rather than after the daemon has loaded.
 */
export async function loadBundle<T>(
  file: string,
  options: LoadOptions = {},
): Promise<LoadedBundle<T> | undefined> {
  let source: Buffer;
  try {
    source = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const dir = dirname(file);
  const key = cacheKey(basename(file), source, {
    version: process.version,
    arch: process.arch,
    v8Flags: [...process.execArgv, process.env.NODE_OPTIONS ?? "", ...(options.runtimeV8Flags ?? [])],
  });
  const cacheFile = join(dir, key.fileName);
  const stored = await readCache(cacheFile, key);
  const script = new vm.Script(WRAPPER_HEAD + source.toString("utf8") + WRAPPER_TAIL, {
    filename: file,
    lineOffset: -1,
    cachedData: stored instanceof Buffer ? stored : undefined,
  });
  const cache: CacheOutcome =
    stored === undefined
      ? "absent"
      : stored === "invalid"
        ? "invalid"
        : script.cachedDataRejected
          ? "rejected"
          : "accepted";
  await new Promise((resolve) => setImmediate(resolve));
  const module = { exports: {} as T };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir);
  const written =
    cache === "accepted"
      ? Promise.resolve(false)
      : writeLater(() => writeCache(script, dir, key), options.writeAfterMs ?? DEFAULT_WRITE_AFTER_MS);
  return { exports: module.exports, cache, cacheFile, written };
}

/** The hot bundle at `bundle` when it can be loaded so (see loadBundle), else `fallback()`. */
export async function importHot<T>(
  bundle: URL,
  fallback: () => Promise<T>,
  options?: LoadOptions,
): Promise<T> {
  const loaded = await loadBundle<T>(fileURLToPath(bundle), options);
  return loaded ? loaded.exports : fallback();
}

async function readCache(cacheFile: string, key: CacheKey): Promise<Buffer | "invalid" | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(cacheFile);
  } catch {
    return undefined; // none yet (or unreadable: then it cannot be replaced either)
  }
  return decodeCacheFile(key, bytes) ?? "invalid";
}

function writeLater(write: () => boolean, delayMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const once = () => {
      clearTimeout(timer);
      process.off("exit", once);
      resolve(write());
    };
    const timer = setTimeout(once, delayMs);
    timer.unref(); // never what keeps the process alive
    process.on("exit", once);
  });
}

/** Writes this process's cache (temp file, then rename) and removes stale ones; false if it could not. */
function writeCache(script: vm.Script, dir: string, key: CacheKey): boolean {
  try {
    accessSync(dir, constants.W_OK); // a read-only install: not even the serializing is worth doing
  } catch {
    return false;
  }
  const temp = join(dir, tempFileName(key, process.pid, randomBytes(4).toString("hex")));
  try {
    writeFileSync(temp, encodeCacheFile(key, script.createCachedData()), { flag: "wx" });
    renameSync(temp, join(dir, key.fileName));
  } catch {
    quietly(() => unlinkSync(temp));
    return false;
  }
  quietly(() => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (isStaleCacheFile(name, key, () => Date.now() - statSync(path).mtimeMs))
        quietly(() => unlinkSync(path));
    }
  });
  return true;
}

function quietly(step: () => void): void {
  try {
    step();
  } catch {
    // Best effort: another writer may have removed or replaced the file first.
  }
}
