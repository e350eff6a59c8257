// What the cli's two builds (tsup.config.ts: the ESM chunks; hot-bundles.ts: the hot CommonJS bundles)
// share: one esbuild pass over the TypeScript sources of every workspace package and the third-party code
// they use, so an installed `qwen` resolves almost nothing at start (node_modules lookups and hundreds of
// small files cost more than parsing one bundle). package.json still declares the dependencies, so `npm pack`
// installs and tools that inspect them agree.
import type { Options } from "tsup";
import { workspaceSideEffectFree, zodEnglishOnly } from "./esbuild-plugins.js";

type EsbuildOptions = Parameters<NonNullable<Options["esbuildOptions"]>>[0];

export const SHARED_OPTIONS: Pick<Options, "target" | "platform" | "noExternal" | "esbuildPlugins"> = {
  target: "node20",
  platform: "node",
  // Three stay external, all off the hot paths and all CommonJS that `require()`s node builtins (an ESM
  // bundle cannot, without a shim): commander (only `--help`, headless runs and odd input load it), the
  // MCP SDK (loaded only when a session configures MCP servers) and pg (only when the storage is PostgreSQL).
  noExternal: [/^(?!(commander|@modelcontextprotocol\/sdk|pg)(\/|$))/],
  esbuildPlugins: [zodEnglishOnly, workspaceSideEffectFree],
};

export function sharedEsbuildOptions(options: EsbuildOptions): void {
  // V8 keeps each chunk's source text in memory (lazy compilation, Function#toString), and parses all of
  // it at start: minified whitespace and syntax take ~30 % off both. Identifiers keep their names, so stack
  // traces and `.name` stay readable without a source map.
  options.minifyWhitespace = true;
  options.minifySyntax = true;
  // Workspace packages are bundled from their TypeScript sources, so their lazy imports become chunks here.
  options.conditions = ["source"];
}
