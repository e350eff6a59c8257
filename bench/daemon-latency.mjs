#!/usr/bin/env node
// Daemon benchmarks of issue 5, against a real `qwen serve` (the built packages/cli/dist/bin.js) and its
// real ACP child, with the fake OpenAI-compatible model server running in this process:
//  (a) prompt POST -> `permission_request` SSE frame, on a warm child (the model asks a question at once)
//  (b) vote POST -> `permission_resolved` SSE frame (and the vote's HTTP 200, which waits for durability)
//  (c) SSE fan-out: one event (a stale vote's `permission_already_resolved`) -> every subscriber has it;
//      on `qwen serve` (which admits 64 subscribers per session, like the reference) and on the daemon's own
//      SSE stack in a separate process with the cap raised to the requested count (default 100)
//  (d) RSS (VmRSS) of the daemon and its child(ren) with one idle session
//
// Usage (from the repository root, after `npm run build`):
//   node bench/daemon-latency.mjs [--runs 30] [--rss-runs 3] [--subscribers 100] [--reference]
// --reference runs the same against the reference daemon (qwen-code 0.24.4 on Node 22, installed by
// e2e/interop/setup-reference.sh; paths from $NODE22 / $QWEN_REF_CLI or /tmp/qwen-ref).
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ANSWER_VOTE, startBenchModel } from "./bench-model.mjs";
import { descendantsOf, vmRssBytes } from "./process-tree.mjs";
import { openSession, questionTurn } from "./question-turn.mjs";
import { benchEnv, daemonUnderTest, startServe } from "./qwen-serve.mjs";
import { SseListener } from "./sse-listener.mjs";
import { median, report, verdict } from "./stats.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const RUNS = option("runs", 30);
const WARMUP = 3;
const RSS_RUNS = option("rss-runs", 3);
const SUBSCRIBERS = option("subscribers", 100);
const MB = 1024 * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const daemon = daemonUnderTest();
const model = await startBenchModel();
const scratch = [];

function scratchDirs() {
  // realpath: the daemon compares cwd strings, and /tmp may be a symlink on some machines.
  const home = realpathSync(mkdtempSync(join(tmpdir(), "qwen-bench-home-")));
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "qwen-bench-ws-")));
  scratch.push(home, cwd);
  return { home, cwd };
}

async function startDaemon(args = []) {
  const { home, cwd } = scratchDirs();
  return startServe({ daemon, cwd, env: benchEnv(home, model.url), args });
}

/** Waits until the daemon has at least one live child process (the reference spawns it ~1 s after start). */
async function childPids(serve) {
  for (let i = 0; i < 500; i++) {
    const pids = descendantsOf(serve.pid);
    if (pids.length > 0) return pids;
    await sleep(10);
  }
  throw new Error("the daemon has no child process");
}

/** RSS of the daemon and of every process under it, counting only live ones (zombies hold no memory). */
function rssOf(serve) {
  const daemonRss = vmRssBytes(serve.pid);
  const childRsses = descendantsOf(serve.pid)
    .map(vmRssBytes)
    .filter((rss) => rss > 0);
  const childRss = childRsses.reduce((sum, rss) => sum + rss, 0);
  return { daemonRss, childRss, total: daemonRss + childRss, children: childRsses.length };
}

// ---- (d) RSS with one idle session, on fresh daemons ----
async function measureRss() {
  const fresh = [];
  const afterTurn = [];
  for (let i = 0; i < RSS_RUNS; i++) {
    const serve = await startDaemon();
    try {
      const session = await openSession(serve);
      await childPids(serve);
      await sleep(500); // let start-up work (and the reference's preheat) settle
      fresh.push(rssOf(serve));
      await questionTurn(serve, session);
      await sleep(1000); // idle: the turn is over (the reference also runs side requests after a turn)
      afterTurn.push(rssOf(serve));
      session.events.close();
    } finally {
      await serve.stop();
    }
  }
  return { fresh, afterTurn };
}

// ---- (a) + (b) on a warm child, then (c) on the same daemon ----
async function measureLatencyAndFanOut() {
  // Room for the fan-out subscribers plus this script's own requests (default cap: 64 sockets).
  const serve = await startDaemon(["--max-connections", String(SUBSCRIBERS + 64)]);
  try {
    const session = await openSession(serve);
    const turns = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const turn = await questionTurn(serve, session);
      if (i >= WARMUP) turns.push(turn);
    }
    const staleRequestId = turns.at(-1).requestId;
    session.events.close();
    await sleep(50); // the closed stream must leave the subscriber count before the fan-out opens its own
    const fanOut = await fanOutOnDaemon(serve, session, staleRequestId);
    return { turns, fanOut };
  } finally {
    await serve.stop();
  }
}

async function openListeners(url, count, headers = {}) {
  const listeners = Array.from({ length: count }, () => new SseListener());
  const statuses = await Promise.all(listeners.map((l) => l.open(url, headers)));
  return {
    accepted: listeners.filter((_, i) => statuses[i] === 200),
    refused: statuses.filter((s) => s !== 200),
    closeAll: () => {
      for (const l of listeners) l.close();
    },
  };
}

