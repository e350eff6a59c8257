// Browser requests carry an Origin. Refuse them (403) unless the origin was allowed with --allow-origin
// or is the daemon itself (the web client it serves at `/`, whose Host already passed the host guard).
// The refusal is ours (Hono's `cors` only leaves the CORS headers off, and the browser then hides the answer
// from the page, but the request has already done its work); the CORS headers of an allowed cross-origin
// request, and its preflight's answer, are Hono's `cors`.
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { originDenied } from "./errors.js";

export type OriginGuardOptions = { allowOrigins: readonly string[] };

const corsHeaders = cors({
  // Only allowed origins reach it, each answered with itself.
  origin: (origin) => origin,
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: [
    "Authorization",
    "Content-Type",
    "X-Qwen-Client-Id",
    "X-Qwen-Client-Device",
    "Last-Event-ID",
    "X-Qwen-Event-Epoch",
  ],
  exposeHeaders: ["Retry-After", "X-Qwen-Event-Epoch"],
  maxAge: 86400,
});

export function originGuard(options: OriginGuardOptions): MiddlewareHandler {
  const allowAny = options.allowOrigins.includes("*");
  const allowed = new Set(options.allowOrigins.map((o) => o.toLowerCase().replace(/\/+$/, "")));
  return async function refuseForeignOrigins(c, next) {
    const origin = c.req.header("origin");
    if (origin === undefined || isSameOrigin(origin, c.req.header("host"))) {
      await next();
      return;
    }
    const normalized = origin.toLowerCase();
    if (normalized === "null" || !(allowAny || allowed.has(normalized))) throw originDenied();
    return corsHeaders(c, next);
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
