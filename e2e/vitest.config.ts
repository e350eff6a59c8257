import { defineConfig } from "vitest/config";
import { workspaceAlias } from "../vitest.shared.js";

// Cross-process tests: real `qwen serve`, real children (built dist), a fake model over HTTP.
export default defineConfig({
  resolve: { alias: workspaceAlias },
  test: {
    include: ["e2e/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    passWithNoTests: true,
  },
});
