#!/usr/bin/env node
// An ACP agent that names its sessions, for the web client's title test: it runs the real agent given as its
// arguments (`node titling-agent.mjs <entry> --acp ...`, the daemon appends `--acp`) and passes every line
// through unchanged, except that just before answering a `session/prompt` it sends the session's title as
// ACP's `session_info_update` (the agent in this repository sends none). The title is TITLE_PREFIX (default
// "Agent title") and the prompt's first word: "Agent title: Please".
import { spawn } from "node:child_process";
import readline from "node:readline";

const prefix = process.env.TITLE_PREFIX ?? "Agent title";
const child = spawn(process.execPath, process.argv.slice(2), { stdio: ["pipe", "pipe", "inherit"] });
/** session/prompt requests in flight: JSON-RPC id → [sessionId, first word of the prompt]. */
const prompts = new Map();

function parse(line) {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = parse(line);
  if (message?.method === "session/prompt") {
    const text = (message.params?.prompt ?? []).find((b) => b?.type === "text")?.text ?? "";
    prompts.set(message.id, [message.params?.sessionId, text.trim().split(/\s+/)[0] ?? ""]);
  }
  child.stdin.write(`${line}\n`);
});

readline.createInterface({ input: child.stdout }).on("line", (line) => {
  const message = parse(line);
  const prompt = message && "id" in message && !("method" in message) ? prompts.get(message.id) : undefined;
  if (prompt) {
    prompts.delete(message.id);
    const [sessionId, word] = prompt;
    const update = { sessionUpdate: "session_info_update", title: `${prefix}: ${word}` };
    process.stdout.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update } })}\n`,
    );
  }
  process.stdout.write(`${line}\n`);
});

process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
