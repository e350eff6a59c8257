import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { HttpError } from "./http-error.js";
import { bodyCap, parseJsonSafely, readJsonObject } from "./json-body.js";
import { createErrorHandler } from "./on-error.js";

const request = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("parseJsonSafely", () => {
  it("drops prototype keys at every depth and keeps everything else", () => {
    const value = parseJsonSafely(
      '{"a":1,"__proto__":{"polluted":true},"nested":{"constructor":{"prototype":{}},"ok":[{"prototype":1,"b":2}]}}',
    );
    expect(value).toEqual({ a: 1, nested: { ok: [{ b: 2 }] } });
    expect(Object.hasOwn(value as object, "__proto__")).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("throws the 400 HttpError for malformed JSON", () => {
    try {
      parseJsonSafely("{");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(400);
      expect((error as HttpError).body).toEqual({ error: "Invalid JSON in request body" });
    }
  });
});

describe("readJsonObject", () => {
  it("reads an empty body and non-object JSON as {}", async () => {
    expect(await readJsonObject(request(""))).toEqual({});
    expect(await readJsonObject(request("[1,2]"))).toEqual({});
    expect(await readJsonObject(request('"text"'))).toEqual({});
  });

  it("ends a body whose client went away as request_aborted", async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"a":'));
        c.error(new Error("aborted"));
      },
    });
    await expect(readJsonObject(request(broken))).rejects.toMatchObject({
      status: 400,
      body: { code: "request_aborted" },
    });
  });
});

describe("bodyCap", () => {
  const app = new Hono();
  app.onError(createErrorHandler(() => {}));
  app.use(bodyCap(16));
  app.post("/x", async (c) => c.json(await readJsonObject(c.req.raw)));
  const post = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    app.request("/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
  const stream = (...parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const part of parts) c.enqueue(new TextEncoder().encode(part));
        c.close();
      },
    });

  it("refuses by Content-Length before reading, and by counting a body without one", async () => {
    const declared = await post("{}", { "content-length": "17" });
    expect([declared.status, await declared.json()]).toEqual([
      413,
      { error: "Request body too large (max 10 MB)" },
    ]);
    const counted = await post(stream('{"a":"', "x".repeat(20), '"}'));
    expect(counted.status).toBe(413);
  });

  it("lets a body within the cap through, streamed or not", async () => {
    expect(await (await post('{"a":1}')).json()).toEqual({ a: 1 });
    expect(await (await post(stream('{"a":', "2}"))).json()).toEqual({ a: 2 });
  });
});
