// docs/storage.md with real processes: two daemons as two hosts (each its own QWEN_HOME and port, one
// PostgreSQL database, one workspace path), sessions stored in the database. Whatever happens to host A, host
// B loads A's session and keeps every promise of docs/restore.md: a waiting question is asked again and the
// answer continues the same turn, an acknowledged answer is delivered without asking, a frozen A blocks B
// (409 naming A) only until A's lease runs out and can write nothing once B took over, and a shell command A
// had started is reported as started, never run again. Leases are short here (LEASE_MS) so each case takes
// seconds; the fake model checks every request's tool-call pairing.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type OpenAIChatRequest,
  postgresSessionStorage,
  redactStorageUrl,
  type SessionLogKind,
  toolStartedResultUnknownText,
} from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  type FakeReply,
  lastMessage,
  messageText,
  RED_BLUE_QUESTION,
  reply,
} from "@qwen-daemon/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { ALLOW, linesOf } from "./crash/approval-run.js";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { usePostgres } from "./harness/postgres.js";
import { descendantsOf } from "./harness/process-tree.js";
import {
  createSession,
  openEvents,
  type Restored,
  restoreSession,
  sendPrompt,
  submitAnswers,
  vote,
} from "./harness/session-api.js";
import type { SseClient, SseFrame } from "./harness/sse-client.js";

const LEASE_MS = 2000;
const COUNTER = "counter.txt";
const ENV_DUMP = "env.txt";
const ANSWERED = "User has provided the following answers:\n\n**Color**: Blue";

/** The fake model: a tool result gets a closing text; "RUN" a shell command; anything else the question. */
function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`model saw: ${messageText(last)}`);
  if (messageText(last).startsWith("ENV"))
    return reply.toolCalls([{ name: "run_shell_command", args: { command: `env > ${ENV_DUMP}` } }]);
  if (messageText(last).startsWith("RUN"))
    return reply.toolCalls([
      { name: "run_shell_command", args: { command: `echo x >> ${COUNTER} && sleep 0.4` } },
    ]);
  return askUserQuestionCall([RED_BLUE_QUESTION]);
}

