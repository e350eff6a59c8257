import { describe, expect, it } from "vitest";
import type { DaemonEvent } from "./daemon-event.js";
import { openEventStream, reconnectDelay, type StreamEnd } from "./event-stream.js";

type Call = { url: string; headers: Record<string, string> };
type Script = (call: Call, n: number) => Response | Error;

const encoder = new TextEncoder();

/** A body that sends `frames` and then ends (or stays open when `open`). */
function sseBody(frames: string[], open = false): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const f of frames) controller.enqueue(encoder.encode(f));
      if (!open) controller.close();
    },
  });
}

function sse(frames: string[], headers: Record<string, string> = {}, open = false): Response {
  return new Response(sseBody(frames, open), {
    status: 200,
    headers: { "content-type": "text/event-stream", ...headers },
  });
}

const frame = (id: number | undefined, type: string, data: Record<string, unknown> = {}) =>
  `${id !== undefined ? `id: ${id}\n` : ""}event: ${type}\ndata: ${JSON.stringify({ ...(id !== undefined ? { id } : {}), v: 1, type, data })}\n\n`;

function harness(script: Script, options: { lastEventId?: number; epoch?: string } = {}) {
  const calls: Call[] = [];
  const events: DaemonEvent[] = [];
  const states: string[] = [];
  const delays: number[] = [];
  let resolveEnd: (end: StreamEnd) => void = () => {};
  const ended = new Promise<StreamEnd>((r) => {
    resolveEnd = r;
  });
  const fetchFake = (async (url: string, init: RequestInit) => {
    const call = { url, headers: init.headers as Record<string, string> };
    calls.push(call);
    const out = script(call, calls.length - 1);
    if (out instanceof Error) throw out;
    return out;
  }) as unknown as typeof fetch;
  const stream = openEventStream({
    url: "/session/s1/events",
    fetch: fetchFake,
    headers: () => ({ authorization: "Bearer t", "x-qwen-client-id": "client_1" }),
    ...options,
    onEvent: (e) => events.push(e),
    onEnd: resolveEnd,
    onState: (s) => states.push(s),
    sleep: async (ms) => {
      delays.push(ms);
    },
  });
  return { calls, events, states, delays, ended, stream };
}

