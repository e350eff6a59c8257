// Startup benchmarks of the built `qwen` binary (run `npm run build` first):
//  - `qwen serve` spawn -> first 200 on /health
//  - `qwen --acp` spawn -> initialize -> session/new answered
// Usage: node bench/startup.mjs [runs=15]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { report } from "./stats.mjs";

const CLI = fileURLToPath(new URL("../packages/cli/dist/bin.js", import.meta.url));
const runs = Number(process.argv[2] ?? 15);

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function serveToHealth(home) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, "serve", "--port", String(port), "--no-web"], {
    env: { ...process.env, QWEN_HOME: home },
    stdio: "ignore",
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) return performance.now() - t0;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  }
}

async function acpToSessionNew(home, cwd) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, "--acp"], {
    env: { ...process.env, QWEN_HOME: home },
    stdio: ["pipe", "pipe", "ignore"],
  });
  let buf = "";
  const waitFor = (id) =>
    new Promise((resolve, reject) => {
      const onData = (d) => {
        buf += d;
        for (const line of buf.split("\n")) {
          if (!line.trim()) continue;
          let msg;
          try {
            msg = JSON.parse(line);
          } catch {
            continue;
          }
          if (msg.id === id) {
            child.stdout.off("data", onData);
            if (msg.error) reject(new Error(JSON.stringify(msg.error)));
            else resolve(msg.result);
            return;
          }
        }
      };
      child.stdout.on("data", onData);
    });
  const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  try {
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    await waitFor(1);
    buf = "";
    send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
    await waitFor(2);
    return performance.now() - t0;
  } finally {
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  }
}

const home = mkdtempSync(join(tmpdir(), "qwen-bench-"));
const cwd = mkdtempSync(join(tmpdir(), "qwen-bench-ws-"));
try {
  console.log(`node ${process.version}, ${runs} runs each (first run discarded as warm-up)`);
  const health = [];
  const acp = [];
  for (let i = 0; i <= runs; i++) {
    const h = await serveToHealth(home);
    const a = await acpToSessionNew(home, cwd);
    if (i > 0) {
      health.push(h);
      acp.push(a);
    }
  }
  report("qwen serve: spawn -> first 200 on /health", health);
  report("qwen --acp: spawn -> initialize -> session/new", acp);
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
