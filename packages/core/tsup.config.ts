import { defineConfig } from "tsup";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/agent/agent-process-env.ts",
    "src/protocol/index.ts",
    "src/protocol/restore-kinds.ts",
    "src/storage/storage-env.ts",
    "src/testing/index.ts",
  ],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
