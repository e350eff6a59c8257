// esbuild plugins of the cli's build (tsup.config.ts): used by the ESM chunks and the hot CommonJS bundles.
import { dirname, join } from "node:path";
import type { Options } from "tsup";

export type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

// zod's namespaces re-export all ~50 of its message locales (`z.locales`, `z.core.locales`), which keeps
// them out of reach of tree shaking: 360 kB of the bundle, parsed at every start. Nothing here switches
// the locale (zod itself imports `en` directly), so in the bundle those namespaces hold `en` only.
export const zodEnglishOnly: EsbuildPlugin = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[/\\]zod[/\\]v4[/\\](classic[/\\]external|core[/\\]index)\.js$/.test(args.importer))
        return undefined;
      return { path: join(dirname(args.importer), "../locales/index.js"), namespace: "zod-english-only" };
    });
    build.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
      contents: `export { default as en } from "./en.js";`,
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

// The workspace packages run no code at import time that another module relies on (no registries filled by
// importing a file), so they are declared side-effect free, as `"sideEffects": false` in their package.json
// would: a module none of an entry's imports needs is then left out of that entry's chunks instead of being
// kept for possible side effects. `qwen serve` then loads transcript code from core, not core's agent loop,
// tools and MCP client, which only the ACP child (`qwen --acp`) runs.
const WORKSPACE_SOURCE = /[/\\]packages[/\\](core|daemon|acp-child)[/\\]src[/\\]/;
export const workspaceSideEffectFree: EsbuildPlugin = {
  name: "workspace-side-effect-free",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      // Only imports that can land in a workspace source: from one, or of a workspace package by name.
      if (args.pluginData === "workspace-side-effect-free") return undefined;
      if (!WORKSPACE_SOURCE.test(args.importer) && !args.path.startsWith("@qwen-daemon/")) return undefined;
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "workspace-side-effect-free", // resolve normally (the line above), not recursively
      });
      if (result.errors.length > 0 || result.external || !WORKSPACE_SOURCE.test(result.path)) return result;
      return { ...result, sideEffects: false };
    });
  },
};
