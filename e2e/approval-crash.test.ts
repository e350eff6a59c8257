// `--restore-pending-approvals` with real processes: the model asks to run a shell command that appends a line to
// a counter file (and then sleeps a little, so there is a moment when its effect happened and it has not
// finished), or to edit a file by adding a line. The daemon and its ACP child (and the tool's processes) are
// SIGKILLed together at each point from "approval shown" to "turn complete", a new daemon loads the session, the
// re-asked approval is approved or rejected, one more prompt runs, and the run is judged:
// - the tool never ran twice (the file never holds two lines), and never ran without an approval;
// - killed before its start record was on disk, it ran exactly once when the approval had been given (before the
//   crash, acknowledged with 200 and answered by the journal, or after it, when re-asked) and never when refused;
// - killed after its start record, it was never run again and the model was told it started with an unknown result
//   (the file then holds what the tool did before the kill: the line when its effect had happened);
// - an acknowledged answer is never asked again; the model's history is always valid (the fake model's strict
//   tool-call pairing check).
// QWEN_APPROVAL_CRASH_REPEAT sets how many times each point runs (default 2).

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@qwen-daemon/core";
import { toolStartedResultUnknownText } from "@qwen-daemon/core";
import { type FakeReply, lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { ALLOW, ApprovalRun, type ApprovalRunFacts, linesOf, REJECT } from "./crash/approval-run.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import type { SseFrame } from "./harness/sse-client.js";

const REPEAT = Number(process.env.QWEN_APPROVAL_CRASH_REPEAT ?? 2);
const COUNTER = "counter.txt";
const NOTES = "notes.txt";
const FINAL = "FINAL: wrap up";

function approvalModel(request: OpenAIChatRequest): FakeReply {
  const last = lastMessage(request);
  if (last?.role === "tool") return reply.text("Noted.");
  const text = messageText(last);
  if (text.startsWith("RUN")) {
    return reply.toolCalls([
      { name: "run_shell_command", args: { command: `echo x >> ${COUNTER} && sleep 0.4` } },
    ]);
  }
  if (text.startsWith("EDIT")) {
    return reply.toolCalls([
      { name: "edit", args: { file_path: NOTES, old_string: "END", new_string: "edited\nEND" } },
    ]);
  }
  return reply.text("Done.");
}

const world = useE2eWorld(() => approvalModel);

const update = (f: SseFrame) =>
  f.event === "session_update"
    ? (f.json?.data as { update?: { sessionUpdate?: string; status?: string } } | undefined)?.update
    : undefined;
const toolStatus = (status: string) => (f: SseFrame) =>
  update(f)?.sessionUpdate === "tool_call_update" && update(f)?.status === status;
const isResolved = (f: SseFrame) => f.event === "permission_resolved";
const isTurnComplete = (f: SseFrame) => f.event === "turn_complete";

/** A vote that may lose the race with the kill it triggers: only a 200 counts as acknowledged. */
async function answerRacingTheKill(run: ApprovalRun, frame: SseFrame): Promise<void> {
  try {
    await run.answer(frame, ALLOW);
  } catch {
    // The daemon died before it answered: not acknowledged.
  }
}

type Point = {
  name: string;
  /** What a person answers to the approval asked again after the restart. */
  onReAsk: typeof ALLOW | typeof REJECT;
  drive: (run: ApprovalRun) => Promise<void>;
  /** Facts this point always produces (beyond the judge's rules). */
  expect?: Partial<Pick<ApprovalRunFacts, "disk" | "reAsked" | "effectsAtEnd">>;
};

function points(prompt: string): Point[] {
  const killAfterVote =
    (pred: (f: SseFrame) => boolean, delayMs = 0) =>
    async (run: ApprovalRun) => {
      await run.prompt(prompt);
      const shown = await run.approvalShown();
      const killed = run.crashOnFrame(pred, { delayMs });
      await answerRacingTheKill(run, shown);
      await killed;
    };
  const killWhenShown =
    (delayMs = 0) =>
    async (run: ApprovalRun) => {
      const killed = run.crashOnFrame((f) => f.event === "permission_request", { delayMs });
      await run.prompt(prompt);
      await killed;
    };
  // The vote's 200 comes while the agent is stopped, so the answer is acknowledged and never acted on.
  const killAfterFrozenVote = (body: typeof ALLOW | typeof REJECT) => async (run: ApprovalRun) => {
    await run.prompt(prompt);
    const shown = await run.approvalShown();
    run.freezeChildren();
    await run.answer(shown, body);
    run.crashNow();
  };
  return [
    {
      name: "approval shown, re-asked and rejected",
      onReAsk: REJECT,
      drive: killWhenShown(),
      expect: { disk: "nothing", reAsked: 1, effectsAtEnd: 0 },
    },
    {
      name: "approval shown, re-asked and approved",
      onReAsk: ALLOW,
      drive: killWhenShown(),
      expect: { disk: "nothing", reAsked: 1, effectsAtEnd: 1 },
    },
    {
      name: "approval shown for a while",
      onReAsk: ALLOW,
      drive: killWhenShown(150),
      expect: { disk: "nothing", reAsked: 1, effectsAtEnd: 1 },
    },
    {
      name: "approval acknowledged with the agent frozen",
      onReAsk: REJECT,
      drive: killAfterFrozenVote(ALLOW),
      expect: { disk: "nothing", reAsked: 0, effectsAtEnd: 1 },
    },
    {
      name: "refusal acknowledged with the agent frozen",
      onReAsk: ALLOW,
      drive: killAfterFrozenVote(REJECT),
      expect: { disk: "nothing", reAsked: 0, effectsAtEnd: 0 },
    },
    {
      name: "approval acknowledged (200)",
      onReAsk: REJECT,
      drive: async (run) => {
        await run.prompt(prompt);
        await run.answer(await run.approvalShown(), ALLOW);
        run.crashNow();
      },
      expect: { reAsked: 0 },
    },
    { name: "approval resolved", onReAsk: ALLOW, drive: killAfterVote(isResolved) },
    // The start record is fsynced before the tool_call_update in_progress goes out, and the tool is still running.
    {
      name: "tool started",
      onReAsk: ALLOW,
      drive: killAfterVote(toolStatus("in_progress")),
      expect: { disk: "started" },
    },
    {
      name: "tool started + 100 ms",
      onReAsk: ALLOW,
      drive: killAfterVote(toolStatus("in_progress"), 100),
      expect: { disk: "started" },
    },
    {
      name: "tool running, effect done",
      onReAsk: ALLOW,
      drive: killAfterVote(toolStatus("in_progress"), 250),
      expect: { disk: "started" },
    },
    {
      name: "tool finished",
      onReAsk: ALLOW,
      drive: killAfterVote(toolStatus("completed")),
      expect: { reAsked: 0, effectsAtEnd: 1 },
    },
    {
      name: "turn complete",
      onReAsk: ALLOW,
      drive: killAfterVote(isTurnComplete),
      expect: { disk: "result", reAsked: 0, effectsAtEnd: 1 },
    },
  ];
}

/** The guarantee, whatever the point: see the file comment. */
function judge(facts: ApprovalRunFacts, onReAsk: typeof ALLOW | typeof REJECT, toolName: string): string[] {
  const v = [...facts.violations];
  if (facts.effectsAtEnd > 1) v.push(`the tool ran ${facts.effectsAtEnd} times`);
  if (facts.disk === "started") {
    if (facts.effectsAtEnd !== facts.effectsAtKill)
      v.push(`a started tool ran again after the restart (${facts.effectsAtKill} -> ${facts.effectsAtEnd})`);
    if (facts.resultSent !== toolStartedResultUnknownText(toolName))
      v.push(`a started tool was reported as ${JSON.stringify(facts.resultSent)}`);
    if (facts.reAsked !== 0) v.push("a started tool was asked again");
  } else if (facts.disk === "result") {
    if (facts.effectsAtEnd !== 1) v.push(`a finished tool left ${facts.effectsAtEnd} effects`);
  } else {
    const given = facts.acknowledged !== undefined ? facts.acknowledged === "approved" : onReAsk === ALLOW;
    if (facts.effectsAtEnd !== (given ? 1 : 0))
      v.push(`approval ${given ? "given" : "refused"}, yet the tool ran ${facts.effectsAtEnd} times`);
    if (facts.acknowledged !== undefined && facts.reAsked !== 0)
      v.push("an acknowledged answer was asked again");
  }
  if (facts.resultSent === undefined) v.push("the model never got a result for the call");
  return v;
}

function suite(
  label: string,
  prompt: string,
  toolName: string,
  count: (workspace: string) => number,
  { only, repeat, instant = false }: { only?: readonly string[]; repeat: number; instant?: boolean },
) {
  describe(label, () => {
    for (const point of points(prompt).filter((p) => only === undefined || only.includes(p.name))) {
      it(`${point.name}, ${repeat} times`, async () => {
        for (let round = 1; round <= repeat; round++) {
          const env = world.env;
          writeFileSync(join(env.workspace, NOTES), "notes\nEND\n");
          writeFileSync(join(env.workspace, COUNTER), "");
          const run = new ApprovalRun(env, world.server, () => count(env.workspace));
          try {
            await run.start();
            await point.drive(run);
            await run.recover();
            const facts = await run.finish(FINAL, point.onReAsk);
            const { violations: _v, ...shown } = facts;
            // An instant tool (the edit) may have its result on disk before a kill at "started" lands.
            const { disk, ...rest } = point.expect ?? {};
            const expected = instant && disk === "started" ? rest : point.expect;
            expect({ round, ...shown, violations: judge(facts, point.onReAsk, toolName) }).toEqual({
              round,
              ...shown,
              ...expected,
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

suite(
  "a shell command that appends a line, killed at every point",
  "RUN the counter",
  "run_shell_command",
  (ws) => linesOf(ws, COUNTER, "x"),
  { repeat: REPEAT },
);
// The edit takes the same path through the restore; its points are the shell's, one of each outcome, once
// (the whole file must stay quick enough for `npm test`).
suite(
  "an edit that adds a line, killed at one point of each outcome",
  "EDIT the notes",
  "edit",
  (ws) => linesOf(ws, NOTES, "edited"),
  {
    repeat: 1,
    instant: true,
    only: [
      "approval shown, re-asked and rejected",
      "approval acknowledged with the agent frozen",
      "tool started",
      "turn complete",
    ],
  },
);
