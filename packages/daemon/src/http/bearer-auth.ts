// Bearer-token check. Open when no token is configured (a loopback bind without --require-auth);
// otherwise every request must present the token. Digests are compared in constant time, so neither
// the token's content nor its length leaks through timing.
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { unauthorized } from "./errors.js";

export type BearerAuthOptions = { token: string | undefined };

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** True when `presented` equals `expected`, in time independent of where they differ. */
export function tokensMatch(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The credential of an `Authorization: Bearer <token>` header (scheme case-insensitive), else undefined. */
export function bearerCredential(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^bearer[ \t]+(.+)$/i.exec(header.trim());
  return match?.[1];
}

export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler {
  const expected = options.token;
  if (expected === undefined) {
    return async function open(_c, next) {
      await next();
    };
  }
  return async function requireToken(c, next) {
    const presented = bearerCredential(c.req.header("authorization"));
    if (presented === undefined || !tokensMatch(presented, expected)) throw unauthorized();
    await next();
  };
}
