// A prompt's message id through the daemon, with real processes: the 202 names it, the echo of the prompt on
// the event stream carries it, and after the daemon is gone a new daemon's load replays the prompt under it
// (the agent saved the message under the id the daemon chose), as does GET /session/:id/transcript.
import { expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { createSession, expectRestored, openEvents, postPrompt } from "./harness/session-api.js";

const world = useE2eWorld();

type Update = { sessionUpdate?: string; messageId?: string; content?: { text?: string } };
const userMessages = (updates: Update[]) =>
  updates.filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => [u.content?.text, u.messageId]);

it("a prompt keeps the message id of its 202 in the echo, in a new daemon's load and in the transcript", async () => {
  const first = await world.env.startDaemon([]);
  const { sessionId, clientId } = await createSession(first);
  const events = await openEvents(first, sessionId);
  const res = await postPrompt(first, sessionId, clientId, { prompt: [{ type: "text", text: "hello" }] });
  expect(res.status).toBe(202);
  const { promptId, messageId } = res.body;
  expect(typeof messageId).toBe("string");
  await events.waitForTurnComplete(promptId);
  const live = events.events("session_update").map((f) => (f.json?.data?.update ?? {}) as Update);
  expect(userMessages(live)).toEqual([["hello", messageId]]);
  await events.close();
  await first.stop();

  const second = await world.env.startDaemon([]);
  const loaded = await expectRestored(second, "load", sessionId, undefined);
  const replayed = (loaded.compactedReplay ?? []).map((e) => (e.data.update ?? {}) as Update);
  expect(userMessages(replayed)).toEqual([["hello", messageId]]);
  const transcript = await second.json("GET", `/session/${sessionId}/transcript`);
  expect(transcript.status).toBe(200);
  const stored = (transcript.body as { events: { data: { update: Update } }[] }).events.map(
    (e) => e.data.update,
  );
  expect(userMessages(stored)).toEqual([["hello", messageId]]);
});
