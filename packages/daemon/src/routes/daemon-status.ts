import { type DaemonStatusResponse, HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";

/** GET /daemon/status. */
export function daemonStatusRoutes(status: () => DaemonStatusResponse): Hono {
  return new Hono().get(HttpRoutes.daemonStatus.path, (c) => c.json(status()));
}
