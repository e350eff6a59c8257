// A/B: alternate CLIs, health only. Usage: node bench/.ab.mjs runs cliA cliB ...
import { spawn } from "node:child_process";
import { createServer } from "node:net";
const [runs, ...clis] = process.argv.slice(2);
function freePort() { return new Promise((r) => { const s = createServer().listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => r(port)); }); }); }
async function health(cli, args) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, "serve", "--port", String(port), "--no-web"], { stdio: "ignore" });
  try { for (;;) { try { const res = await fetch(`http://127.0.0.1:${port}/health`); if (res.status === 200) return performance.now() - t0; } catch {} await new Promise((r) => setTimeout(r, 2)); } }
  finally { child.kill("SIGKILL"); await new Promise((r) => child.once("exit", r)); }
}
const res = clis.map(() => []);
for (let i = 0; i <= Number(runs); i++) for (let j = 0; j < clis.length; j++) { const t = await health(clis[j]); if (i) res[j].push(t); }
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)].toFixed(1); };
clis.forEach((c, j) => console.log(med(res[j]), c));
