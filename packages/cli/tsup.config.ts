import { cpSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { defineConfig, type Options } from "tsup";

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

// zod's namespaces re-export all ~50 of its message locales (`z.locales`, `z.core.locales`), which keeps
// them out of reach of tree shaking: 360 kB of the bundle, parsed at every start. Nothing here switches
// the locale (zod itself imports `en` directly), so in the bundle those namespaces hold `en` only.
const zodEnglishOnly: EsbuildPlugin = {
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
const workspaceSideEffectFree: EsbuildPlugin = {
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

// One esbuild pass over the sources of every workspace package and the third-party code they use: an
// installed `qwen` then resolves almost nothing at start (node_modules lookups and hundreds of small files
// cost more than parsing one bundle). bin.js stays tiny; each command, and anything imported lazily
// (`import()`), is its own chunk, so `qwen serve` answers /health before the heavy chunks load.
// package.json still declares the dependencies, so `npm pack` installs and tools that inspect them agree.
// Two stay external, both off the hot paths and both CommonJS that `require()`s node builtins (an ESM bundle
// cannot, without a shim): commander (only `--help`, headless runs and odd input load it) and the MCP SDK
// (loaded only when a session configures MCP servers).
export default defineConfig({
  entry: ["src/bin.ts", "src/index.ts"],
  format: ["esm"],
  // The public types use the daemon's option types; the daemon is bundled, not a dependency of an installed
  // cli, so its declarations are inlined (a path to the source makes the declaration bundler take them in).
  dts: {
    entry: "src/index.ts",
    compilerOptions: { paths: { "@qwen-daemon/daemon/option-specs": ["../daemon/src/option-specs.ts"] } },
  },
  sourcemap: true,
  clean: true,
  splitting: true,
  target: "node20",
  platform: "node",
  noExternal: [/^(?!(commander|@modelcontextprotocol\/sdk)(\/|$))/],
  esbuildPlugins: [zodEnglishOnly, workspaceSideEffectFree],
  // The web client ships inside the cli, so an installed `qwen serve` serves it at / (apps/web builds first:
  // it is a devDependency, so turbo orders the builds).
  async onSuccess() {
    const web = join(process.cwd(), "../../apps/web/dist"); // tsup runs in the package folder
    if (existsSync(web)) cpSync(web, "dist/web", { recursive: true });
  },
  esbuildOptions(options) {
    // V8 keeps each chunk's source text in memory (lazy compilation, Function#toString), and parses all of
    // it at start: minified whitespace and syntax take ~30 % off both. Identifiers keep their names, so stack
    // traces and `.name` stay readable without a source map.
    options.minifyWhitespace = true;
    options.minifySyntax = true;
    // Workspace packages are bundled from their TypeScript sources, so their lazy imports become chunks here.
    options.conditions = ["source"];
  },
});
