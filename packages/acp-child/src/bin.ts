#!/usr/bin/env node
// Runnable entry: `node bin.js --acp [--restore-ask-user-question] [--experimental-lsp] [--storage <url>]`. Used by this
// package's tests and usable as QWEN_CLI_ENTRY; the `qwen` binary wires the same runAcpAgent itself.
import { AGENT_INFO, runAcpAgent } from "./main.js";
import { ACP_USAGE, parseAcpArgv } from "./options.js";

const parsed = parseAcpArgv(process.argv.slice(2));
if (parsed.kind === "help") {
  process.stdout.write(ACP_USAGE);
  process.exit(0);
}
if (parsed.kind === "version") {
  process.stdout.write(`${AGENT_INFO.version}\n`);
  process.exit(0);
}
if (parsed.kind === "error") {
  process.stderr.write(`qwen-acp: ${parsed.message}\n`);
  process.exit(2);
}

runAcpAgent({
  input: process.stdin,
  output: process.stdout,
  options: parsed.options,
  handleSignals: true,
}).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `qwen-acp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
