// The project's own fuzz suite: thousands of seeded hostile requests across every route against a real
// `qwen serve` (real ACP child, the fake model over HTTP) while a question waits, then a race of valid votes
// on it. Reproducible: QWEN_FUZZ_SEED picks the run (the seed is printed), QWEN_FUZZ_REQUESTS its size.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeOpenAIServer,
  lastMessage,
  messageText,
  reply,
  startFakeOpenAIServer,
} from "@qwen-daemon/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, unparsableJsonlLines } from "./fuzz/fuzz-invariants.js";
import { type FuzzTarget, type HostileRequest, HostileRequestSource } from "./fuzz/hostile-requests.js";
import { Prng } from "./fuzz/prng.js";
import { HostileSender, type Outcome } from "./fuzz/sender.js";
import { DaemonProcess } from "./harness/daemon-process.js";
import { residentMemoryMb } from "./harness/process-tree.js";
import {
  createSession,
  getStatus,
  openEvents,
  sendPrompt,
  submitAnswers,
  vote,
} from "./harness/session-api.js";
import type { SseClient } from "./harness/sse-client.js";
import { requestIdOf } from "./harness/sse-views.js";

const SEED = Number(process.env.QWEN_FUZZ_SEED ?? 0x5eed10);
/** Two rounds (one question each): 10,000 requests by default. */
const REQUESTS_PER_ROUND = Number(process.env.QWEN_FUZZ_REQUESTS ?? 5000);
const CONCURRENCY = 16;
const RACERS = 8;
/** A round that takes longer than this fails (the suite must stay bounded in time; more on a crowded machine). */
const ROUND_DEADLINE_MS = Number(process.env.QWEN_FUZZ_ROUND_DEADLINE_MS ?? 150_000);

type Sent = { index: number; request: HostileRequest; outcome: Outcome };

let model: FakeOpenAIServer;
beforeAll(async () => {
  model = await startFakeOpenAIServer({
    handler: (request) => {
      const last = lastMessage(request);
      if (last?.role === "tool") return reply.text(`Noted: ${messageText(last)}`);
      if (messageText(last).includes("ASK"))
        return askUserQuestionCall([DEFAULT_QUESTION], { text: "One question." });
      return reply.text("Plain answer.");
    },
  });
});
afterAll(() => model?.close());

describe("fuzz: hostile requests against a real daemon while a question waits", () => {
  it(`${2 * REQUESTS_PER_ROUND} seeded requests (seed ${SEED}): no 5xx, no crash, nothing refused takes effect, one racing vote wins`, async () => {
    console.log(`fuzz seed ${SEED} (QWEN_FUZZ_SEED=${SEED} repeats this run)`);
    const root = realpathSync(mkdtempSync(join(tmpdir(), "qwen-fuzz-")));
    const workspace = join(root, "ws");
    const home = join(root, "home");
    mkdirSync(workspace);
    mkdirSync(home);
    const daemon = await DaemonProcess.start({
      cwd: workspace,
      args: ["--no-web", "--restore-ask-user-question", "--max-sessions", "0"],
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test", OPENAI_MODEL: "fake", QWEN_HOME: home },
    });
    let failed = true;
    try {
      const first = await createSession(daemon);
      const victim = first.sessionId;
      const registered = [first.clientId];
      for (let i = 0; i < 2; i += 1) {
        const attached = await createSession(daemon);
        expect(attached).toMatchObject({ sessionId: victim, attached: true });
        registered.push(attached.clientId);
      }
      const events = await openEvents(daemon, victim);
      const source = new HostileRequestSource(new Prng(SEED));
      const sender = new HostileSender(daemon.port, CONCURRENCY);
      const sent: Sent[] = [];
      try {
        for (let round = 1; round <= 2; round += 1) {
          const promptId = await sendPrompt(daemon, victim, registered[0], `ASK round ${round}`);
          const asked = await events.waitFor(
            (f) => f.event === "permission_request" && f.json?.promptId === promptId,
            20_000,
            `the question of round ${round}`,
          );
          const requestId = requestIdOf(asked);
          const target: FuzzTarget = { victim, registered, requestId, workspace };
          sent.push(...(await fuzzRound(source, sender, target, sent.length)));

          // Nothing the fuzz sent was allowed to touch the question, the session or its clients.
          const status = await getStatus(daemon, victim);
          expect(status.pendingInteractions.map((p) => p.requestId)).toEqual([requestId]);
          for (const clientId of registered) {
            const beat = await daemon.json(
              "POST",
              `/session/${victim}/heartbeat`,
              {},
              { "x-qwen-client-id": clientId },
            );
            expect(beat.status, `client ${clientId} still registered`).toBe(200);
          }
          expect(events.events("permission_resolved")).toHaveLength(round - 1);

          await raceVotes(daemon, victim, requestId, events, promptId, round);
        }
      } finally {
        sender.close();
        await events.close();
      }

      console.log(`fuzz: ${sent.length} requests, ${summarise(sent)}`);
      // What the storm left the daemon holding, for BENCHMARKS.md (printed, never asserted).
      const held = await daemon.json<{ memory: { heapUsed: number } }>("GET", "/daemon/status");
      const memory = residentMemoryMb(daemon.pid);
      console.log(
        `fuzz: daemon after the storm: RSS ${memory.rss.toFixed(1)} MB (peak ${memory.peak.toFixed(1)} MB), ` +
          `heapUsed ${(held.body.memory.heapUsed / 2 ** 20).toFixed(1)} MB`,
      );
      const serverErrors = sent.filter((s) => s.outcome.statuses.some((status) => status >= 500));
      expect(serverErrors.map(describeSent)).toEqual([]);
      const accepted = sent.filter(
        (s) =>
          s.request.kind === "http" &&
          s.request.guard !== undefined &&
          s.outcome.statuses.some((st) => st >= 200 && st < 300),
      );
      expect(accepted.map(describeSent)).toEqual([]);
      expect(sent.length).toBeGreaterThanOrEqual(2 * REQUESTS_PER_ROUND);

      // No crash: the daemon runs, its one child was never replaced, no session died.
      expect(daemon.child.exitCode).toBeNull();
      const diag = await daemon.json<{ children: { spawned: number } }>("GET", "/daemon/status");
      expect(diag.body.children.spawned).toBe(1);
      expect(events.events("session_died")).toEqual([]);
      expect(daemon.stderr).not.toMatch(/unhandled error/);

      // Files: only transcripts, ledgers and answer journals, in the project's chats folder; all lines JSON.
      const files = filesUnder(root);
      const unexpected = files.filter(
        (f) => !/^home\/projects\/[^/]+\/chats\/[A-Za-z0-9._-]+\.jsonl$/.test(f),
      );
      expect(unexpected).toEqual([]);
      expect(files.some((f) => f.endsWith(`${victim}.jsonl`))).toBe(true);
      expect(unparsableJsonlLines(home)).toEqual([]);
      // The only questions ever asked are the two rounds' (no prompt the fuzz sent got to ask one).
      const transcript = readFileSync(
        files.map((f) => join(root, f)).find((f) => f.endsWith(`/${victim}.jsonl`)) as string,
        "utf8",
      );
      expect(transcript.match(/"name":"ask_user_question","args"/g)).toHaveLength(2);
      failed = false;
    } finally {
      await daemon.kill9();
      if (failed) console.error(`fuzz: kept ${root}; daemon stderr tail:\n${daemon.stderr.slice(-4000)}`);
      else rmSync(root, { recursive: true, force: true });
    }
  }, 600_000);
});

