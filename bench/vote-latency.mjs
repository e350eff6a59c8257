#!/usr/bin/env node
// A vote's latency beside the reference's, measured in one run (issue 21's target: a vote's median and p99 no
// slower than the reference's, fsync included). Both daemons run at once against the same fake model, and
// their question turns alternate (ours, the reference's, ...; each round starting with the next one), so both
// see the same machine load. Per turn: vote POST -> HTTP 200 (ours answers only once the answer is durable;
// the reference fsyncs nothing) and vote POST -> the `permission_resolved` frame. Prints each one's median,
// p90 and p99, and ours / reference.
//
// Usage (from the repository root, after `npm run build`): node bench/vote-latency.mjs [--runs 100]
//   [--baseline <dir>]
// The reference is qwen-code 0.24.4 on Node 22 (e2e/interop/setup-reference.sh); without it only ours runs,
// and the output says so. `--baseline <dir>` runs another build of ours beside them (a built copy of the
// repository, e.g. main before a change), its turns in the same rotation: a before/after under one load.
// `--same-node` also runs ours on the reference's Node 22, in the same rotation: the daemons compared on one
// runtime (ours otherwise runs on the Node running this script).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchModel } from "./bench-model.mjs";
import { openSession, questionTurn } from "./question-turn.mjs";
import { baselineBuild, benchEnv, daemonUnderTest, oursOnReferenceNode, startServe } from "./qwen-serve.mjs";
import { fmtMs, median, percentile } from "./stats.mjs";

const runsAt = process.argv.indexOf("--runs");
const RUNS = runsAt === -1 ? 100 : Number(process.argv[runsAt + 1]);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer; got ${RUNS}`);
const WARMUP = 5;

const daemons = [daemonUnderTest([])];
try {
  daemons.push(daemonUnderTest(["--reference"]));
} catch (error) {
  console.log(`reference not measured: ${error.message}`);
}
if (process.argv.includes("--same-node")) daemons.push(oursOnReferenceNode());
const baselineAt = process.argv.indexOf("--baseline");
if (baselineAt !== -1) daemons.push(baselineBuild(process.argv[baselineAt + 1]));

const model = await startBenchModel();
const scratch = [];
const running = [];
try {
  for (const daemon of daemons) {
    // realpath: the daemon compares cwd strings, and /tmp may be a symlink on some machines.
    const home = realpathSync(mkdtempSync(join(tmpdir(), "qwen-bench-home-")));
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "qwen-bench-ws-")));
    scratch.push(home, cwd);
    const serve = await startServe({ daemon, cwd, env: benchEnv(home, model.url) });
    // Stopped by the finally below even when its session cannot be opened.
    const run = { daemon, serve, session: undefined, turns: [] };
    running.push(run);
    run.session = await openSession(serve);
  }
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // Each round starts with the next daemon, so each one's turns follow each other's equally often: a
    // daemon's turn must not always land on the same neighbour's leftover work (its agent still writing,
    // its GC). A precaution: with three daemons, fixed and rotating orders gave the same ratios.
    for (let k = 0; k < running.length; k++) {
      const run = running[(i + k) % running.length];
      const turn = await questionTurn(run.serve, run.session);
      if (i >= WARMUP) run.turns.push(turn);
    }
  }

  console.log(
    `vote latency, ${RUNS} turns each after ${WARMUP} warm-up, turns alternating between the daemons`,
  );
  const stats = (xs) => ({ median: median(xs), p90: percentile(xs, 90), p99: percentile(xs, 99) });
  const rows = [
    ["vote POST -> HTTP 200", (t) => t.voteToHttp200],
    ["vote POST -> permission_resolved frame", (t) => t.voteToResolved],
  ];
  for (const [what, pick] of rows) {
    console.log(`\n${what}`);
    const measured = running.map((run) => ({
      name: run.daemon.name,
      reference: run.daemon.reference,
      ...stats(run.turns.map(pick)),
    }));
    for (const m of measured)
      console.log(
        `  ${m.name.padEnd(40)} median ${fmtMs(m.median).padStart(9)}   p90 ${fmtMs(m.p90).padStart(9)}   p99 ${fmtMs(m.p99).padStart(9)}`,
      );
    const reference = measured.find((m) => m.reference);
    if (reference !== undefined)
      for (const m of measured) {
        if (m === reference) continue;
        console.log(
          `  ${m.name} / reference: median ${(m.median / reference.median).toFixed(2)}x, p99 ${(m.p99 / reference.p99).toFixed(2)}x (target <= 1.00x)`,
        );
      }
  }
} finally {
  for (const run of running) {
    run.session?.events.close();
    await run.serve.stop();
  }
  await model.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
}
