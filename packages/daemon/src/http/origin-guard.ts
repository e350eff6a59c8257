// Browser requests carry an Origin. Refuse them (403) unless the origin was allowed with --allow-origin
// or is the daemon itself (the web client it serves at `/`, whose Host already passed the host guard).
// Allowed cross-origin requests get CORS headers, and their preflight is answered here.
import type { MiddlewareHandler } from "hono";
import { originDenied } from "./errors.js";

export type OriginGuardOptions = { allowOrigins: readonly string[] };

const ALLOW_METHODS = "GET, POST, DELETE, OPTIONS";
const ALLOW_HEADERS =
  "Authorization, Content-Type, X-Qwen-Client-Id, X-Qwen-Client-Device, Last-Event-ID, X-Qwen-Event-Epoch";
const EXPOSE_HEADERS = "Retry-After, X-Qwen-Event-Epoch";

export function originGuard(options: OriginGuardOptions): MiddlewareHandler {
  const allowAny = options.allowOrigins.includes("*");
  const allowed = new Set(options.allowOrigins.map((o) => o.toLowerCase().replace(/\/+$/, "")));
  return async function refuseForeignOrigins(c, next) {
    const origin = c.req.header("origin");
    if (origin === undefined) {
      await next();
      return;
    }
    if (isSameOrigin(origin, c.req.header("host"))) {
      await next();
      return;
    }
    const normalized = origin.toLowerCase();
    if (normalized === "null" || !(allowAny || allowed.has(normalized))) throw originDenied();
    c.header("Access-Control-Allow-Origin", origin);
    c.header("Vary", "Origin");
    c.header("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    if (c.req.method === "OPTIONS") {
      c.header("Access-Control-Allow-Methods", ALLOW_METHODS);
      c.header("Access-Control-Allow-Headers", ALLOW_HEADERS);
      c.header("Access-Control-Max-Age", "86400");
      return c.body(null, 204);
    }
    await next();
  };
}

function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || origin === "null") return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
