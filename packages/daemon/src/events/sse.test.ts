import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "./daemon-event.js";
import { SessionEventBus, SubscriberLimitExceededError } from "./event-bus.js";
import { ManualClock } from "./manual-clock.js";
import { formatSseEvent, SSE_RETRY_PREAMBLE, type SseStreamCloseReason, streamEvents } from "./sse.js";

const decoder = new TextDecoder();

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : decoder.decode(value);
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  let text = "";
  for (let chunk = await readChunk(reader); chunk !== undefined; chunk = await readChunk(reader))
    text += chunk;
  return text;
}

function setup(options: { maxSubscribers?: number } = {}) {
  const clock = new ManualClock(7);
  const bus = new SessionEventBus({ epoch: "e", clock, ...options });
  const closes: SseStreamCloseReason[] = [];
  const open = (extra: Partial<Parameters<typeof streamEvents>[0]> = {}) =>
    streamEvents({ bus, clock, onClose: (reason) => closes.push(reason), ...extra });
  return { clock, bus, closes, open };
}

describe("formatSseEvent", () => {
  it("writes id, event and data lines for a ring event", () => {
    const event: DaemonEvent = {
      id: 12,
      v: 1,
      type: "permission_resolved",
      data: { requestId: "r1", outcome: { outcome: "cancelled" } },
      promptId: "p1",
      _meta: { serverTimestamp: 1700 },
    };
    expect(formatSseEvent(event)).toBe(
      "id: 12\nevent: permission_resolved\n" +
        'data: {"id":12,"v":1,"type":"permission_resolved","data":{"requestId":"r1","outcome":{"outcome":"cancelled"}},"promptId":"p1","_meta":{"serverTimestamp":1700}}\n\n',
    );
  });

  it("writes no id line for replay_complete and keeps multi-line text on one data line", () => {
    expect(
      formatSseEvent({
        v: 1,
        type: "replay_complete",
        data: { replayedCount: 0 },
        _meta: { serverTimestamp: 1 },
      }),
    ).toBe(
      'event: replay_complete\ndata: {"v":1,"type":"replay_complete","data":{"replayedCount":0},"_meta":{"serverTimestamp":1}}\n\n',
    );
    const text = formatSseEvent({
      id: 1,
      v: 1,
      type: "x",
      data: { text: "a\nb\r\nc" },
      _meta: { serverTimestamp: 1 },
    });
    expect(text.split("\n")).toHaveLength(5); // id, event, data, "", ""
  });

  it("refuses an event type that would break framing", () => {
    expect(() =>
      formatSseEvent({ id: 1, v: 1, type: "a\nb", data: {}, _meta: { serverTimestamp: 1 } }),
    ).toThrow(TypeError);
  });
});

