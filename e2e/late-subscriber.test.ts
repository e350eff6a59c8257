// docs/restore.md "The guarantees" and docs/protocol.md "Events": a client that subscribes while a question
// waits learns of it. Without Last-Event-ID the pending permission_request comes first (ours; the reference
// sends nothing); with Last-Event-ID the ring replays after the cursor and ends with `replay_complete`.
import { describe, expect, it } from "vitest";
import { useE2eWorld } from "./harness/e2e-world.js";
import { askQuestion, askQuestionThenCrash } from "./harness/question-scenario.js";
import { expectRestored, openEvents, submitAnswers, vote } from "./harness/session-api.js";
import type { SseFrame } from "./harness/sse-client.js";
import { permissionRequestOf, requestIdOf } from "./harness/sse-views.js";

const world = useE2eWorld();

/** Frames that are events (the `retry:` preamble and comments are not). */
const eventFrames = (frames: readonly SseFrame[]): SseFrame[] => frames.filter((f) => f.event !== undefined);

describe("late SSE subscriber while a question waits", () => {
  it("without Last-Event-ID gets the pending permission_request first; with one, the ring replay", async () => {
    const daemon = await world.env.startDaemon();
    const asked = await askQuestion(daemon);
    const live = eventFrames(asked.events.frames);
    const shownId = Number(asked.permissionRequest.id);
    expect(shownId).toBeGreaterThan(0);

    // No cursor: the waiting question is delivered at once, as an id-less snapshot frame.
    const late = await openEvents(daemon, asked.sessionId);
    expect(late.status).toBe(200);
    expect(late.headers?.get("x-qwen-event-epoch")).toBe(asked.events.headers?.get("x-qwen-event-epoch"));
    const snapshot = await late.waitForEvent("permission_request");
    expect(eventFrames(late.frames)[0]).toBe(snapshot);
    expect(snapshot.id).toBeUndefined();
    expect(snapshot.json?.data).toEqual(asked.permissionRequest.json?.data);
    expect(snapshot.json?.promptId).toBe(asked.promptId);

    // Cursor 0: every event so far, ids 1..n in order, the same frames the first client saw, then the marker.
    const fromStart = await openEvents(daemon, asked.sessionId, { lastEventId: 0 });
    const marker = await fromStart.waitForEvent("replay_complete");
    const replayed = eventFrames(fromStart.frames);
    expect(replayed.at(-1)).toBe(marker);
    expect(marker.id).toBeUndefined();
    const replayedEvents = replayed.slice(0, -1);
    expect(replayedEvents.map((f) => Number(f.id))).toEqual(replayedEvents.map((_, i) => i + 1));
    expect(replayedEvents.map((f) => f.data)).toEqual(
      live.slice(0, replayedEvents.length).map((f) => f.data),
    );
    expect(replayedEvents.map((f) => f.event)).toContain("permission_request");
    expect(marker.json?.data).toMatchObject({ replayedCount: replayedEvents.length });
    // A cursor never gets the snapshot on top of the replay: the question appears exactly once.
    expect(replayed.filter((f) => f.event === "permission_request")).toHaveLength(1);

    // Cursor just before the question: the question, then the marker.
    const fromQuestion = await openEvents(daemon, asked.sessionId, { lastEventId: shownId - 1 });
    await fromQuestion.waitForEvent("replay_complete");
    expect(eventFrames(fromQuestion.frames).map((f) => [f.event, f.id])).toEqual([
      ["permission_request", String(shownId)],
      ["replay_complete", undefined],
    ]);

    // Cursor at the question: nothing to replay, only the marker; the question is not sent again.
    const caughtUp = await openEvents(daemon, asked.sessionId, { lastEventId: shownId });
    await caughtUp.waitForEvent("replay_complete");
    expect(eventFrames(caughtUp.frames).map((f) => f.event)).toEqual(["replay_complete"]);

    // Every subscriber then follows the live stream: the late one can answer and sees the turn end.
    expect(
      await vote(
        daemon,
        asked.sessionId,
        requestIdOf(snapshot),
        asked.clientId,
        submitAnswers({ "0": "Blue" }),
      ),
    ).toEqual({ status: 200, body: {} });
    for (const client of [asked.events, late, fromStart, fromQuestion, caughtUp]) {
      const resolved = await client.waitForEvent("permission_resolved");
      expect(requestIdOf(resolved)).toBe(asked.requestId);
      await client.waitForEvent("turn_complete");
    }
    // After it is answered, a new subscriber without a cursor gets no stale question.
    const afterwards = await openEvents(daemon, asked.sessionId, { lastEventId: undefined });
    const probe = await openEvents(daemon, asked.sessionId, { lastEventId: 0 });
    await probe.waitForEvent("replay_complete");
    expect(afterwards.events("permission_request")).toEqual([]);
    for (const client of [asked.events, late, fromStart, fromQuestion, caughtUp, afterwards, probe]) {
      await client.close();
    }
  });

  it("after a restore, a subscriber without a cursor gets the re-asked question", async () => {
    const first = await world.env.startDaemon(["--restore-ask-user-question"]);
    const asked = await askQuestionThenCrash(first);
    const second = await world.env.startDaemon(["--restore-ask-user-question"]);
    const restored = await expectRestored(second, "load", asked.sessionId, asked.clientId);
    const late = await openEvents(second, asked.sessionId);
    expect(late.headers?.get("x-qwen-event-epoch")).toBe(restored.eventEpoch);
    expect(restored.eventEpoch).not.toBe(asked.events.headers?.get("x-qwen-event-epoch"));
    const question = await late.waitForEvent("permission_request");
    const data = permissionRequestOf(question);
    expect(data.requestId).not.toBe(asked.requestId);
    expect(data.toolCall.toolCallId).toBe(asked.callId);
    expect(
      await vote(second, asked.sessionId, data.requestId, restored.clientId, submitAnswers({ "0": "Blue" })),
    ).toEqual({ status: 200, body: {} });
    await late.waitForEvent("turn_complete");
    await late.close();
  });

  it("a cursor the ring no longer holds gets state_resync_required, then what the ring has", async () => {
    const daemon = await world.env.startDaemon(["--event-ring-size", "2"]);
    const asked = await askQuestion(daemon);
    const lastId = Number(asked.permissionRequest.id);
    expect(lastId).toBeGreaterThan(3);
    const stale = await openEvents(daemon, asked.sessionId, { lastEventId: 1 });
    await stale.waitForEvent("replay_complete");
    const frames = eventFrames(stale.frames);
    expect(frames.map((f) => f.event)).toEqual([
      "state_resync_required",
      expect.any(String),
      "permission_request",
      "replay_complete",
    ]);
    expect(frames[0]?.id).toBeUndefined();
    expect(frames[0]?.json?.data).toEqual({
      reason: "ring_evicted",
      lastDeliveredId: 1,
      earliestAvailableId: lastId - 1,
    });
    expect(frames.slice(1, 3).map((f) => Number(f.id))).toEqual([lastId - 1, lastId]);
    await stale.close();
    await asked.events.close();
  });
});
