// Answers from a notification with real processes: a loopback "phone" (harness/phone.ts) gets the webhook and
// follows its actions through a reverse proxy that serves the daemon under /qwen/ (`--public-url`). A POST
// answers; a GET alone changes nothing; a second use is refused with the first answer shown; tampered,
// expired and foreign capabilities change nothing; the daemon SIGKILLed between the notification and the tap:
// the tap still answers and the same turn goes on; an approval tapped "Allow once" runs exactly once; the
// permission policies are honoured.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type OpenAIChatRequest, outboxPath } from "@qwen-daemon/core";
import {
  askUserQuestionCall,
  DEFAULT_QUESTION,
  type FakeReply,
  lastMessage,
  messageText,
  reply,
} from "@qwen-daemon/core/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signCapability } from "../packages/daemon/src/links/capability.js";
import { CLI_ENTRY, type DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { type Notification, Phone } from "./harness/phone.js";
import { answeredText } from "./harness/protocol-texts.js";
import { askQuestion } from "./harness/question-scenario.js";
import { createSession, getStatus, openEvents, sendPrompt } from "./harness/session-api.js";
import { readLedger, readTranscript } from "./harness/session-files.js";

const COUNTER = "counter.txt";

/** A second part for the answer page: a multi-select, so the notification carries one "Answer" link. */
const PARTS_QUESTION = {
  question: "Which parts should change?",
  header: "Parts",
  options: [
    { label: "Border", description: "A thin outline." },
    { label: "Shadow", description: "A soft drop shadow." },
  ],
  multiSelect: true,
};

function model(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text(`Noted: ${messageText(last)}`);
  const text = messageText(last);
  if (text.startsWith("RUN")) {
    return reply.toolCalls([{ name: "run_shell_command", args: { command: `echo ran >> ${COUNTER}` } }]);
  }
  if (text.includes("PARTS"))
    return askUserQuestionCall([DEFAULT_QUESTION, PARTS_QUESTION], { text: "Two questions first." });
  if (text.includes("ASK")) return askUserQuestionCall([DEFAULT_QUESTION], { text: "A question first." });
  return reply.text("Done.");
}

const world = useE2eWorld(() => model);
const phones: Phone[] = [];
afterEach(() => {
  for (const p of phones.splice(0)) p.close();
});

async function phoneAndDaemon(
  args: string[] = [],
): Promise<{ phone: Phone; daemon: DaemonProcess; args: string[] }> {
  const phone = await Phone.start();
  phones.push(phone);
  const all = ["--notify-webhook", phone.hookUrl, "--public-url", `${phone.publicUrl}/`, ...args];
  const daemon = await world.env.startDaemon(all);
  phone.target = daemon.url;
  return { phone, daemon, args: all };
}

const waitingFor = (toolCallId: string) => (n: Notification) =>
  (n.type === "question_waiting" || n.type === "approval_waiting") && n.toolCallId === toolCallId;

const action = (n: Notification, label: string) => {
  const found = n.actions?.find((a) => a.label === label);
  if (!found) throw new Error(`no action ${label} in ${JSON.stringify(n.actions)}`);
  return found;
};

function linkKey(): Buffer {
  return Buffer.from(readFileSync(join(world.env.qwenHome, "notify", "link-key"), "utf8").trim(), "hex");
}

/** The tool results the model was given in this test, in order (the fake model serves the whole file). */
let firstRequest = 0;
beforeEach(() => {
  firstRequest = world.server.requests.length;
});
const toolResults = () =>
  world.server.requests.slice(firstRequest).flatMap((r) => {
    const last = r.messages.at(-1);
    return last?.role === "tool" ? [messageText(last)] : [];
  });

describe("answer links from notifications", () => {
  it("a POST answers; GET alone changes nothing; later uses show the first answer; bad capabilities change nothing", async () => {
    const { phone, daemon } = await phoneAndDaemon();
    const asked = await askQuestion(daemon);
    const told = await phone.until(waitingFor(asked.callId), "question_waiting");
    expect(told.actions?.map((a) => [a.label, a.method])).toEqual([
      ["Blue", "POST"],
      ["Green", "POST"],
      ["Decline", "POST"],
    ]);
    for (const a of told.actions ?? []) expect(a.url.startsWith(`${phone.publicUrl}/a/v1.`)).toBe(true);

    // A link preview or a curious tap: GET shows the question and the choice, and changes nothing.
    const green = action(told, "Green");
    const preview = await phone.tap(green.url, "GET");
    expect(preview.status).toBe(200);
    expect(preview.html).toContain("Which color should the button be?");
    expect(preview.html).toContain("Confirm: Green");
    expect((await getStatus(daemon, asked.sessionId)).isWaitingForUserQuestion).toBe(true);

    // Tampered (another label), expired, foreign (another key), junk: plain pages, nothing changes.
    const token = green.url.split("/a/")[1] as string;
    const [v, payload, sig] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const tampered = `${v}.${Buffer.from(JSON.stringify({ ...claims, l: "Blue" })).toString("base64url")}.${sig}`;
    const expired = signCapability(linkKey(), { ...claims, e: Math.floor(Date.now() / 1000) - 60 });
    const foreign = signCapability(randomBytes(32), claims);
    for (const [bad, status] of [
      [tampered, 404],
      [expired, 410],
      [foreign, 404],
      ["v1.junk", 404],
    ] as const) {
      const tap = await phone.tap(`${phone.publicUrl}/a/${bad}`);
      expect(tap.status, bad).toBe(status);
      expect(tap.html).toContain("Nothing was changed.");
    }
    expect((await getStatus(daemon, asked.sessionId)).isWaitingForUserQuestion).toBe(true);

    // The tap: 200 with a page, no redirect; the model gets the answer and the turn ends.
    const answered = await phone.tap(green.url);
    expect(answered.status).toBe(200);
    expect(answered.html).toContain("Green");
    await asked.events.waitForEvent("turn_complete");
    expect(toolResults()).toEqual([answeredText([["Color", "Green"]])]);

    // Every later use, on any action of that question, shows the first answer, by whom and when.
    for (const again of [green, action(told, "Blue"), action(told, "Decline")]) {
      const tap = await phone.tap(again.url);
      expect(tap.status).toBe(409);
      expect(tap.html).toMatch(
        /already answered with <strong>Green<\/strong> with the “Green” button of a notification on \d{4}-\d\d-\d\d at \d\d:\d\d UTC/,
      );
    }
    expect(toolResults()).toHaveLength(1);
    await asked.events.close();
  }, 90_000);

  it("the daemon SIGKILLed between the notification and the tap: the tap answers and the same turn goes on", async () => {
    const { phone, daemon, args } = await phoneAndDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestion(daemon);
    const told = await phone.until(waitingFor(asked.callId), "question_waiting");
    await asked.events.close();
    await daemon.kill9();

    // A new daemon on the same storage; nobody loads the session: the tap does.
    const second = await world.env.startDaemon(args);
    phone.target = second.url;
    const preview = await phone.tap(action(told, "Blue").url, "GET");
    expect(preview.status).toBe(200);
    expect(preview.html).toContain("Confirm: Blue");
    const tap = await phone.tap(action(told, "Blue").url);
    expect(tap.status, tap.html).toBe(200);
    await expect.poll(toolResults, { timeout: 30_000 }).toEqual([answeredText([["Color", "Blue"]])]);

    // The same turn: the answer is the question's real tool result, the model's reply follows it, and no new
    // user message was written; the original prompt is closed in the ledger.
    await expect
      .poll(
        () =>
          readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId)
            .filter((r) => r.type !== "system")
            .at(-1)?.message?.parts,
        { timeout: 30_000 },
      )
      .toEqual([{ text: `Noted: ${answeredText([["Color", "Blue"]])}` }]);
    const transcript = readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(transcript.filter((r) => r.type === "user")).toHaveLength(1);
    const result = transcript.find((r) => r.type === "tool_result");
    expect(JSON.stringify(result?.message?.parts)).toContain(asked.callId);
    expect(readLedger(world.env.qwenHome, world.env.workspace, asked.sessionId)[0]?.promptId).toBe(
      asked.promptId,
    );

    // Used again after all that: refused with the first answer.
    const again = await phone.tap(action(told, "Green").url);
    expect(again.status).toBe(409);
    expect(again.html).toContain("<strong>Blue</strong> with the “Blue” button of a notification");
  }, 120_000);

  it("the answer page of a question with several parts after a SIGKILL: GET changes nothing, the POST answers in the same turn, once, with no second push", async () => {
    const { phone, daemon, args } = await phoneAndDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestion(daemon, "PARTS: colour and parts");
    const told = await phone.until(waitingFor(asked.callId), "question_waiting");
    expect(told.actions?.map((a) => [a.label, a.method])).toEqual([["Answer", "GET"]]);
    const page = action(told, "Answer").url;
    // Killed once the outbox says it was delivered (a kill before that line is written sends it again).
    await expect.poll(() => readFileSync(outboxPath(world.env.qwenHome), "utf8")).toContain('"delivered"');
    await asked.events.close();
    await daemon.kill9();

    // A new daemon on the same storage; nobody loads the session. The page shows the whole question from
    // the saved history, and opening it (a link preview, a reload) writes nothing.
    const second = await world.env.startDaemon(args);
    phone.target = second.url;
    const transcriptLines = () =>
      readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId).length;
    const before = transcriptLines();
    for (let i = 0; i < 2; i++) {
      const shown = await phone.tap(page, "GET");
      expect(shown.status, shown.html).toBe(200);
      expect(shown.html).toContain("Which color should the button be?");
      expect(shown.html).toContain("Which parts should change?");
      expect(shown.html).toContain('name="q1" value="Shadow"');
    }
    expect(transcriptLines()).toBe(before);
    expect(toolResults()).toEqual([]);

    // The form as a browser posts it: the tap loads the session, the restore asks again, the answer settles it.
    const form = "q0=Green&q1=Border&q1=Shadow&q1_other=rounder+corners&do=submit";
    const sent = await phone.tap(page, "POST", form);
    expect(sent.status, sent.html).toBe(200);
    expect(sent.html).toContain("was recorded");
    const expected = answeredText([
      ["Color", "Green"],
      ["Parts", "Border, Shadow, rounder corners"],
    ]);
    await expect.poll(toolResults, { timeout: 30_000 }).toEqual([expected]);
    await expect
      .poll(
        () =>
          readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId)
            .filter((r) => r.type !== "system")
            .at(-1)?.message?.parts,
        { timeout: 30_000 },
      )
      .toEqual([{ text: `Noted: ${expected}` }]);
    const transcript = readTranscript(world.env.qwenHome, world.env.workspace, asked.sessionId);
    expect(transcript.filter((r) => r.type === "user")).toHaveLength(1);

    // The page again, and a second post: already answered, with the first answer; nothing more reaches the model.
    const again = await phone.tap(page, "POST", "q0=Blue&do=submit");
    expect(again.status).toBe(409);
    expect(again.html).toContain("Green; Border, Shadow, rounder corners");
    expect((await phone.tap(page, "GET")).html).toContain("This was already answered");
    expect(toolResults()).toHaveLength(1);

    // The question the restore asked again is the one the phone has: it was not pushed a second time.
    await second.kill9();
    expect(phone.got.filter(waitingFor(asked.callId)).map((n) => n.restored)).toEqual([false]);
  }, 120_000);

  it("an approval tapped Allow once (twice at once) runs exactly once", async () => {
    const { phone, daemon } = await phoneAndDaemon();
    const { sessionId, clientId } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    await sendPrompt(daemon, sessionId, clientId, "RUN it");
    const request = await events.waitForEvent("permission_request");
    const data = request.json?.data as { toolCall?: { toolCallId?: string } } | undefined;
    const callId = String(data?.toolCall?.toolCallId);
    const told = await phone.until(waitingFor(callId), "approval_waiting");
    expect(told.type).toBe("approval_waiting");
    const labels = told.actions?.map((a) => a.label) ?? [];
    expect(labels.slice(0, 2)).toEqual(["Allow once", "Reject"]);
    const once = action(told, "Allow once").url;
    const taps = await Promise.all([phone.tap(once), phone.tap(once), phone.tap(action(told, "Reject").url)]);
    expect(taps.map((t) => t.status).sort()).toEqual([200, 409, 409]);
    expect(taps.find((t) => t.status === 200)?.html).toContain("Allowed once");
    await events.waitForEvent("turn_complete");
    expect(readFileSync(join(world.env.workspace, COUNTER), "utf8")).toBe("ran\n");
    await events.close();
  }, 90_000);

  it("an approval tapped Allow once after a SIGKILL of the daemon runs once, in the same turn", async () => {
    const { phone, daemon, args } = await phoneAndDaemon(["--restore-pending-approvals"]);
    const { sessionId, clientId } = await createSession(daemon);
    const events = await openEvents(daemon, sessionId);
    await sendPrompt(daemon, sessionId, clientId, "RUN it");
    const request = await events.waitForEvent("permission_request");
    const data = request.json?.data as { toolCall?: { toolCallId?: string } } | undefined;
    const told = await phone.until(waitingFor(String(data?.toolCall?.toolCallId)), "approval_waiting");
    await events.close();
    await daemon.kill9();
    expect(existsSync(join(world.env.workspace, COUNTER))).toBe(false);

    const second = await world.env.startDaemon(args);
    phone.target = second.url;
    const tap = await phone.tap(action(told, "Allow once").url);
    expect(tap.status, tap.html).toBe(200);
    await expect.poll(() => toolResults().length, { timeout: 30_000 }).toBe(1);
    expect(readFileSync(join(world.env.workspace, COUNTER), "utf8")).toBe("ran\n");
    const again = await phone.tap(action(told, "Reject").url);
    expect(again.status).toBe(409);
    expect(again.html).toContain("with the “Allow once” button of a notification");
    expect(readFileSync(join(world.env.workspace, COUNTER), "utf8")).toBe("ran\n");
  }, 120_000);

  it("designated and local-only refuse link answers, also through a loopback proxy; --allow-link-answers lets them", async () => {
    for (const policy of ["designated", "local-only"]) {
      const { phone, daemon } = await phoneAndDaemon(["--permission-policy", policy]);
      const asked = await askQuestion(daemon);
      const told = await phone.until(waitingFor(asked.callId), "question_waiting");
      const refused = await phone.tap(action(told, "Blue").url);
      expect(refused.status, policy).toBe(403);
      expect(refused.html).toContain("--allow-link-answers");
      expect((await getStatus(daemon, asked.sessionId)).isWaitingForUserQuestion).toBe(true);
      await asked.events.close();
      await daemon.kill9();
    }
    const { phone, daemon } = await phoneAndDaemon([
      "--permission-policy",
      "designated",
      "--allow-link-answers",
    ]);
    const asked = await askQuestion(daemon);
    const told = await phone.until(waitingFor(asked.callId), "question_waiting");
    expect((await phone.tap(action(told, "Blue").url)).status).toBe(200);
    await asked.events.waitForEvent("turn_complete");
    await asked.events.close();
  }, 120_000);

  it("qwen link-key rotate stops every link sent before, at once, in the running daemon", async () => {
    const { phone, daemon } = await phoneAndDaemon();
    const asked = await askQuestion(daemon);
    const told = await phone.until(waitingFor(asked.callId), "question_waiting");
    const rotated = spawnSync(process.execPath, [CLI_ENTRY, "link-key", "rotate"], {
      env: { ...process.env, QWEN_HOME: world.env.qwenHome },
      encoding: "utf8",
    });
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain("rotated the answer-link key");
    const tap = await phone.tap(action(told, "Blue").url);
    expect(tap.status).toBe(404);
    expect(tap.html).toContain("its key was rotated");
    expect((await getStatus(daemon, asked.sessionId)).isWaitingForUserQuestion).toBe(true);
    await asked.events.close();
  }, 60_000);

  it("keeps the key private: mode 0600 in the daemon's storage", async () => {
    await phoneAndDaemon();
    const path = join(world.env.qwenHome, "notify", "link-key");
    expect(existsSync(path)).toBe(true);
    const { statSync } = await import("node:fs");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  }, 60_000);
});