describe("openEventStream", () => {
  it("sends auth, client id, cursor and epoch, and delivers events in order", async () => {
    const h = harness(
      (_call, n) =>
        n === 0
          ? sse(
              [
                "retry: 3000\n\n",
                frame(6, "session_update"),
                frame(7, "turn_complete"),
                frame(8, "session_closed"),
              ],
              {
                "x-qwen-event-epoch": "E1",
              },
            )
          : new Error("unexpected reconnect"),
      { lastEventId: 5, epoch: "E1" },
    );
    expect(await h.ended).toEqual({ kind: "closed" });
    expect(h.calls[0]?.headers).toMatchObject({
      accept: "text/event-stream",
      authorization: "Bearer t",
      "x-qwen-client-id": "client_1",
      "last-event-id": "5",
      "x-qwen-event-epoch": "E1",
    });
    expect(h.events.map((e) => [e.id, e.type])).toEqual([
      [6, "session_update"],
      [7, "turn_complete"],
      [8, "session_closed"],
    ]);
    expect(h.stream.lastEventId).toBe(8);
    expect(h.states).toEqual(["connecting", "live"]);
  });

  it("reconnects after a drop from the last id it saw, with the server's retry delay", async () => {
    const h = harness((_call, n) => {
      if (n === 0)
        return sse(["retry: 1500\n\n", frame(1, "session_update"), frame(2, "session_update")], {
          "x-qwen-event-epoch": "E",
        });
      if (n === 1) return new TypeError("Failed to fetch");
      return sse([frame(3, "session_closed")], { "x-qwen-event-epoch": "E" });
    });
    expect(await h.ended).toEqual({ kind: "closed" });
    expect(h.calls.map((c) => c.headers["last-event-id"])).toEqual([undefined, "2", "2"]);
    // The epoch learnt from the first response is sent back, so the daemon can spot a restart.
    expect(h.calls.map((c) => c.headers["x-qwen-event-epoch"])).toEqual([undefined, "E", "E"]);
    expect(h.delays).toEqual([1500, 3000]);
    expect(h.states).toContain("reconnecting");
  });

  it("a frame without an id (replay_complete) does not move the cursor", async () => {
    const h = harness((_call, n) =>
      n === 0
        ? sse([frame(4, "session_update"), frame(undefined, "replay_complete")])
        : sse([frame(5, "session_closed")]),
    );
    await h.ended;
    expect(h.calls[1]?.headers["last-event-id"]).toBe("4");
  });

  it("asks for a resync when the daemon says so, without delivering that event", async () => {
    const h = harness(
      () =>
        sse([
          frame(undefined, "state_resync_required", { reason: "ring_evicted" }),
          frame(9, "session_update"),
        ]),
      {
        lastEventId: 1,
      },
    );
    expect(await h.ended).toEqual({ kind: "resync", reason: "ring_evicted" });
    expect(h.events).toEqual([]);
  });

  it("asks for a resync when the epoch changed under its cursor (ids restarted)", async () => {
    const h = harness(() => sse([frame(1, "session_update")], { "x-qwen-event-epoch": "NEW" }, true), {
      lastEventId: 12,
      epoch: "OLD",
    });
    expect(await h.ended).toEqual({ kind: "resync", reason: "epoch_changed" });
    expect(h.events).toEqual([]);
  });

  it("reports a session the daemon no longer has (404) and a wrong token (401) without retrying", async () => {
    const gone = harness(() => new Response('{"error":"No session"}', { status: 404 }));
    expect(await gone.ended).toEqual({ kind: "gone", status: 404 });
    const denied = harness(() => new Response('{"error":"Unauthorized"}', { status: 401 }));
    expect(await denied.ended).toEqual({ kind: "unauthorized", status: 401 });
    expect(gone.calls.length + denied.calls.length).toBe(2);
  });

  it("retries a 503 after its Retry-After", async () => {
    const h = harness((_call, n) =>
      n === 0
        ? new Response("busy", { status: 503, headers: { "retry-after": "2" } })
        : sse([frame(1, "session_closed")]),
    );
    await h.ended;
    expect(h.delays).toEqual([2000]);
  });

  it("keeps reading when handling one event throws", async () => {
    const events: string[] = [];
    const done = new Promise<StreamEnd>((resolve) => {
      openEventStream({
        url: "/e",
        fetch: (async () =>
          sse([frame(1, "session_update"), frame(2, "session_closed")])) as unknown as typeof fetch,
        headers: () => ({}),
        onEvent: (e) => {
          events.push(e.type);
          if (e.id === 1) throw new Error("render bug");
        },
        onEnd: resolve,
      });
    });
    const originalError = console.error;
    console.error = () => {};
    try {
      expect(await done).toEqual({ kind: "closed" });
    } finally {
      console.error = originalError;
    }
    expect(events).toEqual(["session_update", "session_closed"]);
  });

  it("says 'unreachable' when a connect never reached the daemon, and 'reconnecting' for a 503", async () => {
    const h = harness((_call, n) => {
      if (n === 0) return new TypeError("Failed to fetch");
      if (n === 1) return new Response("busy", { status: 503 });
      return sse([frame(1, "session_closed")]);
    });
    await h.ended;
    expect(h.states).toEqual([
      "connecting",
      "unreachable",
      "reconnecting",
      "reconnecting",
      "reconnecting",
      "live",
    ]);
  });

  it("wake() cuts a reconnect delay short", async () => {
    let calls = 0;
    let slept: (() => void) | undefined;
    const stream = openEventStream({
      url: "/e",
      fetch: (async () => {
        calls += 1;
        if (calls === 1) throw new TypeError("Failed to fetch");
        return sse([frame(1, "session_closed")]);
      }) as unknown as typeof fetch,
      headers: () => ({}),
      onEvent: () => {},
      onEnd: () => {},
      // A sleep that only ends when woken: without wake() the stream would never reconnect.
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          slept = resolve;
          signal.addEventListener("abort", () => resolve(), { once: true });
        }),
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(calls).toBe(1);
    expect(slept).toBeDefined();
    stream.wake();
    await stream.done;
    expect(calls).toBe(2);
  });

  it("close() stops it without reporting an end", async () => {
    let ends = 0;
    const stream = openEventStream({
      url: "/e",
      fetch: (async () => sse([frame(1, "session_update")], {}, true)) as unknown as typeof fetch,
      headers: () => ({}),
      onEvent: () => stream.close(),
      onEnd: () => {
        ends += 1;
      },
    });
    await stream.done;
    expect(ends).toBe(0);
  });
});

describe("reconnectDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    expect([0, 1, 2, 3, 4].map((n) => reconnectDelay(3000, n, 20_000))).toEqual([
      3000, 6000, 12000, 20000, 20000,
    ]);
  });
});
