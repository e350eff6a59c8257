// The one place a thrown value becomes an HTTP response. Known errors carry their own response;
// anything else is a daemon bug: logged with its stack, answered with a body that leaks nothing.
import type { Context } from "hono";
import { internalError } from "./errors.js";
import { isHttpError } from "./http-error.js";
import { oneLine } from "./log-line.js";

export function createErrorHandler(log: (line: string) => void) {
  return function onError(error: Error, c: Context): Response {
    // The path as it came, still percent-encoded (`c.req.path` is decoded: %0D%0A would be a line break).
    const path = new URL(c.req.url).pathname;
    if (isHttpError(error)) {
      if (error.logDetail !== undefined) {
        const { code, errorId } = error.body;
        const id = typeof errorId === "string" ? ` ${errorId}` : "";
        log(
          oneLine(
            `qwen serve: ${c.req.method} ${path} answered ${error.status} ${code ?? ""}${id}: ${error.logDetail}`,
          ),
        );
      }
      return error.getResponse();
    }
    log(oneLine(`qwen serve: unhandled error on ${c.req.method} ${path}: ${error.stack ?? error.message}`));
    return internalError().getResponse();
  };
}
