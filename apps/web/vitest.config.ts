import { defineConfig } from "vitest/config";
import { workspaceAlias } from "../../vitest.shared.js";

// Unit tests of the client's pure modules (SSE parsing, reconnects, answers, the conversation model).
// They run in Node: the modules touch no DOM.
export default defineConfig({
  // The contract (@qwen-daemon/core/protocol) from its sources, as the build bundles it.
  resolve: { alias: workspaceAlias },
  test: { include: ["src/**/*.test.ts"], testTimeout: 10_000 },
});
