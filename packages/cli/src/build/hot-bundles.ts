// The hot CommonJS bundles: the modules `qwen serve` (commands/daemon-parts.ts) and `qwen --acp`
// (commands/acp.ts) load on every start, each also built as one CommonJS file in dist/hot/, beside the ESM
// chunks. Node 20 cannot give an ES module V8's cached code, but a CommonJS file run through `vm.Script` can
// take it (src/code-cache/): the loader keeps the compiled code next to the bundle, so a start compiles less.
// The ESM chunks stay for everything else and as the fallback (running from the sources).
import { join } from "node:path";
import { build, type Options } from "tsup";
import { SHARED_OPTIONS, sharedEsbuildOptions } from "./shared-options.js";

/** Output name (under the build's outDir) -> entry, relative to the package folder. */
export const HOT_ENTRIES = {
  "hot/daemon-parts": "src/commands/daemon-parts.ts",
  "hot/acp": "src/commands/acp.ts",
} as const;

// No import() in these bundles: Node 20 loses a vm.Script's import() callback when the script comes from
// cached data (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING, even with vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER),
// so esbuild turns each into a require() in a promise. What they import lazily is node builtins and the MCP
// SDK, which ships CommonJS too (its `require` export condition).
function hotEsbuildOptions(options: Parameters<typeof sharedEsbuildOptions>[0]): void {
  sharedEsbuildOptions(options);
  options.supported = { ...options.supported, "dynamic-import": false };
}

// `import.meta.url` has no CommonJS form: it becomes this file's URL, computed once by the banner. The
// banner goes before esbuild's own "use strict", so it says it first: the ES module sources stay strict code.
const META_URL = "__qwen_import_meta_url";

export function hotBundleOptions(outDir: string, extra: Options = {}): Options {
  return {
    ...SHARED_OPTIONS,
    config: false, // tsup.config.ts runs this build: loading it again here would recurse
    entry: { ...HOT_ENTRIES },
    format: ["cjs"],
    outDir,
    outExtension: () => ({ js: ".cjs" }),
    splitting: false,
    clean: false, // the ESM build before it cleaned outDir
    dts: false,
    sourcemap: true,
    silent: true,
    define: { "import.meta.url": META_URL },
    banner: { js: `"use strict";var ${META_URL}=require("url").pathToFileURL(__filename).href;` },
    esbuildOptions: hotEsbuildOptions,
    ...extra,
  };
}

/** Builds dist/hot/*.cjs (after the ESM build, which cleans `outDir`). */
export async function buildHotBundles(outDir: string, extra: Options = {}): Promise<void> {
  await build(hotBundleOptions(outDir, extra));
}

export const hotBundlePath = (outDir: string, name: keyof typeof HOT_ENTRIES) => join(outDir, `${name}.cjs`);
