// Requests an attacker (or a flaky network) sends, over real sockets: torn uploads and paths that try to write
// lines of their own into the daemon's log.
import { afterEach, describe, expect, it } from "vitest";
import { closedBy, closeSocketDaemons, rawConnection, startSocketDaemon } from "../testing/socket-daemon.js";
import { jsonOf, waitFor } from "../testing/test-daemon.js";

afterEach(closeSocketDaemons);

/** Waits until the daemon has seen `n` requests through, so a negative log assertion is not made too early. */
async function settled(url: string): Promise<void> {
  for (let i = 0; i < 3; i += 1) await (await fetch(`${url}/health`)).text();
}

describe("an upload cut off half-way", () => {
  it("is not logged as an unhandled error, and the daemon serves the next request", async () => {
    const { daemon, logs } = await startSocketDaemon();
    for (const path of ["/session", "/session/x%0D%0Aqwen%20serve:%20FORGED/prompt"]) {
      const socket = await rawConnection(daemon.port);
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"cwd":`,
      );
      await new Promise((r) => setTimeout(r, 20));
      socket.destroy();
      await closedBy(socket);
    }
    await settled(daemon.url);
    await new Promise((r) => setTimeout(r, 100));
    expect(logs.filter((l) => /unhandled|FORGED/.test(l))).toEqual([]);
    const res = await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
  });
});

describe("the daemon's log", () => {
  it("holds one line per entry, whatever the text it reports holds", async () => {
    const { daemon, logs } = await startSocketDaemon();
    // A child whose session/close fails with a message holding a line break: the error text is the child's.
    const session = await jsonOf(await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }));
    const child = daemon.sessions.children.current;
    if (child === undefined) throw new Error("no child");
    child.closeSession = async () => {
      throw new Error("close failed\nqwen serve: FORGED line");
    };
    const { clientId } = session;
    const del = await fetch(`${daemon.url}/session/${session.sessionId}`, {
      method: "DELETE",
      headers: { "X-Qwen-Client-Id": clientId },
    });
    expect(del.status).toBe(204);
    await waitFor(() => logs.some((l) => l.includes("FORGED")), "the close failure logged");
    for (const line of logs) expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(logs.find((l) => l.includes("FORGED"))).toContain("close failed\\nqwen serve: FORGED line");
  });
});

describe("connections", () => {
  it("event streams cannot take every connection: /health and sessions still answer with all stream slots taken", async () => {
    const { daemon } = await startSocketDaemon({ maxConnections: 8 });
    const session = await jsonOf(
      await fetch(`${daemon.url}/session`, { method: "POST", body: "{}", headers: { Connection: "close" } }),
    );
    const streams = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${daemon.url}/session/${session.sessionId}/events`);
      expect(res.status).toBe(200);
      streams.push(res);
    }
    const refused = await fetch(`${daemon.url}/session/${session.sessionId}/events`, {
      headers: { Connection: "close" },
    });
    expect(refused.status).toBe(503);
    expect((await jsonOf(refused)).code).toBe("stream_limit_exceeded");
    const health = await fetch(`${daemon.url}/health`, { headers: { Connection: "close" } });
    expect(health.status).toBe(200);
    const status = await fetch(`${daemon.url}/session/${session.sessionId}/status`, {
      headers: { Connection: "close" },
    });
    expect(status.status).toBe(200);
    await Promise.all(streams.map((s) => s.body?.cancel()));
  });

  it("a client that never finishes its headers is cut off after --headers-timeout-ms", async () => {
    const { daemon } = await startSocketDaemon({ headersTimeoutMs: 300 });
    const socket = await rawConnection(daemon.port);
    socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    const started = Date.now();
    const received = await closedBy(socket);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a body that trickles in is cut off after --request-timeout-ms", async () => {
    const { daemon } = await startSocketDaemon({ requestTimeoutMs: 500 });
    const socket = await rawConnection(daemon.port);
    socket.write("POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{");
    const drip = setInterval(() => socket.write(" "), 100);
    try {
      const received = await closedBy(socket);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(drip);
    }
  });

  it("an idle keep-alive connection is closed after --keep-alive-timeout-ms", async () => {
    const { daemon } = await startSocketDaemon({ keepAliveTimeoutMs: 200 });
    const socket = await rawConnection(daemon.port);
    socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const started = Date.now();
    const received = await closedBy(socket);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    // Node's own default is 5 s; well under it means the option took effect.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("request bodies in flight", () => {
  it("large bodies share --max-body-bytes-in-flight: they wait their turn, all are served, the peak stays under it", async () => {
    const budget = 10 * 1024 * 1024;
    const { daemon } = await startSocketDaemon({
      maxBodyBytesInFlight: budget,
      maxPendingPromptsPerSession: 0,
    });
    const { sessionId, clientId } = await jsonOf(
      await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" }),
    );
    const body = JSON.stringify({ prompt: [{ type: "text", text: "z".repeat(6 * 1024 * 1024) }] });
    const statuses = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${daemon.url}/session/${sessionId}/prompt`, {
          method: "POST",
          body,
          headers: { "Content-Type": "application/json", "X-Qwen-Client-Id": clientId },
        }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    expect(statuses).toEqual([202, 202, 202, 202]);
    const status = await jsonOf(await fetch(`${daemon.url}/daemon/status`));
    expect(status.requestBodies).toMatchObject({ capacity: budget, inFlight: 0, waiting: 0 });
    expect(status.requestBodies.peak).toBeGreaterThanOrEqual(body.length);
    expect(status.requestBodies.peak).toBeLessThanOrEqual(budget);
  });
});
