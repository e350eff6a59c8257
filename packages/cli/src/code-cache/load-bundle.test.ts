// The loader on real files, in real processes (fixtures/load-bundle.mts): each run is a fresh Node, as each
// start of `qwen serve` or `qwen --acp` is.
import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { importHot, loadBundle } from "./load-bundle.js";

const fixture = fileURLToPath(new URL("./fixtures/load-bundle.mts", import.meta.url));
const packageDir = fileURLToPath(new URL("../..", import.meta.url));

interface Outcome {
  cache: "accepted" | "rejected" | "absent" | "invalid";
  cacheFile: string;
  answer: string;
  written: boolean | "at exit";
  writable: boolean;
}

/** A CommonJS bundle with enough functions for V8 to have code worth caching; `marker` is one character. */
function bundleSource(marker: string): string {
  const functions = Array.from({ length: 300 }, (_, i) => `function f${i}(x){return x+${i}+"${marker}"}`);
  return `"use strict";
const { join } = require("node:path");
${functions.join("\n")}
exports.answer = async () => {
  const os = await Promise.resolve().then(() => require("node:os")); // a lazy import, as the build writes it
  return [typeof os.cpus, join("a", "b"), require("node:path").basename(__filename), f299(1)].join(" ");
};
`;
}
const expectedAnswer = (marker: string) => `function a/b bundle.cjs 300${marker}`;

let dir: string;
let bundle: string;
function makeBundle(marker = "A"): void {
  dir = mkdtempSync(join(tmpdir(), "qwen-code-cache-"));
  bundle = join(dir, "bundle.cjs");
  writeFileSync(bundle, bundleSource(marker));
}
afterEach(() => {
  if (dir) chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

const cacheFiles = () => readdirSync(dir).filter((name) => name !== "bundle.cjs");

type When = "soon" | "at-exit" | "held";
interface RunOptions {
  when?: When;
  nodeFlags?: string[];
  uid?: number;
}

// Another user cannot be expected to read this checkout (a clone in a private temp folder) or its tsx: the
// fixture runs as that user from one plain JavaScript file, built into a folder anyone can read.
let builtFixture: string | undefined;
async function fixtureForAnyUser(): Promise<string> {
  if (builtFixture) return builtFixture;
  const out = mkdtempSync(join(tmpdir(), "qwen-code-cache-fixture-"));
  chmodSync(out, 0o755);
  const { build } = await import("tsup");
  await build({
    entry: { "load-bundle": fixture },
    format: ["esm"],
    outDir: out,
    outExtension: () => ({ js: ".mjs" }),
    platform: "node",
    target: "node20",
    config: false,
    dts: false,
    splitting: false,
    silent: true,
  });
  builtFixture = join(out, "load-bundle.mjs");
  chmodSync(builtFixture, 0o644);
  return builtFixture;
}
afterAll(() => {
  if (builtFixture) rmSync(join(builtFixture, ".."), { recursive: true, force: true });
});

/** Starts the fixture; `outcome` settles with its JSON line, `exited` once it has exited silently with 0. */
function start(options: RunOptions & { script?: string } = {}) {
  const entry = options.script ? [options.script] : ["--import", "tsx", fixture];
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), ...entry, bundle, options.when ?? "soon"],
    {
      cwd: options.script ? dir : packageDir,
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.uid === undefined
        ? {}
        : { uid: options.uid, gid: options.uid, env: { ...process.env, HOME: dir } }),
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  if (options.when !== "held") child.stdin.end();
  const exited = new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      if (code === 0 && stderr === "")
        resolve(); // silent, whatever happened to the cache
      else reject(new Error(`fixture exited ${code ?? signal}:\n${stderr}\n${stdout}`));
    });
  });
  const outcome = new Promise<Outcome>((resolve, reject) => {
    child.stdout.on("data", () => {
      if (stdout.includes("\n")) resolve(JSON.parse(stdout.split("\n")[0] as string) as Outcome);
    });
    exited.then(() => reject(new Error(`fixture printed nothing: ${stdout}`)), reject);
  });
  return { outcome, exited, release: () => child.stdin.end() };
}

/** One whole run of the fixture: its outcome, once it has exited. */
async function load(options: RunOptions & { script?: string } = {}): Promise<Outcome> {
  const run = start(options);
  await run.exited;
  return run.outcome;
}

