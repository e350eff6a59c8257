// One in-process check over a real socket: @hono/node-server turns a client disconnect into
// the request's abort signal, and streamEvents cleans up once from it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { expect, it } from "vitest";
import { SessionEventBus } from "./event-bus.js";
import { type SseStreamCloseReason, streamEvents } from "./sse.js";

const nextData = (res: http.IncomingMessage) =>
  new Promise<string>((resolve) => res.once("data", (chunk) => resolve(String(chunk))));

it("a client disconnect over a real socket ends the subscription exactly once", async () => {
  const bus = new SessionEventBus();
  const closes: SseStreamCloseReason[] = [];
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const app = new Hono().get("/events", (c) =>
    c.body(
      streamEvents({
        bus,
        signal: c.req.raw.signal,
        heartbeatMs: 0,
        onClose: (reason) => {
          closes.push(reason);
          markClosed();
        },
      }),
      200,
      { "Content-Type": "text/event-stream" },
    ),
  );
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  try {
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    const request = http.get({ host: "127.0.0.1", port, path: "/events" });
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once("response", resolve));
    expect(await nextData(response)).toBe("retry: 3000\n\n");
    const live = nextData(response);
    bus.publish("hello", {});
    expect(await live).toMatch(/^id: 1\nevent: hello\n/);
    request.destroy();
    await closed;
    expect(closes).toEqual(["aborted"]);
    expect(bus.subscriberCount).toBe(0);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
