import type { HttpRoute } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidBody } from "../http/errors.js";
import { createErrorHandler } from "../http/on-error.js";
import { mount } from "./mount.js";

const Echo = {
  method: "POST",
  path: "/thing/:id",
  body: z.object({ n: z.number() }),
  status: 202,
  response: z.object({ id: z.string(), n: z.number(), extra: z.unknown() }),
} as const satisfies HttpRoute;
const Gone = { method: "DELETE", path: "/thing/:id", status: 204 } as const satisfies HttpRoute;

function app(refuse?: (raw: Record<string, unknown>) => Error) {
  const a = new Hono();
  a.onError(createErrorHandler(() => {}));
  mount(
    a,
    Echo,
    async (c, body) => {
      const { value, raw } = await body();
      return { id: c.req.param("id") ?? "", n: value.n, extra: raw.extra };
    },
    refuse !== undefined ? { refuse } : {},
  );
  mount(a, Gone, () => undefined);
  return a;
}

const post = (body: string) => ({ method: "POST", body, headers: { "content-type": "application/json" } });

describe("mount", () => {
  it("answers a value with the row's status, the body checked by the row's schema and also given as sent", async () => {
    const res = await app().request("/thing/a", post('{"n":3,"extra":"kept"}'));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ id: "a", n: 3, extra: "kept" });
  });

  it("registers the row's method only", async () => {
    expect((await app().request("/thing/a", { method: "GET" })).status).toBe(404);
    expect((await app().request("/thing/a", { method: "PUT", body: "{}" })).status).toBe(404);
  });

  it("answers nothing with 204 on a row without an answer", async () => {
    const res = await app().request("/thing/a", { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  it("refuses a body the schema does not accept, naming the first problem", async () => {
    const res = await app().request("/thing/a", post('{"n":"three"}'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Invalid request body: `n`: /) });
  });

  it("lets the route word its own refusal", async () => {
    const res = await app(() => invalidBody("n, please", "bad_n")).request("/thing/a", post("{}"));
    expect(await res.json()).toEqual({ error: "n, please", code: "bad_n" });
  });

  it("keeps the JSON rules of every body (malformed JSON is the usual 400)", async () => {
    const res = await app().request("/thing/a", post("{"));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Invalid JSON in request body" });
  });
});
