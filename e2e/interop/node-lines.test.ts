// `qwen serve` on the Node line people run today besides the suite's own Node 20: Node 22, the registry binary
// the interop tests already install (setup-reference.sh). The daemon tunes V8 for itself and passes V8 flags to
// its agent on the command line; a flag the running V8 does not know makes node exit at once ("bad option"),
// and on Node 22 the agent never came up (every POST /session answered 503). The whole question story runs
// there: the agent starts, asks, the answer reaches the model in the same turn.
import { beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY } from "../harness/daemon-process.js";
import { useE2eWorld } from "../harness/e2e-world.js";
import { toolResultText } from "../harness/model-requests.js";
import { askQuestion } from "../harness/question-scenario.js";
import { submitAnswers, vote } from "../harness/session-api.js";
import { installReference } from "./reference-setup.js";

const world = useE2eWorld();
let node22: string;

beforeAll(async () => {
  node22 = (await installReference()).node22;
}, 300_000);

describe("qwen serve on Node 22", () => {
  it("starts its agent, asks a question, and the answer reaches the model in the same turn", async () => {
    const daemon = await world.env.startDaemon(["--restore-ask-user-question"], {}, [node22, CLI_ENTRY]);
    const asked = await askQuestion(daemon);
    const answered = await vote(
      daemon,
      asked.sessionId,
      asked.requestId,
      asked.clientId,
      submitAnswers({ "0": "Blue" }),
    );
    expect(answered).toEqual({ status: 200, body: {} });
    const complete = await asked.events.waitForEvent("turn_complete");
    expect(complete.json?.promptId).toBe(asked.promptId);
    const last = world.server.requests.at(-1);
    expect(last === undefined ? undefined : toolResultText(last, asked.callId)).toContain("Blue");
    asked.events.close();
    // Neither the daemon nor its agent was given a V8 flag this node refuses.
    expect(daemon.stderr).not.toMatch(/unrecognized flag|bad option/);
  }, 120_000);
});
