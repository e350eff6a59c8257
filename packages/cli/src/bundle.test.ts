// The published bin is the tsup bundle, not these sources: build it (JS only) and check what makes it start fast.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { build } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import config from "../tsup.config.js";
import { buildHotBundles, HOT_ENTRIES } from "./build/hot-bundles.js";

type Output = {
  imports: { path: string; kind: string; external?: boolean }[];
  inputs: Record<string, unknown>;
};

let out: string;
/** The files of core's tools and MCP folders the daemon may load: names, (their restore classes are declared beside the names), the question's shape. */
const toolContracts =
  /core\/src\/(tools\/(tool-names|ask-user-question-params|ask-user-question-result)|mcp\/tool-name)\.ts$/;
let outputs: Map<string, Output>;
/** The hot CommonJS bundles (dist/hot/*.cjs), one file each: what `qwen serve` and `qwen --acp` run. */
let hot: Map<string, Output>;
const chunkOf = (prefix: string) => [...outputs.keys()].find((name) => name.startsWith(prefix)) as string;
const source = (name: string) => readFileSync(join(out, name), "utf8");

/** Every output file a chunk loads before it runs (static imports, transitively). */
function staticClosure(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const i of outputs.get(name)?.imports ?? []) {
    if (i.kind === "import-statement" && !i.external) staticClosure(basename(i.path), seen);
  }
  return seen;
}
const inputsOf = (names: Set<string>) =>
  [...names].flatMap((name) => Object.keys(outputs.get(name)?.inputs ?? {}));
