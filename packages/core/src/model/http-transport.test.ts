// The node:http transport on its own, against a real loopback server: what the provider relies on beyond
// the provider tests (which run over it too): sockets kept alive between requests, an abort before the
// answer, headers and bodies read like fetch's.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeHttpFetch } from "./http-transport.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server answering every POST with `answer(body)`; counts the TCP connections it accepted. */
async function serve(answer: (body: string, res: import("node:http").ServerResponse) => void) {
  const seen = { connections: 0, bodies: [] as string[] };
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.bodies.push(body);
      answer(body, res);
    });
  });
  server.on("connection", () => {
    seen.connections += 1;
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/chat/completions`, seen };
}

const post = (body: string, signal = new AbortController().signal) => ({
  method: "POST" as const,
  headers: { "content-type": "application/json" },
  body,
  signal,
});

async function readAll(response: Awaited<ReturnType<typeof nodeHttpFetch>>): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += Buffer.from(value ?? new Uint8Array()).toString("utf8");
  }
}

describe("nodeHttpFetch", () => {
  it("sends the body and reads status, headers and a streamed body", async () => {
    const { url, seen } = await serve((body, res) => {
      res.writeHead(429, "Too Many Requests", { "retry-after": "2", "x-multi": ["a", "b"] });
      res.write("data: one\n\n");
      res.end(`data: ${body}\n\n`);
    });
    const response = await nodeHttpFetch(url, post('{"n":"é"}'));
    expect(response.ok).toBe(false);
    expect(response.status).toBe(429);
    expect(response.statusText).toBe("Too Many Requests");
    expect(response.headers.get("Retry-After")).toBe("2");
    expect(response.headers.get("x-multi")).toBe("a, b");
    expect(response.headers.get("absent")).toBeNull();
    expect(await readAll(response)).toBe('data: one\n\ndata: {"n":"é"}\n\n');
    expect(seen.bodies).toEqual(['{"n":"é"}']);
  });

  it("reuses one kept-alive connection for consecutive requests", async () => {
    const { url, seen } = await serve((_body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
    for (let i = 0; i < 3; i++) {
      const response = await nodeHttpFetch(url, post("{}"));
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(seen.bodies).toHaveLength(3);
    expect(seen.connections).toBe(1);
  });

  it("rejects with an AbortError when aborted before the answer, and after an abort still works", async () => {
    let hold: import("node:http").ServerResponse | undefined;
    const { url } = await serve((body, res) => {
      if (body === "hold") hold = res;
      else res.end("fine");
    });
    const controller = new AbortController();
    const pending = nodeHttpFetch(url, post("hold", controller.signal));
    while (!hold) await new Promise((resolve) => setTimeout(resolve, 2));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(await (await nodeHttpFetch(url, post("next"))).text()).toBe("fine");
  });

  it("rejects an already aborted signal and a URL that is not http(s) without sending anything", async () => {
    const { url, seen } = await serve((_body, res) => res.end());
    const controller = new AbortController();
    controller.abort();
    await expect(nodeHttpFetch(url, post("{}", controller.signal))).rejects.toMatchObject({
      name: "AbortError",
    });
    await expect(nodeHttpFetch("ftp://example.invalid/v1", post("{}"))).rejects.toThrow(
      /unsupported protocol/,
    );
    expect(seen.bodies).toEqual([]);
  });
});
