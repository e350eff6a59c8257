import { type HealthResponse, HttpRoutes } from "@qwen-daemon/core/protocol";
import { Hono } from "hono";
import { mount } from "./mount.js";

/** GET /health: liveness only, answered before authentication (it reveals nothing). */
export function healthRoutes(): Hono {
  const app = new Hono();
  mount(app, HttpRoutes.health, () => ({ status: "ok" }) satisfies HealthResponse);
  return app;
}
