#!/usr/bin/env node
// Diagnostic stand-in for an ACP child: set it as the reference daemon's QWEN_CLI_ENTRY (or as the program in our
// `--acp-command`) to record the NDJSON exchange between a daemon and the real child it forwards to.
// This is how the files in ./captures were made; it is a debugging aid, not part of any test.
//
// Environment:
//   TEE_TARGET        (required) entry script of the real child; it is run as
//                     `<this node> <this node's execArgv> $TEE_TARGET <our argv...>` (so `--acp` and flags pass through)
//   TEE_LOG           JSON-lines log file (default /tmp/acp-tee.log): one {kind:"start"} line with argv/execArgv/cwd and
//                     the QWEN/OPENAI/NODE/HOME env the daemon gave the child, then {dir, line} per NDJSON message
//   TEE_REJECT_EXT=1  answer every daemon->child request named qwen/* with JSON-RPC -32601 instead of forwarding it, and
//                     strip the initialize result `_meta` down to the external-tool-guard ack (TEE_KEEP_GUARD=0 drops
//                     that too): this emulates a plain ACP agent without qwen extensions
//   TEE_INJECT_GUARD=1  add `_meta["qwen-code/external-tool-guard-ready"]="required-v1"` to the initialize result,
//                     which the reference daemon demands (see NOTES.md)
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import readline from "node:readline";

const GUARD_KEY = "qwen-code/external-tool-guard-ready";
// A diagnostic script, not a turbo task: its env switches are read through one alias on purpose.
const env = process.env;
const target = env.TEE_TARGET;
const logFile = env.TEE_LOG ?? "/tmp/acp-tee.log";
const rejectExt = env.TEE_REJECT_EXT === "1";
const injectGuard = env.TEE_INJECT_GUARD === "1";
const keepGuard = env.TEE_KEEP_GUARD !== "0";

const record = (entry) => appendFileSync(logFile, `${JSON.stringify({ t: Date.now(), ...entry })}\n`);

if (!target) {
  process.stderr.write("acp-tee: TEE_TARGET is not set\n");
  process.exit(2);
}

const envKeys = Object.keys(process.env).filter((k) => /QWEN|OPENAI|NODE|HOME/.test(k));
record({
  kind: "start",
  argv: process.argv,
  execArgv: process.execArgv,
  execPath: process.execPath,
  cwd: process.cwd(),
  env: Object.fromEntries(envKeys.map((k) => [k, process.env[k]])),
});

const child = spawn(process.execPath, [...process.execArgv, target, ...process.argv.slice(2)], {
  stdio: ["pipe", "pipe", "inherit"],
});

// Lines that are not JSON are forwarded untouched; the parse only decides whether to rewrite.
function parse(line) {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

let initializeId;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  record({ dir: "daemon->child", line });
  const msg = parse(line);
  if (msg?.method === "initialize") initializeId = msg.id;
  if (
    rejectExt &&
    msg?.id !== undefined &&
    typeof msg.method === "string" &&
    msg.method.startsWith("qwen/")
  ) {
    const reply = JSON.stringify({
      jsonrpc: "2.0",
      id: msg.id,
      error: { code: -32601, message: `Method not found: ${msg.method}` },
    });
    record({ dir: "child->daemon(tee)", line: reply });
    process.stdout.write(`${reply}\n`);
    return;
  }
  child.stdin.write(`${line}\n`);
});

readline.createInterface({ input: child.stdout }).on("line", (line) => {
  let out = line;
  const msg = parse(line);
  if (msg && msg.id === initializeId && msg.result) {
    if (injectGuard) msg.result._meta = { ...msg.result._meta, [GUARD_KEY]: "required-v1" };
    if (rejectExt) {
      const ack = msg.result._meta?.[GUARD_KEY];
      msg.result._meta = !keepGuard || ack === undefined ? undefined : { [GUARD_KEY]: ack };
    }
    out = JSON.stringify(msg);
  }
  record({ dir: "child->daemon", line: out });
  process.stdout.write(`${out}\n`);
});

process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code, signal) => {
  record({ kind: "exit", code, signal });
  process.exit(code ?? 1);
});
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => child.kill(sig));
