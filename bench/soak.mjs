#!/usr/bin/env node
// Soak: a long run of ordinary use against a real `qwen serve` and its real ACP child, to show that nothing
// grows with the number of turns. 4,000 question turns (prompt -> ask_user_question -> vote -> the turn ends),
// each with a plain prompt after it, SSE subscribers opened and closed around every turn, clients attaching,
// and sessions deleted and replaced every SESSION_TURNS turns, so one live session at a time. At turns 100,
// 1,000, 2,000, 3,000 and 4,000 it prints, for the daemon and the child: RSS and heapUsed as they stand
// (what a user's `ps` sees; no garbage collection is forced before them), the highest RSS seen since the last
// line, and open fds. After the last turn, each process runs two full GCs and reports its live heap.
// Targets: sampled RSS within 10 % from turn 100 to 1,000 and no upward trend from 1,000 to 4,000; fds flat.
// Printed figures, not a test.
//
// The figures are measured inside each process by bench/memory-probe.cjs (a preload answering SIGUSR2),
// loaded with `--expose-gc --require`; the daemon hands its node flags to its children. Forcing a full GC
// along the way would hide what users see: it resets V8's heap sizing to the live size.
//
// Usage (after `npm run build`): node bench/soak.mjs [--turns 4000] [--session-turns 10]
//   (or QWEN_SOAK_TURNS=...; `npm run bench -- soak -- --turns 1000` for a quicker look;
//   QWEN_SOAK_NODE_FLAGS="--trace-gc ..." adds node flags to the daemon and its children;
//   QWEN_SOAK_LOG=<file> keeps the daemon's output there; --alloc-profile N prints what turns 101..100+N
//   allocated in each process, by function, from V8's sampling heap profiler; --live-at-checkpoints adds each
//   process's live heap after two full GCs at every checkpoint, which changes V8's sizing for the rest of the
//   run; QWEN_SOAK_SNAPSHOTS=<folder> writes a heap snapshot of each process there at every checkpoint)
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { descendantsOf } from "./process-tree.mjs";
import { benchEnv, CLI, FAKE_OPENAI, startServe } from "./qwen-serve.mjs";
import { SseListener } from "./sse-listener.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const TURNS = option("turns", Number(process.env.QWEN_SOAK_TURNS ?? 4000));
const SESSION_TURNS = option("session-turns", 10);
/** With N > 0: an allocation profile of both processes over turns 101..100+N, summarised by function. */
const ALLOC_TURNS = option("alloc-profile", 0);
/** With --live-at-checkpoints: two full GCs at every checkpoint too, to compare live sizes (changes the run). */
const LIVE_AT_CHECKPOINTS = process.argv.includes("--live-at-checkpoints");
/** QWEN_SOAK_SNAPSHOTS=<folder>: a heap snapshot of each process at every checkpoint, kept there. */
const SNAPSHOTS = process.env.QWEN_SOAK_SNAPSHOTS;
const CHECKPOINTS = [...new Set([100, 1000, 2000, 3000, 4000, TURNS])]
  .filter((t) => t <= TURNS)
  .sort((x, y) => x - y);
const PROBE = fileURLToPath(new URL("./memory-probe.cjs", import.meta.url));
const MB = 1024 * 1024;
/** What a real prompt carries besides its question: a few KB of pasted context. */
const CONTEXT = ` Context: ${"the build log says the test timed out after the retry; ".repeat(60)}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { startFakeOpenAIServer, askUserQuestionCall, DEFAULT_QUESTION, lastMessage, messageText, reply } =
  await import(FAKE_OPENAI.href);
const model = await startFakeOpenAIServer({
  handler: (request) => {
    const last = lastMessage(request);
    if (last?.role === "tool") return reply.text("Thanks, noted.");
    if (messageText(last).includes("ASK"))
      return askUserQuestionCall([DEFAULT_QUESTION], { text: "One question first." });
    return reply.text("ok");
  },
});

const home = realpathSync(mkdtempSync(join(tmpdir(), "qwen-soak-home-")));
const cwd = realpathSync(mkdtempSync(join(tmpdir(), "qwen-soak-ws-")));
const probes = realpathSync(mkdtempSync(join(tmpdir(), "qwen-soak-probe-")));
/** Extra node flags for the daemon (its children get them too, before their own), to try V8 settings. */
const NODE_FLAGS = (process.env.QWEN_SOAK_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "");
const daemon = {
  name: "ours",
  argv: [process.execPath, ...NODE_FLAGS, "--expose-gc", "--require", PROBE, CLI],
};
const serve = await startServe({
  daemon,
  cwd,
  env: { ...benchEnv(home, model.url), QWEN_BENCH_PROBE_DIR: probes },
  args: ["--restore-ask-user-question"],
});

if (process.env.QWEN_SOAK_LOG) {
  const log = createWriteStream(process.env.QWEN_SOAK_LOG);
  serve.child.stdout.on("data", (chunk) => log.write(chunk));
  serve.child.stderr.on("data", (chunk) => log.write(chunk));
}

/** Asks `pid` for a sample (SIGUSR2), after two full GCs too with `gc`, and waits for the probe's file. */
async function probe(pid, { gc = false } = {}) {
  if (gc) writeFileSync(join(probes, `${pid}.gc`), "");
  const before = new Set(readdirSync(probes));
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 60_000;
  for (;;) {
    const fresh = readdirSync(probes).find(
      (f) => f.startsWith(`${pid}.`) && f.endsWith(".json") && !before.has(f),
    );
    if (fresh !== undefined) return JSON.parse(readFileSync(join(probes, fresh), "utf8"));
    if (Date.now() > deadline)
      throw new Error(`process ${pid} wrote no memory sample (is the probe loaded?)`);
    await sleep(10);
  }
}

/**
 * Turns V8's sampling heap profiler on (`start`) or off in both processes; off writes each one's profile and
 * prints where the allocations of those turns came from, by function, per turn.
 */
async function allocationProfile(start, turns) {
  for (const [name, pid] of processes()) {
    writeFileSync(join(probes, `${pid}.alloc-${start ? "start" : "stop"}`), "");
    process.kill(pid, "SIGUSR2");
    if (start) continue;
    const file = join(probes, `${pid}.heapprofile`);
    for (const deadline = Date.now() + 30_000; !existsSync(file); await sleep(20))
      if (Date.now() > deadline) throw new Error(`${name} wrote no allocation profile`);
    const profile = JSON.parse(readFileSync(file, "utf8"));
    const bySite = new Map();
    let total = 0;
    const walk = (node) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const site = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|packages)\//, "")}:${lineNumber + 1}`;
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      total += node.selfSize;
      for (const child of node.children) walk(child);
    };
    walk(profile.head);
    console.log(`${name}: ${(total / turns / 1024).toFixed(0)} KB allocated per turn (sampled), top sites:`);
    for (const [site, bytes] of [...bySite].sort((x, y) => y[1] - x[1]).slice(0, 25))
      console.log(`  ${(bytes / turns / 1024).toFixed(1).padStart(7)} KB/turn  ${site}`);
  }
}

