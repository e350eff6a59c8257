// The answered turn goes on, whichever instant the crash lands (docs/restore.md "After a crash: how the session
// ends decides"). The model asks a question, an approval to run a command, or both in one batch; each is answered
// with 200; then everything (the whole tree, the daemon alone, or the agent alone) is SIGKILLed at a point between
// the last 200 and the model's reply to the answers:
// - the agent frozen (SIGSTOP) before the last vote: the answer is only in the daemon's journal;
// - the model's next request arrived and is never answered: the results are on disk, the model never replied.
// A load with the client id must then continue the same turn by itself: the load says so (`restore`), no one is
// asked again, the model is told the answers exactly once (its tool pairing check holds), the command ran once,
// and the ledger closes the crashed prompt as restored by the prompt that went on, which completes.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { DEFAULT_QUESTION, type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { AnsweredTurnRun } from "./crash/answered-turn-run.js";
import type { KillMode } from "./crash/story-driver.js";
import { useE2eWorld } from "./harness/e2e-world.js";

const COUNTER = "counter.txt";
const question = { name: "ask_user_question", args: { questions: [DEFAULT_QUESTION] } };
const command = { name: "run_shell_command", args: { command: `echo x >> ${COUNTER}` } };

let run: AnsweredTurnRun | undefined;

function model(request: OpenAIChatRequest, index: number): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return run?.onToolResultRequest(index) ? reply.stall() : reply.text("Noted.");
  const text = messageText(last);
  if (text.startsWith("MIXED"))
    return reply.toolCalls([question, command], { text: "Asking, then running." });
  if (text.startsWith("RUN")) return reply.toolCalls([command]);
  return reply.toolCalls([question], { text: "One question." });
}

const world = useE2eWorld(() => model);

type Kind = { name: string; switches: string[]; prompt: string; interactions: number; runs: boolean };
const KINDS: Kind[] = [
  {
    name: "a question",
    switches: ["--restore-ask-user-question"],
    prompt: "ASK: pick",
    interactions: 1,
    runs: false,
  },
  {
    name: "an approval",
    switches: ["--restore-pending-approvals"],
    prompt: "RUN it",
    interactions: 1,
    runs: true,
  },
  {
    name: "a mixed batch (question and approval)",
    switches: ["--restore-ask-user-question", "--restore-pending-approvals"],
    prompt: "MIXED: ask then run",
    interactions: 2,
    runs: true,
  },
];

type Point = {
  name: string;
  /** What the load does about it. */
  actions: string[];
  /**
   * The kill modes that land at this point. A frozen agent whose daemon alone is killed must be woken to see
   * its stdin end, and it then races its lost host with the answer still in its pipe: that is the crash suite's
   * "an answer was acknowledged while the agent was frozen", not a fixed point.
   */
  modes: KillMode[];
  beforeLast: (r: AnsweredTurnRun, m: KillMode) => void;
  after: (r: AnsweredTurnRun, m: KillMode) => Promise<void> | void;
};
const POINTS: Point[] = [
  {
    name: "the results written, the model's next request held",
    actions: ["continued"],
    modes: ["tree", "daemon", "child"],
    beforeLast: (r, mode) => {
      r.hold = mode;
    },
    after: (r) => r.heldKill,
  },
  {
    name: "the last vote's 200 with the agent frozen",
    actions: ["asked_again"],
    modes: ["tree", "child"],
    beforeLast: (r) => r.freezeChildren(),
    after: (r, mode) => r.crashNow(mode, "vote 200, agent frozen"),
  },
];

const lines = (workspace: string) => {
  const path = join(workspace, COUNTER);
  return existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l === "x").length
    : 0;
};

describe("the answered turn goes on after a crash", () => {
  for (const kind of KINDS) {
    for (const point of POINTS) {
      it(`${kind.name}: ${point.name}, killing ${point.modes.join(", ")}`, async () => {
        for (const mode of point.modes) {
          run = new AnsweredTurnRun(world.env, world.server, kind.switches);
          try {
            await run.start();
            const current = run;
            await run.prompt(kind.prompt);
            await run.answerAll(kind.interactions, () => point.beforeLast(current, mode));
            await point.after(run, mode);
            const facts = await run.recoverAndJudge();
            const common = {
              mode,
              steps: run.steps,
              askedAgain: 0,
              deliveries: 1,
              invalidHistory: [],
              effects: kind.runs ? 1 : 0,
            };
            const seen = { mode, steps: run.steps, ...facts, effects: lines(world.env.workspace) };
            expect(seen).toEqual({
              ...common,
              // Shown with a failure: the record types the transcript ends with.
              transcript: expect.any(Array),
              restore: {
                tail: expect.any(String),
                action: expect.toBeOneOf(point.actions),
                promptId: expect.any(String),
              },
              hasActivePrompt: true,
              ledger: {
                original: ["in_flight", "interrupted restored restore"],
                restore: ["in_flight", "completed"],
              },
            });
            // An answered tail is continued; a question or approval is asked again (and answered by the journal).
            const restore = facts.restore as { tail: string; action: string };
            expect(restore.tail === "answered").toBe(restore.action === "continued");
          } finally {
            await run.dispose();
            run = undefined;
            // Each mode starts from a clean workspace counter.
            rmSync(join(world.env.workspace, COUNTER), { force: true });
          }
        }
      });
    }
  }
});
