// Bearer-token check: Hono's own `bearerAuth` (constant-time comparison of digests), open when no token is
// configured (a loopback bind without --require-auth). Every failure, a missing header, one that is not
// `Bearer <token>` or a wrong token, answers as docs/protocol.md says: 401 `{"error":"Unauthorized"}` (Hono's
// default would answer a malformed header 400).
import type { MiddlewareHandler } from "hono";
import { bearerAuth as honoBearerAuth } from "hono/bearer-auth";
import { unauthorized } from "./errors.js";

export type BearerAuthOptions = { token: string | undefined };

export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler {
  const token = options.token;
  if (token === undefined) {
    return async function open(_c, next) {
      await next();
    };
  }
  const refusal = { message: () => unauthorized().getResponse() };
  return honoBearerAuth({
    token,
    noAuthenticationHeader: refusal,
    invalidAuthenticationHeader: refusal,
    invalidToken: refusal,
  });
}
