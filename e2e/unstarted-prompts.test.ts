// A prompt answered 202 is on disk before the 202 (issue 10 item 10): when everything is SIGKILLed before the
// agent starts it (queued behind a running prompt, or a first prompt the agent never got to), the next load
// reports it in `promptTerminals` as interrupted / never_started with its text, so a client can offer to send
// it again. Nothing reruns it by itself.
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { userTexts } from "./harness/model-requests.js";
import { PLAIN_ANSWER } from "./harness/model-script.js";
import { descendantsOf } from "./harness/process-tree.js";
import { createSession, expectRestored, openEvents, sendPrompt } from "./harness/session-api.js";
import { agentText } from "./harness/sse-views.js";

const world = useE2eWorld();

type Terminal = { promptId: string; terminal: string; code?: string; text?: string; queuedAt?: number };
const terminalsOf = (restored: object): Terminal[] =>
  ((restored as { promptTerminals?: Terminal[] }).promptTerminals ?? []).map(
    ({ promptId, terminal, code, text }) => ({
      promptId,
      terminal,
      ...(code !== undefined ? { code } : {}),
      ...(text !== undefined ? { text } : {}),
    }),
  );
const modelSaw = (text: string) => world.server.requests.some((r) => userTexts(r).includes(text));

async function waitUntil(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition never held");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a 202 prompt the agent never started", () => {
  it("queued behind a running prompt: reported on load and resume with its text, never rerun", async () => {
    const first = await world.env.startDaemon();
    const { sessionId, clientId } = await createSession(first);
    const running = await sendPrompt(first, sessionId, clientId, "STALL: think forever");
    // Started by the agent: the model has been asked (the echo alone is the daemon's, before the agent has it).
    await waitUntil(() => modelSaw("STALL: think forever"));
    const second = await sendPrompt(first, sessionId, clientId, "then rename the button");
    const third = await sendPrompt(first, sessionId, clientId, "and make it blue");
    await first.kill9();

    const restarted = await world.env.startDaemon();
    const loaded = await expectRestored(restarted, "load", sessionId, clientId);
    const never = (promptId: string, text: string) => ({
      promptId,
      terminal: "interrupted",
      code: "never_started",
      text,
    });
    expect(terminalsOf(loaded)).toEqual([
      { promptId: running, terminal: "interrupted", code: "daemon_lost" },
      never(second, "then rename the button"),
      never(third, "and make it blue"),
    ]);
    // A second look (resume of the now live session) says the same; the model never saw either prompt.
    expect(terminalsOf(await expectRestored(restarted, "resume", sessionId, loaded.clientId))).toEqual(
      terminalsOf(loaded),
    );
    expect(modelSaw("then rename the button") || modelSaw("and make it blue")).toBe(false);

    // The client offers it again and the user accepts: it runs like any prompt.
    const live = await openEvents(restarted, sessionId, { lastEventId: loaded.lastEventId });
    await live.waitForTurnComplete(
      await sendPrompt(restarted, sessionId, loaded.clientId, "then rename the button"),
    );
    expect(agentText(live)).toBe(PLAIN_ANSWER);
    await live.close();
  });

  it("a first prompt the agent never got to: the session still loads (no 404) and reports it", async () => {
    const first = await world.env.startDaemon();
    const { sessionId, clientId } = await createSession(first);
    for (const pid of descendantsOf(first.pid)) process.kill(pid, "SIGSTOP");
    const promptId = await sendPrompt(first, sessionId, clientId, "hello there");
    await first.kill9();

    const restarted = await world.env.startDaemon();
    const loaded = await expectRestored(restarted, "load", sessionId, clientId);
    expect(terminalsOf(loaded)).toEqual([
      { promptId, terminal: "interrupted", code: "never_started", text: "hello there" },
    ]);
    expect(modelSaw("hello there")).toBe(false);
  });
});
