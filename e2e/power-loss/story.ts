// The power-loss story, run once on real processes with QWEN_FS_OP_LOG on: the first session in a fresh
// QWEN_HOME, a prompt, the model's question, a notification (its first try refused, its retry taken), a
// vote (200), the turn's end. Each promise is noted with the op log's length when the test saw it made: a
// power cut at any later point must keep it (promises.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FS_OP_LOG_ENV, type FsOp, parseFsOpLog } from "@qwen-daemon/core";
import type { E2eEnv } from "../harness/e2e-env.js";
import { createSession, openEvents, sendPrompt, submitAnswers, vote } from "../harness/session-api.js";
import { webhookReceiver } from "./webhook-receiver.js";

export const STORY_PROMPT = "ASK: which color for the button?";
/** The answer the story votes, and how the model receives it as the question's result. */
export const STORY_ANSWER = { answers: { "0": "Green" }, modelSees: "**Color**: Green" } as const;

/** The daemon's flags in the story and in every load after a power cut. */
export const daemonArgs = (webhook: string): string[] => [
  "--restore-ask-user-question",
  "--notify-webhook",
  webhook,
];

/** Op-log positions (operations done) at which the test saw each step. */
export interface StoryMarks {
  /** POST /session answered: the session exists. */
  created: number;
  /** The prompt's 202. */
  accepted: number;
  /** The question's permission_request reached the client. */
  asked: number;
  /** The receiver got the question's first notification (refused: the outbox must keep it). */
  scheduled: number;
  /** The receiver took the retry: the notification is delivered. */
  notified: number;
  /** The vote's 200. */
  voted: number;
  /** turn_complete and its notification. */
  completed: number;
}

export interface StoryRun {
  /** The story's QWEN_HOME (the model's root). */
  root: string;
  ops: FsOp[];
  marks: StoryMarks;
  sessionId: string;
  clientId: string;
  promptId: string;
  callId: string;
}

const linesIn = (path: string): number => {
  try {
    return readFileSync(path, "utf8").split("\n").length - 1;
  } catch {
    return 0;
  }
};

/** The story's two notifications (the question's, the turn's), each closed as delivered in the outbox. */
const NOTIFICATIONS = 2;

/** How many outbox deliveries the op log holds (an append is recorded once its bytes are written). */
function deliveriesRecorded(opLog: string): number {
  const text = readFileSync(opLog, "utf8");
  // Complete lines only: another process may be appending one.
  const ops = parseFsOpLog(text.slice(0, text.lastIndexOf("\n") + 1));
  return ops.filter(
    (op) =>
      op.op === "append" &&
      op.path.endsWith(join("notify", "outbox.jsonl")) &&
      Buffer.from(op.base64, "base64").toString("utf8").includes('"outcome":"delivered"'),
  ).length;
}

/** Polls `check` until it holds (bounded: a failure names `what`). */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`the story never saw ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function runStory(env: E2eEnv, opLog: string): Promise<StoryRun> {
  const position = () => linesIn(opLog);
  let questionTries = 0;
  const hook = await webhookReceiver((body) => {
    if (body.type !== "question_waiting") return 200;
    questionTries += 1;
    return questionTries === 1 ? 500 : 200;
  }, position);
  try {
    const daemon = await env.startDaemon(daemonArgs(hook.url), { [FS_OP_LOG_ENV]: opLog });
    const { sessionId, clientId } = await createSession(daemon);
    const created = position();
    const events = await openEvents(daemon, sessionId);
    const promptId = await sendPrompt(daemon, sessionId, clientId, STORY_PROMPT);
    const accepted = position();
    const request = await events.waitForEvent("permission_request");
    const asked = position();
    const data = request.json?.data as { requestId: string; toolCall: { toolCallId: string } };
    const question = (r: { body: Record<string, unknown> }) => r.body.type === "question_waiting";
    const first = await hook.until(question, "first try of the question's notification");
    const retry = await hook.until((r) => question(r) && r !== first, "retry of the question's notification");
    const answered = await vote(daemon, sessionId, data.requestId, clientId, {
      ...submitAnswers(STORY_ANSWER.answers),
    });
    if (answered.status !== 200) throw new Error(`the story's vote answered ${answered.status}`);
    const voted = position();
    await events.waitForTurnComplete(promptId);
    await hook.until((r) => r.body.type === "turn_completed", "the turn's notification");
    // The daemon records the delivery after the receiver's answer: killed before that write is recorded, the
    // disk would hold a line the op log lacks (a loaded machine leaves time for it). The story ends there.
    await until(
      "the turn's notification recorded as delivered",
      () => deliveriesRecorded(opLog) >= NOTIFICATIONS,
    );
    const completed = position();
    await events.close();
    await daemon.kill9();
    return {
      root: env.qwenHome,
      ops: parseFsOpLog(readFileSync(opLog, "utf8")),
      marks: { created, accepted, asked, scheduled: first.at, notified: retry.at, voted, completed },
      sessionId,
      clientId,
      promptId,
      callId: data.toolCall.toolCallId,
    };
  } finally {
    hook.close();
  }
}
