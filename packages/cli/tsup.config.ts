import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "tsup";
import { buildHotBundles } from "./src/build/hot-bundles.js";
import { SHARED_OPTIONS, sharedEsbuildOptions } from "./src/build/shared-options.js";

// The ESM build (src/build/shared-options.ts says what both builds share). bin.js stays tiny; each command,
// and anything imported lazily (`import()`), is its own chunk, so `qwen serve` answers /health before the
// heavy chunks load. After it, the hot CommonJS bundles of `qwen serve` and `qwen --acp`
// (src/build/hot-bundles.ts), which the binary loads with V8's code cache when it can.
export default defineConfig({
  ...SHARED_OPTIONS,
  entry: ["src/bin.ts", "src/index.ts"],
  format: ["esm"],
  // The public types use the daemon's option types and core's restore switches; neither package is a
  // dependency of an installed cli (both are bundled), so their declarations are inlined (a path to the source makes the declaration bundler take them in).
  dts: {
    entry: "src/index.ts",
    compilerOptions: {
      paths: {
        "@qwen-daemon/daemon/option-specs": ["../daemon/src/option-specs.ts"],
        "@qwen-daemon/core/restore-kinds": ["../core/src/protocol/restore-kinds.ts"],
      },
    },
  },
  sourcemap: true,
  clean: true,
  splitting: true,
  esbuildOptions: sharedEsbuildOptions,
  async onSuccess() {
    await buildHotBundles("dist"); // tsup runs in the package folder
    // The web client ships inside the cli, so an installed `qwen serve` serves it at / (apps/web builds
    // first: it is a devDependency, so turbo orders the builds).
    const web = join(process.cwd(), "../../apps/web/dist");
    if (existsSync(web)) cpSync(web, "dist/web", { recursive: true });
  },
});
