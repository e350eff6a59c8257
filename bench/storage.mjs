#!/usr/bin/env node
// Session storage side by side (docs/storage.md): JSONL files under QWEN_HOME and PostgreSQL (a private
// server started here by scripts/test-postgres.mjs, on loopback, stopped at the end). Against a real
// `qwen serve --restore-ask-user-question` (the built packages/cli/dist/bin.js) and its ACP child, with the
// fake model in this process:
//  - prompt POST -> the question's permission_request on SSE (the functionCall is durable before it shows);
//  - vote POST -> its 200 (the answer is durable in the journal first);
//  - load POST -> the question asked again on SSE (the session was closed with the question unanswered, so
//    the load reads the transcript, ledger and journals back and re-asks; with PostgreSQL it also takes the
//    session's lease);
// and, on core's storage directly, durable appends per second to one session, and to 50 sessions at once.
// Prints medians.
//
// Usage (from the repository root, after `npm run build`):
//   node bench/storage.mjs [--runs 20] [--appends 400]
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestPostgres } from "../scripts/test-postgres.mjs";
import { ANSWER_VOTE, startBenchModel } from "./bench-model.mjs";
import { openSession, questionTurn } from "./question-turn.mjs";
import { benchEnv, daemonUnderTest, startServe } from "./qwen-serve.mjs";
import { SseListener } from "./sse-listener.mjs";
import { median } from "./stats.mjs";

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

const RUNS = option("runs", 20);
const APPENDS = option("appends", 400);
const SESSIONS = 50;
const WARMUP = 2;
const core = await import(new URL("../packages/core/dist/index.js", import.meta.url).href);
const daemon = daemonUnderTest([]);
const model = await startBenchModel();
const pg = await startTestPostgres({ log: () => {} });
const scratch = [];

function scratchDir(prefix) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  scratch.push(dir);
  return dir;
}

/** The daemon's figures on one backend: `storageEnv` selects it (none: JSONL under QWEN_HOME). */
async function daemonFigures(storageEnv) {
  const home = scratchDir("qwen-bench-home-");
  const cwd = scratchDir("qwen-bench-ws-");
  const serve = await startServe({
    daemon,
    cwd,
    env: { ...benchEnv(home, model.url), ...storageEnv },
    args: ["--restore-ask-user-question"],
  });
  const figures = { promptToQuestion: [], voteTo200: [], loadToQuestion: [] };
  try {
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const session = await openSession(serve);
      const turn = await questionTurn(serve, session);
      session.events.close();
      const reload = await loadReAsks(serve, session.sessionId);
      if (run < WARMUP) continue;
      figures.promptToQuestion.push(turn.promptToQuestion);
      figures.voteTo200.push(turn.voteToHttp200);
      figures.loadToQuestion.push(reload);
    }
  } finally {
    await serve.stop();
  }
  return figures;
}

/**
 * A new question in the session, the session closed with it unanswered (it stays in storage), then a load
 * with a client id: load POST -> the question asked again on SSE.
 */
async function loadReAsks(serve, sessionId) {
  const attached = await serve.expect(200, "POST", `/session/${sessionId}/resume`, {});
  const headers = { "x-qwen-client-id": attached.clientId };
  const events = new SseListener();
  await events.open(`${serve.url}/session/${sessionId}/events`, headers);
  await serve.expect(
    202,
    "POST",
    `/session/${sessionId}/prompt`,
    { prompt: [{ type: "text", text: "Again" }] },
    headers,
  );
  await events.waitFor((f) => f.event === "permission_request", { what: "permission_request" });
  events.close();
  await serve.expect(204, "DELETE", `/session/${sessionId}`, undefined, headers);
  const loadAt = performance.now();
  const loaded = await serve.expect(200, "POST", `/session/${sessionId}/load`, {}, headers);
  const live = new SseListener();
  await live.open(`${serve.url}/session/${sessionId}/events`, { "x-qwen-client-id": loaded.clientId });
  const asked = await live.waitFor((f) => f.event === "permission_request", { what: "re-asked question" });
  const took = asked.at - loadAt;
  // Answered (untimed), so the session ends idle.
  const vote = `/session/${sessionId}/permission/${asked.json.data.requestId}`;
  await serve.expect(200, "POST", vote, ANSWER_VOTE, { "x-qwen-client-id": loaded.clientId });
  await live.waitFor((f) => f.event === "turn_complete", { what: "turn end" });
  live.close();
  return took;
}

/** Durable appends per second: `sessions` logs written at once, `perSession` appends each, in order. */
async function appendRate(storage, cwd, sessions, perSession) {
  const item = { type: "assistant", message: { role: "model", parts: [{ text: "x".repeat(200) }] } };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async (_, i) => {
      const log = storage.log({ cwd, sessionId: `bench-${sessions}-${i}` }, "transcript", (v) => v);
      for (let n = 0; n < perSession; n++) await log.append({ ...item, n }, { durable: true });
      await log.close();
    }),
  );
  return (sessions * perSession) / ((performance.now() - started) / 1000);
}

async function appendFigures(target) {
  const owner = { id: `bench_${process.pid}`, url: "http://127.0.0.1:0" };
  const storage = core.openStorage(target, { owner });
  await storage.ready();
  try {
    const cwd = scratchDir("qwen-bench-appends-");
    await appendRate(storage, cwd, 1, 20); // warm-up: connections, schema, lease rows
    const one = await appendRate(storage, cwd, 1, APPENDS);
    const many = await appendRate(storage, cwd, SESSIONS, Math.max(1, Math.round(APPENDS / 10)));
    return { one, many };
  } finally {
    await storage.close();
  }
}

const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
try {
  const rows = [];
  for (const [name, env, target] of [
    ["JSONL", {}, { kind: "jsonl", root: scratchDir("qwen-bench-jsonl-") }],
    ["PostgreSQL", { QWEN_STORAGE_URL: pg.url }, { kind: "postgres", url: pg.url }],
  ]) {
    const figures = await daemonFigures(env);
    const appends = await appendFigures(target);
    rows.push({ name, figures, appends });
  }
  console.log(`storage: JSONL vs PostgreSQL (${daemon.name}; medians of ${RUNS} runs, appends durable)`);
  console.log(`${"".padEnd(34)}${rows.map((r) => r.name.padStart(14)).join("")}`);
  const line = (label, value) =>
    console.log(`${label.padEnd(34)}${rows.map((r) => value(r).padStart(14)).join("")}`);
  line("prompt -> question shown", (r) => fmt(median(r.figures.promptToQuestion)));
  line("vote -> 200", (r) => fmt(median(r.figures.voteTo200)));
  line("load -> question re-asked", (r) => fmt(median(r.figures.loadToQuestion)));
  line("appends/s, one session", (r) => r.appends.one.toFixed(0));
  line(`appends/s, ${SESSIONS} sessions at once`, (r) => r.appends.many.toFixed(0));
} finally {
  await model.close();
  pg.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}
