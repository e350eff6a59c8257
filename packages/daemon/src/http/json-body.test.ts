import { describe, expect, it } from "vitest";
import { HttpError } from "./http-error.js";
import { parseJsonSafely, readJsonObject } from "./json-body.js";

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

  it("refuses by Content-Length before reading, and by counting while streaming", async () => {
    await expect(readJsonObject(request("{}", { "content-length": "11" }), 10)).rejects.toMatchObject({
      status: 413,
    });
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"a":"'));
        c.enqueue(new TextEncoder().encode("x".repeat(20)));
        c.close();
      },
    });
    await expect(readJsonObject(request(chunks), 16)).rejects.toMatchObject({ status: 413 });
  });
});