describe("streamEvents", () => {
  it("starts with retry: 3000, then the snapshot, then live frames", async () => {
    const { bus, open } = setup();
    const reader = open({
      initial: [{ type: "permission_request", data: { requestId: "r1", sessionId: "s" } }],
      heartbeatMs: 0,
    }).getReader();
    expect(await readChunk(reader)).toBe(SSE_RETRY_PREAMBLE);
    expect(await readChunk(reader)).toBe(
      'event: permission_request\ndata: {"v":1,"type":"permission_request","data":{"requestId":"r1","sessionId":"s"},"_meta":{"serverTimestamp":7}}\n\n',
    );
    const pending = readChunk(reader);
    bus.publish("turn_complete", { stopReason: "end_turn" });
    expect(await pending).toBe(
      'id: 1\nevent: turn_complete\ndata: {"id":1,"v":1,"type":"turn_complete","data":{"stopReason":"end_turn"},"_meta":{"serverTimestamp":7}}\n\n',
    );
    await reader.cancel();
  });

  it("replays from Last-Event-ID, then replay_complete without an id line", async () => {
    const { bus, open } = setup();
    bus.publish("a", {});
    bus.publish("b", {});
    bus.publish("c", {});
    const reader = open({ lastEventId: 1, heartbeatMs: 0 }).getReader();
    bus.close();
    const text = await readAll(reader);
    expect(text).toBe(
      [
        "retry: 3000\n\n",
        'id: 2\nevent: b\ndata: {"id":2,"v":1,"type":"b","data":{},"_meta":{"serverTimestamp":7}}\n\n',
        'id: 3\nevent: c\ndata: {"id":3,"v":1,"type":"c","data":{},"_meta":{"serverTimestamp":7}}\n\n',
        'event: replay_complete\ndata: {"v":1,"type":"replay_complete","data":{"replayedCount":2,"lastReplayedEventId":3,"lastEventId":3},"_meta":{"serverTimestamp":7}}\n\n',
      ].join(""),
    );
  });

  it("sends : heartbeat every heartbeatMs (15 s by default)", async () => {
    const { clock, open } = setup();
    const reader = open().getReader();
    expect(await readChunk(reader)).toBe(SSE_RETRY_PREAMBLE);
    clock.advance(14_999);
    const next = readChunk(reader);
    clock.advance(1);
    expect(await next).toBe(": heartbeat\n\n");
    clock.advance(15_000);
    expect(await readChunk(reader)).toBe(": heartbeat\n\n");
    await reader.cancel();
    expect(clock.pendingTimers).toBe(0);
  });

  it("abort cleans up exactly once: unsubscribes, stops the heartbeat, ends the stream", async () => {
    const { bus, clock, closes, open } = setup();
    const abort = new AbortController();
    const reader = open({ signal: abort.signal }).getReader();
    expect(bus.subscriberCount).toBe(1);
    expect(clock.pendingTimers).toBe(1);
    abort.abort();
    expect(await readAll(reader)).toBe(SSE_RETRY_PREAMBLE);
    await reader.cancel();
    expect(closes).toEqual(["aborted"]);
    expect(bus.subscriberCount).toBe(0);
    expect(clock.pendingTimers).toBe(0);
  });

  it("reader cancel cleans up exactly once, even with a later abort", async () => {
    const { bus, clock, closes, open } = setup();
    const abort = new AbortController();
    const reader = open({ signal: abort.signal }).getReader();
    await readChunk(reader);
    const waiting = reader.read(); // a pull is parked on the subscription
    await reader.cancel();
    await waiting;
    abort.abort();
    expect(closes).toEqual(["cancelled"]);
    expect(bus.subscriberCount).toBe(0);
    expect(clock.pendingTimers).toBe(0);
    bus.publish("after", {}); // nobody left to deliver to; must not throw
  });

  it("an already aborted signal yields only the preamble", async () => {
    const { bus, closes, open } = setup();
    const abort = new AbortController();
    abort.abort();
    expect(await readAll(open({ signal: abort.signal }).getReader())).toBe(SSE_RETRY_PREAMBLE);
    expect(closes).toEqual(["aborted"]);
    expect(bus.subscriberCount).toBe(0);
  });

  it("ends after the last frames when the bus closes", async () => {
    const { bus, closes, open } = setup();
    const reader = open({ heartbeatMs: 0 }).getReader();
    bus.publish("session_closed", { sessionId: "s", reason: "deleted" });
    bus.close();
    const text = await readAll(reader);
    expect(text).toContain("event: session_closed\n");
    expect(closes).toEqual(["bus_closed"]);
  });

  it("a client that does not read is evicted: it gets client_evicted and the stream ends", async () => {
    const { bus, closes, open } = setup();
    const reader = open({ maxQueued: 16, heartbeatMs: 0 }).getReader();
    for (let i = 0; i < 40; i += 1) bus.publish("session_update", { i });
    expect(bus.subscriberCount).toBe(0);
    const text = await readAll(reader);
    const frames = text.split("\n\n").filter((f) => f.startsWith("id:") || f.startsWith("event:"));
    expect(frames.at(-1)).toMatch(/^event: client_evicted\ndata: .*"reason":"queue_overflow"/);
    expect(frames.filter((f) => f.startsWith("id:")).length).toBeLessThanOrEqual(17);
    expect(closes).toEqual(["queue_overflow"]);
  });

  it("throws synchronously when the subscriber cap is reached (route answers 429)", () => {
    const { open } = setup({ maxSubscribers: 1 });
    open({ heartbeatMs: 0 });
    expect(() => open({ heartbeatMs: 0 })).toThrow(SubscriberLimitExceededError);
  });

  it("serves through Hono's c.body and cleans up when the request is aborted", async () => {
    const { bus, closes } = setup();
    const app = new Hono().get("/events", (c) => {
      const stream = streamEvents({
        bus,
        signal: c.req.raw.signal,
        heartbeatMs: 0,
        onClose: (r) => closes.push(r),
      });
      return c.body(stream, 200, { "Content-Type": "text/event-stream", "X-Qwen-Event-Epoch": bus.epoch });
    });
    const abort = new AbortController();
    const response = await app.request("/events", { signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(await readChunk(reader)).toBe(SSE_RETRY_PREAMBLE);
    bus.publish("hello", {});
    expect(await readChunk(reader)).toMatch(/^id: 1\nevent: hello\n/);
    abort.abort();
    expect(await readAll(reader)).toBe("");
    await reader.cancel();
    expect(closes).toEqual(["aborted"]);
    expect(bus.subscriberCount).toBe(0);
  });
});
