// Middleware: a request whose body has not fully arrived `timeoutMs` after its headers is cut off with a 408,
// as Node does for slow headers. Node's own `requestTimeout` does not reliably catch a body that trickles in
// a byte at a time (measured on Node 20), and such a client would otherwise hold its connection (and its
// share of the body budget) for as long as it likes. Hono's `timeout` middleware does not do this job: it
// bounds the handler (a 504 once it has run too long, the socket still held), not the arrival of the body, and
// a load or an event stream may rightly run long. Needs the Node request (`c.env.incoming`); in-process
// requests (tests) have none and pass untouched.
import type { MiddlewareHandler } from "hono";
import type { Clock } from "../events/clock.js";

type NodeEnv = { incoming?: IncomingLike } | undefined;
type IncomingLike = {
  complete: boolean;
  socket: { destroyed: boolean; end(data: string): void };
};

const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

export function bodyDeadline(timeoutMs: number, clock: Clock): MiddlewareHandler {
  return async function bodyDeadline(c, next) {
    const incoming = (c.env as NodeEnv)?.incoming;
    if (timeoutMs <= 0 || incoming === undefined || incoming.complete) return next();
    const timer = clock.setTimeout(() => {
      // No response has started (its handler is still waiting for the body), so the socket is ours to answer on.
      if (!incoming.complete && !incoming.socket.destroyed) incoming.socket.end(REQUEST_TIMEOUT);
    }, timeoutMs);
    try {
      await next();
    } finally {
      clock.clearTimeout(timer);
    }
  };
}
