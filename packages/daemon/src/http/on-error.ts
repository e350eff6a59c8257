// The one place a thrown value becomes an HTTP response. The edge's HttpErrors (and Hono middleware's
// HTTPExceptions) carry their own response, the
// domain's DaemonErrors get theirs from the code table (error-statuses.ts);
// anything else is a daemon bug: logged with its stack, answered with a body that leaks nothing.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { asHttpError } from "./error-statuses.js";
import { internalError } from "./errors.js";
import { oneLine } from "./log-line.js";

export function createErrorHandler(log: (line: string) => void) {
  return function onError(error: Error, c: Context): Response {
    // The path as it came, still percent-encoded (`c.req.path` is decoded: %0D%0A would be a line break).
    const path = new URL(c.req.url).pathname;
    // Hono's own middleware (bearerAuth) throws its refusal with the response we gave it (bearer-auth.ts).
    if (error instanceof HTTPException) return error.getResponse();
    const known = asHttpError(error);
    if (known !== undefined) {
      if (known.logDetail !== undefined) {
        const { code, errorId } = known.body;
        const id = typeof errorId === "string" ? ` ${errorId}` : "";
        log(
          oneLine(
            `qwen serve: ${c.req.method} ${path} answered ${known.status} ${code ?? ""}${id}: ${known.logDetail}`,
          ),
        );
      }
      return known.getResponse();
    }
    log(oneLine(`qwen serve: unhandled error on ${c.req.method} ${path}: ${error.stack ?? error.message}`));
    return internalError().getResponse();
  };
}