const fdCount = (pid) => readdirSync(`/proc/${pid}/fd`).length;
/** VmRSS from /proc, in bytes: read between checkpoints without disturbing the process. */
const vmRss = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;
/** Highest RSS seen by the light reads (every 10 turns) since the last checkpoint, per process. */
let peaks = { daemon: 0, child: 0 };
function notePeaks() {
  const [child] = descendantsOf(serve.pid);
  peaks = { daemon: Math.max(peaks.daemon, vmRss(serve.pid)), child: Math.max(peaks.child, vmRss(child)) };
}

async function measure(turn) {
  // Settle first: let timers and pending I/O of the last turn finish, as in an idle moment of real use.
  await sleep(500);
  const out = {};
  for (const [name, pid] of processes()) {
    if (SNAPSHOTS) writeFileSync(join(probes, `${pid}.snapshot`), SNAPSHOTS);
    const sample = await probe(pid, { gc: LIVE_AT_CHECKPOINTS });
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1]) * 1024;
    out[name] = {
      anon: kb("RssAnon"),
      file: kb("RssFile"),
      sampled: sample.sampled,
      gcs: sample.gcs,
      spaces: sample.spaces,
      afterGc: sample.afterGc,
      fds: fdCount(pid),
      peak: peaks[name],
    };
  }
  peaks = { daemon: 0, child: 0 };
  const line = (p) =>
    `rss ${mb(p.sampled.rss)} heapUsed ${mb(p.sampled.heapUsed)} (heapTotal ${mb(p.sampled.heapTotal)}) fds ${p.fds}; highest rss since last line ${mb(p.peak)}; GCs so far: ${p.gcs.major} full, ${p.gcs.minor} young${live(p)}`;
  // Where RSS is: V8's committed spaces, external memory (buffers), and the rest (code, malloc, stacks).
  const where = (p) =>
    `           ${Object.entries(p.spaces)
      .filter(([, bytes]) => bytes > 0)
      .map(([space, bytes]) => `${space} ${(bytes / MB).toFixed(1)}`)
      .join(
        ", ",
      )}; external ${mb(p.sampled.external)}; outside the V8 heap ${mb(p.sampled.rss - p.sampled.heapTotal)}; ` +
    `rss = anonymous ${mb(p.anon)} + file-backed ${mb(p.file)} (the node binary's pages, shared)`;
  const live = (p) => (p.afterGc ? `; live after two full GCs ${mb(p.afterGc.heapUsed)}` : "");
  console.log(
    `turn ${String(turn).padStart(4)}: daemon ${line(out.daemon)}\n${where(out.daemon)}\n           child  ${line(out.child)}\n${where(out.child)}`,
  );
  return out;
}

/** The live heap at the end: two full GCs first. */
async function liveHeap() {
  const out = {};
  for (const [name, pid] of processes()) out[name] = (await probe(pid, { gc: true })).afterGc;
  return out;
}

function processes() {
  const [child] = descendantsOf(serve.pid);
  return [
    ["daemon", serve.pid],
    ["child", child],
  ];
}

const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;

