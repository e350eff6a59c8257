import { defineConfig } from "vitest/config";
import { workspaceAlias } from "../../vitest.shared.js";

export default defineConfig({
  resolve: { alias: workspaceAlias },
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 20_000,
    // A private PostgreSQL server for the PostgreSQL storage tests (scripts/test-postgres.mjs).
    globalSetup: ["../../scripts/postgres-global-setup.mjs"],
  },
});
