#!/usr/bin/env node
// Transcript load benchmark (issue 2): generates transcripts of 10k and 100k realistic records in a temp dir
// and prints, per size, the file size, the median time of readTranscript() and the peak memory growth during
// one load, measured in a fresh process so earlier runs do not hide it. Target: 100k records (tens of MB)
// load in < 1 s with peak memory < 3x the file size.
//
//   node bench/transcript-load.mjs [--records 10000,100000] [--runs 5] [--keep]
//
// Runs the TypeScript sources directly (each measuring process registers tsx itself), so no build is
// needed; `node --conditions=source --import tsx bench/transcript-load.mjs` works the same.
// Peak memory = max RSS after the load minus RSS just before it (process.resourceUsage().maxRSS), an upper
// bound on what the load itself needed; heap growth retained by the loaded records is printed beside it.
// CPU time is printed beside wall time because wall time on a shared machine includes waiting for a core.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./stats.mjs";

const self = fileURLToPath(import.meta.url);
const transcriptModule = new URL("../packages/core/src/transcript/index.ts", import.meta.url).href;

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}

if (process.argv[2] === "--child") await child(process.argv[3], Number(process.argv[4]));
else main();

function main() {
  const sizes = option("records", "10000,100000").split(",").map(Number);
  const runs = Number(option("runs", "5"));
  const dir = mkdtempSync(join(tmpdir(), "transcript-bench-"));
  console.log(`node ${process.version}, ${runs} runs per size, files in ${dir}`);
  console.log(
    "records   file MB   median ms   min ms   median cpu ms   peak MB (RSS)   peak/file   retained heap MB   corrupt",
  );
  try {
    for (const count of sizes) {
      const file = join(dir, `bench-${count}.jsonl`);
      writeFileSync(file, generateTranscript(count));
      const bytes = statSync(file).size;
      const r = spawnSync(process.execPath, ["--expose-gc", self, "--child", file, String(runs)], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      });
      if (r.status !== 0) throw new Error(`benchmark child failed with ${r.status ?? r.signal}`);
      const m = JSON.parse(r.stdout.trim().split("\n").at(-1));
      if (m.records !== count) throw new Error(`loaded ${m.records} records, expected ${count}`);
      const mb = (n) => (n / 1e6).toFixed(1);
      console.log(
        [
          String(count).padStart(7),
          mb(bytes).padStart(9),
          m.medianMs.toFixed(0).padStart(11),
          m.minMs.toFixed(0).padStart(8),
          m.medianCpuMs.toFixed(0).padStart(16),
          mb(m.peakBytes).padStart(15),
          (m.peakBytes / bytes).toFixed(2).padStart(11),
          mb(m.retainedHeapBytes).padStart(18),
          String(m.corruptLines).padStart(9),
        ].join(""),
      );
    }
  } finally {
    if (process.argv.includes("--keep")) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

async function child(file, runs) {
  const { register } = await import("tsx/esm/api");
  register();
  const { readTranscript } = await import(transcriptModule);
  globalThis.gc();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let start = performance.now();
  let cpu = process.cpuUsage();
  let result = await readTranscript(file);
  const times = [performance.now() - start];
  const cpuTimes = [cpuMs(process.cpuUsage(cpu))];
  const peakBytes = process.resourceUsage().maxRSS * 1024 - rssBefore;
  globalThis.gc();
  const retainedHeapBytes = process.memoryUsage().heapUsed - heapBefore;
  const records = result.records.length;
  const corruptLines = result.corruptLines;
  result = undefined;
  for (let i = 1; i < runs; i++) {
    globalThis.gc();
    start = performance.now();
    cpu = process.cpuUsage();
    await readTranscript(file);
    times.push(performance.now() - start);
    cpuTimes.push(cpuMs(process.cpuUsage(cpu)));
  }
  console.log(
    JSON.stringify({
      records,
      corruptLines,
      medianMs: median(times),
      minMs: Math.min(...times),
      medianCpuMs: median(cpuTimes),
      peakBytes,
      retainedHeapBytes,
    }),
  );
}

/** CPU time (user + system) of this process: wall time inflates on a busy machine, this much less. */
function cpuMs({ user, system }) {
  return (user + system) / 1000;
}

// ---- realistic transcript generation (deterministic) ----

function generateTranscript(count) {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const words = (
    "the a function returns value file test session daemon question answer restore transcript record " +
    "model tool call result error path config history prompt user assistant const let await async import " +
    "export class interface type string number boolean array object promise résumé naïve 日本語 ✓"
  ).split(" ");
  const text = (lo, hi) => {
    const target = int(lo, hi);
    let out = "";
    while (out.length < target) out += `${words[int(0, words.length - 1)]}${random() < 0.08 ? ".\n" : " "}`;
    return out;
  };
  const tools = ["read_file", "run_shell_command", "grep_search", "edit", "ask_user_question"];
  const sessionId = "bench-session-0001";
  const cwd = "/home/user/projects/qwen-daemon";
  const t0 = Date.parse("2025-01-01T00:00:00.000Z");
  const lines = [];
  let parentUuid = null;
  let n = 0;
  const uuid = () =>
    `${n.toString(16).padStart(8, "0")}-${int(4096, 65535).toString(16)}-4${int(256, 4095).toString(16)}-8${int(256, 4095).toString(16)}-${int(1e11, 2.8e14).toString(16).padStart(12, "0")}`;
  const push = (fields) => {
    const record = {
      uuid: uuid(),
      parentUuid,
      sessionId,
      timestamp: new Date(t0 + n * 1500).toISOString(),
      type: fields.type,
      cwd,
      version: "0.1.0",
      ...fields,
    };
    parentUuid = record.uuid;
    n++;
    lines.push(JSON.stringify(record));
  };
  while (n < count) {
    const promptId = `prompt-${n}`;
    push({ type: "user", promptId, message: { role: "user", parts: [{ text: text(40, 400) }] } });
    const steps = int(0, 4);
    for (let s = 0; s < steps && n < count; s++) {
      const name = tools[int(0, tools.length - 1)];
      const id = `call_${n}_${s}`;
      const parts = random() < 0.6 ? [{ text: text(20, 300) }] : [];
      parts.push({
        functionCall: { id, name, args: { path: `${cwd}/src/${words[int(0, 20)]}.ts`, limit: int(10, 500) } },
      });
      push({ type: "assistant", model: "qwen3-coder-plus", message: { role: "model", parts } });
      if (n >= count) break;
      const failed = random() < 0.1;
      const response = failed ? { error: text(20, 120) } : { output: text(100, 1200) };
      push({
        type: "tool_result",
        message: { role: "user", parts: [{ functionResponse: { id, name, response } }] },
        toolCallResult: { callId: id, status: failed ? "error" : "success" },
      });
    }
    if (n < count) {
      push({
        type: "assistant",
        model: "qwen3-coder-plus",
        message: { role: "model", parts: [{ text: text(50, 600) }] },
      });
    }
    if (n < count)
      push({ type: "system", subtype: "turn_result", data: { promptId, stopReason: "end_turn" } });
  }
  return `${lines.join("\n")}\n`;
}
