import { Hono } from "hono";

/** GET /daemon/status. */
export function daemonStatusRoutes(status: () => unknown): Hono {
  return new Hono().get("/daemon/status", (c) => c.json(status() as Record<string, unknown>));
}
