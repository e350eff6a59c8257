// The daemon alone is SIGKILLed (its children live on and see their stdin end): whatever the child was doing,
// it must leave the disk as a SIGKILL of everything at that instant would, so a restarted daemon finds the
// same session either way (issue 10 item 6).
import { lastMessage, messageText, reply } from "@qwen-daemon/core/testing";
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { userTexts } from "./harness/model-requests.js";
import { conversationHandler, PLAIN_ANSWER } from "./harness/model-script.js";
import {
  continueSession,
  createSession,
  expectRestored,
  openEvents,
  sendPrompt,
} from "./harness/session-api.js";
import { ledgerOf, readLedger, readTranscript } from "./harness/session-files.js";
import { agentText } from "./harness/sse-views.js";

const PARTIAL = "FAKE-M";
const STREAM_PROMPT = "STREAM_AND_DIE: tell me a story";

/** The first request for STREAM_PROMPT streams PARTIAL and never finishes; everything else as usual. */
const world = useE2eWorld(() => {
  const rest = conversationHandler();
  let stalled = false;
  return (request, index) => {
    if (!stalled && messageText(lastMessage(request)).startsWith("STREAM_AND_DIE")) {
      stalled = true;
      return reply.stall({ text: PARTIAL });
    }
    return rest(request, index);
  };
});

describe("the daemon alone is killed", () => {
  it("while the model streams: no cut-off reply on disk, and the prompt can be continued after a restart", async () => {
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const { sessionId, clientId } = await createSession(first);
    const events = await openEvents(first, sessionId);
    const promptId = await sendPrompt(first, sessionId, clientId, STREAM_PROMPT);
    await events.waitFor((f) => f.event === "session_update" && agentText(events).includes(PARTIAL));
    await events.close();
    await first.kill9Alone();

    // The child saw EOF and closed its sessions: nothing after the user message, the prompt still in flight.
    const transcript = readTranscript(world.env.qwenHome, world.env.workspace, sessionId);
    expect(transcript.map((r) => r.type)).toEqual(["system", "user"]);
    expect(transcript[0]).toMatchObject({ subtype: "session_created" });
    expect(ledgerOf(readLedger(world.env.qwenHome, world.env.workspace, sessionId), promptId)).toEqual([
      { state: "in_flight" },
    ]);

    // After a restart the turn is an interrupted prompt: continue re-asks the model with the user's text.
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", sessionId, clientId);
    const live = await openEvents(second, sessionId, { lastEventId: restored.lastEventId });
    const before = world.server.requests.length;
    const continued = await continueSession(second, sessionId, restored.clientId);
    expect(continued.body).toMatchObject({ accepted: true, interruption: "interrupted_prompt" });
    await live.waitForTurnComplete(continued.body.promptId as string);
    expect(agentText(live)).toBe(PLAIN_ANSWER);
    const request = world.server.requests[before];
    expect(request && userTexts(request)).toEqual([STREAM_PROMPT]);
    await live.close();
  });
});