/** Times `trigger` until every listener has a frame matching `pred`: [all, first->last spread]. */
async function timeFanOut(listeners, trigger, pred) {
  const from = listeners.map((l) => l.frames.length);
  const t0 = performance.now();
  await trigger();
  const frames = await Promise.all(
    listeners.map((l, i) => l.waitFor(pred, { from: from[i], timeoutMs: 10_000, what: "fan-out frame" })),
  );
  const ats = frames.map((f) => f.at);
  return { all: Math.max(...ats) - t0, spread: Math.max(...ats) - Math.min(...ats) };
}

async function fanOutOnDaemon(serve, session, staleRequestId) {
  const { accepted, refused, closeAll } = await openListeners(
    `${serve.url}/session/${session.sessionId}/events`,
    SUBSCRIBERS,
  );
  try {
    const samples = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // A vote on an already resolved request: 404 plus one `permission_already_resolved` to every subscriber.
      const sample = await timeFanOut(
        accepted,
        async () => {
          const res = await serve.json(
            "POST",
            `/session/${session.sessionId}/permission/${staleRequestId}`,
            ANSWER_VOTE,
            { "x-qwen-client-id": session.clientId },
          );
          if (res.status !== 404) throw new Error(`stale vote answered ${res.status}`);
        },
        (f) => f.event === "permission_already_resolved",
      );
      if (i >= WARMUP) samples.push(sample);
    }
    return { accepted: accepted.length, refused, samples };
  } finally {
    closeAll();
  }
}

/** The daemon's SSE stack in its own process with the subscriber cap raised to SUBSCRIBERS. */
async function fanOutOnEventStack() {
  const script = fileURLToPath(new URL("./sse-fanout-server.mjs", import.meta.url));
  const root = fileURLToPath(new URL("..", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", script, String(SUBSCRIBERS)],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  try {
    let out = "";
    const url = await new Promise((resolve, reject) => {
      child.stdout.on("data", (d) => {
        out += d;
        const match = /listening (\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      child.once("exit", (code) => reject(new Error(`sse-fanout-server exited ${code}`)));
    });
    const { accepted, refused, closeAll } = await openListeners(`${url}/events`, SUBSCRIBERS);
    try {
      const samples = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const sample = await timeFanOut(
          accepted,
          async () => {
            const res = await fetch(`${url}/publish`, { method: "POST" });
            if (res.status !== 204) throw new Error(`publish answered ${res.status}`);
          },
          (f) => f.event === "permission_already_resolved",
        );
        if (i >= WARMUP) samples.push(sample);
      }
      return { accepted: accepted.length, refused, samples };
    } finally {
      closeAll();
    }
  } finally {
    child.kill("SIGTERM");
  }
}

function printFanOut(label, result) {
  const refusedNote = result.refused.length
    ? `; ${result.refused.length} refused (HTTP ${[...new Set(result.refused)].join("/")}: per-session subscriber cap)`
    : "";
  console.log(`${label}: ${result.accepted} of ${SUBSCRIBERS} subscribers accepted${refusedNote}`);
  report(
    `  (c) trigger -> all ${result.accepted} subscribers have it`,
    result.samples.map((s) => s.all),
  );
  report(
    "      first -> last subscriber (spread)",
    result.samples.map((s) => s.spread),
  );
}

try {
  console.log(`daemon: ${daemon.name}; bench client node ${process.version}`);
  console.log(
    `runs: ${RUNS} measured after ${WARMUP} warm-up; RSS on ${RSS_RUNS} fresh daemons; times in ms\n`,
  );

  const { turns, fanOut } = await measureLatencyAndFanOut();
  const a = report(
    "(a) prompt POST -> permission_request frame",
    turns.map((t) => t.promptToQuestion),
  );
  console.log(`    target < 50 ms: ${verdict(a, 50)}`);
  report(
    "(b) vote POST -> permission_resolved frame",
    turns.map((t) => t.voteToResolved),
  );
  report(
    "    vote POST -> HTTP 200",
    turns.map((t) => t.voteToHttp200),
  );
  console.log();
  printFanOut("(c) qwen serve, one session", fanOut);
  if (!daemon.reference)
    printFanOut(`(c') daemon SSE stack, cap raised to ${SUBSCRIBERS}`, await fanOutOnEventStack());
  console.log();

  const rss = await measureRss();
  const row = (label, samples) => {
    const d = median(samples.map((s) => s.daemonRss)) / MB;
    const c = median(samples.map((s) => s.childRss)) / MB;
    const t = median(samples.map((s) => s.total)) / MB;
    const n = Math.max(...samples.map((s) => s.children));
    console.log(
      `${label.padEnd(46)} daemon ${d.toFixed(1).padStart(6)} MB   child${n > 1 ? `ren (${n})` : ""} ${c.toFixed(1).padStart(6)} MB   total ${t.toFixed(1).padStart(6)} MB   n=${samples.length}`,
    );
    return t;
  };
  console.log("(d) RSS (VmRSS, MB = 2^20 bytes), medians:");
  row("    one idle session, before any prompt", rss.fresh);
  const total = row("    one idle session, after one question turn", rss.afterTurn);
  console.log(`    target daemon + child < 120 MB (reference ~440 MB): ${verdict(total, 120)}`);
} finally {
  await model.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}
