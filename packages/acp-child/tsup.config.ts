import { defineConfig } from "tsup";

export default defineConfig({
  // bin.ts: a runnable `--acp` entry (tests, QWEN_CLI_ENTRY); the `qwen` binary imports runAcpAgent instead.
  entry: ["src/index.ts", "src/bin.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
});