/** `count` requests of the source, CONCURRENCY at a time. */
async function fuzzRound(
  source: HostileRequestSource,
  sender: HostileSender,
  target: FuzzTarget,
  offset: number,
): Promise<Sent[]> {
  const deadline = Date.now() + ROUND_DEADLINE_MS;
  const out: Sent[] = [];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS_PER_ROUND) {
      if (Date.now() > deadline)
        throw new Error(`fuzz round over ${ROUND_DEADLINE_MS} ms after ${out.length} requests`);
      const index = offset + next;
      next += 1;
      const request = source.next(target);
      out.push({ index, request, outcome: await sender.send(request) });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

/**
 * RACERS registered clients answer the waiting question at once, each with its own answer: exactly one is
 * accepted, the others get 404, and the winner's answer (and no other) reaches the model as the tool result.
 */
async function raceVotes(
  daemon: DaemonProcess,
  sessionId: string,
  requestId: string,
  events: SseClient,
  promptId: string,
  round: number,
): Promise<void> {
  const racers: string[] = [];
  for (let i = 0; i < RACERS; i += 1) racers.push((await createSession(daemon)).clientId);
  const before = model.requests.length;
  const answers = racers.map((_, i) => `racer-${round}-${i}`);
  const results = await Promise.all(
    racers.map((clientId, i) =>
      vote(daemon, sessionId, requestId, clientId, submitAnswers({ "0": answers[i] as string })),
    ),
  );
  const winners = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
  expect(winners, JSON.stringify(results)).toHaveLength(1);
  expect(results.filter((r) => r.status === 404)).toHaveLength(RACERS - 1);
  await events.waitForTurnComplete(promptId, `turn_complete of round ${round}`);
  const toolResults = model.requests
    .slice(before)
    .map((r) => lastMessage(r))
    .filter((m) => m?.role === "tool")
    .map((m) => messageText(m));
  const winner = answers[winners[0] as number] as string;
  expect(toolResults).toEqual([`User has provided the following answers:\n\n**Color**: ${winner}`]);
  const everything = JSON.stringify(model.requests);
  for (const loser of answers.filter((a) => a !== winner)) expect(everything).not.toContain(loser);
}

/** Statuses by class, for the log: "2xx 1200, 4xx 8000, ...". */
function summarise(sent: readonly Sent[]): string {
  const counts = new Map<string, number>();
  for (const s of sent) {
    const key =
      s.outcome.statuses.length === 0 ? "no answer" : `${String(s.outcome.statuses[0]).charAt(0)}xx`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
}

function describeSent(s: Sent): string {
  const r = s.request;
  const what =
    r.kind === "raw"
      ? `raw ${JSON.stringify(r.bytes.slice(0, 120))}`
      : `${r.method} ${r.path.slice(0, 160)} headers=${JSON.stringify(r.headers).slice(0, 200)} body=${(r.body ?? "").slice(0, 160)}`;
  return `#${s.index} ${r.note}: ${what} -> ${s.outcome.statuses.join(",")} ${s.outcome.errorBody ?? ""}`;
}
