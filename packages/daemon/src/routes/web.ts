// The web client's static files at `/`, served before authentication (a browser navigation cannot send
// a bearer token; the files hold no secrets). API paths never reach the file system.
import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";

const API_ROOTS = new Set(["health", "capabilities", "daemon", "session", "permission", "workspace"]);

export function webStatic(root: string): MiddlewareHandler {
  const serve = serveStatic({ root });
  return async function webClient(c, next) {
    const first = c.req.path.split("/")[1] ?? "";
    if (API_ROOTS.has(first)) return next();
    return serve(c, next);
  };
}
