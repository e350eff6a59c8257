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
  dts: { entry: "src/index.ts" },
  sourcemap: true,
  clean: true,
  splitting: true,
  target: "node20",
  platform: "node",
  noExternal: [/^(?!(commander|@modelcontextprotocol\/sdk)(\/|$))/],
  esbuildPlugins: [zodEnglishOnly],
  // The web client ships inside the cli, so an installed `qwen serve` serves it at / (apps/web builds first:
  // it is a devDependency, so turbo orders the builds).
  async onSuccess() {
    const web = join(process.cwd(), "../../apps/web/dist"); // tsup runs in the package folder
    if (existsSync(web)) cpSync(web, "dist/web", { recursive: true });
  },
  esbuildOptions(options) {
    // Workspace packages are bundled from their TypeScript sources, so their lazy imports become chunks here.
    options.conditions = ["source"];
  },
});
