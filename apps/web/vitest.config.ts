import { defineConfig } from "vitest/config";

// Unit tests of the client's pure modules (SSE parsing, reconnects, answers, the conversation model).
// They run in Node: the modules touch no DOM.
export default defineConfig({
  test: { include: ["src/**/*.test.ts"], testTimeout: 10_000 },
});
