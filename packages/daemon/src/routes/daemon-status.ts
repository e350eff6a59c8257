import { type DaemonStatusResponse, HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { mount } from "./mount.js";

/** GET /daemon/status. */
export function daemonStatusRoutes(status: () => DaemonStatusResponse): Hono {
  const app = new Hono();
  mount(app, HttpRoutes.daemonStatus, () => status());
  return app;
}