const pg = usePostgres(); // first: its afterEach (dropping the database) runs after the daemons are killed
const world = useE2eWorld(() => model);
const extraHomes: string[] = [];
afterEach(() => {
  for (const home of extraHomes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/** A daemon on its own "host": its own QWEN_HOME (A uses the world's), the test's database. */
function startHost(home: "A" | "B", extraArgs: string[] = []): Promise<DaemonProcess> {
  let qwenHome = world.env.qwenHome;
  if (home === "B") {
    qwenHome = realpathSync(mkdtempSync(join(tmpdir(), "qwen-e2e-hostb-")));
    extraHomes.push(qwenHome);
  }
  return world.env.startDaemon(
    [
      "--restore-ask-user-question",
      "--restore-pending-approvals",
      "--session-lease-ms",
      String(LEASE_MS),
      ...extraArgs,
    ],
    { QWEN_HOME: qwenHome, QWEN_STORAGE_URL: pg.database.url },
  );
}

/** Loads until the session is free (409 while another daemon's lease is live); returns the refusals seen. */
async function loadWhenFree(
  daemon: DaemonProcess,
  sessionId: string,
  clientId: string,
): Promise<{ restored: Restored; refusals: Record<string, unknown>[] }> {
  const refusals: Record<string, unknown>[] = [];
  const deadline = Date.now() + 10 * LEASE_MS;
  for (;;) {
    const res = await restoreSession(daemon, "load", sessionId, clientId);
    if (res.status === 200) return { restored: res.body, refusals };
    if (res.status !== 409 || Date.now() > deadline)
      throw new Error(`load answered ${res.status}: ${JSON.stringify(res.body)}`);
    refusals.push(res.body as unknown as Record<string, unknown>);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type RequestData = { requestId: string; toolCall: { toolCallId: string } };
const requestData = (frame: SseFrame) => frame.json?.data as unknown as RequestData;

/** How many items each of the session's logs holds in the database (read without an owner: no lease taken). */
async function logSizes(sessionId: string): Promise<Record<string, number>> {
  const storage = postgresSessionStorage({ url: pg.database.url });
  try {
    const sizes: Record<string, number> = {};
    for (const kind of ["transcript", "ledger", "answers", "prompts"] satisfies SessionLogKind[]) {
      const log = storage.log({ cwd: world.env.workspace, sessionId }, kind, (v) => v);
      sizes[kind] = (await log.exists()) ? (await log.read()).items.length : 0;
    }
    return sizes;
  } finally {
    await storage.close();
  }
}

/** The tool message the model was sent for `callId` in the requests after `from`. */
function toolResultSent(from: number, callId: string): string | undefined {
  for (const request of world.server.requests.slice(from) as OpenAIChatRequest[]) {
    const message = request.messages.find((m) => m.role === "tool" && m.tool_call_id === callId);
    if (message !== undefined) return messageText(message);
  }
  return undefined;
}

/** Answers the question B asked again; its turn ends (end_turn) and the stream is closed. */
async function answerBlue(
  b: DaemonProcess,
  sessionId: string,
  reAsked: RequestData,
  restored: Restored,
  live: SseClient,
): Promise<void> {
  const voted = await vote(
    b,
    sessionId,
    reAsked.requestId,
    restored.clientId,
    submitAnswers({ "0": "Blue" }),
  );
  expect(voted).toEqual({ status: 200, body: {} });
  const done = await live.waitForEvent("turn_complete");
  expect(done.json?.data).toMatchObject({ stopReason: "end_turn" });
  await live.close();
}

/** A webhook receiver on loopback that records each notification's body. */
async function webhook(): Promise<{ url: string; got: Record<string, unknown>[] }> {
  const got: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      got.push(JSON.parse(text));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}
const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** Polls `check` until it holds (bounded: a failure names `what`). */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * B (a new daemon) loads the session once A's lease ran out and follows the restored turn to its end, which
 * asks nobody; returns how many model requests came before the load, and B's (closed) event stream.
 */
async function finishOnBWithoutAsking(sessionId: string, clientId: string) {
  const b = await startHost("B");
  const requestsBefore = world.server.requests.length;
  const { restored } = await loadWhenFree(b, sessionId, clientId);
  const live = await openEvents(b, sessionId, { lastEventId: restored.lastEventId });
  await live.waitForEvent("turn_complete");
  expect(live.events("permission_request")).toEqual([]);
  await live.close();
  return { requestsBefore, live };
}

async function askOnA(a: DaemonProcess, prompt = "pick a color") {
  const { sessionId, clientId } = await createSession(a);
  const events = await openEvents(a, sessionId);
  await sendPrompt(a, sessionId, clientId, prompt);
  const asked = requestData(await events.waitForEvent("permission_request"));
  return { sessionId, clientId, events, ...asked };
}

describe("two daemons on one PostgreSQL database", () => {
  it("A's whole tree is SIGKILLed with a question waiting: B asks it again, the answer continues the turn", async () => {
    const a = await startHost("A");
    const { sessionId, clientId, events, requestId, toolCall } = await askOnA(a);
    await events.close();
    await a.kill9();

    const b = await startHost("B");
    const requestsBefore = world.server.requests.length;
    const { restored, refusals } = await loadWhenFree(b, sessionId, clientId);
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ code: "session_owned_elsewhere", owner: a.url });
    expect(restored.hasActivePrompt).toBe(true);
    const live = await openEvents(b, sessionId, { lastEventId: restored.lastEventId });
    const reAsked = requestData(await live.waitForEvent("permission_request"));
    expect(reAsked.requestId).not.toBe(requestId);
    expect(reAsked.toolCall.toolCallId).toBe(toolCall.toolCallId);
    await answerBlue(b, sessionId, reAsked, restored, live);
    // The same turn: the model got the answer as the question's own tool result (and the pairing check held).
    expect(toolResultSent(requestsBefore, toolCall.toolCallId)).toBe(ANSWERED);
  });

  it("A acknowledges an answer (200) and is killed at once: B's load delivers it without asking", async () => {
    const a = await startHost("A");
    const { sessionId, clientId, events, requestId, toolCall } = await askOnA(a);
    await events.close();
    // A's agent is frozen: it never writes the answer itself, only A's answer journal (in the database) has it.
    for (const pid of descendantsOf(a.pid)) process.kill(pid, "SIGSTOP");
    const voted = await vote(a, sessionId, requestId, clientId, submitAnswers({ "0": "Blue" }));
    expect(voted).toEqual({ status: 200, body: {} });
    await a.kill9();

    const { requestsBefore, live } = await finishOnBWithoutAsking(sessionId, clientId);
    expect(live.events("permission_resolved").map((f) => f.json?.data)).toEqual([
      expect.objectContaining({ answers: { "0": "Blue" }, source: "answer_journal" }),
    ]);
    expect(toolResultSent(requestsBefore, toolCall.toolCallId)).toBe(ANSWERED);
  });

  it("A is frozen: B is refused (409, owner A) until A's lease runs out, then takes over; A, resumed, writes nothing", async () => {
    const a = await startHost("A");
    const b = await startHost("B");
    const { sessionId, clientId, events: aEvents, toolCall } = await askOnA(a);
    const requestsBefore = world.server.requests.length;
    process.kill(a.pid, "SIGSTOP");
    let restored: Restored;
    let live: SseClient;
    let reAsked: RequestData;
    let beforeResume: Record<string, number>;
    try {
      const { status, body } = await restoreSession(b, "load", sessionId, clientId);
      expect({ status, body }).toEqual({
        status: 409,
        body: {
          error: `Session "${sessionId}" is owned by another daemon (${a.url})`,
          code: "session_owned_elsewhere",
          sessionId,
          owner: a.url,
        },
      });
      // B's session list comes from the database: A's session, waiting on a question, owned by A.
      const listed = await b.json<{ sessions: Record<string, unknown>[] }>(
        "GET",
        `/workspace/${encodeURIComponent(world.env.workspace)}/sessions`,
      );
      expect(listed.body.sessions).toEqual([
        expect.objectContaining({ sessionId, live: false, owner: a.url, pendingOnDisk: ["user_question"] }),
      ]);
      ({ restored } = await loadWhenFree(b, sessionId, clientId));
      live = await openEvents(b, sessionId, { lastEventId: restored.lastEventId });
      reAsked = requestData(await live.waitForEvent("permission_request"));
      beforeResume = await logSizes(sessionId);
    } finally {
      process.kill(a.pid, "SIGCONT");
    }
    // A learns at its next renewal: its clients are told who owns the session, later requests get 409.
    const told = await aEvents.waitForEvent("session_owned_elsewhere");
    expect(told.json?.data).toEqual({ sessionId, owner: b.url });
    const status = await a.json("GET", `/session/${sessionId}/status`);
    expect(status).toMatchObject({ status: 409, body: { code: "session_owned_elsewhere", owner: b.url } });
    // A did try to write (closing its prompt) and the database refused it: nothing of A's landed.
    const deadline = Date.now() + 10_000;
    while (!a.stderr.includes("SessionFencedError") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(a.stderr).toContain("SessionFencedError");
    expect(await logSizes(sessionId)).toEqual(beforeResume);
    await aEvents.close();

    // B continues the transcript: the answer ends the same turn, and the model's history stays valid.
    await answerBlue(b, sessionId, reAsked, restored, live);
    expect(toolResultSent(requestsBefore, toolCall.toolCallId)).toBe(ANSWERED);
  });

  it("a shell command approved on A and killed after its start record: B reports it started, never runs it again", async () => {
    writeFileSync(join(world.env.workspace, COUNTER), "");
    const a = await startHost("A");
    const { sessionId, clientId, events, requestId, toolCall } = await askOnA(a, "RUN the counter");
    // The start record is durable before this update goes out, and the command is still running.
    const started = events.waitFor((f) => {
      const update = (f.json?.data as { update?: { sessionUpdate?: string; status?: string } } | undefined)
        ?.update;
      return update?.sessionUpdate === "tool_call_update" && update.status === "in_progress";
    });
    expect(await vote(a, sessionId, requestId, clientId, ALLOW)).toEqual({ status: 200, body: {} });
    await started;
    await a.kill9();
    await events.close();

    const { requestsBefore } = await finishOnBWithoutAsking(sessionId, clientId);
    // B told the model the command started with an unknown outcome: B did not run it (a run would have
    // given its real result). A ran it at most once: the kill can land on either side of the command's own
    // write, and a shell spawned in the instant of the kill may finish it after.
    expect(toolResultSent(requestsBefore, toolCall.toolCallId)).toBe(
      toolStartedResultUnknownText("run_shell_command"),
    );
    expect(linesOf(world.env.workspace, COUNTER, "x")).toBeLessThanOrEqual(1);
  });

  it("a prompt A acknowledged (202) behind a waiting question and never started: B reports it with its text", async () => {
    const a = await startHost("A");
    const { sessionId, clientId, events } = await askOnA(a);
    const queued = await sendPrompt(a, sessionId, clientId, "then rename the button");
    await events.close();
    await a.kill9();
    const b = await startHost("B");
    const { restored } = await loadWhenFree(b, sessionId, clientId);
    const terminals = (restored as { promptTerminals?: Record<string, unknown>[] }).promptTerminals ?? [];
    expect(terminals).toContainEqual(
      expect.objectContaining({
        promptId: queued,
        terminal: "interrupted",
        code: "never_started",
        text: "then rename the button",
      }),
    );
  });

  it("a tool approval A acknowledged (200) with its agent frozen: B runs the tool once, without asking", async () => {
    writeFileSync(join(world.env.workspace, COUNTER), "");
    const a = await startHost("A");
    const { sessionId, clientId, events, requestId, toolCall } = await askOnA(a, "RUN the counter");
    await events.close();
    for (const pid of descendantsOf(a.pid)) process.kill(pid, "SIGSTOP");
    expect(await vote(a, sessionId, requestId, clientId, ALLOW)).toEqual({ status: 200, body: {} });
    await a.kill9();
    expect(linesOf(world.env.workspace, COUNTER, "x")).toBe(0);

    const { requestsBefore } = await finishOnBWithoutAsking(sessionId, clientId);
    expect(linesOf(world.env.workspace, COUNTER, "x")).toBe(1);
    expect(toolResultSent(requestsBefore, toolCall.toolCallId)).toBeDefined();
    expect(toolResultSent(requestsBefore, toolCall.toolCallId)).not.toBe(
      toolStartedResultUnknownText("run_shell_command"),
    );
  });

  it("never shows the database password: not in status, banner, logs, command lines, nor to the tools the agent runs", async () => {
    const password = decodeURIComponent(new URL(pg.database.url).password);
    expect(password.length).toBeGreaterThan(8);
    const a = await startHost("A");
    const status = await a.json<{ storage?: string }>("GET", "/daemon/status");
    expect(status.body.storage).toBe(redactStorageUrl(pg.database.url));
    expect(JSON.stringify(status.body)).not.toContain(password);
    const { sessionId, clientId, events, requestId } = await askOnA(a, "ENV dump");
    expect(await vote(a, sessionId, requestId, clientId, ALLOW)).toEqual({ status: 200, body: {} });
    await events.waitForEvent("turn_complete");
    await events.close();
    const children = descendantsOf(a.pid);
    expect(children.length).toBeGreaterThan(0);
    for (const pid of [a.pid, ...children])
      expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(password);
    const toolEnv = readFileSync(join(world.env.workspace, ENV_DUMP), "utf8");
    expect(toolEnv).toContain("OPENAI_MODEL="); // the dump is the tool's environment
    expect(toolEnv).not.toContain(password);
    expect(toolEnv).not.toContain("QWEN_STORAGE");
    expect(`${a.stdout}${a.stderr}`).toContain("storage:    postgres://");
    expect(`${a.stdout}${a.stderr}`).not.toContain(password);
  });

  it("a notification due when A died is delivered by the next daemon from the outbox in the database, once", async () => {
    const hook = await webhook();
    const notify = ["--notify-webhook", hook.url, "--notify-delay-ms", "1500"];
    const a = await startHost("A", notify);
    const { sessionId, events, toolCall } = await askOnA(a);
    const outbox = () => pg.database.select("SELECT key, owner_id FROM qwen_outbox_item");
    await until("A scheduled the notification", async () => (await outbox()).length === 1);
    await events.close();
    await a.kill9();
    expect(hook.got).toEqual([]);
    // Two daemons open the outbox and nobody loads the session: one of them claims A's notification once
    // A's claim ran out, delivers it and closes it; the other never gets it.
    await startHost("B", notify);
    await startHost("B", notify);
    await until("the notification delivered and closed", async () => (await outbox()).length === 0);
    expect(hook.got).toEqual([
      expect.objectContaining({ id: `${sessionId}:${toolCall.toolCallId}`, type: "question_waiting" }),
    ]);
  });
});
