import { describe, expect, it } from "vitest";
import { questionRequest } from "../testing/question.js";
import { createTestDaemon, parseSse, readSseUntil, waitFor } from "../testing/test-daemon.js";

async function sessionWithEvents(count: number, ringSize = 8000) {
  const d = createTestDaemon({ eventRingSize: ringSize });
  const { sessionId } = await d.createSession();
  const bus = d.sessions.require(sessionId).bus;
  for (let i = 0; i < count; i += 1)
    bus.publish("session_update", { sessionId, update: { sessionUpdate: "plan", n: i } });
  return { d, sessionId };
}

describe("GET /session/:id/events", () => {
  it("starts with retry: 3000 and sends the epoch header", async () => {
    const { d, sessionId } = await sessionWithEvents(0);
    const res = await d.request("GET", `/session/${sessionId}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("X-Qwen-Event-Epoch")).toBe(d.sessions.require(sessionId).bus.epoch);
    expect(res.headers.get("X-Qwen-SSE-Stream-Id")).toMatch(/^[0-9a-f-]{36}$/);
    const frames = await readSseUntil(res, (f) => f.length >= 1);
    expect(frames[0]).toEqual({ retry: 3000 });
  });

  it("replays N+1.. after Last-Event-ID, then replay_complete without an id", async () => {
    const { d, sessionId } = await sessionWithEvents(5);
    const res = await d.request("GET", `/session/${sessionId}/events`, { headers: { "Last-Event-ID": "3" } });
    const frames = await readSseUntil(res, (f) => f.some((x) => x.event === "replay_complete"));
    const typed = frames.filter((f) => f.event !== undefined);
    expect(typed.map((f) => f.id)).toEqual([4, 5, undefined]);
    expect(typed[0]?.data).toMatchObject({
      id: 4,
      v: 1,
      type: "session_update",
      _meta: { serverTimestamp: expect.any(Number) },
    });
    expect(typed[2]?.event).toBe("replay_complete");
  });

  it("sends state_resync_required for a cursor the ring no longer holds", async () => {
    const { d, sessionId } = await sessionWithEvents(10, 4);
    const res = await d.request("GET", `/session/${sessionId}/events`, { headers: { "Last-Event-ID": "2" } });
    const frames = await readSseUntil(res, (f) => f.some((x) => x.event === "replay_complete"));
    const resync = frames.find((f) => f.event === "state_resync_required");
    expect(resync?.id).toBeUndefined();
    expect(resync?.data?.data).toMatchObject({ lastDeliveredId: 2, earliestAvailableId: 7 });
  });

  it("a subscriber without a cursor first gets the pending permission requests", async () => {
    const d = createTestDaemon({
      agent: {
        prompt: async (params, peer) => {
          await peer.requestPermission(questionRequest(String(params.sessionId)));
          return { stopReason: "end_turn" };
        },
      },
    });
    const { sessionId } = await d.createSession();
    await d.request("POST", `/session/${sessionId}/prompt`, {
      body: { prompt: [{ type: "text", text: "ask" }] },
    });
    await waitFor(() => d.sessions.mediator.hasPending(sessionId), "question");
    const late = await d.request("GET", `/session/${sessionId}/events`);
    const frames = await readSseUntil(late, (f) => f.some((x) => x.event === "permission_request"));
    const request = frames.find((f) => f.event === "permission_request");
    expect(request?.data?.data).toMatchObject({ sessionId, toolCall: { toolCallId: "call-q1" } });
    // With a cursor past the request, no snapshot is added (the ring is the source of truth then).
    const last = d.sessions.require(sessionId).bus.lastEventId;
    const cursor = await d.request("GET", `/session/${sessionId}/events`, {
      headers: { "Last-Event-ID": String(last) },
    });
    const replay = await readSseUntil(cursor, (f) => f.some((x) => x.event === "replay_complete"));
    expect(replay.some((f) => f.event === "permission_request")).toBe(false);
  });

  it.each(["abc", "15", "2049", "-1", "16.5"])(
    "rejects ?maxQueued=%s with 400 invalid_max_queued",
    async (value) => {
      const { d, sessionId } = await sessionWithEvents(0);
      const res = await d.request("GET", `/session/${sessionId}/events?maxQueued=${value}`);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("invalid_max_queued");
    },
  );

  it("accepts ?maxQueued in [16, 2048]", async () => {
    const { d, sessionId } = await sessionWithEvents(0);
    for (const value of ["16", "2048"]) {
      const res = await d.request("GET", `/session/${sessionId}/events?maxQueued=${value}`);
      expect(res.status).toBe(200);
      await res.body?.cancel();
    }
  });

  it("refuses subscribers beyond the cap with 429 subscriber_limit_exceeded", async () => {
    const { d, sessionId } = await sessionWithEvents(0);
    const bus = d.sessions.require(sessionId).bus;
    const open: Response[] = [];
    for (let i = 0; i < bus.maxSubscribers; i += 1)
      open.push(await d.request("GET", `/session/${sessionId}/events`));
    const res = await d.request("GET", `/session/${sessionId}/events`);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("5");
    expect((await res.json()).code).toBe("subscriber_limit_exceeded");
    await Promise.all(open.map((r) => r.body?.cancel()));
    await waitFor(() => bus.subscriberCount === 0, "subscribers released");
  });

  it("ends the stream after session_closed when the session is deleted", async () => {
    const { d, sessionId } = await sessionWithEvents(0);
    const res = await d.request("GET", `/session/${sessionId}/events`);
    const clientId = d.sessions.require(sessionId).clients.ids()[0];
    await d.request("DELETE", `/session/${sessionId}`, { headers: { "X-Qwen-Client-Id": clientId } });
    const text = await res.text();
    const frames = parseSse(text);
    expect(frames.at(-1)?.event).toBe("session_closed");
  });
});

describe("HEAD /session/:id/events", () => {
  it("answers the stream's headers without subscribing, so HEADs never use up the subscriber slots", async () => {
    const { d, sessionId } = await sessionWithEvents(1);
    const bus = d.sessions.require(sessionId).bus;
    for (let i = 0; i < bus.maxSubscribers + 6; i += 1) {
      const head = await d.request("HEAD", `/session/${sessionId}/events`);
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toBe("text/event-stream");
      expect(head.headers.get("X-Qwen-Event-Epoch")).toBe(bus.epoch);
      expect(head.body).toBeNull();
    }
    expect(bus.subscriberCount).toBe(0);
    const get = await d.request("GET", `/session/${sessionId}/events`);
    expect(get.status).toBe(200);
    await get.body?.cancel();
  });

  it("is 404 for an unknown session and 400 for a bad maxQueued, like GET", async () => {
    const { d, sessionId } = await sessionWithEvents(0);
    expect((await d.request("HEAD", "/session/nope/events")).status).toBe(404);
    expect((await d.request("HEAD", `/session/${sessionId}/events?maxQueued=1`)).status).toBe(400);
  });
});

describe("the daemon-wide cap on event streams", () => {
  it("refuses streams past --max-event-streams across sessions with 503, and frees a slot when one ends", async () => {
    const d = createTestDaemon({ maxEventStreams: 2 });
    const a = await d.createSession();
    const b = await d.createSession({ sessionScope: "thread" });
    const first = await d.request("GET", `/session/${a.sessionId}/events`);
    const second = await d.request("GET", `/session/${b.sessionId}/events`);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await d.request("GET", `/session/${a.sessionId}/events`);
    expect(third.status).toBe(503);
    expect(third.headers.get("Retry-After")).toBe("5");
    expect(await third.json()).toEqual({
      error: "Too many event streams open on this daemon (limit 2)",
      code: "stream_limit_exceeded",
      limit: 2,
    });
    // HEAD opens no stream, so it is not refused.
    expect((await d.request("HEAD", `/session/${a.sessionId}/events`)).status).toBe(200);
    await first.body?.cancel();
    const again = await d.request("GET", `/session/${b.sessionId}/events`);
    expect(again.status).toBe(200);
    await Promise.all([second.body?.cancel(), again.body?.cancel()]);
  });
});
