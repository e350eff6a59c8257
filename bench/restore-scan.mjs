// Restore-scan benchmark: the eligibility scan must cost the same on a 10-entry and a 1,000,000-entry
// history, because it reads only the last entry (docs/restore.md "When it happens, and when not").
//
// Run from the repository root (no build needed):
//   node --conditions=source --import tsx bench/restore-scan.mjs
//
// Prints, per history length, the median time of one call over many timed batches, for the scan on a
// live chat's last entry and for the cold-replay path (last message from transcript records).
import {
  findRestorableAskUserQuestion,
  lastHistoryContentFromRecords,
  restorableAskUserQuestionCallIds,
} from "../packages/core/src/history/index.ts";
import { DEFAULT_QUESTION } from "../packages/core/src/testing/index.ts";

const SIZES = [10, 1_000_000];
const BATCHES = 101;
const CALLS_PER_BATCH = 10_000;

const auqArgs = { questions: [DEFAULT_QUESTION] };

/** A history of `length` entries: alternating user text and model text, ending in an unanswered AUQ. */
function buildHistory(length) {
  const history = new Array(length);
  for (let i = 0; i < length - 1; i++) {
    history[i] =
      i % 2 === 0
        ? { role: "user", parts: [{ text: `prompt ${i}` }] }
        : { role: "model", parts: [{ text: `reply ${i}` }] };
  }
  history[length - 1] = {
    role: "model",
    parts: [
      { text: "Let me ask." },
      { functionCall: { id: "call-1", name: "ask_user_question", args: auqArgs } },
    ],
  };
  return history;
}

/** Transcript records mirroring the history, with two trailing system records the scan must skip. */
function buildRecords(history) {
  const base = {
    parentUuid: null,
    sessionId: "bench",
    timestamp: "2025-01-01T00:00:00.000Z",
    cwd: "/w",
    version: "0",
  };
  const records = history.map((message, i) => ({
    ...base,
    uuid: String(i),
    type: message.role === "user" ? "user" : "assistant",
    message,
  }));
  records.push({ ...base, uuid: "s1", type: "system", subtype: "turn_result" });
  records.push({ ...base, uuid: "s2", type: "system", subtype: "session_meta" });
  return records;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Median nanoseconds per call of each fn, over BATCHES batches of CALLS_PER_BATCH calls. The fns are
 * timed in turn inside every batch, so machine load drifting during the run hits every size alike.
 */
function measureInterleaved(fns) {
  const perCall = fns.map(() => []);
  let sink = 0;
  for (const fn of fns) for (let i = 0; i < CALLS_PER_BATCH; i++) sink += fn() ? 1 : 0; // warm-up (JIT)
  for (let b = 0; b < BATCHES; b++) {
    fns.forEach((fn, k) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < CALLS_PER_BATCH; i++) sink += fn() ? 1 : 0;
      perCall[k].push(Number(process.hrtime.bigint() - start) / CALLS_PER_BATCH);
    });
  }
  if (sink === 0) throw new Error("the scan found nothing: the benchmark history is wrong");
  return perCall.map(median);
}

const cases = SIZES.map((size) => {
  const history = buildHistory(size);
  const records = buildRecords(history);
  const found = findRestorableAskUserQuestion(history[history.length - 1]);
  if (found?.functionCalls.length !== 1) throw new Error(`expected one restorable call at size ${size}`);
  return { size, history, records };
});

const columns = {
  "findRestorableAskUserQuestion(last)":
    ({ history }) =>
    () =>
      findRestorableAskUserQuestion(history[history.length - 1]),
  "restorableAskUserQuestionCallIds(last)":
    ({ history }) =>
    () =>
      restorableAskUserQuestionCallIds(history.at(-1)),
  "cold: find(lastHistoryContentFromRecords)":
    ({ records }) =>
    () =>
      findRestorableAskUserQuestion(lastHistoryContentFromRecords(records)),
};

const rows = cases.map(({ size }) => ({ entries: size.toLocaleString("en-US") }));
for (const [name, make] of Object.entries(columns)) {
  const medians = measureInterleaved(cases.map(make));
  medians.forEach((ns, k) => {
    rows[k][`${name} ns/call`] = ns.toFixed(0);
  });
}

console.log(
  `restore scan: median ns per call over ${BATCHES} batches x ${CALLS_PER_BATCH} calls (node ${process.version})`,
);
console.table(rows);
