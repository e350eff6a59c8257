// Notifications from the daemon with a loopback receiver: `qwen serve --notify-webhook` (and
// `--notify-command`) tell a person that the agent waits, after `--notify-delay-ms` if still unanswered;
// one event per waiting question under its stable id (session + tool call), told again with the same id
// when a restored daemon asks it again; a receiver that fails is retried and never holds up a turn; a
// notification due when the daemon was SIGKILLed is delivered by the next daemon from its outbox.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { askQuestion } from "./harness/question-scenario.js";
import {
  expectRestored,
  sendPrompt,
  submitAnswers,
  vote,
  waitForStatus,
  waitingQuestion,
} from "./harness/session-api.js";

const world = useE2eWorld();

type Received = { at: number; body: Record<string, unknown>; headers: IncomingMessage["headers"] };

/** A webhook receiver on loopback; `answer` decides each response (it may also never answer). */
async function receiver(answer: (n: number, res: ServerResponse) => void = (_n, res) => res.end()) {
  const got: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => {
      text += c;
    });
    req.on("end", () => {
      got.push({ at: Date.now(), body: JSON.parse(text), headers: req.headers });
      for (const w of waiters.splice(0)) w();
      answer(got.length, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  receivers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  /** Waits until `count` requests arrived (bounded). */
  const until = async (count: number, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (got.length < count) {
      if (Date.now() > deadline)
        throw new Error(`receiver: ${got.length} of ${count} requests after ${ms} ms`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return got;
  };
  return { url, got, until };
}
const receivers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const r of receivers.splice(0)) {
    r.closeAllConnections();
    r.close();
  }
});

const ofType = (got: Received[], type: string) => got.filter((r) => r.body.type === type);

/** Waits until the daemon's outbox ($QWEN_HOME/notify/outbox.jsonl) holds a line matching `pattern`. */
async function outboxHas(pattern: RegExp): Promise<void> {
  const path = join(world.env.qwenHome, "notify", "outbox.jsonl");
  await expect
    .poll(
      () => {
        try {
          return pattern.test(readFileSync(path, "utf8"));
        } catch {
          return false;
        }
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

describe("qwen serve notifications", () => {
  it("waits the delay, then tells a still-unanswered question once, by its stable id", async () => {
    const hook = await receiver();
    const daemon = await world.env.startDaemon(["--notify-webhook", hook.url, "--notify-delay-ms", "800"]);
    const asked = await askQuestion(daemon);
    // When the daemon asked, by its own clock (the event's timestamp): the test sees the question later, by as
    // much as a loaded machine makes it, and that lag must not count against the delay.
    const meta = asked.permissionRequest.json?._meta as { serverTimestamp?: number } | undefined;
    const askedAt = Number(meta?.serverTimestamp);
    const [first] = await hook.until(1);
    // Not before the delay (a few ms for two processes reading the clock).
    expect(first!.at - askedAt).toBeGreaterThanOrEqual(800 - 5);
    expect(first!.body).toMatchObject({
      v: 1,
      id: `${asked.sessionId}:${asked.callId}`,
      type: "question_waiting",
      title: "Which color should the button be?",
      sessionId: asked.sessionId,
      workspace: world.env.workspace,
      url: `${daemon.url}/#session=${asked.sessionId}`,
      requestId: asked.requestId,
      toolCallId: asked.callId,
      restored: false,
      questions: [
        { question: "Which color should the button be?", header: "Color", options: ["Blue", "Green"] },
      ],
    });
    expect(first!.headers["x-qwen-notification-id"]).toBe(`${asked.sessionId}:${asked.callId}`);

    // Answered: the turn ends and is told at once; the question is never told twice.
    expect(
      (await vote(daemon, asked.sessionId, asked.requestId, asked.clientId, submitAnswers({ "0": "Green" })))
        .status,
    ).toBe(200);
    await asked.events.waitForEvent("turn_complete");
    await hook.until(2);
    expect(ofType(hook.got, "turn_completed")).toHaveLength(1);

    // A second question answered within the delay is never told.
    const promptId = await sendPrompt(daemon, asked.sessionId, asked.clientId, "ASK again");
    const request = await asked.events.waitFor(
      (f) => f.event === "permission_request" && f.json?.promptId === promptId,
      20_000,
      "the second question",
    );
    const requestId = String((request.json?.data as { requestId?: string } | undefined)?.requestId);
    expect(
      (await vote(daemon, asked.sessionId, requestId, asked.clientId, submitAnswers({ "0": "Blue" }))).status,
    ).toBe(200);
    await hook.until(3);
    await new Promise((r) => setTimeout(r, 1200));
    expect(ofType(hook.got, "question_waiting").map((r) => r.body.id)).toEqual([
      `${asked.sessionId}:${asked.callId}`,
    ]);
    expect(ofType(hook.got, "turn_completed")).toHaveLength(2);
    await asked.events.close();
  }, 60_000);

  it("a question told before a restart is not told again when the restored daemon asks it again", async () => {
    const hook = await receiver();
    const args = ["--restore-ask-user-question", "--notify-webhook", hook.url];
    const first = await world.env.startDaemon(args);
    const asked = await askQuestion(first);
    await hook.until(1);
    // Delivery is at least once: a kill before the daemon noted the delivery would send it again; here it did.
    await outboxHas(/"op":"told"/);
    await asked.events.close();
    await first.kill9();
    const second = await world.env.startDaemon(args);
    const { clientId } = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const again = waitingQuestion(
      await waitForStatus(second, asked.sessionId, (st) => st.isWaitingForUserQuestion),
    );
    expect(again.requestId).not.toBe(asked.requestId);
    expect(
      (await vote(second, asked.sessionId, again.requestId, clientId, submitAnswers({ "0": "Green" })))
        .status,
    ).toBe(200);
    // The turn's end is told after anything planned before it (the outbox is written in order, and a
    // delivery waits for its line): by then a second push of the question would have gone out.
    await expect.poll(() => ofType(hook.got, "turn_completed").length, { timeout: 20_000 }).toBe(1);
    expect(hook.got.map((r) => [r.body.type, r.body.id, r.body.restored])).toEqual([
      ["question_waiting", `${asked.sessionId}:${asked.callId}`, false],
      ["turn_completed", expect.stringContaining(`${asked.sessionId}:turn:`), false],
    ]);
  }, 60_000);

  it("retries a receiver that fails, and a receiver that hangs never holds up a turn", async () => {
    let release: (() => void) | undefined;
    let questionTries = 0;
    const hook = await receiver((n, res) => {
      // Turn events are taken at once; the question's first try hangs (until the test lets it go, then 503),
      // its second gets a 500, its third is taken.
      if (hook.got[n - 1]?.body.type !== "question_waiting") return void res.end();
      questionTries += 1;
      if (questionTries === 1) {
        release = () => {
          res.statusCode = 503;
          res.end();
        };
        return;
      }
      res.statusCode = questionTries === 2 ? 500 : 200;
      res.end();
    });
    const daemon = await world.env.startDaemon(["--notify-webhook", hook.url]);
    const asked = await askQuestion(daemon);
    await hook.until(1);
    // The receiver still holds the first delivery: the session goes on regardless.
    expect(
      (await vote(daemon, asked.sessionId, asked.requestId, asked.clientId, submitAnswers({ "0": "Green" })))
        .status,
    ).toBe(200);
    await asked.events.waitForEvent("turn_complete");
    const promptId = await sendPrompt(daemon, asked.sessionId, asked.clientId, "Just answer, please");
    await asked.events.waitFor(
      (f) => f.event === "turn_complete" && f.json?.promptId === promptId,
      20_000,
      "the second turn's end",
    );
    expect(release).toBeDefined();
    release?.();
    // 503, then 500, then delivered: the question's id arrives three times (the receiver deduplicates).
    const got = await hook.until(3);
    const id = `${asked.sessionId}:${asked.callId}`;
    await expect.poll(() => hook.got.filter((r) => r.body.id === id).length, { timeout: 20_000 }).toBe(3);
    expect(got[0]!.body.id).toBe(id);
    // The failures are in the log.
    expect(daemon.stderr).toMatch(
      /notify: question_waiting .* to the webhook failed \(attempt 1\): the webhook answered 503/,
    );
    await asked.events.close();
  }, 60_000);

  it("delivers after a restart a notification that was due when the daemon was SIGKILLed", async () => {
    const hook = await receiver();
    const args = ["--notify-webhook", hook.url, "--notify-delay-ms", "1500"];
    const first = await world.env.startDaemon(args);
    const asked = await askQuestion(first);
    // Scheduled: written and fsynced to the outbox (within milliseconds of the question appearing).
    await outboxHas(/"op":"add"/);
    await asked.events.close();
    await first.kill9();
    expect(hook.got).toEqual([]);
    // Nobody loads the session: the next daemon delivers from its outbox alone.
    await world.env.startDaemon(args);
    const [delivered] = await hook.until(1);
    expect(delivered!.body).toMatchObject({
      id: `${asked.sessionId}:${asked.callId}`,
      type: "question_waiting",
    });
  }, 60_000);

  it("runs --notify-command with the event on stdin", async () => {
    const out = join(world.env.workspace, "notified.jsonl");
    const script = `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>require("fs").appendFileSync(${JSON.stringify(out)},s))`;
    const daemon = await world.env.startDaemon([
      "--notify-command",
      JSON.stringify([process.execPath, "-e", script]),
    ]);
    const asked = await askQuestion(daemon);
    await expect
      .poll(
        () => {
          try {
            return readFileSync(out, "utf8").trim().split("\n").length;
          } catch {
            return 0;
          }
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({
      id: `${asked.sessionId}:${asked.callId}`,
      type: "question_waiting",
    });
    await asked.events.close();
  }, 60_000);
});
