// What waits on disk is visible (issue 13): after the daemon and its children are SIGKILLed while a question
// is shown, a restarted daemon lists the session with `pendingOnDisk: ["user_question"]` before anyone loads
// it, read from the transcript's tail when the list is asked for. A session whose question was answered has no
// marker (`[]`: checked, nothing waits), and a daemon whose question restore is off leaves the field out (its
// load would not ask again). With --restore-pending-approvals a command whose approval was never given is
// listed as "exec", one that had started (its write-ahead record on disk) is not: the load closes it.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DaemonProcess } from "./harness/daemon-process.js";
import { useE2eWorld } from "./harness/e2e-world.js";
import { askQuestion, DEFAULT_ASK_PROMPT } from "./harness/question-scenario.js";
import { createSession, openEvents, sendPrompt, submitAnswers, vote } from "./harness/session-api.js";
import { chatsDir } from "./harness/session-files.js";

const world = useE2eWorld();

type Listed = { sessionId: string; live?: boolean; clientCount: number; pendingOnDisk?: string[] };

async function listed(daemon: DaemonProcess): Promise<Map<string, Listed>> {
  const res = await daemon.json<{ sessions: Listed[] }>(
    "GET",
    `/workspace/${encodeURIComponent(world.env.workspace)}/sessions`,
  );
  expect(res.status).toBe(200);
  return new Map(res.body.sessions.map((s) => [s.sessionId, s]));
}

describe("pendingOnDisk after a crash", () => {
  it("marks the session whose question was showing, not the one whose question was answered", async () => {
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);

    // Session 1: asked and answered; its turn completes.
    const answered = await askQuestion(first);
    expect(
      await vote(
        first,
        answered.sessionId,
        answered.requestId,
        answered.clientId,
        submitAnswers({ "0": "Red" }),
      ),
    ).toEqual({ status: 200, body: {} });
    await answered.events.waitForEvent("turn_complete");
    await answered.events.close();

    // Session 2 (its own thread): the question is showing when everything is killed.
    const waiting = await createSession(first, { sessionScope: "thread" });
    const events = await openEvents(first, waiting.sessionId);
    await sendPrompt(first, waiting.sessionId, waiting.clientId, DEFAULT_ASK_PROMPT);
    await events.waitForEvent("permission_request");
    // While live, the list says it through pendingInteractions, not pendingOnDisk.
    const live = (await listed(first)).get(waiting.sessionId);
    expect(live).toMatchObject({ live: true });
    expect(live?.pendingOnDisk).toBeUndefined();
    await events.close();
    await first.kill9();

    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    // No load, no resume, no subscription: only the list.
    const after = await listed(second);
    expect(after.get(waiting.sessionId)).toMatchObject({
      live: false,
      clientCount: 0,
      pendingOnDisk: ["user_question"],
    });
    expect(after.get(answered.sessionId)).toMatchObject({ live: false, clientCount: 0 });
    // Checked, and nothing waits there.
    expect(after.get(answered.sessionId)?.pendingOnDisk).toEqual([]);
    await second.kill9();

    // The same files under a daemon without the question restore: its load would not ask, so no marker.
    const third = await world.env.startDaemon([]);
    const off = await listed(third);
    expect(off.get(waiting.sessionId)).toMatchObject({ live: false });
    expect(off.get(waiting.sessionId)?.pendingOnDisk).toBeUndefined();
  });

  // Until the agent writes its tool-start records (issue 13, another change), the transcripts are written here
  // the way core's records define them: a reply marked `toolStarts: "recorded"`, and for a
  // command that was approved and had started, its `tool_started` record.
  it("marks an approval never given with --restore-pending-approvals, and not a command that had started", async () => {
    const cwd = world.env.workspace;
    const dir = chatsDir(world.env.qwenHome, cwd);
    mkdirSync(dir, { recursive: true });
    const transcript = (sessionId: string, started: boolean) => {
      const records: Record<string, unknown>[] = [
        { type: "system", subtype: "session_created" },
        { type: "user", message: { role: "user", parts: [{ text: "run the tests" }] } },
        {
          type: "assistant",
          toolStarts: "recorded",
          message: {
            role: "model",
            parts: [
              { functionCall: { id: "call_1", name: "run_shell_command", args: { command: "npm test" } } },
            ],
          },
        },
        ...(started
          ? [
              {
                type: "system",
                subtype: "tool_started",
                data: { callId: "call_1", name: "run_shell_command", approval: "user" },
              },
            ]
          : []),
      ];
      const lines = records.map((r, n) =>
        JSON.stringify({
          uuid: `${sessionId}-${n}`,
          parentUuid: n === 0 ? null : `${sessionId}-${n - 1}`,
          sessionId,
          timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
          cwd,
          version: "0.1.0",
          ...r,
        }),
      );
      writeFileSync(join(dir, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
    };
    transcript("approval-shown", false);
    transcript("approval-started", true);

    const on = await world.env.startDaemon(["--restore-pending-approvals"]);
    const listedOn = await listed(on);
    expect(listedOn.get("approval-shown")).toMatchObject({ live: false, pendingOnDisk: ["exec"] });
    // It may have run: a load closes it as started and asks nobody, so nothing waits there.
    expect(listedOn.get("approval-started")).toMatchObject({ live: false, pendingOnDisk: [] });
    await on.kill9();

    // With only the question restore on, a load would not ask the approval: not listed as waiting.
    const questionsOnly = await world.env.startDaemon(["--restore-ask-user-question"]);
    expect((await listed(questionsOnly)).get("approval-shown")).toMatchObject({ pendingOnDisk: [] });
  });
});
