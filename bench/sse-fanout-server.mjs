// A process serving the daemon's own SSE stack (SessionEventBus + streamEvents, on Hono and
// @hono/node-server as in `qwen serve`) with the per-session subscriber cap raised, so the fan-out of one
// event to more subscribers than `qwen serve` admits on one session (64, like the reference) can be timed.
// Started by bench/daemon-latency.mjs; runs the TypeScript sources:
//   node --conditions=source --import tsx bench/sse-fanout-server.mjs <maxSubscribers>
// Prints `listening <url>` on stdout. GET /events subscribes; POST /publish publishes one event (204).
import { createRequire } from "node:module";
import { SessionEventBus, streamEvents } from "../packages/daemon/src/events/index.ts";

// hono and @hono/node-server are the daemon package's dependencies (pnpm does not hoist them to the root).
const fromDaemon = createRequire(new URL("../packages/daemon/package.json", import.meta.url));
const { Hono } = await import(fromDaemon.resolve("hono"));
const { serve } = await import(fromDaemon.resolve("@hono/node-server"));

const maxSubscribers = Number(process.argv[2] ?? 100);
const bus = new SessionEventBus({ maxSubscribers });
let published = 0;

const app = new Hono()
  .get("/events", (c) => {
    const body = streamEvents({ bus, signal: c.req.raw.signal });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" },
    });
  })
  .post("/publish", () => {
    published++;
    // The same event type and size the real-daemon fan-out uses (a stale vote's notice).
    bus.publish("permission_already_resolved", {
      requestId: `bench-${published}`,
      sessionId: "bench-session",
      outcome: { outcome: "selected", optionId: "proceed_once" },
    });
    return new Response(null, { status: 204 });
  });

const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  process.stdout.write(`listening http://127.0.0.1:${info.port}\n`);
});
server.maxConnections = maxSubscribers + 16;
process.on("SIGTERM", () => {
  bus.close();
  server.close(() => process.exit(0));
  server.closeAllConnections?.();
});