describe("loading a hot bundle with V8's code cache", () => {
  it("writes a cache once the bundle has run, and the next process uses it (V8 does not reject it)", async () => {
    makeBundle();
    const first = await load();
    expect(first).toMatchObject({ cache: "absent", written: true, answer: expectedAnswer("A") });
    expect(cacheFiles()).toEqual([first.cacheFile]);
    expect(first.cacheFile).toMatch(/^bundle\.cjs\.[0-9a-f]{32}\.v\d+\.\d+\.\d+-\w+\.[0-9a-f]{12}\.v8cache$/);
    const writtenAt = statSync(join(dir, first.cacheFile)).mtimeMs;

    const second = await load();
    expect(second).toMatchObject({ cache: "accepted", written: false, answer: expectedAnswer("A") });
    expect(second.cacheFile).toBe(first.cacheFile);
    expect(statSync(join(dir, first.cacheFile)).mtimeMs).toBe(writtenAt); // not rewritten
  });

  it("gives a rebuilt bundle of the same length its own cache, and removes the old one when writing it", async () => {
    makeBundle("A");
    const old = await load();
    writeFileSync(bundle, bundleSource("B"));
    expect(bundleSource("B").length).toBe(bundleSource("A").length);

    const rebuilt = await load();
    expect(rebuilt).toMatchObject({ cache: "absent", written: true, answer: expectedAnswer("B") });
    expect(rebuilt.cacheFile).not.toBe(old.cacheFile);
    expect(cacheFiles()).toEqual([rebuilt.cacheFile]);
    expect(await load()).toMatchObject({ cache: "accepted", answer: expectedAnswer("B") });
  });

  it("ignores and replaces a cache of other content found under this bundle's name", async () => {
    makeBundle("A");
    const old = await load();
    const oldBytes = readFileSync(join(dir, old.cacheFile));
    writeFileSync(bundle, bundleSource("B"));
    const rebuilt = await load();
    writeFileSync(join(dir, rebuilt.cacheFile), oldBytes); // the same length's cache, as V8 would take it

    expect(await load()).toMatchObject({ cache: "invalid", written: true, answer: expectedAnswer("B") });
    expect(readFileSync(join(dir, rebuilt.cacheFile)).equals(oldBytes)).toBe(false);
    expect(await load()).toMatchObject({ cache: "accepted", answer: expectedAnswer("B") });
  });

  it.each([
    ["one byte flipped in V8's data", (bytes: Buffer) => Buffer.from(bytes).fill(0x5a, 200, 201)],
    ["truncated to half", (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ["truncated to nothing", () => Buffer.alloc(0)],
  ])("ignores and replaces a cache file %s", async (_what, damage) => {
    makeBundle();
    const { cacheFile } = await load();
    const intact = readFileSync(join(dir, cacheFile));
    const damaged = damage(intact);
    expect(damaged.equals(intact)).toBe(false);
    writeFileSync(join(dir, cacheFile), damaged);

    expect(await load()).toMatchObject({ cache: "invalid", written: true, answer: expectedAnswer("A") });
    expect(cacheFiles()).toEqual([cacheFile]);
    expect(await load()).toMatchObject({ cache: "accepted" });
  });

  it("keeps a cache per V8 flags, and replaces one V8 rejected (made under other flags)", async () => {
    makeBundle();
    const plain = await load();
    const flagged = await load({ nodeFlags: ["--max-semi-space-size=1"] });
    expect(flagged).toMatchObject({ cache: "absent", written: true });
    expect(flagged.cacheFile).not.toBe(plain.cacheFile);
    expect(cacheFiles().sort()).toEqual([plain.cacheFile, flagged.cacheFile].sort());
    expect(await load({ nodeFlags: ["--max-semi-space-size=1"] })).toMatchObject({ cache: "accepted" });

    copyFileSync(join(dir, flagged.cacheFile), join(dir, plain.cacheFile)); // intact, but for other flags
    expect(await load()).toMatchObject({ cache: "rejected", written: true, answer: expectedAnswer("A") });
    expect(await load()).toMatchObject({ cache: "accepted" });
  });

  it("writes the cache at exit when the process ends before the timer", async () => {
    makeBundle();
    expect(await load({ when: "at-exit" })).toMatchObject({ cache: "absent", written: "at exit" });
    expect(cacheFiles()).toHaveLength(1);
    expect(await load()).toMatchObject({ cache: "accepted", written: false });
  });

  it("is unharmed by two processes writing the same cache at once", async () => {
    makeBundle();
    const runs = [start({ when: "held" }), start({ when: "held" })];
    const both = await Promise.all(runs.map((r) => r.outcome)); // both loaded, neither has written
    expect(both.map((o) => o.cache)).toEqual(["absent", "absent"]);
    for (const run of runs) run.release(); // both write as they exit
    await Promise.all(runs.map((r) => r.exited));
    expect(cacheFiles()).toEqual([both[0]?.cacheFile]); // one file, no temp file left
    expect(await load()).toMatchObject({ cache: "accepted" });
  });

  it("runs without a cache, silently, from a folder it cannot write", async () => {
    makeBundle();
    // root writes anywhere, so as root the fixture runs as nobody; otherwise the folder is made read-only.
    const asRoot = process.getuid?.() === 0;
    chmodSync(dir, asRoot ? 0o755 : 0o555);
    const uid = asRoot ? 65534 : undefined;
    const script = asRoot ? await fixtureForAnyUser() : undefined;
    for (const when of ["soon", "at-exit"] as const) {
      const outcome = await load({ when, uid, script });
      expect(outcome).toMatchObject({ cache: "absent", writable: false, answer: expectedAnswer("A") });
      if (when === "soon") expect(outcome.written).toBe(false);
    }
    expect(cacheFiles()).toEqual([]);
  });
});

describe("importHot", () => {
  it("imports the fallback when there is no bundle (running from the sources)", async () => {
    makeBundle();
    const missing = join(dir, "missing.cjs");
    expect(await loadBundle(missing)).toBeUndefined();
    expect(await importHot(pathToFileURL(missing), async () => ({ from: "fallback" }))).toEqual({
      from: "fallback",
    });
  });

  it("returns the bundle's exports when there is one", async () => {
    makeBundle();
    const hot = await importHot<{ answer: () => Promise<string> }>(pathToFileURL(bundle), async () => {
      throw new Error("the fallback ran although the bundle exists");
    });
    expect(await hot.answer()).toBe(expectedAnswer("A"));
  });
});