class Session {
  static async open() {
    const s = new Session();
    const created = await serve.expect(200, "POST", "/session", { sessionScope: "thread" });
    s.id = created.sessionId;
    s.clientId = created.clientId;
    s.events = new SseListener();
    await s.events.open(`${serve.url}/session/${s.id}/events`, { "x-qwen-client-id": s.clientId });
    return s;
  }

  async prompt(text) {
    const from = this.events.frames.length;
    const { promptId } = await serve.expect(
      202,
      "POST",
      `/session/${this.id}/prompt`,
      { prompt: [{ type: "text", text }] },
      { "x-qwen-client-id": this.clientId },
    );
    return { promptId, from };
  }

  turnEnd({ promptId, from }) {
    return this.events.waitFor((f) => f.event === "turn_complete" && f.json?.promptId === promptId, {
      from,
      what: `turn_complete of ${promptId}`,
    });
  }

  async close() {
    this.events.close();
    const res = await serve.json("DELETE", `/session/${this.id}`, undefined, {
      "x-qwen-client-id": this.clientId,
    });
    if (res.status !== 204) throw new Error(`DELETE: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

async function questionTurn(session, turn) {
  // SSE churn: one subscriber for the turn, another that leaves half-way.
  const watcher = new SseListener();
  await watcher.open(`${serve.url}/session/${session.id}/events`);
  const leaver = new SseListener();
  await leaver.open(`${serve.url}/session/${session.id}/events`, { "last-event-id": "0" });
  // A client attaching for the turn (registry churn).
  const visitor = await serve.expect(200, "POST", `/session/${session.id}/resume`, {}, {});
  const sent = await session.prompt(`ASK turn ${turn}.${CONTEXT}`);
  const asked = await session.events.waitFor(
    (f) => f.event === "permission_request" && f.json?.promptId === sent.promptId,
    { from: sent.from, what: "the question" },
  );
  leaver.close();
  const requestId = asked.json.data.requestId;
  await serve.expect(
    200,
    "POST",
    `/session/${session.id}/permission/${requestId}`,
    { outcome: { outcome: "selected", optionId: "proceed_once" }, answers: { 0: `answer ${turn}` } },
    { "x-qwen-client-id": visitor.clientId },
  );
  await session.turnEnd(sent);
  watcher.close();
  await serve.expect(
    204,
    "POST",
    `/session/${session.id}/detach`,
    {},
    { "x-qwen-client-id": visitor.clientId },
  );
  // A plain prompt, and a look at the session the way a client polls it.
  await session.turnEnd(await session.prompt(`plain prompt ${turn}.${CONTEXT}`));
  await serve.expect(200, "GET", `/session/${session.id}/status`);
  await serve.expect(200, "GET", `/session/${session.id}/transcript?limit=5`);
}

const samples = {};
const started = performance.now();
try {
  let session = await Session.open();
  for (let turn = 1; turn <= TURNS; turn += 1) {
    if (turn > 1 && (turn - 1) % SESSION_TURNS === 0) {
      await session.close();
      session = await Session.open();
    }
    await questionTurn(session, turn);
    if (turn % 10 === 0) notePeaks();
    if (CHECKPOINTS.includes(turn)) samples[turn] = await measure(turn);
    if (ALLOC_TURNS > 0 && turn === 100) await allocationProfile(true);
    if (ALLOC_TURNS > 0 && turn === 100 + ALLOC_TURNS) await allocationProfile(false, ALLOC_TURNS);
  }
  samples.live = await liveHeap();
  await session.close();
} finally {
  await serve.stop();
  await model.close();
  for (const dir of [home, cwd, probes]) if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
}

const pct = (x, y) => `${y >= x ? "+" : ""}${(((y - x) / x) * 100).toFixed(1)} %`;
const at = (turn) => samples[turn];
console.log(
  `\n${TURNS} question turns (+ ${TURNS} plain prompts, a new session every ${SESSION_TURNS}) in ${((performance.now() - started) / 1000).toFixed(0)} s. MB = 2^20 bytes.`,
);
const first = CHECKPOINTS[0];
const mid = CHECKPOINTS.includes(1000) ? 1000 : TURNS;
for (const name of ["daemon", "child"]) {
  const series = (pick) => CHECKPOINTS.map((t) => mb(pick(at(t)[name])).replace(" MB", "")).join(" -> ");
  console.log(
    `  ${name.padEnd(6)} sampled RSS (MB, turns ${CHECKPOINTS.join(", ")}): ${series((p) => p.sampled.rss)}; ` +
      `${first} -> ${mid}: ${pct(at(first)[name].sampled.rss, at(mid)[name].sampled.rss)} (target within 10 %)` +
      (mid < TURNS
        ? `, ${mid} -> ${TURNS}: ${pct(at(mid)[name].sampled.rss, at(TURNS)[name].sampled.rss)} (target: no upward trend)`
        : ""),
  );
  console.log(
    `  ${"".padEnd(6)} sampled heapUsed (MB): ${series((p) => p.sampled.heapUsed)}; live heap at the end (after two full GCs) ` +
      `${mb(samples.live[name].heapUsed)}; fds ${at(first)[name].fds} -> ${at(TURNS)[name].fds}`,
  );
}
