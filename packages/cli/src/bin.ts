#!/usr/bin/env node
// Entry of the `qwen` binary. The two hot paths — `qwen serve ...` and `qwen --acp ...` — are recognised
// here without loading commander, so the daemon answers /health and a child answers initialize sooner.
// Anything else (help, version, headless prompts, odd input) goes to the full parser.
import { parseFastAcpArgs } from "./acp-args.js";
import { importHot } from "./code-cache/load-bundle.js";
import { parseServeArgs } from "./serve-args.js";
import { makeZodJitless } from "./zod-jitless.js";

function fail(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`qwen: ${message}\n`);
  process.exit(err instanceof Error && err.name === "UsageError" ? 2 : 1);
}

async function main(argv: string[]): Promise<void> {
  makeZodJitless(); // before any chunk that holds zod is imported
  if (argv[0] === "serve") {
    const parsed = parseServeArgs(argv.slice(1), process.env);
    if (parsed.kind === "error") {
      process.stderr.write(`qwen serve: ${parsed.message}\nRun "qwen serve --help" for the list of flags.\n`);
      process.exit(2);
    }
    if (parsed.kind === "ok") {
      const { runServe } = await import("./commands/serve.js");
      return runServe(parsed.flags);
    }
  }
  const acp = parseFastAcpArgs(argv);
  if (acp) {
    // The agent's one-file CommonJS build with V8's code cache when the install has it (dist/hot/acp.cjs).
    const { runAcp } = await importHot(
      new URL("./hot/acp.cjs", import.meta.url),
      () => import("./commands/acp.js"),
    );
    return runAcp(acp);
  }
  const { runProgram } = await import("./program.js");
  return runProgram(argv);
}

main(process.argv.slice(2)).catch(fail);
