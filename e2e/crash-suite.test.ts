// The project's own crash suite: SIGKILL at each step of the restore story and of the races and faults of
// issue 10 (a prompt just accepted or still queued, the model streaming, a question just shown, an answer just
// acknowledged, a mixed batch answered, the restore itself asking again and being answered), each with the
// whole process tree, the daemon alone or the ACP child alone killed, several times. After every crash a
// client recovers the session (crash/crash-run.ts) and the run is judged: no question or acknowledged answer
// lost, none asked twice, no history the model rejects (its tool pairing check), every turn ended.
// QWEN_CRASH_REPEAT sets how many times each pair runs (default 3).
import { describe, expect, it } from "vitest";
import { crashModel } from "./crash/crash-model.js";
import { CrashRun, type KillMode } from "./crash/crash-run.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import type { SseFrame } from "./harness/sse-client.js";

const REPEAT = Number(process.env.QWEN_CRASH_REPEAT ?? 3);
const MODES: KillMode[] = ["tree", "daemon", "child"];
const FINAL = "FINAL: wrap up";

const world = useE2eWorld(() => crashModel);

const isQuestion = (f: SseFrame) => f.event === "permission_request";
const isAgentText = (f: SseFrame) =>
  f.event === "session_update" &&
  (f.json?.data as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate ===
    "agent_message_chunk";

/** Votes on the next question (the agent frozen first when asked), and kills right after the 200. */
async function voteThenCrash(run: CrashRun, mode: KillMode, step: string, freeze = false): Promise<void> {
  const question = await run.nextQuestion();
  if (freeze) run.freezeChildren();
  if (!(await run.answer(question))) throw new Error("the vote was refused");
  run.crashNow(mode, step);
}

function answerThenCrash(run: CrashRun, mode: KillMode, text: string, freeze: boolean, step: string) {
  return run.prompt(text).then(() => voteThenCrash(run, mode, step, freeze));
}

/** Sends `text` and kills at the instant its first frame `pred` accepts arrives. */
async function promptThenCrashOn(
  run: CrashRun,
  mode: KillMode,
  text: string,
  pred: (f: SseFrame) => boolean,
  step: string,
): Promise<void> {
  const killed = run.crashOnFrame(pred, { mode, step });
  await run.prompt(text);
  await killed;
}

/** The restore story's first crash: the whole tree, at the instant the question is shown. */
const crashAtFirstQuestion = (run: CrashRun) =>
  promptThenCrashOn(run, "tree", "ASK: pick a color", isQuestion, "at the permission_request");

type Scenario = { step: string; drive: (run: CrashRun, mode: KillMode) => Promise<void> };

/** Each scenario drives a fresh session to its kill point and kills there; the test then recovers and judges. */
const SCENARIOS: Scenario[] = [
  {
    step: "a prompt was just accepted (202)",
    drive: async (run, mode) => {
      await run.prompt("ASK: pick a color");
      run.crashNow(mode, "after the 202");
    },
  },
  {
    step: "the model is streaming",
    drive: (run, mode) => promptThenCrashOn(run, mode, "SLOW: tell me a story", isAgentText, "mid-stream"),
  },
  {
    step: "prompts are queued behind a running one",
    drive: async (run, mode) => {
      const started = run.events?.waitFor(isAgentText, 20_000, "the running prompt's text");
      await run.prompt("SLOW: tell me a story");
      await started;
      await run.prompt("ASK: then pick a color");
      await run.prompt("and then say done");
      run.crashNow(mode, "two prompts queued");
    },
  },
  {
    step: "a question was just shown",
    drive: (run, mode) =>
      promptThenCrashOn(run, mode, "ASK: pick a color", isQuestion, "at the permission_request"),
  },
  {
    step: "an answer was just acknowledged",
    drive: (run, mode) =>
      answerThenCrash(run, mode, "ASK: pick a color", false, "right after the vote's 200"),
  },
  {
    step: "an answer was acknowledged while the agent was frozen",
    drive: (run, mode) =>
      answerThenCrash(run, mode, "ASK: pick a color", true, "vote 200 with the agent stopped"),
  },
  {
    step: "a question beside another tool was answered",
    drive: (run, mode) =>
      answerThenCrash(
        run,
        mode,
        "ASK_MIXED: look around, then ask",
        true,
        "mixed batch, vote 200, agent stopped",
      ),
  },
  {
    step: "the restore is asking again",
    drive: async (run, mode) => {
      await crashAtFirstQuestion(run);
      const again = run.crashOnFrame(isQuestion, { mode, step: "at the re-asked permission_request" });
      await run.recover();
      await again;
    },
  },
  {
    step: "the re-asked question was just answered",
    drive: async (run, mode) => {
      await crashAtFirstQuestion(run);
      await run.recover();
      await voteThenCrash(run, mode, "right after the re-asked vote's 200");
    },
  },
];

describe("crash suite: SIGKILL at every step, then a client recovers", () => {
  for (const scenario of SCENARIOS) {
    describe(scenario.step, () => {
      for (const mode of MODES) {
        it(`killing the ${mode === "tree" ? "whole tree" : `${mode} alone`}, ${REPEAT} times`, async () => {
          for (let round = 1; round <= REPEAT; round++) {
            const run = new CrashRun(world.env, world.server);
            try {
              await run.start();
              await scenario.drive(run, mode);
              const neverStarted = await run.recover();
              await run.settleAfterRecovery(neverStarted);
              await run.finish(FINAL);
              const violations = run.verify(FINAL);
              expect({
                round,
                steps: run.steps,
                violations,
                ...(violations.length > 0 ? run.files() : {}),
              }).toEqual({
                round,
                steps: run.steps,
                violations: [],
              });
            } finally {
              await run.dispose();
            }
          }
        });
      }
    });
  }
});
