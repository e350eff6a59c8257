// The one place a thrown value becomes an HTTP response. Known errors carry their own response;
// anything else is a daemon bug: logged with its stack, answered with a body that leaks nothing.
import type { Context } from "hono";
import { internalError } from "./errors.js";
import { isHttpError } from "./http-error.js";

export function createErrorHandler(log: (line: string) => void) {
  return function onError(error: Error, c: Context): Response {
    if (isHttpError(error)) return error.getResponse();
    log(`qwen serve: unhandled error on ${c.req.method} ${c.req.path}: ${error.stack ?? error.message}`);
    return internalError().getResponse();
  };
}
