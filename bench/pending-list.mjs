#!/usr/bin/env node
// Session list cost with `pendingOnDisk` (issue 13): a real `qwen serve --restore-ask-user-question` lists a
// workspace holding one session on disk whose transcript ends in an unanswered question, once with 1k records
// and once with 100k. The daemon reads each listed transcript's trailing turn backwards from the end of the
// file, so the list must cost the same for both: prints the median of repeated GETs per size, the same with
// the switch off (no tail read: the list's own cost), and the ratio 100k / 1k. Target: ratio close to 1
// (well under 2; reading the whole 100k transcript would be ~100x).
//
//   node bench/pending-list.mjs [--records 1000,100000] [--runs 60]
//
// Uses the built packages (npm run build). Each GET is timed on the client, on loopback.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { killTree } from "./process-tree.mjs";
import { benchEnv, daemonUnderTest, startServe } from "./qwen-serve.mjs";
import { median } from "./stats.mjs";

const core = await import(new URL("../packages/core/dist/index.js", import.meta.url).href);
const { RED_BLUE_QUESTION } = await import(
  new URL("../packages/core/dist/testing/index.js", import.meta.url).href
);

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}

const sizes = option("records", "1000,100000").split(",").map(Number);
const runs = Number(option("runs", "60"));
const WARMUP = 10;
const SESSION = "pending-list-bench-0001";

/** A linked transcript of `count` records: turns of prompt, tool call, result and reply, ending in a question. */
function transcript(count, cwd) {
  const lines = [];
  let parentUuid = null;
  const push = (fields) => {
    const n = lines.length;
    const uuid = `rec-${n.toString(16).padStart(8, "0")}`;
    const ts = new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();
    const base = { uuid, parentUuid, sessionId: SESSION, timestamp: ts, cwd, version: "0.1.0" };
    lines.push(JSON.stringify({ ...base, ...fields }));
    parentUuid = uuid;
  };
  const filler = "the daemon restores the question after a crash and the model continues the same turn. ";
  push({ type: "system", subtype: "session_created" });
  while (lines.length < count - 2) {
    const n = lines.length;
    push({ type: "user", message: { role: "user", parts: [{ text: `prompt ${n}: ${filler}` }] } });
    const id = `call_${n}`;
    const call = { id, name: "read_file", args: { path: `${cwd}/src/file-${n}.ts` } };
    push({
      type: "assistant",
      message: { role: "model", parts: [{ text: filler }, { functionCall: call }] },
    });
    const response = { output: filler.repeat(8) };
    push({
      type: "tool_result",
      message: { role: "user", parts: [{ functionResponse: { id, name: "read_file", response } }] },
    });
    push({ type: "assistant", message: { role: "model", parts: [{ text: filler.repeat(2) }] } });
    push({ type: "system", subtype: "turn_result", data: { stopReason: "end_turn" } });
  }
  lines.length = Math.min(lines.length, count - 2);
  // Keep the chain intact after the cut: the last kept record is the parent of what follows.
  parentUuid = JSON.parse(lines.at(-1)).uuid;
  push({ type: "user", message: { role: "user", parts: [{ text: "ASK: which color for the button?" }] } });
  const question = {
    id: "call_question",
    name: "ask_user_question",
    args: { questions: [RED_BLUE_QUESTION] },
  };
  push({
    type: "assistant",
    message: { role: "model", parts: [{ text: "Let me ask." }, { functionCall: question }] },
  });
  return `${lines.join("\n")}\n`;
}

async function measure(home, cwd, args) {
  const serve = await startServe({
    daemon: daemonUnderTest(),
    cwd,
    env: benchEnv(home, "http://127.0.0.1:9"),
    args,
  });
  try {
    const path = `/workspace/${encodeURIComponent(cwd)}/sessions`;
    const times = [];
    let entry;
    for (let i = 0; i < WARMUP + runs; i++) {
      const start = performance.now();
      const { status, body } = await serve.json("GET", path);
      const ms = performance.now() - start;
      if (status !== 200) throw new Error(`GET ${path}: ${status} ${JSON.stringify(body)}`);
      entry = body.sessions.find((s) => s.sessionId === SESSION);
      if (i >= WARMUP) times.push(ms);
    }
    return { medianMs: median(times), pendingOnDisk: entry?.pendingOnDisk };
  } finally {
    killTree(serve.pid);
    await serve.exited;
  }
}

const root = mkdtempSync(join(tmpdir(), "pending-list-bench-"));
console.log(`node ${process.version}, ${runs} GETs per case after ${WARMUP} warm-up GETs, files in ${root}`);
console.log("records    file MB   list ms (switch on)   list ms (switch off)   pendingOnDisk");
const results = [];
try {
  for (const count of sizes) {
    const home = join(root, `home-${count}`);
    const cwd = join(root, `workspace-${count}`);
    mkdirSync(cwd, { recursive: true });
    const file = core.transcriptPath(home, cwd, SESSION);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, transcript(count, cwd));
    const on = await measure(home, cwd, ["--restore-ask-user-question"]);
    const off = await measure(home, cwd, []);
    if (JSON.stringify(on.pendingOnDisk) !== '["user_question"]')
      throw new Error(`expected pendingOnDisk ["user_question"], got ${JSON.stringify(on.pendingOnDisk)}`);
    if (off.pendingOnDisk !== undefined) throw new Error("the switch is off, yet pendingOnDisk was listed");
    results.push({ count, on: on.medianMs });
    console.log(
      [
        String(count).padStart(7),
        (statSync(file).size / 1e6).toFixed(1).padStart(11),
        on.medianMs.toFixed(2).padStart(22),
        off.medianMs.toFixed(2).padStart(23),
        `   ${JSON.stringify(on.pendingOnDisk)}`,
      ].join(""),
    );
  }
  if (results.length >= 2) {
    const first = results[0];
    const last = results.at(-1);
    console.log(
      `ratio ${last.count} / ${first.count} records (switch on): ${(last.on / first.on).toFixed(2)} (target: well under 2)`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
