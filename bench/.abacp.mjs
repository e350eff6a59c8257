// A/B acp: alternate CLIs. Usage: node bench/.abacp.mjs runs cliA cliB ...
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const [runs, ...clis] = process.argv.slice(2);
const home = mkdtempSync(join(tmpdir(), "qh-")), cwd = mkdtempSync(join(tmpdir(), "qw-"));
async function once(cli) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, "--acp"], { env: { ...process.env, QWEN_HOME: home }, stdio: ["pipe", "pipe", "ignore"] });
  let buf = "";
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }) + "\n");
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } }) + "\n");
  await new Promise((res) => child.stdout.on("data", (d) => { buf += d; if (buf.includes('"id":2')) res(); }));
  const wall = performance.now() - t0;
  const st = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
  const cpu = (Number(st[11]) + Number(st[12])) * 10;
  child.kill("SIGKILL"); await new Promise((r) => child.once("exit", r));
  return [wall, cpu];
}
const res = clis.map(() => [[], []]);
for (let i = 0; i <= Number(runs); i++) for (let j = 0; j < clis.length; j++) {
  const w = await once(clis[j]);
  child: if (i) { res[j][0].push(w[0]); res[j][1].push(w[1]); }
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)].toFixed(1); };
const mean = (a) => (a.reduce((x, y) => x + y, 0) / a.length).toFixed(1);
clis.forEach((c, j) => console.log("wall", med(res[j][0]), "cpu(mean)", mean(res[j][1]), c));
