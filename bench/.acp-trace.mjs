import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const cli = process.argv[2];
const home = mkdtempSync(join(tmpdir(), "qh-")), cwd = mkdtempSync(join(tmpdir(), "qw-"));
for (let r = 0; r < Number(process.argv[3] ?? 5); r++) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, "--acp"], { env: { ...process.env, QWEN_HOME: home }, stdio: ["pipe", "pipe", "pipe"] });
  let err = ""; child.stderr.on("data", (d) => (err += d));
  const marks = [];
  let buf = "";
  const done = new Promise((res) => child.stdout.on("data", (d) => { buf += d; for (const l of buf.split("\n")) { try { const m = JSON.parse(l); if (m.id) { marks.push(`id${m.id}@${(performance.now() - t0).toFixed(0)}`); if (m.id === 2) res(); } } catch {} } buf = buf.slice(buf.lastIndexOf("\n") + 1); }));
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }) + "\n");
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } }) + "\n");
  await done;
  child.kill("SIGKILL"); await new Promise((r) => child.once("exit", r));
  console.log(marks.join(" "), "|", err.split("\n").filter((l) => l.startsWith("T ")).join(" "));
}
