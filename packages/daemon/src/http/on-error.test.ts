import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createErrorHandler } from "./on-error.js";

describe("the error handler", () => {
  it("logs an unexpected error on one line with the path still encoded, and answers a bare 500", async () => {
    const logs: string[] = [];
    const app = new Hono();
    app.onError(createErrorHandler((l) => logs.push(l)));
    app.post("/session/:id/prompt", () => {
      throw new Error("kaput");
    });
    const res = await app.request("/session/x%0D%0Aqwen%20serve:%20FORGED/prompt", { method: "POST" });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal server error" });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      /^qwen serve: unhandled error on POST \/session\/x%0D%0Aqwen%20serve:%20FORGED\/prompt: Error: kaput\\n {4}at /,
    );
    expect(logs[0]).not.toMatch(/[\r\n]/);
  });
});
