// DNS-rebinding defence: on a loopback bind, a request whose Host header names anything but a loopback
// host (or the bound host itself) was sent by a page that resolved its own domain to 127.0.0.1. Refuse it.
// Ours because Hono has no Host check (its `cors` looks at Origin only, and only to set headers).
import type { MiddlewareHandler } from "hono";
import { invalidHost } from "./errors.js";
import { hostnameOfHostHeader, isLoopbackHostname } from "./loopback-host.js";

export type HostGuardOptions = { bindHostname: string };

export function hostGuard(options: HostGuardOptions): MiddlewareHandler {
  const bound = options.bindHostname.toLowerCase();
  if (!isLoopbackHostname(bound)) {
    return async function anyHost(_c, next) {
      await next();
    };
  }
  return async function loopbackHostOnly(c, next) {
    // In-process requests (app.request) carry no Host header; their URL's host stands in for it.
    const host = hostnameOfHostHeader(c.req.header("host") ?? new URL(c.req.url).host);
    if (host !== bound && !isLoopbackHostname(host)) throw invalidHost();
    await next();
  };
}