const hotInputs = (name: string) => Object.keys(hot.get(name)?.inputs ?? {});

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "qwen-cli-bundle-"));
  if (Array.isArray(config) || typeof config === "function")
    throw new Error("expected one tsup config object");
  await build({
    ...config,
    outDir: out,
    dts: false,
    sourcemap: false,
    metafile: true,
    silent: true,
    onSuccess: () => buildHotBundles(out, { sourcemap: false, metafile: true }),
  });
  const meta = JSON.parse(source("metafile-esm.json")) as { outputs: Record<string, Output> };
  outputs = new Map(Object.entries(meta.outputs).map(([path, o]) => [basename(path), o]));
  const hotMeta = JSON.parse(source("metafile-cjs.json")) as { outputs: Record<string, Output> };
  hot = new Map(Object.entries(hotMeta.outputs).map(([path, o]) => [`hot/${basename(path)}`, o]));
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the qwen bundle", () => {
  it("resolves nothing at start but node builtins; commander, the MCP SDK and pg are its only packages", () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const packages = new Set<string>();
    for (const name of readdirSync(out).filter((f) => f.endsWith(".js"))) {
      // The bundle is minified (`from"x"`, `import"x"`, `import("x")`).
      for (const [, spec] of source(name).matchAll(/(?:\bfrom ?|\bimport ?\(?)"([@\w.:/-][^"\s]*)"/g)) {
        if (spec && !spec.startsWith(".") && !builtins.has(spec)) packages.add(spec.split("/")[0] as string);
      }
      // esbuild's stand-in for require() throws in ESM: a CommonJS dependency that requires a builtin broke here.
      expect(source(name)).not.toMatch(/__require\("/);
    }
    // pg is imported only when the storage is PostgreSQL (docs/storage.md).
    expect([...packages].sort()).toEqual(["@modelcontextprotocol", "commander", "pg"]);
  });

  it("builds each hot bundle as one CommonJS file that requires only node builtins, the MCP SDK and pg", () => {
    expect([...hot.keys()].sort()).toEqual(
      Object.keys(HOT_ENTRIES)
        .map((name) => `${name}.cjs`)
        .sort(),
    );
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    for (const name of hot.keys()) {
      const packages = new Set<string>();
      for (const [, spec] of source(name).matchAll(/\brequire\("([^"]+)"\)/g)) {
        if (spec && !builtins.has(spec)) packages.add(spec.split("/")[0] as string);
      }
      // pg only inside the function that opens PostgreSQL storage, so a JSONL run never loads it.
      expect([...packages].sort(), name).toEqual(
        name === "hot/acp.cjs" ? ["@modelcontextprotocol", "pg"] : ["pg"],
      );
      // No import(): Node 20 drops a vm.Script's import() callback when the script comes from cached data.
      expect(source(name), name).not.toMatch(/\bimport\(/);
      expect(
        hot.get(name)?.imports.filter((i) => i.kind === "dynamic-import"),
        name,
      ).toEqual([]);
      // Strict code, as the ES module sources are: the banner says so before anything else.
      expect(source(name).startsWith('"use strict";'), name).toBe(true);
    }
  });

  it("has bin.js and `qwen serve` load the hot bundles from dist/hot/, where the build puts them", () => {
    expect(source("bin.js")).toContain('"./hot/acp.cjs"');
    expect(source(chunkOf("serve-"))).toContain('"./hot/daemon-parts.cjs"');
    for (const name of hot.keys()) expect(readFileSync(join(out, name), "utf8").length).toBeGreaterThan(0);
  });

  // The only files of core allowed before the bind: the restore-kind table the child's argv is built from,
  // the `_meta` key constants it names (plain data, no imports beyond each other), and the storage and
  // agent-only variables the child's environment is built from (plain data, node:path at most).
  const PLAIN_CONTRACT_DATA = [
    "../core/src/protocol/restore-kinds.ts",
    "../core/src/protocol/meta.ts",
    "../core/src/storage/storage-env.ts",
    "../core/src/agent/agent-process-env.ts",
  ];

  it("binds `qwen serve`'s socket before zod, Hono, the ACP SDK or core are loaded", () => {
    const serve = chunkOf("serve-");
    const beforeBind = inputsOf(staticClosure(serve));
    expect(beforeBind.some((i) => i.includes("daemon/src/boot/early-server.ts"))).toBe(true);
    for (const heavy of [
      "/zod/",
      "/hono/",
      "/@hono/",
      "/@agentclientprotocol/",
      "core/src/",
      "daemon/src/app.ts",
    ]) {
      expect(beforeBind.filter((i) => i.includes(heavy) && !PLAIN_CONTRACT_DATA.includes(i))).toEqual([]);
    }
    // ...and they are in the bundle, behind the dynamic import that follows the bind.
    const all = inputsOf(new Set(outputs.keys()));
    expect(all.some((i) => i.includes("daemon/src/app.ts"))).toBe(true);
  });

  it("loads into `qwen serve` core's transcript and model code, not the agent loop, tools or MCP client", () => {
    const daemon = inputsOf(staticClosure(chunkOf("daemon-parts-")));
    expect(daemon.some((i) => i.includes("core/src/transcript/reader.ts"))).toBe(true);
    expect(daemon.some((i) => i.includes("daemon/src/server.ts"))).toBe(true);
    // The session list reads, from a transcript's tail, whether a question or approval waits there, with the
    // restore scans' own rules: those need the tools' names and restore classes, the MCP tools' name rule and
    // the question's parameter check (pure data). No tool implementation, registry, agent loop or MCP client
    // comes with them.
    expect(daemon.filter((i) => /core\/src\/(agent|tools|mcp)\//.test(i) && !toolContracts.test(i))).toEqual(
      [],
    );
    // ...which the ACP child does load.
    const child = inputsOf(staticClosure(chunkOf("acp-")));
    expect(child.some((i) => i.includes("core/src/agent/turn-loop.ts"))).toBe(true);
  });

  it("puts in the daemon's hot bundle core's transcript and model code, not the agent loop, tools or MCP client", () => {
    // One file holds everything the daemon may run, lazily imported parts included: the same rule as above.
    const daemon = hotInputs("hot/daemon-parts.cjs");
    expect(daemon.some((i) => i.includes("core/src/transcript/reader.ts"))).toBe(true);
    expect(daemon.some((i) => i.includes("daemon/src/server.ts"))).toBe(true);
    expect(daemon.filter((i) => /core\/src\/(agent|tools|mcp)\//.test(i) && !toolContracts.test(i))).toEqual(
      [],
    );
    expect(hotInputs("hot/acp.cjs").some((i) => i.includes("core/src/agent/turn-loop.ts"))).toBe(true);
  });

  it("has zod read its config from globalThis.__zod_globalConfig, where bin.ts turns its parser JIT off", () => {
    const withZod = [...outputs.keys()].filter((name) =>
      Object.keys(outputs.get(name)?.inputs ?? {}).some((i) => i.includes("/zod/v4/core/core.js")),
    );
    expect(withZod).toHaveLength(1);
    expect(source(withZod[0] as string)).toContain("globalThis.__zod_globalConfig");
    expect(source(withZod[0] as string)).toContain("globalConfig.jitless");
    // ...and nothing bin.js loads before main() runs holds zod.
    expect(staticClosure("bin.js").has(withZod[0] as string)).toBe(false);
    // Each hot bundle has its own copy of zod (bin.js loads at most one of them, after setting the config).
    for (const name of hot.keys()) {
      expect(
        hotInputs(name).some((i) => i.includes("/zod/v4/core/core.js")),
        name,
      ).toBe(true);
      expect(source(name), name).toContain("globalThis.__zod_globalConfig");
      expect(source(name), name).toContain("globalConfig.jitless");
    }
  });

  it("keeps zod's locales out except English", () => {
    const locales = inputsOf(new Set(outputs.keys())).filter((i) => /zod[/\\]v4[/\\]locales[/\\]/.test(i));
    expect(locales.map((i) => basename(i)).sort()).toEqual(["en.js", "index.js"]);
    for (const name of hot.keys()) {
      const hotLocales = hotInputs(name).filter((i) => /zod[/\\]v4[/\\]locales[/\\]/.test(i));
      expect(hotLocales.map((i) => basename(i)).sort(), name).toEqual(["en.js", "index.js"]);
    }
  });
});
