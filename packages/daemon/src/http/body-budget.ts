// Middleware: a request with a sizeable body waits for its share of the daemon-wide body budget before its
// handler reads the body, and gives it back when the handler is done (see ByteBudget). Small bodies pass
// freely: the connection cap already bounds how many there are at once. Ours because Hono's `bodyLimit` caps
// one body, not what all requests hold at once.
import type { MiddlewareHandler } from "hono";
import type { BufferBudget } from "../budget/buffer-budget.js";
import { BudgetWaitAborted, type ByteBudget } from "./byte-budget.js";
import { requestAborted } from "./errors.js";
import { MAX_BODY_BYTES } from "./json-body.js";
import { hasRequestBody } from "./request-body.js";

/** Bodies up to this size take nothing from the budget. */
export const FREE_BODY_BYTES = 64 * 1024;

/** `buffers`: the daemon's one buffer budget, where a body being handled also counts (evicting replay data). */
export function bodyBudget(budget: ByteBudget, buffers?: BufferBudget): MiddlewareHandler {
  return async function bodyBudget(c, next) {
    if (!hasRequestBody(c)) return next();
    const declared = c.req.header("content-length");
    // Without a length (chunked) the body may be anything up to the cap, so the cap is what it takes.
    const size = declared === undefined ? MAX_BODY_BYTES : Number(declared);
    // Over the cap the body is refused (413) before a byte of it is read: nothing to reserve.
    if (!Number.isFinite(size) || size <= FREE_BODY_BYTES || size > MAX_BODY_BYTES) return next();
    let release: () => void;
    try {
      release = await budget.acquire(size, c.req.raw.signal);
    } catch (error) {
      if (error instanceof BudgetWaitAborted) throw requestAborted();
      throw error;
    }
    const held = buffers?.hold(size);
    try {
      await next();
    } finally {
      held?.();
      release();
    }
  };
}
