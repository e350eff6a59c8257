#!/usr/bin/env node
// CPU profiles of the cold path (issue 15), for reading where its milliseconds go; not part of `npm run bench`.
// Runs the first half of bench/cold-story.mjs once (fresh daemon with --restore-ask-user-question, first
// session, first prompt -> question) under `node --cpu-prof` (the daemon hands its node flags to the ACP
// child, so both are profiled), stops the daemon gracefully so the profiles are written, then prints for
// each process: where its samples went (by script, by function, self time) and when, on its own clock,
// the functions that mark its phases first ran.
// With --restart, the first life runs unprofiled and is SIGKILLed at the question, and the second life
// (spawn -> load -> restored question visible in status) is profiled instead. --load-delay-ms N (with --restart)
// waits N ms after the first 200 on /health before the load, and then counts only the samples taken from the
// load on: what the load itself costs once both processes have finished starting.
//   node bench/cold-profile.mjs [--restart [--load-delay-ms N]] [--out DIR] [--top 25] [--mark name,name,...]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { startBenchModel } from "./bench-model.mjs";
import { benchEnv, CLI, startServe } from "./qwen-serve.mjs";
import { SseListener } from "./sse-listener.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}
const OUT = option("out", mkdtempSync(join(tmpdir(), "qwen-cold-prof-")));
const TOP = Number(option("top", 25));
const MARKS = option(
  "mark",
  "listenEarly,runServe,startDaemon,runAcpAgent,initialize,newSession,prompt,generate,nodeHttpFetch,loadSession",
).split(",");
mkdirSync(OUT, { recursive: true });

const LOAD_DELAY_MS = Number(option("load-delay-ms", 0));
// Samples before this moment (µs on the monotonic clock V8's profiler stamps with) are left out; 0: none.
let windowStartUs = 0;
let windowEndUs = Number.POSITIVE_INFINITY;

/** Self time per node of a .cpuprofile, and the first sample time of every function name. */
function summarize(file) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const firstSeen = new Map();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (t < windowStartUs || t > windowEndUs) return;
    self.set(id, (self.get(id) ?? 0) + dt);
    // Every function on this sample's stack has run by now.
    for (let node = byId.get(id); node; node = byId.get(node.parent)) {
      const name = node.callFrame.functionName;
      if (name && !firstSeen.has(name)) firstSeen.set(name, (t - profile.startTime) / 1000);
    }
  });
  for (const node of profile.nodes) for (const child of node.children ?? []) byId.get(child).parent = node.id;
  return { profile, byId, self, firstSeen };
}

function report(file) {
  // Parents are filled in a first pass, so the stack walk in summarize sees them: run it twice.
  summarize(file);
  const { profile, byId, self, firstSeen } = summarize(file);
  const total = (profile.endTime - profile.startTime) / 1000;
  const byScript = new Map();
  const byFunction = new Map();
  for (const [id, ms] of self) {
    const frame = byId.get(id).callFrame;
    const script = frame.url ? basename(frame.url) : frame.functionName || "(native)";
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const fn = `${frame.functionName || "(anonymous)"} ${frame.url ? `${basename(frame.url)}:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  }
  const busy = [...self].reduce(
    (sum, [id, ms]) => sum + (byId.get(id).callFrame.functionName === "(idle)" ? 0 : ms),
    0,
  );
  console.log(`\n== ${basename(file)}: ${total.toFixed(0)} ms profiled, ${busy.toFixed(0)} ms not idle`);
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${k}`)
      .join("\n");
  console.log(`by script (self time):\n${top(byScript, 12)}`);
  console.log(`by function (self time):\n${top(byFunction, TOP)}`);
  const marks = MARKS.filter((m) => firstSeen.has(m)).map((m) => `${m} +${firstSeen.get(m).toFixed(0)}`);
  console.log(`first seen (ms since the profile began): ${marks.join(", ")}`);
}

const RESTART = process.argv.includes("--restart");
const model = await startBenchModel();
const home = realpathSync(mkdtempSync(join(tmpdir(), "qwen-cold-home-")));
const cwd = realpathSync(mkdtempSync(join(tmpdir(), "qwen-cold-ws-")));
const env = benchEnv(home, model.url);
const args = ["--restore-ask-user-question"];
const plain = { name: "ours", argv: [process.execPath, CLI] };
const profiled = {
  name: "ours, profiled",
  argv: [process.execPath, "--cpu-prof", `--cpu-prof-dir=${OUT}`, "--cpu-prof-interval=200", CLI],
};
try {
  // First life: profiled, or (with --restart) plain and SIGKILLed at the question.
  const serve = await startServe({ daemon: RESTART ? plain : profiled, cwd, env, args });
  const events = new SseListener();
  const session = await serve.expect(200, "POST", "/session", { cwd });
  const headers = { "x-qwen-client-id": session.clientId };
  await events.open(`${serve.url}/session/${session.sessionId}/events`, headers);
  const promptAt = performance.now();
  const prompt = { prompt: [{ type: "text", text: "Pick a color" }] };
  await serve.expect(202, "POST", `/session/${session.sessionId}/prompt`, prompt, headers);
  await events.waitFor((f) => f.event === "permission_request", { what: "permission_request" });
  const asked = performance.now() - promptAt;
  events.close();
  if (RESTART) {
    await serve.kill9();
    const again = await startServe({ daemon: profiled, cwd, env, args });
    const path = `/session/${session.sessionId}`;
    if (LOAD_DELAY_MS > 0) {
      await new Promise((resolve) => setTimeout(resolve, LOAD_DELAY_MS));
      windowStartUs = Number(process.hrtime.bigint() / 1000n);
    }
    const loadAt = performance.now();
    await again.expect(200, "POST", `${path}/load`, { cwd }, headers);
    while ((await again.expect(200, "GET", `${path}/status`)).isWaitingForUserQuestion !== true)
      await new Promise((resolve) => setTimeout(resolve, 2));
    const now = performance.now();
    if (LOAD_DELAY_MS > 0) windowEndUs = Number(process.hrtime.bigint() / 1000n);
    console.log(
      `restart: spawn -> restored question visible ${(now - again.spawnedAt).toFixed(0)} ms, load POST -> visible ${(now - loadAt).toFixed(0)} ms (profiling slows both)`,
    );
    await again.stop(10_000);
  } else {
    console.log(
      `spawn -> /health ${(serve.healthyAt - serve.spawnedAt).toFixed(0)} ms; prompt -> question ${asked.toFixed(0)} ms (profiling slows both)`,
    );
    await serve.stop(10_000);
  }
  // Let the child finish writing its profile after the daemon is gone.
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const name of readdirSync(OUT)
    .filter((n) => n.endsWith(".cpuprofile"))
    .sort())
    report(join(OUT, name));
  console.log(`\nprofiles in ${OUT} (open in Chrome DevTools > Performance, or speedscope)`);
} finally {
  await model.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
