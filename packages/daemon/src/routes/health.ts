import { type HealthResponse, HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";

/** GET /health: liveness only, answered before authentication (it reveals nothing). */
export function healthRoutes(): Hono {
  return new Hono().get(HttpRoutes.health.path, (c) => c.json({ status: "ok" } satisfies HealthResponse));
}
