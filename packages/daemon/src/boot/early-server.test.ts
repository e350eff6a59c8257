import { once } from "node:events";
import { request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type EarlyServer, listenEarly } from "./early-server.js";

const open: EarlyServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function bind(): Promise<{ early: EarlyServer; url: string }> {
  const early = await listenEarly({ port: 0, hostname: "127.0.0.1" });
  open.push(early);
  return { early, url: `http://127.0.0.1:${(early.server.address() as AddressInfo).port}` };
}

/** Resolves once the server has received a request (the response may come much later). */
function arrived(early: EarlyServer): Promise<ServerResponse> {
  return new Promise((resolve) => early.server.once("request", (_req, res: ServerResponse) => resolve(res)));
}

describe("listenEarly", () => {
  it("answers GET /health before the app is ready, exactly as the app's route does", async () => {
    const { url } = await bind();
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe('{"status":"ok"}');
  });

  it("holds other requests, with their bodies, until the app is ready, then hands them over in order", async () => {
    const { early, url } = await bind();
    const seen: string[] = [];
    const first = fetch(`${url}/session`, { method: "POST", body: '{"n":1}' });
    await arrived(early);
    const second = fetch(`${url}/health`, { headers: { Origin: "http://elsewhere.example" } });
    await arrived(early);
    early.ready((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      req.on("end", () => {
        seen.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(201).end("app");
      });
    });
    expect((await first).status).toBe(201);
    expect((await second).status).toBe(201);
    expect(seen).toEqual(['POST /session {"n":1}', "GET /health "]);
    // After ready the app answers everything, /health included.
    expect((await fetch(`${url}/health`)).status).toBe(201);
  });

  it("does not hand over a request whose client gave up while waiting", async () => {
    const { early, url } = await bind();
    const abort = new AbortController();
    const gone = fetch(`${url}/capabilities`, { signal: abort.signal }).catch((error: Error) => error.name);
    const res = await arrived(early);
    abort.abort();
    expect(await gone).toBe("AbortError");
    await once(res, "close");
    const handed: string[] = [];
    early.ready((req, res) => {
      handed.push(req.url ?? "");
      res.end();
    });
    await fetch(`${url}/after`);
    expect(handed).toEqual(["/after"]);
  });

  it("close() answers waiting requests 503 and stops listening", async () => {
    const { early, url } = await bind();
    const waiting = fetch(`${url}/capabilities`);
    await arrived(early);
    await early.close();
    const res = await waiting;
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "qwen serve failed to start" });
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    await early.close();
  });

  it("reports a port that is taken", async () => {
    const { early } = await bind();
    const port = (early.server.address() as AddressInfo).port;
    await expect(listenEarly({ port, hostname: "127.0.0.1" })).rejects.toThrow(
      `qwen serve: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`,
    );
  });

  it("answers /health to a plain node:http client too (Host header included by default)", async () => {
    const { early } = await bind();
    const port = (early.server.address() as AddressInfo).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/health" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(200);
  });
});
