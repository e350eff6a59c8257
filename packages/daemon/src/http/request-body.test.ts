import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { closeSocketDaemons, rawConnection, startSocketDaemon } from "../testing/socket-daemon.js";
import { jsonOf } from "../testing/test-daemon.js";
import { bodyBudget } from "./body-budget.js";
import { ByteBudget } from "./byte-budget.js";
import { bodyCap } from "./json-body.js";
import { createErrorHandler } from "./on-error.js";

afterEach(closeSocketDaemons);

const bodyGetter = Object.getOwnPropertyDescriptor(Request.prototype, "body")?.get as (
  this: Request,
) => ReadableStream<Uint8Array> | null;

/** A request that counts how often its body stream is asked for. */
function watched(method: string, body?: string, headers: Record<string, string> = {}) {
  const request = new Request("http://localhost/x", { method, body, headers });
  const asked = { count: 0 };
  Object.defineProperty(request, "body", {
    get() {
      asked.count += 1;
      return bodyGetter.call(this);
    },
  });
  return { request, asked };
}

describe("the body middleware on the Node server", () => {
  const app = new Hono();
  app.onError(createErrorHandler(() => {}));
  app.use(bodyBudget(new ByteBudget(1024 * 1024)));
  app.use(bodyCap(16));
  app.on(["GET", "POST"], "/x", (c) => c.text("ok"));
  // A Node request: Hono's Node adapter puts the IncomingMessage here (its body is never read below).
  const nodeEnv = { incoming: {} };

  it("judges a request by its method and Content-Length, never asking for the body stream", async () => {
    const cases = [
      { method: "GET", status: 200 },
      { method: "POST", body: "{}", headers: { "content-length": "2" }, status: 200 },
      { method: "POST", body: "{}", headers: { "content-length": "17" }, status: 413 },
    ];
    for (const { method, body, headers, status } of cases) {
      const { request, asked } = watched(method, body, headers);
      const res = await app.request(request, undefined, nodeEnv);
      expect([method, headers, res.status, asked.count]).toEqual([method, headers, status, 0]);
    }
  });
});

describe("request bodies over a real socket", () => {
  it("413 by a declared length before the body is sent; a chunked body is counted and read", async () => {
    const { daemon } = await startSocketDaemon();
    const tooLong = await rawConnection(daemon.port);
    tooLong.write(
      "POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10485761\r\n\r\n",
    );
    await expect.poll(() => tooLong.received()).toMatch(/^HTTP\/1\.1 413 .*Request body too large/s);
    tooLong.destroy();

    const chunked = await rawConnection(daemon.port);
    chunked.write(
      "POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n",
    );
    await expect.poll(() => chunked.received()).toMatch(/^HTTP\/1\.1 200 .*"sessionId"/s);
    chunked.destroy();

    const plain = await fetch(`${daemon.url}/session`, { method: "POST", body: "{}" });
    expect(plain.status).toBe(200);
    expect(await jsonOf(plain)).toHaveProperty("sessionId");
  });
});
