import { Hono } from "hono";

/** GET /health: liveness only, answered before authentication (it reveals nothing). */
export function healthRoutes(): Hono {
  return new Hono().get("/health", (c) => c.json({ status: "ok" }));
}
