import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { DAEMON_ERROR_CODES } from "../errors/daemon-error.js";
import {
  agentError,
  permissionNotPending,
  promptQueueFull,
  sessionNotFound,
} from "../errors/domain-errors.js";
import { ERROR_STATUSES } from "./error-statuses.js";
import { createErrorHandler } from "./on-error.js";

function appThrowing(error: unknown, log: string[] = []) {
  const app = new Hono();
  app.onError(createErrorHandler((line) => log.push(line)));
  app.get("/x", () => {
    throw error;
  });
  return app;
}

describe("the domain's error codes on the wire", () => {
  it("every code has a status", () => {
    expect(Object.keys(ERROR_STATUSES).sort()).toEqual([...DAEMON_ERROR_CODES].sort());
  });

  it("answers a domain error with its code's status and exactly the body the domain wrote", async () => {
    const res = await appThrowing(sessionNotFound("s9")).request("/x");
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(
      '{"error":"No session with id \\"s9\\"","code":"session_not_found","sessionId":"s9"}',
    );
    expect(res.headers.get("retry-after")).toBeNull();
  });

  it("a refusal worth retrying carries Retry-After", async () => {
    const res = await appThrowing(promptQueueFull("s1", 2, 2)).request("/x");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ code: "prompt_queue_full", limit: 2, pendingCount: 2 });
  });

  it("a code the wire does not show stays off the body", async () => {
    const res = await appThrowing(permissionNotPending("r1", undefined)).request("/x");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "No pending permission request", requestId: "r1" });
  });

  it("logs what the operator should know and sends only the error id", async () => {
    const log: string[] = [];
    const res = await appThrowing(agentError("ENOENT /secret/path"), log).request("/x");
    expect(res.status).toBe(502);
    const body = (await res.json()) as { errorId: string };
    expect(JSON.stringify(body)).not.toContain("/secret/path");
    expect(log).toEqual([expect.stringContaining(`502 agent_error ${body.errorId}: ENOENT /secret/path`)]);
  });
});
