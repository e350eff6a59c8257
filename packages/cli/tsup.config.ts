import { defineConfig } from "tsup";

// bin.js stays tiny: every command is a lazily imported chunk. Workspace packages are bundled in so an
// installed `qwen` resolves nothing at start but its own files; third-party packages stay external.
export default defineConfig({
  entry: ["src/bin.ts", "src/index.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  sourcemap: true,
  clean: true,
  splitting: true,
  target: "node20",
  noExternal: [/^@qwen-daemon\//],
  banner: { js: "" },
});
